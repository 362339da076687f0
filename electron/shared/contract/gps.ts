// "My location": what the page is told about the position source. For 'gpsd' and 'nmea' the host
// reads the receiver (the page never opens a socket) and sends a GpsView on every change; for
// 'device' the page reads the platform's geolocation itself and builds the same fix shape, so one
// control shows both. A fix is present only in the 'fix' state: a stale position is never offered.

/**
 * Where "My location" comes from: 'device' is the platform's geolocation (read by the page), 'gpsd'
 * a gpsd daemon's JSON over TCP and 'nmea' a raw NMEA 0183 stream over TCP (both read by the host).
 */
export const GPS_SOURCE_KINDS = ['off', 'device', 'gpsd', 'nmea'] as const;
export type GpsSourceKind = (typeof GPS_SOURCE_KINDS)[number];

/**
 * off: "My location" is switched off in Settings. device: the page uses the platform's location.
 * connecting: the host is opening the connection (or waiting for the receiver's first report).
 * unreachable: nothing answers at the address. no-receiver: gpsd answers but has no receiver attached.
 * silent: no position report (fix or "no fix") from the receiver for a few seconds, whatever else
 * arrives (gpsd's own VERSION/DEVICES/WATCH answers are not the receiver talking).
 * no-fix: the receiver reports, but no current, self-consistent position. fix: a current position
 * (whether it is good enough to place a site is the accuracy gate's call: ../gps/gate.ts).
 */
export const GPS_STATES = ['off', 'device', 'connecting', 'unreachable', 'no-receiver', 'silent', 'no-fix', 'fix'] as const;
export type GpsState = (typeof GPS_STATES)[number];

/** How the position was obtained: NMEA GGA quality 1/2/4/5/6, gpsd's TPV status, or the platform. */
export const GPS_QUALITIES = ['gps', 'dgps', 'rtk-fixed', 'rtk-float', 'estimated', 'other', 'device'] as const;
export type GpsQuality = (typeof GPS_QUALITIES)[number];

export const GPS_QUALITY_LABELS: Record<GpsQuality, string> = {
  gps: 'GPS fix',
  dgps: 'DGPS fix (corrected)',
  'rtk-fixed': 'RTK fixed',
  'rtk-float': 'RTK float',
  estimated: 'Estimated (dead reckoning)',
  other: 'Fix of another kind',
  device: 'Device location service',
};

export interface GpsFixView {
  lat: number;
  lon: number;
  /** Horizontal accuracy radius in meters (gpsd's eph, 95 %), or null when the source gives none. */
  accuracyM: number | null;
  /** True when the radius is worked out from HDOP rather than reported by the receiver. */
  accuracyEstimated: boolean;
  altitudeM: number | null;
  quality: GpsQuality;
  /** Said to the user, e.g. "DGPS fix (corrected)"; adds "2D" when the receiver has no altitude. */
  qualityLabel: string;
  /** Satellites used in the fix. */
  satellites: number | null;
  /** Satellites in view, when the source tells. */
  satellitesSeen: number | null;
  hdop: number | null;
  /** The receiver's own time of the fix (ISO 8601), when it gives one. */
  fixTime: string | null;
  /** When the host (or page) received it (ISO 8601). */
  receivedAt: string;
  /**
   * Names the receiver's epoch (its time of the fix when it gives one): the sentences or messages of
   * one epoch share it, so averaging counts an epoch once however many reports it took.
   */
  epoch: string;
}

export interface GpsView {
  source: GpsSourceKind;
  state: GpsState;
  /** One sentence for the user about the state ("No position yet: the receiver has no fix."). */
  message: string;
  /** host:port read for gpsd/nmea, else null. */
  endpoint: string | null;
  fix: GpsFixView | null;
  /**
   * Sentences or messages read, and those dropped (bad checksum, garbage, over-long lines), this
   * connection; badValues: figures out of range (accuracy, satellites, HDOP, altitude) dropped from
   * messages otherwise read.
   */
  counts: { read: number; dropped: number; badValues: number };
  /** Grows with every view the host sends: an older answer never replaces a newer event. */
  revision: number;
}
