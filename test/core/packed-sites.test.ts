// The packed site list the page loads first (sites.listPacked) is built from the register directly
// and kept until something changes: it must be, column for column, what packSites(sites.list())
// gives, over a data folder with sites synced, queued, failed and lost, in more than one profile. The
// outbox's first history page, which the page loads with it, is kept the same way.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { SitewalkCore } from '../../electron/core/open-core';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { packSites, unpackSites } from '../../electron/shared/contract/site-list';
import { useService } from '../support/core';
import { it } from '../support/fixtures';

it.override('coreOptions', { autoSync: false });

/** How a receiver measured a position: the register keeps it, the packed list carries it for the few sites that have one. */
const MEASURED = { source: 'nmea', quality: 'rtk-fixed', fixes: 60, skipped: 0, spreadEastM: 0.01, spreadNorthM: 0.01, accuracyM: 0.02, accuracyEstimated: false, gateM: 5, overridden: false, at: '2026-11-25T14:00:00.000Z' } as const;

/** The same answer as packing the views, to the byte. */
function expectSameAsViews(core: SitewalkCore): void {
  const packed = core.sites.listPacked();
  expect(JSON.stringify(packed)).toBe(JSON.stringify(packSites(core.sites.list())));
}

describe('the packed site list', () => {
  it('is what packSites(sites.list()) gives, through syncs, failures, a lost request, edits and a profile switch', async ({ tempDir: dataDir, sandbox, openCore }) => {
    // A site whose create the outbox lost (as a damaged database leaves it): shown for review, with its problem.
    const first = await openCore({ sandbox: false });
    await useService(first, sandbox.url);
    expect((await first.sites.save({ name: 'Ridge', height: 40, latitude: 45.1, longitude: -93.2 })).ok).toBe(true);
    await first.close();
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.exec("DELETE FROM outbox; UPDATE sites SET lost = 'The request that creates this site is missing from the outbox.'");
    db.close();

    const second = await openCore({ sandbox: false });
    await useService(second, sandbox.url);
    const creates = Array.from({ length: 30 }, (_, k) => ({ name: `Tower ${k} ✓`, height: 20 + k, latitude: 40 + k / 100, longitude: -80 - k / 100, group: `Town ${k % 3}`, description: k % 2 ? 'Imported' : '', ...(k % 7 === 0 ? { measurement: { ...MEASURED, fixes: 60 + k } } : {}) }));
    expect((await second.sites.saveMany(creates)).ok).toBe(true);
    second.sync.start();
    await second.sync.untilSettled();
    // An edit of a site the service does not have: rejected, failed.
    expect((await second.sites.save({ siteId: '987654321', height: 30 })).ok).toBe(true);
    await second.sync.untilSettled();
    expect(second.outbox.list().map((entry) => entry.state)).toContain('failed');
    expectSameAsViews(second);
    await second.close();

    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url);
    const states = new Set(core.sites.list().map((site) => site.syncState));
    expect([...states].sort()).toEqual(['failed', 'needs-review', 'synced']);
    expectSameAsViews(core);
    // The measured sites' measurements, from the register, in the packed list too.
    expect(unpackSites(core.sites.listPacked()).flatMap((site) => (site.measurement ? [site.measurement.fixes] : []))).toEqual([60, 67, 74, 81, 88]);
    // Kept while nothing changes: the same object again.
    const kept = core.sites.listPacked();
    expect(core.sites.listPacked()).toBe(kept);

    // Edits queued (not sent: this core sends only when started), one site added as the service has it.
    const [a, b] = core.sites.list().filter((site) => site.syncState === 'synced');
    expect((await core.sites.save({ localId: a!.localId, name: 'Renamed', pinStyle: 3 })).ok).toBe(true);
    expect((await core.sites.save({ localId: b!.localId, height: 99 })).ok).toBe(true);
    expect((await core.sites.save({ localId: b!.localId, description: 'Twice' })).ok).toBe(true);
    expect((await core.sites.addExisting('5550001', { name: 'Known' })).ok).toBe(true);
    const changed = core.sites.listPacked();
    expect(changed).not.toBe(kept);
    expect(unpackedState(changed, a!.localId)).toBe('pending');
    expectSameAsViews(core);

    // Another profile: only its own sites, and the first profile's again when it is back.
    const other = await core.profiles.add({ name: 'Other', baseUrl: 'http://127.0.0.1:9', account: '7' });
    if (!other.ok) throw new Error('no profile');
    await core.profiles.use(other.value.id);
    expect(core.sites.listPacked().count).toBe(0);
    expect((await core.sites.save({ name: 'Elsewhere', height: 10, latitude: 1, longitude: 2 })).ok).toBe(true);
    expect(core.sites.listPacked().count).toBe(1);
    expectSameAsViews(core);
    await useService(core, sandbox.url);
    expect(core.sites.listPacked().count).toBe(33);
    expectSameAsViews(core);
  });
});

describe('the first page of the outbox history', () => {
  it('is kept while nothing changes and follows every change', async ({ core }) => {
    for (let k = 0; k < 3; k++) expect((await core.sites.save({ name: `Site ${k}`, height: 10 + k, latitude: 40, longitude: -80 })).ok).toBe(true);
    core.sync.start();
    await core.sync.untilSettled();
    const first = core.outbox.history();
    expect(first.entries).toHaveLength(3);
    expect(core.outbox.history()).toEqual(first);
    expect((await core.sites.save({ name: 'Later', height: 12, latitude: 41, longitude: -81 })).ok).toBe(true);
    await core.sync.untilSettled();
    const after = core.outbox.history();
    expect(after.total).toBe(4);
    expect(after.entries.map((entry) => entry.payload.name)).toEqual(['Later', 'Site 2', 'Site 1', 'Site 0']);
    expect(core.outbox.history({ limit: 2 }).entries).toHaveLength(2);
    expect(core.outbox.history({ before: core.outbox.history({ limit: 2 }).next! }).entries).toHaveLength(2);
  });
});

function unpackedState(list: ReturnType<SitewalkCore['sites']['listPacked']>, localId: string): string {
  const index = list.localId.indexOf(localId);
  return list.texts[list.syncState[index]!]!;
}
