// What the "My location" control shows, whichever source: the host's GpsView for gpsd/NMEA, or one
// built here from the platform's geolocation for 'device'. Pure functions, so the words and the
// unit handling are tested without a map.
import type { GpsFixView, GpsState, GpsView } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { METERS_PER_FOOT } from '../../lib/units';

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
  denied: { word: 'Not allowed', icon: '✕' },
  silent: { word: 'Receiver silent', icon: '‖' },
  'no-fix': { word: 'No fix', icon: '◌' },
  fix: { word: 'Fix', icon: '◉' },
};

export function fromHost(view: GpsView): LocationShown {
  return { state: view.state, message: view.message, fix: view.state === 'fix' ? view.fix : null };
}

/** A fix from navigator.geolocation (its accuracy is a 95 % radius in meters, like gpsd's eph). */
export function deviceFix(position: GeolocationPosition, now = Date.now()): GpsFixView {
  const { coords } = position;
  return {
    lat: coords.latitude,
    lon: coords.longitude,
    accuracyM: Number.isFinite(coords.accuracy) ? coords.accuracy : null,
    accuracyEstimated: false,
    altitudeM: coords.altitude ?? null,
    quality: 'device',
    qualityLabel: 'Device location service',
    satellites: null,
    satellitesSeen: null,
    hdop: null,
    fixTime: Number.isFinite(position.timestamp) ? new Date(position.timestamp).toISOString() : null,
    receivedAt: new Date(now).toISOString(),
  };
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
