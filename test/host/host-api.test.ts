// The adapter both hosts share, on a real core in a temp folder: settings kept between runs and
// checked before they are kept (a tile server the CSP can name, an attribution without HTML), keys
// that go in and never come out, results with field issues instead of errors, and core changes
// arriving as the contract's events.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { DEFAULT_SETTINGS, LISTED_PENDING, decodeSiteList, decodeSitePositions, sitePositionsOf, type ApiEvent, type Result, type ProfileView } from '../../electron/shared/contract/index';
import { it } from '../support/fixtures';
import { waiting } from '../support/wait';

// Nothing is sent in these tests.
it.override('coreOptions', { autoSync: false });

describe('settings', () => {
  it('start as the defaults and are kept between runs', async ({ openBackend }) => {
    const first = await openBackend();
    expect(await first.hostApi.api.getSettings()).toEqual(DEFAULT_SETTINGS);
    const saved = await first.hostApi.api.saveSettings({ tileUrl: '  https://{s}.tiles.example.net/{z}/{x}/{y}.png ', heightUnit: 'ft', syncConcurrency: 2 });
    expect(saved).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, tileUrl: 'https://{s}.tiles.example.net/{z}/{x}/{y}.png', heightUnit: 'ft', syncConcurrency: 2 } });
    await first.close();
    const second = await openBackend();
    expect(await second.hostApi.api.getSettings()).toMatchObject({ tileUrl: 'https://{s}.tiles.example.net/{z}/{x}/{y}.png', heightUnit: 'ft', syncConcurrency: 2 });
  });

  it('refuse a tile server the map or the CSP cannot use, keeping the old value', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    for (const tileUrl of ['ftp://tiles.example.net/{z}/{x}/{y}.png', 'https://tiles.example.net/tile.png', 'https://tiles.{s}.example.net/{z}/{x}/{y}.png', "https://x.example/{z}/{x}/{y}.png; script-src 'unsafe-inline'"]) {
      const result = await hostApi.api.saveSettings({ tileUrl });
      expect(result.ok, tileUrl).toBe(false);
      expect((result as { ok: false; issues: { field: string }[] }).issues[0]!.field).toBe('tileUrl');
    }
    expect((await hostApi.api.getSettings()).tileUrl).toBe(DEFAULT_SETTINGS.tileUrl);
  });

  it('refuse HTML in the map attribution (Leaflet shows it as HTML)', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    const result = await hostApi.api.saveSettings({ tileAttribution: '<img src=x onerror=alert(1)>' });
    expect(result).toEqual({ ok: false, issues: [{ field: 'tileAttribution', message: expect.stringMatching(/< or >/) }] });
    expect((await hostApi.api.saveSettings({ tileAttribution: '&copy; Example Maps' })).ok).toBe(true);
  });

  it('take a GPS receiver by name or IP address (an IPv6 one with or without brackets) and refuse anything else', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    for (const [typed, stored] of [['gps.local', 'gps.local'], [' 192.168.1.20 ', '192.168.1.20'], ['::1', '::1'], ['[fe80::1]', 'fe80::1']]) {
      const saved = await hostApi.api.saveSettings({ gpsHost: typed });
      expect(saved.ok && saved.value.gpsHost, typed).toBe(stored);
    }
    for (const bad of ['http://gps.local', 'gps.local:2947', '[::1', '...', 'two words', '']) {
      const refused = await hostApi.api.saveSettings({ gpsHost: bad });
      expect(refused.ok, bad).toBe(false);
    }
    expect((await hostApi.api.getSettings()).gpsHost).toBe('fe80::1');
  });

  it('announce a change to every listener', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    const events: ApiEvent[] = [];
    const stop = hostApi.onEvent((event) => events.push(event));
    await hostApi.api.saveSettings({ heightUnit: 'ft' });
    stop();
    await hostApi.api.saveSettings({ heightUnit: 'm' });
    expect(events.filter((event) => event.type === 'settings')).toEqual([{ type: 'settings', settings: { ...DEFAULT_SETTINGS, heightUnit: 'ft' } }]);
  });
});

describe('profiles and keys', () => {
  it('take a key and only ever say whether there is one', async ({ tempDir, openBackend }) => {
    const { hostApi } = await openBackend();
    const events: ApiEvent[] = [];
    hostApi.onEvent((event) => events.push(event));
    const added = (await hostApi.api.saveProfile({ name: 'Office', baseUrl: 'https://api.towercoverage.com', account: '4242' })) as { ok: true; value: ProfileView };
    expect(added.ok).toBe(true);
    expect(added.value).toMatchObject({ hasKey: false, keyStore: 'session-only', builtIn: false, active: false });
    const withKey = await hostApi.api.setApiKey(added.value.id, 'very-secret-key-42');
    expect(withKey).toMatchObject({ ok: true, value: { hasKey: true } });
    expect(Object.keys((withKey as { ok: true; value: object }).value).sort()).toEqual(
      ['account', 'active', 'baseUrl', 'binding', 'bindingFallback', 'builtIn', 'hasKey', 'id', 'keyStore', 'name', 'namespace', 'servicePath'].sort(),
    );
    const seen = JSON.stringify([await hostApi.api.listProfiles(), events, await hostApi.api.getStatus()]);
    expect(seen).not.toContain('very-secret-key-42');
    expect(events.some((event) => event.type === 'profiles')).toBe(true);
    for (const name of await readdir(tempDir, { recursive: true })) {
      const content = await readFile(join(tempDir, name)).catch(() => Buffer.alloc(0));
      expect(content.includes('very-secret-key-42'), name).toBe(false);
    }
  });

  it('edit a profile by its id and refuse a duplicate name as a field issue', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    const added = (await hostApi.api.saveProfile({ name: 'Office', baseUrl: 'https://api.towercoverage.com', account: '1' })) as { ok: true; value: ProfileView };
    const renamed = await hostApi.api.saveProfile({ id: added.value.id, name: 'Head office', baseUrl: 'https://api.towercoverage.com', account: '1' });
    expect(renamed).toMatchObject({ ok: true, value: { id: added.value.id, name: 'Head office' } });
    const clash = (await hostApi.api.saveProfile({ name: 'head office', baseUrl: 'https://api.towercoverage.com', account: '2' })) as Result<ProfileView>;
    expect(clash.ok).toBe(false);
  });
});

describe('sites and the outbox', () => {
  it('asks for the service ID when an existing site is added without one', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    expect(await hostApi.api.addExistingSite({ name: 'Somewhere' })).toEqual({ ok: false, issues: [{ field: 'siteId', message: expect.stringMatching(/ID/) }] });
    const added = await hostApi.api.addExistingSite({ siteId: '98765', name: 'Hilltop' });
    expect(added).toMatchObject({ ok: true, value: { siteId: '98765', name: 'Hilltop', syncState: 'synced' } });
  });

  it("answers where the list's located sites are, through IPC's structured clone, none below the page's threshold, and anew after a change", async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    for (const [k, state] of ['north', 'south', 'east'].entries()) expect((await hostApi.api.saveSite({ name: `Mast ${state}`, height: 30, latitude: 40 + k / 4, longitude: -80.1234567 })).ok).toBe(true);
    expect((await hostApi.api.addExistingSite({ siteId: '98765', name: 'Nowhere yet' })).ok).toBe(true);
    // What the Electron host's invoke does to an answer on its way to the page.
    const asked = async (atLeast: unknown) => decodeSitePositions(structuredClone((await hostApi.dispatch('sitePositions', [atLeast])) as Uint8Array));
    const plain = (positions: ReturnType<typeof decodeSitePositions>) => ({ count: positions.count, latitude: Array.from(positions.latitude), longitude: Array.from(positions.longitude), state: Array.from(positions.state) });
    const listed = async () => plain(sitePositionsOf(decodeSiteList(await hostApi.api.listSitesPacked())));

    const expected = await listed();
    expect(expected.count).toBeGreaterThanOrEqual(3);
    expect(expected.latitude).toEqual(expect.arrayContaining([40, 40.25, 40.5]));
    expect(plain(await asked(0))).toEqual(expected);
    expect(plain(await asked(expected.count))).toEqual(expected);
    expect((await asked(expected.count + 1)).count).toBe(0);

    expect((await hostApi.api.saveSite({ name: 'Mast west', height: 30, latitude: -33.5, longitude: 151.25 })).ok).toBe(true);
    const after = plain(await asked(0));
    expect(after).toEqual(await listed());
    expect(after.count).toBe(expected.count + 1);
    await expect(hostApi.dispatch('sitePositions', ['many'])).rejects.toThrow(/sitePositions/);
    await expect(hostApi.dispatch('sitePositions', [])).rejects.toThrow(/takes 1 argument/);
  });

  it('tells the page what one transaction changed on many sites as one event', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    const localIds: string[] = [];
    for (let i = 0; i < 60; i++) {
      const saved = await hostApi.api.saveSite({ name: `Mast ${i}`, height: 30, latitude: 40 + i / 100, longitude: -80 });
      if (!saved.ok) throw new Error(`site ${i} was not saved`);
      localIds.push(saved.value.localId);
    }
    const events: ApiEvent[] = [];
    hostApi.onEvent((event) => events.push(event));
    const applied = await hostApi.api.applyBatchEdit({ localIds, change: { group: 'North' } });
    expect(applied.ok).toBe(true);
    await vi.waitFor(() => expect(events.some((event) => event.type === 'changes')).toBe(true), waiting('the change event'));
    const told = events.flatMap((event) => (event.type === 'changes' ? [event.changes] : []));
    expect(told).toHaveLength(1);
    expect(told[0]!.sites.map((site) => site.group)).toEqual(localIds.map(() => 'North'));
    expect(new Set(told[0]!.sites.map((site) => site.localId))).toEqual(new Set(localIds));
    expect(new Set(told[0]!.entries.map((entry) => entry.localId))).toEqual(new Set(localIds));
  });

  it('queues a save, lists its outbox entry in the contract shape, and discards it', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    const events: ApiEvent[] = [];
    hostApi.onEvent((event) => events.push(event));
    const saved = await hostApi.api.saveSite({ name: 'Ridge', height: '45', latitude: '40.5', longitude: '-80.1' });
    expect(saved).toMatchObject({ ok: true, value: { name: 'Ridge', height: 45, syncState: 'pending', lastError: null } });
    const [entry] = (await hostApi.api.listOutbox()).active;
    expect(entry).toMatchObject({ kind: 'site', state: 'pending', summary: expect.stringContaining('Ridge'), payload: { name: 'Ridge', height: 45 } });
    // The contract's entry view is the core's (one definition): it names its profile, and nothing secret.
    expect(entry!.profileId).toBe((await hostApi.api.getStatus()).activeProfileId);
    expect(JSON.stringify(entry)).not.toMatch(/"key"/);
    // The answer says what changed, so the page shows it at once: the entry and its new site are gone.
    expect(await hostApi.api.discardEntry(entry!.id)).toEqual({
      ok: true,
      value: { entries: [], entriesRemoved: [{ entryId: entry!.id, revision: expect.any(Number) }], sites: [], sitesRemoved: [{ localId: entry!.localId, revision: expect.any(Number) }] },
    });
    expect(await hostApi.api.listOutbox()).toEqual({ active: [], pendingLeftOut: 0, history: { entries: [], next: null, total: 0 } });
    // The page heard the save (its site and entry) and the discard (both gone) in change sets: the
    // discard, told within a batch's interval of the save, in the next batch.
    const heard = () => events.flatMap((event) => (event.type === 'changes' ? [event.changes] : []));
    await vi.waitFor(() => expect(heard().flatMap((changes) => changes.entriesRemoved)).toHaveLength(1), waiting('the discard to be told'));
    const told = heard();
    expect(told[0]).toEqual({ entries: [expect.objectContaining({ id: entry!.id, state: 'pending' })], entriesRemoved: [], sites: [expect.objectContaining({ localId: entry!.localId, name: 'Ridge' })], sitesRemoved: [] });
    expect(told.flatMap((changes) => changes.entriesRemoved)).toEqual([{ entryId: entry!.id, revision: expect.any(Number) }]);
    expect(told.flatMap((changes) => changes.sitesRemoved)).toEqual([{ localId: entry!.localId, revision: expect.any(Number) }]);
  });

  it('lists the first waiting edits, not every one, and every other unfinished entry; the status counts them all', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    for (let k = 0; k < LISTED_PENDING + 20; k++) expect((await hostApi.api.saveSite({ name: `Mast ${k}`, height: 30, latitude: 40 + k / 1000, longitude: -80 })).ok).toBe(true);
    // Queued last, behind them all: an EUS reprocess is listed whatever waits before it.
    expect((await hostApi.api.reprocessEus({ processId: 'P-7', multiMapId: '77', sendEmail: false })).ok).toBe(true);
    const listing = await hostApi.api.listOutbox();
    const sites = listing.active.filter((entry) => entry.kind === 'site');
    expect(sites.map((entry) => entry.summary.match(/'(Mast \d+)'/)?.[1])).toEqual(Array.from({ length: LISTED_PENDING }, (_, k) => `Mast ${k}`));
    expect(listing.active.filter((entry) => entry.kind === 'reprocess')).toEqual([expect.objectContaining({ state: 'pending', payload: expect.objectContaining({ processId: 'P-7' }) })]);
    expect(listing.pendingLeftOut).toBe(20);
    expect((await hostApi.api.getStatus()).pendingCount).toBe(LISTED_PENDING + 21);
  });

  it('queues an EUS reprocess with the choice about email spelled out', async ({ openBackend }) => {
    const { hostApi } = await openBackend();
    const queued = await hostApi.api.reprocessEus({ processId: 'P-100', multiMapId: '77', sendEmail: true });
    expect(queued).toMatchObject({ ok: true, value: { kind: 'reprocess', state: 'pending', payload: { processId: 'P-100', multiMapId: '77', sendEmail: true } } });
    const refused = await hostApi.api.reprocessEus({ processId: '', multiMapId: 'abc' });
    expect(refused.ok).toBe(false);
  });
});
