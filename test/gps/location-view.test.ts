// What the "My location" control says, without a map: the accuracy in the user's unit, the note the
// form may add to a description, the platform's refusals in words, and the store never taking an
// older receiver view over a newer one.
import { describe, expect, it } from 'vitest';
import type { GpsView } from '../../electron/shared/contract/index';
import { accuracyNote, deviceError, deviceFix, deviceShown, formatAccuracy, fromHost, satellitesText } from '../../renderer/src/features/location/location-view';
import { createAppStore } from '../../renderer/src/app/store';
import { gateReason, measurementFor, measurementText, singleFixMeasurement } from '../../renderer/src/features/location/gate-view';
import { judgeGate } from '../../electron/shared/gps/gate';
import { expectExamples } from '../support/examples';
import { applyGps } from '../../renderer/src/features/location/gps-slice';

const view = (revision: number, state: GpsView['state']): GpsView => ({ source: 'gpsd', state, message: state, endpoint: '127.0.0.1:2947', fix: null, counts: { read: 0, dropped: 0, badValues: 0 }, revision });

describe('the My location words', () => {
  it('shows the accuracy in the user’s unit, finer when it is small', () => {
    expectExamples(formatAccuracy, [[20.9, 'm', '±21 m'], [3.84, 'm', '±3.8 m'], [20.9, 'ft', '±69 ft'], [0.02, 'ft', '±0.1 ft'], [null, 'm', 'unknown']]);
    expect(accuracyNote(4.2, 'ft', 'DGPS fix (corrected)')).toBe('Position from My location (DGPS fix (corrected)), accurate to ±14 ft.');
  });

  it('turns the platform’s geolocation into a fix, and its refusals into sentences', () => {
    const fix = deviceFix({ coords: { latitude: 45.6, longitude: -111, accuracy: 12, altitude: null }, timestamp: Date.UTC(2024, 4, 1) } as unknown as GeolocationPosition, Date.UTC(2024, 4, 1, 0, 0, 1));
    expect(fix).toMatchObject({ lat: 45.6, lon: -111, accuracyM: 12, quality: 'device', fixTime: '2024-05-01T00:00:00.000Z', receivedAt: '2024-05-01T00:00:01.000Z' });
    expect(satellitesText(fix)).toBeNull();
    expect(satellitesText({ ...fix, satellites: 9, satellitesSeen: 12 })).toBe('9 used of 12 in view');
    expect(deviceError({ code: 1 })).toMatchObject({ state: 'denied', message: expect.stringMatching(/^Sitewalk is not allowed to use this device’s location\./) });
    expect(deviceError({ code: 2 }).state).toBe('no-fix');
    expect(fromHost({ ...view(1, 'silent'), fix: fix }).fix).toBeNull();
  });

  it('checks the platform’s figures like a receiver’s: out of range dropped and counted, an old position not current', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    const at = (coords: Partial<GeolocationCoordinates>, timestamp = now) => ({ coords: { latitude: 45.6, longitude: -111, accuracy: 12, altitude: null, ...coords }, timestamp }) as unknown as GeolocationPosition;
    let bad = 0;
    const count = () => bad++;
    expect(deviceShown(at({ accuracy: 1e300, altitude: 1e308 }), now, count)).toMatchObject({ state: 'fix', fix: { accuracyM: null, altitudeM: null } });
    expect(deviceShown(at({ accuracy: -50 }), now, count).fix?.accuracyM).toBeNull();
    expect(bad).toBe(3);
    expect(deviceShown(at({}, now - 60_000), now)).toEqual({ state: 'no-fix', fix: null, message: 'This device’s last fix is 60 seconds older than this computer’s clock: it is not a current fix.' });
    expect(deviceShown(at({ latitude: Number.NaN }), now, count)).toMatchObject({ state: 'no-fix', fix: null });
    expect(deviceShown(at({}), now).fix?.epoch).toBe(new Date(now).toISOString());
  });

  it('says why the gate refuses a fix, with the HDOP assumption, and keeps a measurement only with the position measured', () => {
    const fix = { accuracyM: 17.1, accuracyEstimated: true, quality: 'gps' as const };
    expect(gateReason(judgeGate(fix, 5), 'm')).toBe('Accuracy ±17 m (estimated from HDOP × 19 m, the error gpsd assumes for a plain GPS receiver (95 %)) is worse than the 5 m gate set for this profile.');
    expect(gateReason(judgeGate({ ...fix, accuracyM: 3.1, accuracyEstimated: false }, 5), 'm')).toBeNull();
    expect(gateReason(judgeGate({ ...fix, accuracyM: null }, 5), 'ft')).toBe('The receiver gives no accuracy (no error estimate and no HDOP), so Sitewalk cannot tell whether this fix is within the 16 ft gate.');
    const measurement = singleFixMeasurement({ ...deviceFix({ coords: { latitude: 45.6312, longitude: -111.0238, accuracy: 3, altitude: null }, timestamp: 0 } as unknown as GeolocationPosition), receivedAt: '2026-11-25T14:00:00.000Z' }, 'device', 5, false);
    expect(measurementText(measurement, 'm')).toBe('Measured with this device’s location service: 1 fix (Device location service), receiver accuracy ±3 m, within the 5 m gate, 2026-11-25 14:00 UTC.');
    const picked = { measurement, at: { lat: 45.6312, lon: -111.0238 } };
    expect(measurementFor({ latitude: '45.6312', longitude: '-111.0238' }, picked)).toBe(measurement);
    expect(measurementFor({ latitude: 45.6313, longitude: -111.0238 }, picked)).toBeNull();
    expect(measurementFor({}, picked)).toBeNull();
  });

  it('keeps the newest receiver view when an older answer arrives late', () => {
    const store = createAppStore({} as never, () => () => undefined);
    applyGps(store, view(5, 'fix'));
    applyGps(store, view(3, 'connecting'));
    expect(store.getState().gps?.state).toBe('fix');
    applyGps(store, view(6, 'silent'));
    expect(store.getState().gps?.state).toBe('silent');
  });
});
