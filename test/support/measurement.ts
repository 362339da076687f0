// A receiver's measurement as a site carries it (a gpsd DGPS fix averaged over a minute), for the
// tests that follow one from an edit to the database, the site lists and the exports.
import type { SiteMeasurement } from '../../electron/shared/validation/measurement';

export const GPSD_MEASUREMENT: SiteMeasurement = {
  source: 'gpsd',
  quality: 'dgps',
  fixes: 60,
  skipped: 4,
  spreadEastM: 1.62,
  spreadNorthM: 1.41,
  accuracyM: 3.1,
  accuracyEstimated: false,
  gateM: 5,
  overridden: false,
  at: '2026-11-25T14:00:00.000Z',
};
