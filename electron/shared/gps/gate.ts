// The accuracy gate: a fix whose horizontal accuracy is worse than the profile's gate (5 m unless set)
// cannot place a site without an explicit "Use it anyway". The accuracy is the receiver's own estimate
// (NMEA GST, gpsd's eph/epx/epy, the OS's accuracy); where the receiver gives none it is worked out of
// HDOP, and the verdict says so, so the screen can state the assumption. No accuracy at all: the fix
// cannot be judged, and it does not pass.
import type { GpsFixView } from '../contract/gps';
import { hdopAssumption } from './fix-values';

export const DEFAULT_GATE_M = 5;
/** What the setting accepts: a centimetre (RTK) to a kilometre (a rough OS position, on purpose). */
export const GATE_RANGE = { min: 0.01, max: 1_000 } as const;

export type AccuracyBasis = 'receiver' | 'hdop' | 'none';

export interface GateVerdict {
  pass: boolean;
  gateM: number;
  /** The radius judged (95 %), null when the fix has none. */
  accuracyM: number | null;
  basis: AccuracyBasis;
  /** For 'hdop': the assumption behind the radius, to be said on screen. */
  assumption: string | null;
}

export function judgeGate(fix: Pick<GpsFixView, 'accuracyM' | 'accuracyEstimated' | 'quality'>, gateM: number): GateVerdict {
  if (fix.accuracyM === null || !Number.isFinite(fix.accuracyM)) return { pass: false, gateM, accuracyM: null, basis: 'none', assumption: null };
  const basis: AccuracyBasis = fix.accuracyEstimated ? 'hdop' : 'receiver';
  return { pass: fix.accuracyM <= gateM, gateM, accuracyM: fix.accuracyM, basis, assumption: basis === 'hdop' ? hdopAssumption(fix.quality) : null };
}

/** The gate for a profile: its own setting, or the default. */
export function gateFor(gates: Readonly<Record<string, number>>, profileId: string | null | undefined): number {
  const set = profileId ? gates[profileId] : undefined;
  return typeof set === 'number' && Number.isFinite(set) && set >= GATE_RANGE.min && set <= GATE_RANGE.max ? set : DEFAULT_GATE_M;
}
