// What the "My location" control shows, whichever source: the host's GpsView for gpsd/NMEA, or one
// built here from the platform's geolocation for 'device'. Pure functions, so the words and the
// unit handling are tested without a map.
import type { GpsFixView, GpsState, GpsView } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { ACCURACY_RANGE, ALTITUDE_RANGE, inRange } from '../../../../electron/shared/gps/fix-values';
import { fixProblem } from '../../../../electron/shared/gps/fix-judge';
import { METERS_PER_FOOT } from '../../shared/units';

/** The control's own picture of the source: the host's view minus what only the host needs. */
export interface LocationShown {
  state: GpsState | 'denied';
  message: string;
  fix: GpsFixView | null;
}

/** A word and a symbol per state, so colour is never the only signal. */
export const STATE_WORDS: Record<LocationShown['state'], { word: string; icon: string }> = {
  off: { word: 'Off', icon: '○' },
  device: { word: 'Waiting', icon: '…' },
  connecting: { word: 'Connecting', icon: '…' },
  unreachable: { word: 'Not reachable', icon: '✕' },
  'no-receiver': { word: 'No receiver', icon: '✕' },
  denied: { word: 'Not allowed', icon: '✕' },
  silent: { word: 'Receiver silent', icon: '‖' },
  'no-fix': { word: 'No fix', icon: '◌' },
  fix: { word: 'Fix', icon: '◉' },
};

export function fromHost(view: GpsView): LocationShown {
  return { state: view.state, message: view.message, fix: view.state === 'fix' ? view.fix : null };
}

/**
 * A fix from navigator.geolocation (its accuracy is a 95 % radius in meters, like gpsd's eph). The
 * platform's figures are range-checked like a receiver's: an accuracy or altitude out of range is
 * dropped (`bad` counts it). Its epoch is its timestamp: the same position handed out twice is one epoch.
 */
export function deviceFix(position: GeolocationPosition, now = Date.now(), bad: () => void = () => undefined): GpsFixView {
  const { coords } = position;
  const stamp = Number.isFinite(position.timestamp) ? new Date(position.timestamp).toISOString() : null;
  return {
    lat: coords.latitude,
    lon: coords.longitude,
    accuracyM: inRange(coords.accuracy, ACCURACY_RANGE, bad, { aboveMin: true }),
    accuracyEstimated: false,
    altitudeM: inRange(coords.altitude ?? null, ALTITUDE_RANGE, bad),
    quality: 'device',
    qualityLabel: 'Device location service',
    satellites: null,
    satellitesSeen: null,
    hdop: null,
    fixTime: stamp,
    receivedAt: new Date(now).toISOString(),
    epoch: stamp ?? `host ${now}`,
  };
}

/**
 * The device's position as the control shows it: a fix, or "no fix" with the reason when its position
 * is out of range, old (a cached answer: by the host's clock, the platform giving no other) or unusable.
 */
export function deviceShown(position: GeolocationPosition, now = Date.now(), bad: () => void = () => undefined): LocationShown {
  const { latitude, longitude } = position.coords;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    bad();
    return { state: 'no-fix', message: 'This device gave a position that cannot be on Earth; it is not used.', fix: null };
  }
  const fix = deviceFix(position, now, bad);
  // The platform states no clock of its own: the host's stands in for it.
  const problem = fixProblem(fix, now, now, { subject: 'This device', possessive: 'This device’s', clock: 'this computer’s clock' });
  if (problem) return { state: 'no-fix', message: problem, fix: null };
  return { state: 'fix', message: 'Position from this device’s location service.', fix };
}

/** The platform's refusals, in words a crew member can act on. */
export function deviceError(error: { code: number }): LocationShown {
  if (error.code === 1) {
    return {
      state: 'denied',
      message: 'Sitewalk is not allowed to use this device’s location. Allow location for Sitewalk in the system or browser settings, or choose a GPS receiver in Settings, under Position.',
      fix: null,
    };
  }
  if (error.code === 3) return { state: 'no-fix', message: 'This device has not found its position yet (it timed out). Sitewalk keeps asking.', fix: null };
  return { state: 'no-fix', message: 'This device cannot work out its position right now (no location service or no signal). Sitewalk keeps asking.', fix: null };
}

/** No position from the platform for this long reads "silent", as a receiver's does. */
export const DEVICE_SILENT_MS = 5_000;

export const DEVICE_SILENT: LocationShown = {
  state: 'silent',
  message: 'The location service is silent: this device has given no position for 5 seconds. Is its location (or its GPS) switched on?',
  fix: null,
};

export const NO_DEVICE_LOCATION: LocationShown = {
  state: 'unreachable',
  message: 'This device offers no location service here. Choose a GPS receiver (gpsd or NMEA) in Settings, under Position.',
  fix: null,
};

/** "±4.2 m" / "±14 ft": the accuracy radius in the user's unit, rounded to what it is worth. */
export function formatAccuracy(meters: number | null, unit: HeightUnit): string {
  if (meters === null || !Number.isFinite(meters)) return 'unknown';
  if (unit === 'ft') {
    const feet = meters / METERS_PER_FOOT;
    return `±${feet < 10 ? Math.round(feet * 10) / 10 : Math.round(feet)} ft`;
  }
  return `±${meters < 10 ? Math.round(meters * 10) / 10 : Math.round(meters)} m`;
}

/** What "Note the accuracy" adds to the description. */
export function accuracyNote(meters: number, unit: HeightUnit, quality: string): string {
  return `Position from My location (${quality}), accurate to ${formatAccuracy(meters, unit)}.`;
}

/** "9 used of 12 in view", "9 used", or null. */
export function satellitesText(fix: GpsFixView): string | null {
  if (fix.satellites === null && fix.satellitesSeen === null) return null;
  if (fix.satellitesSeen === null) return `${fix.satellites} used`;
  if (fix.satellites === null) return `${fix.satellitesSeen} in view`;
  return `${fix.satellites} used of ${fix.satellitesSeen} in view`;
}
