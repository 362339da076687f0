// Tower heights as people write them: "30", "30 m", "15.8 m", "52 ft", "52'", "98,5 ft" (a decimal
// comma from a European spreadsheet). The one reader for the site form, the import and the CLI. The
// service stores whole meters: feet and decimal meters are rounded to the nearest whole meter (halves
// up), and the reading says so; whatever is no number goes on as typed, for the site schema to word.
import type { HeightUnit } from '../domain';

export const METERS_PER_FOOT = 0.3048;

/** Feet to whole meters, the way the service will store it (half a meter rounds up). */
export function feetToMeters(feet: number): number {
  const m = Math.round(feet * METERS_PER_FOOT);
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

/** Reads a height; `unit` is the unit of a bare number ("30" in a feet column is 30 ft). */
export function readHeightText(input: string, unit: HeightUnit): HeightReading {
  const text = input.trim();
  const none = { feet: null, roundedFrom: null, message: null };
  if (text === '') return { ...none, schemaInput: '', meters: null };
  const feetMatch = FEET_SUFFIX.exec(text);
  const meterMatch = feetMatch ? null : METER_SUFFIX.exec(text);
  const inFeet = feetMatch !== null || (meterMatch === null && unit === 'ft');
  let number = (feetMatch?.[1] ?? meterMatch?.[1] ?? text).trim();
  const comma = DECIMAL_COMMA.exec(number);
  if (comma) number = `${comma[1]}.${comma[2]}`;

  if (!inFeet) {
    if (/^\d+$/.test(number)) return { ...none, schemaInput: number, meters: Number(number) };
    if (PLAIN_NUMBER.test(number) && Number(number) >= 0) {
      const value = Number(number);
      const meters = Math.round(value);
      return { ...none, schemaInput: String(meters), meters, roundedFrom: Number.isInteger(value) ? null : value };
    }
    // Negative or not a number: the schema's sentence, on the text as written (minus the unit).
    return { ...none, schemaInput: number, meters: null };
  }
  if (!PLAIN_NUMBER.test(number)) {
    return { ...none, schemaInput: text, meters: null, message: 'Height in feet must be a number, like 98.' };
  }
  const feet = Number(number);
  if (feet < 0) {
    return { ...none, schemaInput: text, meters: null, feet, message: 'Height cannot be negative: enter the tower height, like 98 ft.' };
  }
  const meters = feetToMeters(feet);
  return { ...none, schemaInput: String(meters), meters, feet };
}
