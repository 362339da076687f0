// Tower heights: the service takes whole meters, but many crews measure in feet. The form accepts
// either ("98 ft", "30 m", or a bare number in the chosen unit) and converts feet to whole meters
// before the shared schema sees it, so the schema stays the one judge of what is valid.
import type { HeightUnit } from '../../../electron/shared/domain';

export const METERS_PER_FOOT = 0.3048;

/** Feet to whole meters, the way the service will store it (half a meter rounds up). */
export function feetToMeters(feet: number): number {
  const m = Math.round(feet * METERS_PER_FOOT);
  return Object.is(m, -0) ? 0 : m;
}

/** Meters to whole feet, for showing a height both ways. */
export function metersToFeet(meters: number): number {
  const ft = Math.round(meters / METERS_PER_FOOT);
  return Object.is(ft, -0) ? 0 : ft;
}

export interface HeightReading {
  /** What the shared schema gets: whole meters as digits, or the text as typed when it is not a feet value. */
  schemaInput: string;
  /** Whole meters when the text could be read, else null. */
  meters: number | null;
  /** The feet the user typed, when they typed feet. */
  feet: number | null;
  /** An own message for feet input the schema cannot judge (it never sees the feet). */
  message: string | null;
}

const FEET_SUFFIX = /^(.*?)\s*(?:ft|feet|foot|')$/i;
const METER_SUFFIX = /^(.*?)\s*(?:m|meters?|metres?)$/i;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Reads a height typed in the form; `unit` is the unit a bare number is in. */
export function readHeight(input: string, unit: HeightUnit): HeightReading {
  const text = input.trim();
  if (text === '') return { schemaInput: '', meters: null, feet: null, message: null };
  const feetMatch = FEET_SUFFIX.exec(text);
  const meterMatch = feetMatch ? null : METER_SUFFIX.exec(text);
  const inFeet = feetMatch !== null || (meterMatch === null && unit === 'ft');
  const number = (feetMatch?.[1] ?? meterMatch?.[1] ?? text).trim();

  if (!inFeet) {
    // Meters go to the schema exactly as typed (minus the unit), so "30.5" gets its sentence.
    const meters = /^\d+$/.test(number) ? Number(number) : null;
    return { schemaInput: number, meters, feet: null, message: null };
  }
  if (/^[+-]?\d+,\d+$/.test(number)) {
    return { schemaInput: text, meters: null, feet: null, message: 'Height in feet must use a point for decimals, like 98.5 (not a comma).' };
  }
  if (!PLAIN_NUMBER.test(number)) {
    return { schemaInput: text, meters: null, feet: null, message: 'Height in feet must be a number, like 98.' };
  }
  const feet = Number(number);
  if (feet < 0) {
    return { schemaInput: text, meters: null, feet, message: 'Height cannot be negative: enter the tower height, like 98 ft.' };
  }
  const meters = feetToMeters(feet);
  return { schemaInput: String(meters), meters, feet, message: null };
}

/** "30 m (98 ft)" — a height shown both ways, the chosen unit first. */
export function formatHeight(meters: number | null, unit: HeightUnit): string {
  if (meters === null || !Number.isFinite(meters)) return '—';
  const ft = metersToFeet(meters);
  return unit === 'ft' ? `${ft} ft (${meters} m)` : `${meters} m (${ft} ft)`;
}

/** The height field's starting text for a stored height, in the chosen unit. */
export function heightFieldText(meters: number | null, unit: HeightUnit): string {
  if (meters === null) return '';
  return unit === 'ft' ? String(metersToFeet(meters)) : String(meters);
}

/**
 * The height field's text after the unit toggle moves from `from` to `to`: the same height, written
 * in the new unit ("30" m → "98.4" ft, "100" ft → "30" m), never the same digits re-read in the
 * other unit. Feet keep one decimal so that going back gives the same whole meters; meters are
 * whole, as the service stores them. Text that is no number stays as typed (its message says why).
 */
export function convertHeightText(text: string, from: HeightUnit, to: HeightUnit): string {
  const trimmed = text.trim();
  if (from === to || trimmed === '') return text;
  const feetMatch = FEET_SUFFIX.exec(trimmed);
  const meterMatch = feetMatch ? null : METER_SUFFIX.exec(trimmed);
  const number = (feetMatch?.[1] ?? meterMatch?.[1] ?? trimmed).trim();
  if (!PLAIN_NUMBER.test(number)) return text;
  const value = Number(number);
  const inFeet = feetMatch !== null || (meterMatch === null && from === 'ft');
  if (to === 'm') return String(inFeet ? feetToMeters(value) : value);
  const feet = inFeet ? value : value / METERS_PER_FOOT;
  const rounded = Math.round(feet * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}
