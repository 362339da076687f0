// One number format for counts, and nouns that agree with them (issue 23: "1 sites", "4,995" beside
// "4995").
import { describe, expect, it } from 'vitest';
import { countOf, formatCount } from '../../renderer/src/shared/format';

describe('counts on screen', () => {
  it('writes every count with thousands separators', () => {
    expect(formatCount(4995)).toBe('4,995');
    expect(formatCount(50025)).toBe('50,025');
    expect(formatCount(7)).toBe('7');
  });

  it('says "1 site" and "4,995 sites"', () => {
    expect(countOf(1, 'site', 'sites')).toBe('1 site');
    expect(countOf(0, 'site', 'sites')).toBe('0 sites');
    expect(countOf(4995, 'site', 'sites')).toBe('4,995 sites');
  });
});
