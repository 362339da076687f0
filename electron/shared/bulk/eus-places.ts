// Where each EUS submission is, when the CSV says: the latitude and longitude columns are found by
// the site import's own column recognition (resolveMapping: "Latitude", "lat", "y"…) and each cell
// is read by the one coordinate reader (decimal, decimal comma, DMS). A file without both columns
// has no places and the EUS table works as before. Pure and browser-safe.
import { readCoordinateCell, type Axis } from '../validation/coordinates';
import { resolveMapping } from './mapping';

export interface EusPlace {
  latitude: number;
  longitude: number;
}

export interface EusPlaces {
  latitudeColumn: string;
  longitudeColumn: string;
  /** By row number: where the submission is, or why its cells cannot be read as a position. */
  byRow: Map<number, EusPlace | { problem: string }>;
}

/** A row's value in `column`: '' when the row has none (never a property every object has, such as "constructor"). */
export function eusValue(row: { values: Record<string, string> }, column: string): string {
  return Object.hasOwn(row.values, column) ? row.values[column]! : '';
}

/** The columns that give positions and each row's place, or null when the file has none. */
export function findEusPlaces(table: { columns: readonly string[]; rows: ReadonlyArray<{ row: number; values: Record<string, string> }> }): EusPlaces | null {
  const mapping = resolveMapping(table.columns);
  const latitudeColumn = mapping.columns.find((column) => column.target === 'latitude')?.header;
  const longitudeColumn = mapping.columns.find((column) => column.target === 'longitude')?.header;
  if (latitudeColumn === undefined || longitudeColumn === undefined) return null;
  const byRow = new Map<number, EusPlace | { problem: string }>();
  for (const row of table.rows) {
    const latitude = readAxis(eusValue(row, latitudeColumn), 'lat');
    const longitude = readAxis(eusValue(row, longitudeColumn), 'lon');
    if (typeof latitude === 'string' || typeof longitude === 'string') {
      const problems = [latitude, longitude].filter((value): value is string => typeof value === 'string');
      byRow.set(row.row, { problem: problems.join(' ') });
    } else if (latitude !== null && longitude !== null) byRow.set(row.row, { latitude, longitude });
  }
  return { latitudeColumn, longitudeColumn, byRow };
}

/** A number in range, null for a blank cell, or a sentence. */
function readAxis(text: string, axis: Axis): number | null | string {
  const label = axis === 'lat' ? 'Latitude' : 'Longitude';
  const limit = axis === 'lat' ? 90 : 180;
  if (text.trim() === '') return null;
  const cell = readCoordinateCell(text, axis);
  if (!cell.ok) return `${label}: ${cell.message}`;
  const value = Number(cell.value);
  if (cell.value === '' || !Number.isFinite(value)) return `${label} "${text.trim()}" is not a coordinate.`;
  if (value < -limit || value > limit) return `${label} must be between -${limit} and ${limit} degrees; ${cell.value} is outside.`;
  return value;
}
