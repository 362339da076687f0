// What a receiver said, whichever protocol it spoke: the decoders (nmea.ts, gpsd.ts) keep one of
// these current, and the reader turns it into the contract's GpsView. Position and sky data arrive in
// separate sentences or messages, so they are kept apart and joined when a view is made.
import type { GpsQuality } from '../../shared/contract/gps';

export { accuracyFromHdop } from '../../shared/gps/fix-values';

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
  /** The receiver's name for the epoch (its time of day, or a count when it gives no time). */
  epoch: string;
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
 * position or says it has none — only the receiver's own reports count, never a daemon's greeting —
 * so the reader can time how long ago the receiver last spoke.
 */
export interface GpsDecoder {
  push(line: string): LineOutcome;
  readonly report: PositionReport;
  readonly reports: number;
  readonly sky: GpsSky;
  /** The newest date and time the receiver stated (ms since 1970), null when it has stated none. */
  readonly clockMs: number | null;
  /** Figures out of range dropped from otherwise readable lines. */
  readonly badValues: number;
  /** Receivers the daemon says it has (gpsd's DEVICES); null when the protocol does not tell. */
  readonly devices: number | null;
}
