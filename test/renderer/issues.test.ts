// Refusals shown by the UI: nothing the host or the schema says may be lost on the way to the
// screen — a form without a field for it shows it on its general line.
import { describe, expect, it } from 'vitest';
import { issueText, issuesByField } from '../../renderer/src/shared/issues';

const issues = [
  { field: 'height', message: 'Height is required.' },
  { field: 'height', message: 'Height must be whole.' },
  { field: 'quota', message: 'No calls left.' },
];

describe('refusals on screen', () => {
  it('keeps the first message of each field', () => {
    expect(issuesByField(issues)).toEqual({ height: 'Height is required.', quota: 'No calls left.' });
  });

  it('puts what a form has no field for on its general line', () => {
    expect(issuesByField(issues, ['height', 'name'])).toEqual({ height: 'Height is required.', '': 'No calls left.' });
  });

  it('says every message, in order, as one sentence', () => {
    expect(issueText(issues)).toBe('Height is required. Height must be whole. No calls left.');
  });
});
