// Damage is always said and nothing is shown as synced that may not be: the database deleted,
// emptied, cut short, garbled, replaced by an older copy, or its write-ahead log deleted; a deleted
// profiles file. Real files in a real data folder; the folder's marker (sitewalk.db.state)
// remembers that it had a database, the revision it reached and what was unsent.
import { cp, open, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { SitewalkCore } from '../../electron/core/open-core';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { readMarker } from '../../electron/core/storage/marker';
import { it } from '../support/fixtures';
import { waiting } from '../support/wait';

// Cores that send only when a test starts them, and no service: what is queued stays unsent.
it.override('coreOptions', { autoSync: false, sandbox: false });

/** Queues a new site and an edit of a site added by ID: two requests not yet sent. */
async function queueTwo(core: SitewalkCore): Promise<{ created: string; existing: string }> {
  const created = await core.sites.save({ name: 'Ridge', height: 40, latitude: 45.1, longitude: -93.2 });
  const existing = await core.sites.addExisting('9001', { name: 'Water tower', height: 30, latitude: 45.3, longitude: -93.4 });
  if (!created.ok || !existing.ok) throw new Error('not saved');
  expect((await core.sites.save({ localId: existing.value.localId, height: 55 })).ok).toBe(true);
  return { created: created.value.site.localId, existing: existing.value.localId };
}

/** What every damaged case must show: said at start, both unsent sites there and for review, never synced. */
function expectSaidAndReviewed(core: SitewalkCore, ids: { created: string; existing: string }, said: RegExp): void {
  const problems = core.sync.status().dataProblems.join(' ');
  expect(problems).toMatch(said);
  expect(problems).toMatch(/2 request\(s\) not yet sent/);
  const created = core.sites.get(ids.created);
  expect(created).toMatchObject({ name: 'Ridge', syncState: 'needs-review', siteId: null });
  expect(created!.lastError?.message).toMatch(/missing from the outbox/);
  const existing = core.sites.get(ids.existing);
  expect(existing).toMatchObject({ siteId: '9001', syncState: 'needs-review' });
  // Only a site that had nothing unsent may show as synced.
  expect(core.sites.list().filter((site) => site.syncState === 'synced').map((site) => site.localId)).not.toEqual(expect.arrayContaining([ids.created]));
  expect(core.sites.list().filter((site) => site.syncState === 'synced').map((site) => site.localId)).not.toEqual(expect.arrayContaining([ids.existing]));
}

describe('a damaged database', () => {
  it('says a deleted database, and its unsent sites come back for review', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore();
    const ids = await queueTwo(first);
    await first.close();
    await rm(join(dataDir, DATABASE_FILE));

    const again = await openCore();
    expectSaidAndReviewed(again, ids, /database \(sitewalk\.db\) is missing/);
    // Saving it again sends a create again (the user's deliberate choice), and it is no longer "lost".
    const resent = await again.sites.save({ localId: ids.created, height: 40 });
    expect(resent.ok && resent.value.entry.op).toBe('create');
    expect(again.sites.get(ids.created)?.syncState).toBe('pending');
  });

  it('brings back how an unsent staked site was measured, as the folder\'s marker recorded it', async ({ tempDir: dataDir, openCore }) => {
    const measurement = { source: 'nmea', quality: 'rtk-fixed', fixes: 60, skipped: 0, spreadEastM: 0.01, spreadNorthM: 0.02, accuracyM: 0.03, accuracyEstimated: false, gateM: 5, overridden: false, at: '2026-11-25T14:00:00.000Z' } as const;
    const first = await openCore();
    const staked = await first.sites.save({ name: 'Staked', height: 40, latitude: 45.1, longitude: -93.2, measurement });
    const moved = await first.sites.save({ name: 'Moved by hand', height: 40, latitude: 45.2, longitude: -93.2, measurement });
    if (!staked.ok || !moved.ok) throw new Error('not saved');
    expect((await first.sites.save({ localId: moved.value.site.localId, height: 40, latitude: 45.25, longitude: -93.2 })).ok).toBe(true);
    await first.close();
    await rm(join(dataDir, DATABASE_FILE));

    const again = await openCore();
    expect(again.sites.get(staked.value.site.localId)).toMatchObject({ syncState: 'needs-review', measurement });
    expect(again.sites.get(moved.value.site.localId)).toMatchObject({ syncState: 'needs-review', latitude: 45.25, measurement: null });
  });

  it('says an emptied database', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore();
    const ids = await queueTwo(first);
    await first.close();
    await writeFile(join(dataDir, DATABASE_FILE), '');

    expectSaidAndReviewed(await openCore(), ids, /database \(sitewalk\.db\) is empty/);
  });

  it.for([
    ['cut short', (file: string) => stat(file).then((info) => truncate(file, Math.floor(info.size / 2)))],
    [
      'garbled',
      async (file: string) => {
        const handle = await open(file, 'r+');
        await handle.write(Buffer.alloc(64, 0xa5), 0, 64, 0);
        await handle.close();
      },
    ],
  ] as const)('sets aside a database %s, never overwriting it, and says so', async ([, damage], { tempDir: dataDir, openCore }) => {
    const first = await openCore();
    const ids = await queueTwo(first);
    await first.close();
    const file = join(dataDir, DATABASE_FILE);
    await damage(file);
    const damaged = await readFile(file);

    const again = await openCore();
    expectSaidAndReviewed(again, ids, /could not be read .* set aside as/);
    const aside = (await readdir(dataDir)).filter((name) => name.startsWith(`${DATABASE_FILE}.damaged-`) && !name.endsWith('-wal') && !name.endsWith('-shm'));
    expect(aside).toHaveLength(1);
    expect((await readFile(join(dataDir, aside[0]!))).equals(damaged)).toBe(true);
  });

  it('says a database replaced by an older copy', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore();
    expect((await first.sites.addExisting('8000', { name: 'Older' })).ok).toBe(true);
    await first.close();
    await cp(join(dataDir, DATABASE_FILE), join(dataDir, 'older.db'));
    const again = await openCore();
    const ids = await queueTwo(again);
    await again.close();
    await cp(join(dataDir, 'older.db'), join(dataDir, DATABASE_FILE));

    expectSaidAndReviewed(await openCore(), ids, /older than the one Sitewalk last used/);
  });

  it('says a database whose write-ahead log was deleted after a crash', async ({ tempDir, openCore }) => {
    const dataDir = join(tempDir, 'running');
    const running = await openCore({ dataDir });
    const ids = await queueTwo(running);
    const revision = running.outbox.revision(running.outbox.unfinished().at(-1)!.id);
    // The folder as a crash leaves it: the marker written meanwhile, the changes still in the WAL.
    await expect.poll(() => readMarker(dataDir)?.revision ?? 0, waiting('the marker to reach the last change')).toBeGreaterThanOrEqual(revision);
    const crashed = join(tempDir, 'crashed');
    await cp(dataDir, crashed, { recursive: true });
    await rm(join(crashed, `${DATABASE_FILE}-wal`));

    expectSaidAndReviewed(await openCore({ dataDir: crashed }), ids, /database .*(empty|older than the one Sitewalk last used)/);
  });
});

describe('a damaged data folder', () => {
  it('says so when queued requests belong to a profile the profiles file no longer has', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore();
    const added = await first.profiles.add({ name: 'Office', baseUrl: 'http://127.0.0.1:9', account: '42' });
    if (!added.ok) throw new Error('no profile');
    await first.profiles.use(added.value.id);
    expect((await first.sites.save({ siteId: '100', height: 30 })).ok).toBe(true);
    await first.close();
    await rm(join(dataDir, 'profiles.json'));

    const again = await openCore();
    expect(again.sync.status().dataProblems.join(' ')).toMatch(/1 queued request\(s\) belong to the profile ".+", which Sitewalk no longer has/);
    expect(again.outbox.list({ allProfiles: true })).toHaveLength(1);
  });
});
