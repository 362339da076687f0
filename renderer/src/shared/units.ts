// Tower heights in the form: the service takes whole meters, but many crews measure in feet. Reading
// what was typed ("98 ft", "15.8 m", a bare number in the chosen unit) is the shared reader's, the
// same the import and the CLI use; here are the form's views of a height and the unit toggle.
import type { HeightUnit } from '../../../electron/shared/domain';

import { METERS_PER_FOOT, readHeightText, type HeightReading } from '../../../electron/shared/validation/height';

export { feetToMeters, METERS_PER_FOOT, type HeightReading } from '../../../electron/shared/validation/height';

/** Meters to whole feet, for showing a height both ways. */
export function metersToFeet(meters: number): number {
  const ft = Math.round(meters / METERS_PER_FOOT);
  return Object.is(ft, -0) ? 0 : ft;
}

/** Reads a height typed in the form with the shared reader (the import's and the CLI's); `unit` is the unit a bare number is in. */
export function readHeight(input: string, unit: HeightUnit): HeightReading {
  return readHeightText(input, unit);
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
  if (from === to || text.trim() === '') return text;
  const reading = readHeightText(text, from);
  if (reading.meters === null) return text;
  if (to === 'm') return String(reading.meters);
  const feet = reading.feet ?? (reading.roundedFrom ?? reading.meters) / METERS_PER_FOOT;
  const rounded = Math.round(feet * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Under a height field: the meters the service will store ("= 30 m (98 ft) — converted to whole meters": nothing rounded silently), or how to type a height. */
export function heightHint(height: HeightReading, invalid: boolean): string {
  if (height.meters === null || invalid) return 'Whole meters, or feet like “98 ft”.';
  return `= ${formatHeight(height.meters, 'm')}${height.feet !== null ? ' — converted to whole meters' : height.roundedFrom !== null ? ` — ${height.roundedFrom} m rounded to whole meters` : ''}`;
}
