// The site register keeps how a position was measured (the `measurement` column, migration 002): the
// site card, the packed list and the export read it from there, so it outlives the outbox entry that
// carried it once the history is dropped. A database of schema 1 is filled in from its finished entries.
// The measurement goes with the position: a move by hand drops it, an edit that leaves the site where
// it is keeps it.
import Database from 'better-sqlite3';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { exportSitesOf } from '../../electron/core/bulk/core-port';
import { systemClock } from '../../electron/core/clock';
import type { SitewalkCore } from '../../electron/core/open-core';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { INITIAL } from '../../electron/core/storage/migrations/001-initial';
import { SCHEMA_VERSION } from '../../electron/core/storage/migrations/index';
import { parseSiteRow, type SiteRow } from '../../electron/core/storage/sites-table';
import { exportCsv } from '../../electron/shared/bulk/export';
import { unpackSites } from '../../electron/shared/contract/site-list';
import type { SiteMeasurement } from '../../electron/shared/validation/measurement';
import { useService } from '../support/core';
import { GPSD_MEASUREMENT } from '../support/measurement';
import { it } from '../support/fixtures';

it.override('coreOptions', { autoSync: false });

const measurement = GPSD_MEASUREMENT;
const DAY_MS = 24 * 3600_000;

async function synced(core: SitewalkCore): Promise<void> {
  await core.sync.syncNow();
  const settled = await core.sync.untilSettled();
  expect(settled.blocked).toBeNull();
  expect(core.outbox.list().filter((entry) => entry.state !== 'done')).toEqual([]);
}

async function stake(core: SitewalkCore, name: string, at: { latitude: number; longitude: number }, with_: SiteMeasurement | null = measurement): Promise<string> {
  const saved = await core.sites.save({ name, height: 30, ...at, ...(with_ ? { measurement: with_ } : {}) });
  if (!saved.ok) throw new Error(`save refused: ${JSON.stringify(saved.issues)}`);
  return saved.value.site.localId;
}

const measuredOf = (core: SitewalkCore, localId: string) => core.sites.get(localId)?.measurement ?? null;

describe('the measurement kept by the site register', () => {
  it('outlives the outbox entry that carried it: the site, the packed list and the export still have it once the history is dropped', async ({ sandbox, openCore }) => {
    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url);
    const staked = await stake(core, 'Staked Ridge', { latitude: 45.6312345, longitude: -111.0238765 });
    await stake(core, 'By hand', { latitude: 45.6, longitude: -111 }, null);
    // Queued, the site already shows it (the queued create overlaid on the register).
    expect(measuredOf(core, staked)).toEqual(measurement);
    await synced(core);
    const entryId = core.outbox.history().entries.find((entry) => entry.localId === staked)!.id;
    await core.close();

    // Eight days later the core drops the week-old history as it closes.
    const later = await openCore({ sandbox: false, clock: { ...systemClock, now: () => Date.now() + 8 * DAY_MS } });
    await later.close();
    const reopened = await openCore({ sandbox: false });
    await useService(reopened, sandbox.url, { key: null });
    expect(reopened.outbox.get(entryId)).toBeNull();
    expect(reopened.outbox.history().entries).toEqual([]);

    expect(measuredOf(reopened, staked)).toEqual(measurement);
    const packed = unpackSites(reopened.sites.listPacked());
    expect(packed.map((site) => [site.name, site.measurement])).toEqual([
      ['Staked Ridge', measurement],
      ['By hand', null],
    ]);
    const exported = exportSitesOf(reopened);
    expect(exported.map((site) => site.measurement?.fixes ?? null)).toEqual([60, null]);
    const csv = exportCsv(exported).text.split('\r\n');
    expect(csv[0]).toMatch(/,measuredWith,measuredQuality,fixesAveraged,fixesSkipped,spreadEastM,spreadNorthM,accuracyM,accuracyFromHdop,gateM,gateOverridden,measuredAt$/);
    expect(csv[1]).toMatch(/,Staked Ridge,30,45\.6312345,-111\.0238765,,,1,gpsd,dgps,60,4,1\.62,1\.41,3\.1,false,5,false,2026-11-25T14:00:00\.000Z$/);
  });

  it('is dropped by a move by hand, queued or sent, and kept by an edit that leaves the site where it stands', async ({ sandbox, openCore }) => {
    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url);
    const moved = await stake(core, 'Moved', { latitude: 45.6312345, longitude: -111.0238765 });
    const renamed = await stake(core, 'Renamed', { latitude: 45.5, longitude: -111.5 });
    const resent = await stake(core, 'Re-sent', { latitude: 45.4123456, longitude: -111.4123456 });
    await synced(core);

    // A drag or typed coordinates: no measurement comes with the new position.
    expect((await core.sites.save({ localId: moved, height: 30, latitude: 45.64, longitude: -111.0238765 })).ok).toBe(true);
    expect((await core.sites.save({ localId: renamed, name: 'Renamed Ridge', height: 30 })).ok).toBe(true);
    // The form sends every field, its coordinates with 6 decimals: the same point, not a move.
    expect((await core.sites.save({ localId: resent, name: 'Re-sent Ridge', height: 31, latitude: '45.412346', longitude: '-111.412346' })).ok).toBe(true);
    expect([measuredOf(core, moved), measuredOf(core, renamed), measuredOf(core, resent)]).toEqual([null, measurement, measurement]);

    await synced(core);
    expect([measuredOf(core, moved), measuredOf(core, renamed), measuredOf(core, resent)]).toEqual([null, measurement, measurement]);
    await core.close();
    const reopened = await openCore({ sandbox: false });
    await useService(reopened, sandbox.url, { key: null });
    expect(reopened.sites.list().map((site) => [site.name, site.measurement?.fixes ?? null])).toEqual([
      ['Moved', null],
      ['Renamed Ridge', 60],
      ['Re-sent Ridge', 60],
    ]);
    // Staked again: the new measurement replaces the old one.
    const again = { ...measurement, fixes: 120, at: '2026-11-26T09:00:00.000Z' };
    expect((await reopened.sites.save({ localId: moved, height: 30, latitude: 45.65, longitude: -111.03, measurement: again })).ok).toBe(true);
    expect(measuredOf(reopened, moved)).toEqual(again);
  });

  it('is filled in when a database of schema 1 is opened: from the finished entry that measured where the site still stands', async ({ tempDir, sandbox, openCore }) => {
    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url);
    const kept = await stake(core, 'Kept', { latitude: 45.6312345, longitude: -111.0238765 });
    const moved = await stake(core, 'Moved since', { latitude: 45.5, longitude: -111.5 });
    const renamed = await stake(core, 'Renamed since', { latitude: 45.4123456, longitude: -111.4123456 });
    const unmeasured = await stake(core, 'By hand', { latitude: 45.3, longitude: -111.3 }, null);
    const queued = await stake(core, 'Staked, unsent', { latitude: 45.2, longitude: -111.2 });
    await synced(core);
    expect((await core.sites.save({ localId: moved, height: 30, latitude: 45.51, longitude: -111.5 })).ok).toBe(true);
    expect((await core.sites.save({ localId: renamed, name: 'Renamed since', height: 30, latitude: '45.412346', longitude: '-111.412346', description: 'Roof mount' })).ok).toBe(true);
    await synced(core);
    await core.close();
    // Staked again while nothing is sent (this core never syncs): the edit stays queued.
    const offline = await openCore({ sandbox: false });
    expect((await offline.sites.save({ localId: queued, height: 30, latitude: 45.2, longitude: -111.2, measurement: { ...measurement, fixes: 30 } })).ok).toBe(true);
    await offline.close();

    // The same rows in a database made by migration 001 alone, as a Sitewalk of schema 1 left it.
    const path = join(tempDir, DATABASE_FILE);
    await rm(`${path}-wal`, { force: true });
    await rm(`${path}-shm`, { force: true });
    const current = new Database(path);
    const rows = {
      meta: current.prepare('SELECT * FROM meta').all(),
      outbox: current.prepare('SELECT * FROM outbox').all(),
      sites: current.prepare('SELECT local_id, profile_id, site_id, origin, name, height, latitude, longitude, description, grp, pin_style, applied_seq, created_at, updated_at, lost, draft, rev FROM sites').all(),
    };
    current.close();
    await rm(path);
    const old = new Database(path);
    old.exec(INITIAL);
    old.pragma('user_version = 1');
    old.exec('DELETE FROM meta');
    for (const [table, list] of Object.entries(rows)) {
      for (const row of list as Array<Record<string, unknown>>) {
        const columns = Object.keys(row);
        old.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((name) => `@${name}`).join(', ')})`).run(row);
      }
    }
    expect(old.prepare("SELECT count(*) AS n FROM pragma_table_info('sites') WHERE name = 'measurement'").get()).toEqual({ n: 0 });
    old.close();

    const migrated = await openCore({ sandbox: false });
    await useService(migrated, sandbox.url, { key: null });
    expect(migrated.sync.status().dataProblems).toEqual([]);
    expect(migrated.sites.list().map((site) => [site.name, site.measurement?.fixes ?? null, site.syncState])).toEqual([
      ['Kept', 60, 'synced'],
      ['Moved since', null, 'synced'],
      ['Renamed since', 60, 'synced'],
      ['By hand', null, 'synced'],
      // The register holds the sent measurement; the queued edit's new one is overlaid on it.
      ['Staked, unsent', 30, 'pending'],
    ]);
    expect(measuredOf(migrated, kept)).toEqual(measurement);
    expect(measuredOf(migrated, unmeasured)).toBeNull();
    await migrated.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const filled = check.prepare('SELECT name, measurement FROM sites ORDER BY rowid').all() as Array<{ name: string; measurement: string | null }>;
    check.close();
    expect(filled.map(({ name, measurement: stored }) => [name, stored === null ? null : (JSON.parse(stored) as SiteMeasurement).fixes])).toEqual([
      ['Kept', 60],
      ['Moved since', null],
      ['Renamed since', 60],
      ['By hand', null],
      ['Staked, unsent', 60],
    ]);
  });

  it('is read through the measurement schema: a stored one that is not one names the site', () => {
    const row: SiteRow = {
      local_id: 'local-abc',
      profile_id: 'p',
      site_id: '4711',
      origin: 'created',
      name: 'Ridge',
      height: 30,
      latitude: 45,
      longitude: -111,
      description: null,
      grp: null,
      pin_style: 1,
      applied_seq: 1,
      created_at: 0,
      updated_at: 0,
      lost: null,
      draft: null,
      rev: 1,
      measurement: JSON.stringify(measurement),
    };
    expect(parseSiteRow(row).known.measurement).toEqual(measurement);
    expect(() => parseSiteRow({ ...row, measurement: '{"source":' })).toThrow('Site local-abc in the database has a measurement that is not JSON; it cannot be read.');
    expect(() => parseSiteRow({ ...row, measurement: JSON.stringify({ ...measurement, fixes: -1 }) })).toThrow('Site local-abc in the database has a measurement of the wrong shape; it cannot be read.');
  });
});
