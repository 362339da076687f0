import { describe, expect, it } from 'vitest';
import type { BulkProgress } from '../../electron/core/bulk/apply';
import { formatDuration, progressLine, terminalProgress } from '../../electron/cli/bulk/progress';

const progress = (over: Partial<BulkProgress>): BulkProgress => ({
  total: 10_000, done: 0, failed: 0, needsReview: 0, paused: 0, pending: 10_000, sending: 0, cancelled: 0, elapsedMs: 0, etaMs: null, cancelling: false, ...over,
});

describe('progress on a terminal', () => {
  it('says how far along, what went wrong, and the time left', () => {
    expect(progressLine(progress({ done: 1234, failed: 3, needsReview: 1, etaMs: 125_000 }))).toBe('Sent 1,234 of 10,000 · 3 failed · 1 to review · about 2 min 5 s left');
    expect(progressLine(progress({}))).toBe('Sent 0 of 10,000');
    expect(progressLine(progress({ done: 10, cancelling: true, cancelled: 9000 }), 'Reprocessed')).toBe('Reprocessed 10 of 10,000 · 9,000 cancelled · cancelling: waiting for requests in flight');
  });

  it('formats durations for people', () => {
    expect(formatDuration(400)).toBe('under 1 s');
    expect(formatDuration(40_000)).toBe('40 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
  });

  it('draws nothing when stderr is not a terminal, and rewrites one line when it is', () => {
    let off = '';
    const quiet = terminalProgress((text) => void (off += text), false);
    quiet.update(progress({ done: 1 }));
    quiet.done();
    expect(off).toBe('');
    let on = '';
    const tty = terminalProgress((text) => void (on += text), true);
    tty.update(progress({ done: 1, etaMs: 60_000 }));
    tty.update(progress({ done: 2 }));
    tty.done();
    // The shorter second line blanks out what is left of the first.
    const first = 'Sent 1 of 10,000 · about 1 min left';
    const second = 'Sent 2 of 10,000';
    expect(on).toBe(`\r${first}\r${second}${' '.repeat(first.length - second.length)}\n`);
  });
});
