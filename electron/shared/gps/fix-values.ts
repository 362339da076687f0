// The ranges a receiver's figures must lie in, whichever source they come from (NMEA, gpsd, the OS).
// A hostile or broken source can send any number: "±1e+300 m", "-5 satellites", "HDOP -3", an
// altitude of 1e+308. gpsd's own client library does not range-check, so every reader checks here;
// a value out of range is dropped (read as "not given") and the caller counts it.
import type { GpsQuality } from '../contract/gps';

/** Accuracy radius in metres: above zero, and no more than a continent (an IP-based OS guess is km). */
export const ACCURACY_RANGE = { min: 0, max: 100_000 } as const;
/** Satellites used or in view: every constellation together is well under 255. */
export const SATELLITE_RANGE = { min: 0, max: 255 } as const;
/** HDOP: 99.99 is what receivers and gpsd send when they do not know it. */
export const HDOP_RANGE = { min: 0, max: 100 } as const;
/** HDOP at or above this means "no geometry": no accuracy can be worked out of it. */
export const HDOP_UNKNOWN = 50;
/** Altitude in metres: from the Dead Sea shore to well above any aircraft a crew carries. */
export const ALTITUDE_RANGE = { min: -1_000, max: 100_000 } as const;

/** A finite number inside [min, max], or null: `bad` is called when a value was given but is unusable. */
export function inRange(value: unknown, range: { min: number; max: number }, bad: () => void, options: { integer?: boolean; aboveMin?: boolean } = {}): number | null {
  if (value === undefined || value === null) return null;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (options.aboveMin ? value > range.min : value >= range.min) &&
    value <= range.max &&
    (!options.integer || Number.isInteger(value));
  if (!ok) {
    bad();
    return null;
  }
  return value;
}

// HDOP × UERE for a radius when the receiver gives none. The GPS and DGPS factors are gpsd's (its eph,
// about 95 %: 19 m and 4.75 m per unit of HDOP), so an NMEA stream and gpsd on the same receiver show
// the same circle. RTK has no gpsd figure; these are typical of RTK receivers, on the cautious side.
export const UERE_M: Readonly<Record<GpsQuality, number>> = {
  gps: 19,
  dgps: 4.75,
  'rtk-fixed': 0.1,
  'rtk-float': 1,
  estimated: 19,
  other: 19,
  device: 19,
};

export function accuracyFromHdop(hdop: number | null, quality: GpsQuality): number | null {
  if (hdop === null || !Number.isFinite(hdop) || hdop <= 0 || hdop >= HDOP_UNKNOWN) return null;
  return Math.round(hdop * UERE_M[quality] * 100) / 100;
}

/** The assumption behind an HDOP-based radius, said on screen beside it. */
export function hdopAssumption(quality: GpsQuality): string {
  return `estimated from HDOP × ${UERE_M[quality]} m, the error gpsd assumes for a ${quality === 'dgps' ? 'DGPS' : quality.startsWith('rtk') ? 'RTK' : 'plain GPS'} receiver (95 %)`;
}
