// Tower heights as people write them: "30", "30 m", "15.8 m", "52 ft", "52'", "98,5 ft" (a decimal
// comma from a European spreadsheet). The one reader for the site form, the import and the CLI, with
// one rule: a number without a unit is in the unit the user chose (the form's m/ft toggle, the
// import's meters or feet column, the CLI's meters), exactly as if that unit were written after it.
// The service stores whole meters (spec 2.1, 8): feet and decimal meters ("30.6", "15.8 m") are
// rounded to the nearest whole meter (halves up) and the reading says so, for the caller to show;
// what is no number goes on as typed, for the site schema to word.
import type { HeightUnit } from '../domain';

export const METERS_PER_FOOT = 0.3048;

/**
 * Feet to whole meters, the way the service will store it: 100 ft → 30 m (30.48), 98.4 ft → 30 m
 * (29.99), halves away from zero.
 */
export function feetToMeters(feet: number): number {
  // Guard against 0.49999999 artefacts of the multiplication before rounding.
  const cleaned = Number((feet * METERS_PER_FOOT).toFixed(9));
  const m = Math.sign(cleaned) * Math.round(Math.abs(cleaned));
  return Object.is(m, -0) ? 0 : m;
}

export interface HeightReading {
  /** What the site schema gets: whole meters as digits, or the text as typed when it is no number. */
  schemaInput: string;
  /** Whole meters when the text could be read, else null. */
  meters: number | null;
  /** The feet written, when the height was in feet. */
  feet: number | null;
  /** The meters written, when they had decimals and were rounded. */
  roundedFrom: number | null;
  /** An own message for text the schema cannot judge (it never sees feet). */
  message: string | null;
}

const FEET_SUFFIX = /^(.*?)\s*(?:ft|feet|foot|')$/i;
const METER_SUFFIX = /^(.*?)\s*(?:m|meters?|metres?)$/i;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const DECIMAL_COMMA = /^([+-]?\d+),(\d+)$/;

/**
 * Reads a height; `unit` is the unit of a bare number ("30" in a feet column is 30 ft).
 * `decimalComma`: the text comes from a file whose numbers use decimal commas, so "1,200" is 1.2;
 * otherwise a comma before exactly three digits could be a thousands separator and is refused.
 */
export function readHeightText(input: string, unit: HeightUnit, options: { decimalComma?: boolean } = {}): HeightReading {
  const text = input.trim();
  if (text === '') return reading('', null);
  const feetMatch = FEET_SUFFIX.exec(text);
  const meterMatch = feetMatch ? null : METER_SUFFIX.exec(text);
  const inFeet = feetMatch !== null || (meterMatch === null && unit === 'ft');
  let number = (feetMatch?.[1] ?? meterMatch?.[1] ?? text).trim();
  const comma = DECIMAL_COMMA.exec(number);
  if (comma && comma[2]!.length === 3 && !options.decimalComma) {
    return reading(text, null, { message: `Height "${text}" could be ${comma[1]}${comma[2]} or ${comma[1]}.${comma[2]}: write it without the comma, or with a point for decimals.` });
  }
  if (comma) number = `${comma[1]}.${comma[2]}`;

  if (!inFeet) {
    if (/^\d+$/.test(number)) return reading(number, Number(number));
    if (PLAIN_NUMBER.test(number) && Number(number) >= 0) {
      const value = Number(number);
      // "30.0" is 30. "30.6" in meters reads as "30.6 m" does (a rangefinder's reading): rounded, and
      // the reading says so — never refused for its decimals, never rounded unsaid.
      if (Number.isInteger(value)) return reading(String(value), value);
      const meters = Math.round(value);
      return reading(String(meters), meters, { roundedFrom: value });
    }
    // Negative or not a number: the schema's sentence, on the text as written (minus the unit).
    return reading(number, null);
  }
  if (!PLAIN_NUMBER.test(number)) {
    return reading(text, null, { message: 'Height in feet must be a number, like 98.' });
  }
  const feet = Number(number);
  if (feet < 0) {
    return reading(text, null, { feet, message: 'Height cannot be negative: enter the tower height, like 98 ft.' });
  }
  const meters = feetToMeters(feet);
  return reading(String(meters), meters, { feet });
}

/**
 * One reading, built as a literal: spreading a shared "none" object into each answer cost ~1 µs a
 * call, a second and a half of a 1.2-million-row import.
 */
function reading(schemaInput: string, meters: number | null, more: Partial<Pick<HeightReading, 'feet' | 'roundedFrom' | 'message'>> = {}): HeightReading {
  return { feet: more.feet ?? null, roundedFrom: more.roundedFrom ?? null, message: more.message ?? null, schemaInput, meters };
}
