// What a receiver said, whichever protocol it spoke: the decoders (nmea.ts, gpsd.ts) keep one of
// these current, and the reader turns it into the contract's GpsView. Position and sky data arrive in
// separate sentences or messages, so they are kept apart and joined when a view is made.
import type { GpsQuality } from '../../shared/contract/gps';

export interface GpsPosition {
  lat: number;
  lon: number;
  altitudeM: number | null;
  accuracyM: number | null;
  accuracyEstimated: boolean;
  quality: GpsQuality;
  /** The receiver says it has no altitude (NMEA GSA mode 2, gpsd mode 2). */
  twoD: boolean;
  fixTime: string | null;
}

export interface GpsSky {
  satellites: number | null;
  satellitesSeen: number | null;
  hdop: number | null;
}

/** What one line did: it was understood, it was dropped as damaged or hostile, or it was valid but of no interest. */
export type LineOutcome = 'read' | 'dropped' | 'ignored';

/** The receiver's latest word on position: a position, an explicit "no fix", or nothing yet. */
export type PositionReport = { kind: 'fix'; position: GpsPosition } | { kind: 'no-fix' } | null;

/**
 * A decoder of one protocol, fed one line at a time. `reports` grows each time the receiver reports a
 * position or says it has none, so the reader can time how long ago the last report came.
 */
export interface GpsDecoder {
  push(line: string): LineOutcome;
  readonly report: PositionReport;
  readonly reports: number;
  readonly sky: GpsSky;
}

// HDOP × UERE for a radius when the receiver gives none. The GPS and DGPS factors are gpsd's (its eph,
// about 95 %: 19 m and 4.75 m per unit of HDOP), so an NMEA stream and gpsd on the same receiver show
// the same circle. RTK has no gpsd figure; these are typical of RTK receivers, on the cautious side.
const UERE_M: Record<GpsQuality, number> = {
  gps: 19,
  dgps: 4.75,
  'rtk-fixed': 0.1,
  'rtk-float': 1,
  estimated: 19,
  other: 19,
  device: 19,
};

export function accuracyFromHdop(hdop: number | null, quality: GpsQuality): number | null {
  if (hdop === null || !Number.isFinite(hdop) || hdop <= 0 || hdop >= 50) return null;
  return Math.round(hdop * UERE_M[quality] * 100) / 100;
}
