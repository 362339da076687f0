// The rules every input shares that need no schema: field limits, text that XML 1.0 can carry,
// the fields' names as the UI says them, coordinates as they are rounded and written, booleans as
// people type them. Apart from common.ts (the zod building blocks) so that the page's first screen,
// which rounds and shows coordinates, can use them without loading zod (renderer/vite.config.ts).

/** Longest accepted text per field, in characters (code points). Generous: the service publishes none. */
export const TEXT_LIMITS = {
  name: 200,
  description: 2000,
  group: 100,
  siteId: 64,
  processId: 200,
  multiMapId: 20,
} as const;

/** Tallest tower we accept, in meters; anything above is almost certainly feet or a typo. */
export const MAX_HEIGHT_M = 1000;

/** Decimals kept in a coordinate (about 1 cm); more are rounded, never rejected. */
export const COORDINATE_DECIMALS = 7;

// XML 1.0 `Char`: no C0 control except tab, LF, CR; no U+FFFE/U+FFFF; no unpaired surrogate.
// Deliberately without the `u` flag, so the regex sees UTF-16 code units and can spot lone surrogates.
const XML_FORBIDDEN_UNITS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character XML 1.0 cannot carry, described for a message, or null when there is none. */
export function findXmlForbidden(text: string): { index: number; description: string } | null {
  const match = XML_FORBIDDEN_UNITS.exec(text);
  if (!match) return null;
  const unit = match[0].charCodeAt(0);
  const hex = unit.toString(16).toUpperCase().padStart(4, '0');
  const description =
    unit >= 0xd800 && unit <= 0xdfff
      ? `a broken character (unpaired surrogate U+${hex})`
      : unit === 0xfffe || unit === 0xffff
        ? `the non-character U+${hex}`
        : `an invisible control character (U+${hex})`;
  return { index: match.index, description };
}

/** Whether a text can be sent at all (XML 1.0 characters only). */
export function isXmlSafe(text: string): boolean {
  return !XML_FORBIDDEN_UNITS.test(text);
}

/** Length in characters as a person counts them (code points, so an emoji counts once). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const LABELS: Record<string, string> = {
  siteId: 'Site ID',
  name: 'Site name',
  height: 'Height',
  latitude: 'Latitude',
  longitude: 'Longitude',
  description: 'Description',
  group: 'Group',
  pinStyle: 'Pin style',
  processId: 'Process ID',
  multiMapId: 'Multi Map ID',
  sendEmail: 'Send email',
};

/** The field's name as the UI shows it. */
export function labelFor(field: string): string {
  return LABELS[field] ?? field;
}

const COORDINATE_SCALE = 10 ** COORDINATE_DECIMALS;

/** Rounds to COORDINATE_DECIMALS, the precision that is sent. */
export function roundCoordinate(n: number): number {
  // Most coordinates have 7 decimals or fewer already: when n is the double nearest to k / 10^7
  // for a whole k, toFixed would write exactly k's digits and Number() would read back n (the double
  // is within 1e-13 of k / 10^7, far from a rounding tie). Checking that costs a multiplication and
  // a division; toFixed and Number() cost ~0.3 µs a coordinate, 0.7 s of a 1.2-million-row import.
  const scaled = Math.round(n * COORDINATE_SCALE) / COORDINATE_SCALE;
  const rounded = scaled === n ? n : Number(n.toFixed(COORDINATE_DECIMALS));
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * A coordinate as the wire carries it: plain decimal, never an exponent, at most 7 decimals, no
 * trailing zeros ("45.5", "-93", "0.0000001").
 */
export function formatCoordinate(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite coordinate: ${n}`);
  // toFixed never switches to exponent notation below 1e21, and coordinates are at most 180.
  let text = n.toFixed(COORDINATE_DECIMALS);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (text === '-0') text = '0';
  return text;
}

/** A boolean given as a checkbox value, "1"/"0", "true"/"false" or "yes"/"no"; undefined when blank. */
export function readBoolean(value: unknown): boolean | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : 'invalid';
  if (typeof value !== 'string') return 'invalid';
  const text = value.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === '1' || text === 'true' || text === 'yes' || text === 'y') return true;
  if (text === '0' || text === 'false' || text === 'no' || text === 'n') return false;
  return 'invalid';
}
