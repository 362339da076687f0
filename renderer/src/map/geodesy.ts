// Distances and bearings on the Earth as a sphere (mean radius, as the haversine formula assumes):
// within 0.5 % of the ellipsoid, plenty for "how far is the customer from the tower". Pure: no
// Leaflet, no DOM. Positions are decimal degrees; bearings are degrees clockwise from true north.
import type { HeightUnit } from '../../../electron/shared/domain';

/** The IUGG mean Earth radius, in metres. */
export const EARTH_RADIUS_M = 6_371_008.8;

export interface LatLng {
  lat: number;
  lng: number;
}

const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine). */
export function haversineDistance(a: LatLng, b: LatLng, radius = EARTH_RADIUS_M): number {
  const φ1 = a.lat * RAD;
  const φ2 = b.lat * RAD;
  const dφ = (b.lat - a.lat) * RAD;
  const dλ = (b.lng - a.lng) * RAD;
  const h = Math.sin(dφ / 2) ** 2 + Math.cos(φ1) * Math.cos(φ2) * Math.sin(dλ / 2) ** 2;
  return 2 * radius * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing (forward azimuth) from a to b, in [0, 360). 0 when the points coincide. */
export function initialBearing(a: LatLng, b: LatLng): number {
  const φ1 = a.lat * RAD;
  const φ2 = b.lat * RAD;
  const dλ = (b.lng - a.lng) * RAD;
  const y = Math.sin(dλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(dλ);
  if (Math.abs(x) < 1e-15 && Math.abs(y) < 1e-15) return 0;
  const θ = Math.atan2(y, x) / RAD;
  return (θ + 360) % 360;
}

const COMPASS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'] as const;

/** The 16-point compass name of a bearing: 47° → "NE". */
export function compassPoint(bearing: number): (typeof COMPASS)[number] {
  const i = Math.round((((bearing % 360) + 360) % 360) / 22.5) % 16;
  return COMPASS[i]!;
}

/** "47.3° (NE)". */
export function formatBearing(bearing: number): string {
  const shown = Number(bearing.toFixed(1)) === 360 ? 0 : bearing;
  return `${shown.toFixed(1)}° (${compassPoint(shown)})`;
}

export const METERS_PER_MILE = 1609.344;
const FEET_PER_METER = 1 / 0.3048;

function trimmed(n: number, digits: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/**
 * A distance in the user's units: metric (m below 1 km, then km) for the metre setting, imperial
 * (ft below a tenth of a mile, then mi) for feet.
 */
export function formatDistance(meters: number, unit: HeightUnit): string {
  if (!Number.isFinite(meters)) return '—';
  if (unit === 'ft') {
    const miles = meters / METERS_PER_MILE;
    if (miles < 0.1) return `${trimmed(Math.round(meters * FEET_PER_METER), 0)} ft`;
    return `${trimmed(miles, miles < 10 ? 2 : 1)} mi`;
  }
  if (meters < 1000) return `${trimmed(Math.round(meters), 0)} m`;
  const km = meters / 1000;
  return `${trimmed(km, km < 10 ? 2 : 1)} km`;
}
