// How a position was measured travels with the site edit: checked by the shared schema (a broken one
// is refused with a sentence, nothing queued), kept in the outbox entry through a reopen of the data
// folder, and never sent — the service has no such field, and the sandbox sees only the spec's.
import { describe, expect } from 'vitest';
import { exportSitesOf } from '../../electron/core/bulk/core-port';
import { exportCsv, exportGeoJson } from '../../electron/shared/bulk/export';
import { parseSiteEdit } from '../../electron/shared/validation';
import { useService } from '../support/core';
import { GPSD_MEASUREMENT } from '../support/measurement';
import { it } from '../support/fixtures';

const measurement = GPSD_MEASUREMENT;

describe('the measurement of a site’s position', () => {
  it('is checked by the site schema: a sound one kept as given, a broken one refused with a sentence', () => {
    const ok = parseSiteEdit({ name: 'Staked', height: 30, latitude: 45.6312, longitude: -111.0238, measurement });
    expect(ok.ok && ok.value.measurement).toEqual(measurement);
    for (const broken of [{ ...measurement, fixes: 0 }, { ...measurement, accuracyM: -5 }, { ...measurement, spreadEastM: Number.POSITIVE_INFINITY }, { ...measurement, extra: 1 }, 'sixty fixes']) {
      const result = parseSiteEdit({ name: 'Staked', height: 30, latitude: 45.6312, longitude: -111.0238, measurement: broken });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.issues[0]).toMatchObject({ field: 'measurement', message: expect.stringMatching(/^The position's measurement is not readable/) });
    }
  });

  it('stays in the outbox entry across a reopen', async ({ openCore }) => {
    const core = await openCore({ autoSync: false, sandbox: false });
    const saved = await core.sites.save({ name: 'Staked', height: 30, latitude: 45.6312, longitude: -111.0238, measurement });
    if (!saved.ok) throw new Error('save failed');
    const refused = await core.sites.save({ name: 'Broken', height: 30, latitude: 45, longitude: -111, measurement: { ...measurement, gateM: 0 } });
    expect(refused.ok).toBe(false);
    expect(core.outbox.list()).toHaveLength(1);
    await core.close();
    const again = await openCore({ autoSync: false, sandbox: false });
    expect(again.outbox.list().map((entry) => entry.payload.measurement)).toEqual([measurement]);
  });

  it('goes with the position it measured when a queued edit is merged: kept for a new name, dropped for coordinates typed over', async ({ openCore }) => {
    const core = await openCore({ autoSync: false, sandbox: false });
    const saved = await core.sites.save({ name: 'Staked', height: 30, latitude: 45.6312, longitude: -111.0238, measurement });
    if (!saved.ok) throw new Error('save failed');
    const { localId } = saved.value.site;
    const renamed = await core.sites.save({ localId, name: 'Staked Ridge', height: 30 });
    expect(renamed.ok && renamed.value.coalesced).toBe(true);
    expect(core.outbox.list()[0]!.payload.measurement).toEqual(measurement);
    await core.sites.save({ localId, name: 'Staked Ridge', height: 30, latitude: 45.7, longitude: -111.1 });
    expect(core.outbox.list()).toHaveLength(1);
    expect(core.outbox.list()[0]!.payload).not.toHaveProperty('measurement');
  });

  it('is never sent: the service gets the spec’s fields only', async ({ sandbox, openCore }) => {
    const core = await openCore({ sandbox: false, autoSync: false });
    await useService(core, sandbox.url, { binding: 'http-post' });
    const saved = await core.sites.save({ name: 'Staked Ridge', height: 30, latitude: 45.6312, longitude: -111.0238, measurement });
    if (!saved.ok) throw new Error('save failed');
    await core.sync.syncNow();
    const settled = await core.sync.untilSettled();
    expect(settled.blocked).toBeNull();
    const call = sandbox.snapshot().calls.find((c) => c.operation === 'SitesAPI' && c.params['Sitename'] === 'Staked Ridge');
    expect(call?.outcome).toBe('ok');
    expect(Object.keys(call!.params).sort()).toEqual(['Account', 'Description', 'Group', 'Latitude', 'Longitude', 'Pinstyle', 'Sitename', 'Siteid', 'height', 'key'].sort());
    expect(JSON.stringify(call!.params)).not.toMatch(/measurement|spread|gpsd/);
    // Done, the entry in the history still says how the position was measured.
    expect(core.outbox.get(saved.value.entry.id)?.payload.measurement).toEqual(measurement);
  });

  it('is exported as columns (CSV) and properties (GeoJSON) when a site has one, and files without any are unchanged', async ({ openCore }) => {
    const core = await openCore({ autoSync: false, sandbox: false });
    await core.sites.save({ name: 'Staked', height: 30, latitude: 45.6312, longitude: -111.0238, measurement });
    await core.sites.save({ name: 'By hand', height: 20, latitude: 45.6, longitude: -111 });
    const sites = exportSitesOf(core);
    expect(sites.map((site) => site.measurement?.fixes ?? null)).toEqual([60, null]);

    const csv = exportCsv(sites).text.split('\r\n');
    expect(csv[0]).toBe('Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle,measuredWith,measuredQuality,fixesAveraged,fixesSkipped,spreadEastM,spreadNorthM,accuracyM,accuracyFromHdop,gateM,gateOverridden,measuredAt');
    expect(csv[1]).toBe(',Staked,30,45.6312,-111.0238,,,1,gpsd,dgps,60,4,1.62,1.41,3.1,false,5,false,2026-11-25T14:00:00.000Z');
    expect(csv[2]).toBe(',By hand,20,45.6,-111,,,1,,,,,,,,,,,');
    const features = (JSON.parse(exportGeoJson(sites).text) as { features: Array<{ properties: Record<string, unknown> }> }).features;
    expect(features[0]!.properties).toMatchObject({ measuredWith: 'gpsd', fixesAveraged: 60, fixesSkipped: 4, spreadEastM: 1.62, accuracyM: 3.1, gateM: 5, gateOverridden: 'false' });
    expect(Object.keys(features[1]!.properties)).not.toContain('measuredWith');

    const unmeasured = exportCsv(sites.filter((site) => !site.measurement)).text;
    expect(unmeasured.split('\r\n')[0]).toBe('Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle');
  });
});
