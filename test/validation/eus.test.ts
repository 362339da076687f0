// The EUS reprocess rules: process ID, Multi Map ID, and an explicit choice about the email.
import { describe, expect, it } from 'vitest';
import { parseEusReprocess } from '../../electron/shared/validation';

describe('EUS reprocess', () => {
  it('normalises a valid request', () => {
    expect(parseEusReprocess({ processId: ' P-7781 ', multiMapId: ' 4410 ', sendEmail: true })).toEqual({
      ok: true,
      value: { processId: 'P-7781', multiMapId: '4410', sendEmail: true },
    });
    expect(parseEusReprocess({ processId: 'x', multiMapId: 12, sendEmail: false })).toMatchObject({ ok: true, value: { multiMapId: '12' } });
  });

  it.each([[true, true], ['1', true], ['yes', true], ['TRUE', true], [false, false], ['0', false], ['no', false], [' False ', false]])(
    'reads send email %j as %s',
    (sendEmail, value) => {
      expect(parseEusReprocess({ processId: 'p', multiMapId: '1', sendEmail })).toMatchObject({ ok: true, value: { sendEmail: value } });
    },
  );

  it('asks for an explicit choice about the email and refuses anything else', () => {
    expect(parseEusReprocess({ processId: 'p', multiMapId: '1' })).toEqual({
      ok: false,
      issues: [{ field: 'sendEmail', message: 'Choose whether to send the email again (yes or no).' }],
    });
    expect(parseEusReprocess({ processId: 'p', multiMapId: '1', sendEmail: 'maybe' })).toEqual({
      ok: false,
      issues: [{ field: 'sendEmail', message: 'Send email must be yes or no (1 or 0, true or false).' }],
    });
  });

  it.each(['12a', '-3', '1.5', '1e3', ' ', 'ab'])('refuses Multi Map ID %j', (multiMapId) => {
    const result = parseEusReprocess({ processId: 'p', multiMapId, sendEmail: false });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]?.field).toBe('multiMapId');
  });

  it.each([-1, 1.5, Number.NaN])('refuses the number %d as a Multi Map ID', (multiMapId) => {
    expect(parseEusReprocess({ processId: 'p', multiMapId, sendEmail: false })).toEqual({
      ok: false,
      issues: [{ field: 'multiMapId', message: 'Multi Map ID must be digits only, like 12345.' }],
    });
  });

  it('requires a process ID without control characters', () => {
    expect(parseEusReprocess({ processId: '  ', multiMapId: '1', sendEmail: false })).toEqual({
      ok: false,
      issues: [{ field: 'processId', message: 'Process ID is required: open the submission or its CSV download to find it.' }],
    });
    const control = parseEusReprocess({ processId: 'P\u0008', multiMapId: '1', sendEmail: false });
    expect(!control.ok && control.issues[0]?.message).toMatch(/Process ID contains an invisible control character/);
  });

  it('lists every problem at once', () => {
    const result = parseEusReprocess({});
    expect(!result.ok && result.issues.map((issue) => issue.field)).toEqual(['processId', 'multiMapId', 'sendEmail']);
  });
});
