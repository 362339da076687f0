// The needs-review sentence says what happened: an error page (a proxy's 503) is an answer that does
// not tell, never "no answer came back"; a timeout is no answer; each request kind says what was done.
import { describe, expect, it } from 'vitest';
import { reviewText } from '../../renderer/src/features/outbox/review';

const problem = (kind: string) => ({ kind, message: '', detail: '' });

describe('why an entry waits for review', () => {
  it('says an error page came back for an HTTP error, never that no answer came back', () => {
    const text = reviewText(problem('http'), 'reprocess');
    expect(text).toMatch(/error page came back/);
    expect(text).not.toMatch(/no answer/i);
    expect(text).toMatch(/the email is not sent twice/);
  });

  it('says no answer came back only for a timeout', () => {
    expect(reviewText(problem('timeout'), 'create')).toMatch(/no answer came back in time.*duplicate site/);
    for (const kind of ['http', 'protocol', 'network', 'interrupted', 'lost']) expect(reviewText(problem(kind), 'edit')).not.toMatch(/no answer/i);
  });

  it('names a broken connection and a stop of Sitewalk as such', () => {
    expect(reviewText(problem('network'), 'edit')).toMatch(/connection broke/);
    expect(reviewText(problem('interrupted'), 'edit')).toMatch(/Sitewalk stopped/);
    expect(reviewText(null, 'edit')).toMatch(/nothing says whether it was applied/);
  });
});
