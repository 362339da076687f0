// The accuracy gate is a setting per profile: saved through the host's API for one profile ID, read
// back in the settings view, refused out of range with a field issue, and put back to the default
// (not listed) when cleared.
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../electron/shared/contract/index';
import { gateFor } from '../../electron/shared/gps/gate';
import { call, startTestHost } from '../support/host';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

describe('the accuracy gate setting', () => {
  it('keeps a gate per profile, refuses one out of range, and clears back to the default', async () => {
    const host = await startTestHost({ withStatic: false });
    cleanups.push(() => host.close());
    const before = (await call(host, 'getSettings', [])).json<{ value: SettingsView }>().value;
    expect(before.gpsGates).toEqual({});
    expect(gateFor(before.gpsGates, 'rover')).toBe(5);

    const saved = await call(host, 'saveSettings', [{ gpsGate: { profileId: 'rover', meters: 0.05 } }]);
    expect(saved.status).toBe(200);
    await call(host, 'saveSettings', [{ gpsGate: { profileId: 'phones', meters: 25 } }]);
    const after = (await call(host, 'getSettings', [])).json<{ value: SettingsView }>().value;
    expect(after.gpsGates).toEqual({ rover: 0.05, phones: 25 });
    expect(gateFor(after.gpsGates, 'rover')).toBe(0.05);
    expect(gateFor(after.gpsGates, 'someone-else')).toBe(5);

    const refused = await call(host, 'saveSettings', [{ gpsGate: { profileId: 'rover', meters: -1 } }]);
    expect(refused.status).not.toBe(200);
    await call(host, 'saveSettings', [{ gpsGate: { profileId: 'rover', meters: null } }]);
    expect((await call(host, 'getSettings', [])).json<{ value: SettingsView }>().value.gpsGates).toEqual({ phones: 25 });
  });
});
