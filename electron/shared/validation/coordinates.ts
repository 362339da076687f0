// Reads coordinates the way technicians paste and type them: decimal degrees (with a point, or a
// decimal comma from a European spreadsheet), or degrees-minutes-seconds from a GPS unit, a survey
// sheet or a map site ("40°26'46"N 79°58'56"W", "N 40 26.767", "40.446, -79.982"). The one reader
// for the site form, the import and the CLI. It reads syntax and hemisphere only; ranges (±90/±180)
// are the site schema's, so every path says the same sentence. Browser-safe; never throws.

export type Axis = 'lat' | 'lon';

/** One coordinate read from text. `axis` is known only when a hemisphere letter gave it. */
export interface ParsedCoordinate {
  value: number;
  axis: Axis | null;
  /** The text was more than a plain decimal (DMS, DM or a hemisphere letter). */
  converted: boolean;
}

export type CoordinateReading =
  | { kind: 'empty' }
  | { kind: 'single'; coordinate: ParsedCoordinate }
  | { kind: 'pair'; latitude: number; longitude: number; converted: boolean }
  | { kind: 'error'; message: string };

type Token =
  | { t: 'num'; value: number; text: string; signed: boolean; integer: boolean }
  | { t: 'deg' }
  | { t: 'min' }
  | { t: 'sec' }
  | { t: 'hemi'; letter: 'N' | 'S' | 'E' | 'W' }
  | { t: 'sep' };

// Look-alike characters that GPS units, word processors and web pages put in DMS text.
const NORMALIZE: [RegExp, string][] = [
  [/[º˚ᵒ]/g, '°'],
  [/[′’‘´`]/g, "'"],
  [/[″“”]/g, '"'],
  [/''/g, '"'],
  [/[−–—]/g, '-'],
  [/\u00a0/g, ' '],
];

const MARKS: Record<string, Token | null> = {
  '°': { t: 'deg' },
  "'": { t: 'min' },
  '"': { t: 'sec' },
  ',': { t: 'sep' },
  ';': { t: 'sep' },
  '/': { t: 'sep' },
  '|': { t: 'sep' },
  // "40:26:46" — a colon separates the parts of one coordinate, as a unit mark would.
  ':': null,
};

function tokenize(input: string): Token[] | string {
  let text = input;
  for (const [pattern, replacement] of NORMALIZE) text = text.replace(pattern, replacement);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const ch = rest[0]!;
    let m: RegExpExecArray | null;
    if ((m = /^\s+/.exec(rest))) {
      i += m[0].length;
    } else if ((m = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)/.exec(rest))) {
      const raw = m[0];
      tokens.push({ t: 'num', value: Number(raw), text: raw, signed: /^[+-]/.test(raw), integer: !raw.includes('.') });
      i += raw.length;
    } else if (ch in MARKS) {
      const mark = MARKS[ch];
      if (mark) tokens.push(mark);
      i += 1;
    } else if ((m = /^[a-z]+/i.exec(rest))) {
      const word = readWord(m[0], tokens);
      if (typeof word === 'string') return word;
      tokens.push(...word);
      i += m[0].length;
    } else {
      return `“${rest.slice(0, 12)}” is not part of a coordinate. Use decimal degrees like 40.446 or degrees, minutes and seconds like 40°26'46"N.`;
    }
  }
  return tokens;
}

const WORDS: Record<string, Token> = {
  deg: { t: 'deg' },
  degree: { t: 'deg' },
  degrees: { t: 'deg' },
  min: { t: 'min' },
  minute: { t: 'min' },
  minutes: { t: 'min' },
  sec: { t: 'sec' },
  second: { t: 'sec' },
  seconds: { t: 'sec' },
  north: { t: 'hemi', letter: 'N' },
  south: { t: 'hemi', letter: 'S' },
  east: { t: 'hemi', letter: 'E' },
  west: { t: 'hemi', letter: 'W' },
};

/**
 * A run of letters: a unit or hemisphere word, or single-letter marks run together ("46sN").
 * A lowercase "s" right after the minutes is a seconds mark; otherwise S is south.
 */
function readWord(run: string, before: Token[]): Token[] | string {
  const whole = WORDS[run.toLowerCase()];
  if (whole) return [whole];
  const out: Token[] = [];
  for (const ch of run) {
    const prev = out[out.length - 1] ?? before[before.length - 1];
    const beforePrev = out.length >= 2 ? out[out.length - 2] : out.length === 1 ? before[before.length - 1] : before[before.length - 2];
    const lower = ch.toLowerCase();
    if (lower === 'd') out.push({ t: 'deg' });
    else if (lower === 'm') out.push({ t: 'min' });
    else if (ch === 's' && prev?.t === 'num' && beforePrev?.t === 'min') out.push({ t: 'sec' });
    else if (lower === 'n' || lower === 's' || lower === 'e' || lower === 'w') out.push({ t: 'hemi', letter: ch.toUpperCase() as 'N' | 'S' | 'E' | 'W' });
    else return `“${run}” is not part of a coordinate. Use decimal degrees like 40.446 or degrees, minutes and seconds like 40°26'46"N.`;
  }
  return out;
}

interface Part {
  value: number;
  text: string;
  integer: boolean;
  signed: boolean;
  unit: 'deg' | 'min' | 'sec' | null;
}

interface RawCoordinate {
  parts: Part[];
  hemi: 'N' | 'S' | 'E' | 'W' | null;
}

function group(tokens: Token[]): RawCoordinate[] | string {
  const coords: RawCoordinate[] = [];
  let i = 0;
  const peek = (k = 0): Token | undefined => tokens[i + k];
  while (i < tokens.length) {
    const current: RawCoordinate = { parts: [], hemi: null };
    let prefixHemi = false;
    const first = peek();
    if (first?.t === 'hemi') {
      current.hemi = first.letter;
      prefixHemi = true;
      i++;
    }
    while (current.parts.length < 3) {
      const tok = peek();
      if (tok?.t !== 'num') break;
      const next = peek(1);
      const unit = next && (next.t === 'deg' || next.t === 'min' || next.t === 'sec') ? next.t : null;
      if (current.parts.length > 0) {
        const prev = current.parts[current.parts.length - 1]!;
        if (!prev.integer && (unit === 'min' || unit === 'sec')) {
          return current.parts.length === 1 ? 'Degrees with decimals cannot be followed by minutes.' : 'Minutes with decimals cannot be followed by seconds.';
        }
        // A new coordinate starts at a signed number, at an explicit degree mark, or after a decimal.
        if (tok.signed || unit === 'deg' || !prev.integer) break;
        const expected = current.parts.length === 1 ? 'min' : 'sec';
        if (unit !== null && unit !== expected) break;
        // Unmarked numbers after a marked degree are still minutes/seconds ("40° 26 46"), but a
        // number after a fully unmarked decimal pair is not.
      }
      current.parts.push({ value: tok.value, text: tok.text, integer: tok.integer, signed: tok.signed, unit });
      i += unit ? 2 : 1;
    }
    if (current.parts.length === 0) {
      const tok = peek();
      if (tok?.t === 'sep') return 'A coordinate is missing before a comma.';
      if (tok?.t === 'hemi') return 'Two hemisphere letters in a row; give the number between them.';
      if (tok) return 'A degree, minute or second mark has no number in front of it.';
      return prefixHemi ? `“${current.hemi}” needs a number after it.` : 'No number found.';
    }
    const after = peek();
    if (!prefixHemi && after?.t === 'hemi') {
      current.hemi = after.letter;
      i++;
    }
    coords.push(current);
    const sep = peek();
    if (sep?.t === 'sep') {
      i++;
      if (i >= tokens.length) break;
    } else if (sep && sep.t !== 'num' && sep.t !== 'hemi') {
      return 'A minute or second mark is out of place; write degrees, then minutes, then seconds.';
    }
  }
  return coords;
}

function toDecimal(raw: RawCoordinate): ParsedCoordinate | string {
  const [deg, min, sec] = raw.parts;
  if (!deg) return 'No number found.';
  if (deg.unit === 'min' || deg.unit === 'sec') return 'Start with the degrees, then minutes, then seconds.';
  const negative = deg.value < 0 || Object.is(deg.value, -0) || deg.text.startsWith('-');
  if (negative && raw.hemi) {
    return `Use either a minus sign or the letter ${raw.hemi}, not both.`;
  }
  if ((min && min.signed) || (sec && sec.signed)) return 'Only the degrees may carry a sign.';
  if (min && !deg.integer) return 'Degrees with decimals cannot be followed by minutes.';
  if (sec && !min?.integer) return 'Minutes with decimals cannot be followed by seconds.';
  if (min && min.value >= 60) return `Minutes must be below 60 (got ${min.text}).`;
  if (sec && sec.value >= 60) return `Seconds must be below 60 (got ${sec.text}).`;
  let value = Math.abs(deg.value) + (min ? min.value / 60 : 0) + (sec ? sec.value / 3600 : 0);
  if (negative || raw.hemi === 'S' || raw.hemi === 'W') value = -value;
  const axis: Axis | null = raw.hemi === 'N' || raw.hemi === 'S' ? 'lat' : raw.hemi === 'E' || raw.hemi === 'W' ? 'lon' : null;
  const converted = raw.parts.length > 1 || raw.hemi !== null || raw.parts.some((p) => p.unit !== null && p.unit !== 'deg');
  return { value: roundTo7(value), axis, converted };
}

function roundTo7(n: number): number {
  const r = Number(n.toFixed(7));
  return Object.is(r, -0) ? 0 : r;
}

/** Reads one coordinate or a latitude/longitude pair from what a person typed or pasted. */
export function readCoordinates(input: string): CoordinateReading {
  const text = input.trim();
  if (text === '') return { kind: 'empty' };
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { kind: 'error', message: tokens };
  const grouped = group(tokens);
  if (typeof grouped === 'string') return { kind: 'error', message: grouped };
  const coords: ParsedCoordinate[] = [];
  for (const raw of grouped) {
    const c = toDecimal(raw);
    if (typeof c === 'string') return { kind: 'error', message: c };
    coords.push(c);
  }
  if (coords.length === 1) return { kind: 'single', coordinate: coords[0]! };
  if (coords.length > 2) return { kind: 'error', message: 'Found more than two coordinates; give one latitude and one longitude.' };
  let [a, b] = coords as [ParsedCoordinate, ParsedCoordinate];
  if (a.axis && b.axis && a.axis === b.axis) {
    return { kind: 'error', message: a.axis === 'lat' ? 'Both coordinates are latitudes (N/S); one must be a longitude (E/W).' : 'Both coordinates are longitudes (E/W); one must be a latitude (N/S).' };
  }
  // Hemisphere letters decide the order when they are present ("79°58'W 40°26'N").
  if (a.axis === 'lon' || b.axis === 'lat') [a, b] = [b, a];
  return { kind: 'pair', latitude: a.value, longitude: b.value, converted: a.converted || b.converted };
}

export type CoordinateCell = { ok: true; value: string; converted: boolean; decimalComma: boolean } | { ok: false; message: string };

/**
 * One coordinate of a known axis, from a form field, a file's cell or a command-line option: a
 * plain decimal goes on as typed (the schema words its errors), "40,4461" is read as a decimal
 * comma (one comma, no point: never a pair in a single cell), DMS is converted to decimal degrees,
 * and a hemisphere letter for the other axis is refused.
 */
export function readCoordinateCell(input: string, axis: Axis): CoordinateCell {
  const text = input.trim();
  const comma = /^([+-]?\d+),(\d+)$/.exec(text);
  if (comma) return { ok: true, value: `${comma[1]}.${comma[2]}`, converted: true, decimalComma: true };
  // Digits, signs and points only (a decimal attempt), or no digit at all (a word where a number
  // belongs): the schema judges it, with the same wording everywhere.
  if (/^[+-]?[\d.,]*$/.test(text) || !/\d/.test(text)) return { ok: true, value: text, converted: false, decimalComma: false };
  const reading = readCoordinates(text);
  switch (reading.kind) {
    case 'empty':
      return { ok: true, value: '', converted: false, decimalComma: false };
    case 'single': {
      const c = reading.coordinate;
      if (c.axis && c.axis !== axis) {
        return { ok: false, message: axis === 'lat' ? 'This is a longitude (E/W); the latitude needs N or S.' : 'This is a latitude (N/S); the longitude needs E or W.' };
      }
      return c.converted ? { ok: true, value: String(c.value), converted: true, decimalComma: false } : { ok: true, value: text, converted: false, decimalComma: false };
    }
    case 'pair':
      return { ok: false, message: 'This holds both coordinates; give the latitude and the longitude apart.' };
    case 'error':
      return { ok: false, message: reading.message };
  }
}
