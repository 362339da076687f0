import { describe, expect, it } from 'vitest';
import { mayHaveBeenApplied, type CallError } from '../../electron/core/service/types';

const faces = { message: 'm', detail: 'd', retryable: true, quotaExhausted: false, authRejected: false };

describe('mayHaveBeenApplied', () => {
  it('treats a refused connection as never applied and a reset after sending as possibly applied', () => {
    const refused: CallError = { ...faces, kind: 'network', sent: 'no', code: 'ECONNREFUSED' };
    const reset: CallError = { ...faces, kind: 'network', sent: 'maybe', code: 'ECONNRESET' };
    expect(mayHaveBeenApplied(refused)).toBe(false);
    expect(mayHaveBeenApplied(reset)).toBe(true);
  });

  it('treats timeouts and gateway errors as ambiguous but faults and bad input as not applied', () => {
    expect(mayHaveBeenApplied({ ...faces, kind: 'timeout', timeoutMs: 10 })).toBe(true);
    expect(mayHaveBeenApplied({ ...faces, kind: 'http', status: 504, contentType: 'text/html', body: '' })).toBe(true);
    expect(mayHaveBeenApplied({ ...faces, kind: 'http', status: 404, contentType: 'text/html', body: '' })).toBe(false);
    expect(mayHaveBeenApplied({ ...faces, kind: 'fault', code: 'soap:Client', reason: 'x', source: 'soap11' })).toBe(false);
    expect(mayHaveBeenApplied({ ...faces, kind: 'invalid-input', issues: [] })).toBe(false);
  });
});
