// The streamed line-length bound says what the whole-text one says, however the text is cut into
// pieces (a \r\n split across two pieces is one break), and stops at the line that passes the limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineLengthGuard, overlongLine } from '../../electron/shared/bulk/limits';

const character = fc.constantFrom('a', 'b', ',', '"', 'é', '\n', '\r');

/** Feeds `text` to a guard in the pieces that `cuts` (sorted offsets) make. */
function streamed(text: string, cuts: number[], limit: number): number | null {
  const guard = new LineLengthGuard(limit);
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    const found = guard.push(text.slice(start, cut));
    if (found !== null) return found;
    start = cut;
  }
  return null;
}

describe('the streamed line-length bound', () => {
  it('finds the same first overlong line as the whole-text check, for any pieces', () => {
    fc.assert(
      fc.property(fc.array(character, { maxLength: 80 }), fc.array(fc.nat(80)), fc.integer({ min: 1, max: 12 }), (chars, rawCuts, limit) => {
        const text = chars.join('');
        const cuts = [...new Set(rawCuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        expect(streamed(text, cuts, limit)).toBe(overlongLine(text, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers as soon as the line passes the limit, before its end arrives', () => {
    const guard = new LineLengthGuard(10);
    expect(guard.push('name,height\r')).toBe(1);
    const second = new LineLengthGuard(10);
    expect(second.push('ok\r')).toBeNull();
    expect(second.push('\n12345')).toBeNull();
    expect(second.push('678901')).toBe(2);
  });
});
