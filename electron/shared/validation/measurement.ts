// How a site's position was measured when it came from a receiver ("Add site here", "Stake here",
// "Move site to my position"): the source, how many fixes were averaged and skipped, their spread, the
// receiver's accuracy, the gate and whether the crew overrode it, and when. It travels inside the site
// edit (the outbox entry and the register keep it as given) and is never sent: the service has no
// such field. Checked strictly, since it also arrives from files and the CLI.
import { z } from 'zod';
import { GPS_QUALITIES } from '../contract/gps';
import { ACCURACY_RANGE } from '../gps/fix-values';
import { GATE_RANGE } from '../gps/gate';

export const MEASUREMENT_SOURCES = ['device', 'gpsd', 'nmea'] as const;
export type MeasurementSource = (typeof MEASUREMENT_SOURCES)[number];

const metres = z.number().finite().min(0).max(ACCURACY_RANGE.max);

export const measurementSchema = z.strictObject({
  source: z.enum(MEASUREMENT_SOURCES),
  quality: z.enum(GPS_QUALITIES),
  /** Fixes averaged (1 for a single fix). */
  fixes: z.number().int().min(1).max(1_000_000),
  /** Fixes skipped as worse than the gate. */
  skipped: z.number().int().min(0).max(1_000_000),
  /** Standard deviation of the averaged fixes east and north, metres; null for a single fix. */
  spreadEastM: metres.nullable(),
  spreadNorthM: metres.nullable(),
  /** The receiver's accuracy radius (95 %, mean over the fixes), null when it gave none. */
  accuracyM: metres.nullable(),
  /** True when that radius was worked out of HDOP, not reported by the receiver. */
  accuracyEstimated: z.boolean(),
  gateM: z.number().finite().min(GATE_RANGE.min).max(GATE_RANGE.max),
  /** The crew used the position although it was worse than the gate ("Use it anyway"). */
  overridden: z.boolean(),
  /** When the measurement ended (ISO 8601). */
  at: z.iso.datetime({ offset: true }),
});

export type SiteMeasurement = z.infer<typeof measurementSchema>;

/**
 * Coordinates closer than this (degrees, about 0.2 m) are the same point: the form and exported files
 * write 6 decimals while a measured position keeps 7, and re-saving a site must not read as moving it.
 */
export const SAME_POINT_DEGREES = 2e-6;

interface Position {
  latitude?: number | undefined;
  longitude?: number | undefined;
}

/**
 * Whether an edit puts the site somewhere other than `before` (a coordinate the edit leaves out stays
 * as it was). A site moved without a measurement no longer stands where one was taken: the site
 * register, a merged queued edit and the migration that filled the register all drop it on that rule.
 */
export function movesPosition(before: Position, edit: Position): boolean {
  const differs = (was: number | undefined, now: number | undefined) => now !== undefined && (was === undefined || Math.abs(now - was) >= SAME_POINT_DEGREES);
  return differs(before.latitude, edit.latitude) || differs(before.longitude, edit.longitude);
}
