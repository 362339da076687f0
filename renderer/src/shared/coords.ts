// The site form's side of coordinates: one field's value for the shared schema, and decimal/DMS for
// showing a position back. Reading coordinates is the shared reader's (electron/shared/validation/
// coordinates.ts), the same the import and the CLI use.
import { readCoordinateCell, type Axis } from '../../../electron/shared/validation/coordinates';

export { readCoordinates, type Axis, type CoordinateReading, type ParsedCoordinate } from '../../../electron/shared/validation/coordinates';

/**
 * What the form sends for one coordinate field: a decimal string when the text could be read (DMS
 * converted), the text as typed otherwise (so the shared schema words the error), or an own message
 * for text that looks like DMS but is broken.
 */
export function coordinateFieldValue(input: string, axis: Axis): { value: string; message: string | null; converted: boolean } {
  const cell = readCoordinateCell(input, axis);
  if (!cell.ok) return { value: input, message: cell.message, converted: false };
  return { value: cell.value, message: null, converted: cell.converted };
}

/** 40.446111 → `40°26'46.0"N` (for showing a decimal back in the familiar form). */
export function formatDms(value: number, axis: Axis): string {
  if (!Number.isFinite(value)) return '';
  const hemi = axis === 'lat' ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E';
  let totalTenths = Math.round(Math.abs(value) * 36000);
  const deg = Math.floor(totalTenths / 36000);
  totalTenths -= deg * 36000;
  const min = Math.floor(totalTenths / 600);
  totalTenths -= min * 600;
  const sec = (totalTenths / 10).toFixed(1);
  return `${deg}°${String(min).padStart(2, '0')}'${sec.padStart(4, '0')}"${hemi}`;
}

/** A decimal coordinate for display: at most 6 decimals, no trailing zeros. */
export function formatDecimal(value: number): string {
  return String(Number(value.toFixed(6)));
}

/** A position both ways: `45.123456, -111.5` and `45°07'24.4"N 111°30'00.0"W` (longitude wrapped into ±180). */
export function formatPosition(lat: number, lng: number): { decimal: string; dms: string } {
  const lon = ((((lng + 180) % 360) + 360) % 360) - 180;
  return { decimal: `${formatDecimal(lat)}, ${formatDecimal(lon)}`, dms: `${formatDms(lat, 'lat')} ${formatDms(lon, 'lon')}` };
}
