// Text folded the way a spreadsheet user expects a search to match: case and accents ignored
// ("eglise" finds "Église", "munchen" finds "München"), letters that decompose into no base letter
// mapped by hand (ß, æ, œ, ø, ł, đ, þ). Folded site fields are kept per site object (a WeakMap), so
// typing in the search over 50,000 sites does not fold them all again per keystroke.
const DIACRITICS = /\p{M}+/gu;
const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th', ı: 'i' };
const SPECIAL = /[ßæœøłđþı]/g;

export function fold(text: string): string {
  return text.normalize('NFD').replace(DIACRITICS, '').toLowerCase().replace(SPECIAL, (ch) => LETTERS[ch] ?? ch);
}

const folded = new WeakMap<object, string>();

/** The folded search text of an object (its fields joined by a separator no query can span), kept until the object is replaced. */
export function foldedOnce(key: object, fields: () => readonly string[]): string {
  let text = folded.get(key);
  if (text === undefined) {
    text = fields().map(fold).join('\u0000');
    folded.set(key, text);
  }
  return text;
}
