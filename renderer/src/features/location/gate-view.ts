// What the accuracy gate and a measurement say on screen, in the user's unit: the reason a fix cannot
// place a site, the assumption behind an HDOP-based radius, and the measurement a site keeps. Pure, so
// the words are tested without a page.
import type { GpsFixView } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import type { GateVerdict } from '../../../../electron/shared/gps/gate';
import type { SiteMeasurement } from '../../../../electron/shared/validation/measurement';
import { GPS_QUALITY_LABELS } from '../../../../electron/shared/contract/gps';
import { formatAccuracy } from './location-view';

/** "±12 m" without the ±: the gate is a limit, not a radius. */
export function formatGate(meters: number, unit: HeightUnit): string {
  return formatAccuracy(meters, unit).slice(1);
}

/** Why the fix cannot place a site (null when it can). */
export function gateReason(verdict: GateVerdict, unit: HeightUnit): string | null {
  if (verdict.pass) return null;
  const gate = formatGate(verdict.gateM, unit);
  if (verdict.accuracyM === null) {
    return `The receiver gives no accuracy (no error estimate and no HDOP), so Sitewalk cannot tell whether this fix is within the ${gate} gate.`;
  }
  const how = verdict.assumption ? ` (${verdict.assumption})` : '';
  return `Accuracy ${formatAccuracy(verdict.accuracyM, unit)}${how} is worse than the ${gate} gate set for this profile.`;
}

/** The measurement in one line, as the site card, the outbox and the description show it. */
export function measurementText(m: SiteMeasurement, unit: HeightUnit): string {
  const source = m.source === 'device' ? 'this device’s location service' : m.source === 'gpsd' ? 'gpsd' : 'an NMEA receiver';
  const what = m.fixes === 1 ? `1 fix (${GPS_QUALITY_LABELS[m.quality]})` : `${m.fixes} fixes averaged (${GPS_QUALITY_LABELS[m.quality]})`;
  const skipped = m.skipped > 0 ? `, ${m.skipped} skipped` : '';
  const spread = m.spreadEastM !== null && m.spreadNorthM !== null ? `, spread ${formatAccuracy(m.spreadEastM, unit)} east ${formatAccuracy(m.spreadNorthM, unit)} north` : '';
  const accuracy = m.accuracyM !== null ? `, receiver accuracy ${formatAccuracy(m.accuracyM, unit)}${m.accuracyEstimated ? ' (from HDOP)' : ''}` : ', receiver accuracy unknown';
  const gate = m.overridden ? `, worse than the ${formatGate(m.gateM, unit)} gate: used anyway` : `, within the ${formatGate(m.gateM, unit)} gate`;
  return `Measured with ${source}: ${what}${skipped}${spread}${accuracy}${gate}, ${m.at.slice(0, 16).replace('T', ' ')} UTC.`;
}

/** A single fix as a measurement ("Add site here"). */
export function singleFixMeasurement(fix: GpsFixView, source: SiteMeasurement['source'], gateM: number, overridden: boolean): SiteMeasurement {
  return {
    source,
    quality: fix.quality,
    fixes: 1,
    skipped: 0,
    spreadEastM: null,
    spreadNorthM: null,
    accuracyM: fix.accuracyM,
    accuracyEstimated: fix.accuracyEstimated,
    gateM,
    overridden,
    at: fix.receivedAt,
  };
}

/** The measurement a save carries: only while the coordinates sent are the ones measured (not typed over since). */
export function measurementFor(payload: { latitude?: unknown; longitude?: unknown }, fix: { measurement?: SiteMeasurement; at?: { lat: number; lon: number } } | null): SiteMeasurement | null {
  if (!fix?.measurement || !fix.at || payload.latitude === undefined || payload.longitude === undefined) return null;
  // The form writes 6 decimals, the measurement keeps 7: a difference under 2e-6° is the same point.
  const same = Math.abs(Number(payload.latitude) - fix.at.lat) < 2e-6 && Math.abs(Number(payload.longitude) - fix.at.lon) < 2e-6;
  return same ? fix.measurement : null;
}
