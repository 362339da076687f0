// Damage is always said and nothing is resent by mistake: a deleted or cut-short outbox file, a
// deleted profiles file. Real files in a real data folder, the real sandbox over loopback.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { OUTBOX_FILE } from '../../electron/core/outbox/store';
import { it } from '../support/fixtures';

// Cores that send only when a test starts them; the built-in sandbox is their service unless a test says otherwise.
it.override('coreOptions', { autoSync: false });

describe('a damaged data folder', () => {
  it('marks a new site for review, never synced, when the outbox file that held its create is deleted', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore({ sandbox: false });
    const saved = await first.sites.save({ name: 'Ridge', height: 40, latitude: 45.1, longitude: -93.2 });
    expect(saved.ok).toBe(true);
    await first.close();
    await rm(join(dataDir, OUTBOX_FILE));

    const again = await openCore({ sandbox: false });
    const [site] = again.sites.list();
    expect(site).toMatchObject({ name: 'Ridge', syncState: 'needs-review', siteId: null });
    expect(site!.lastError?.message).toMatch(/missing from the outbox/);
    expect(again.sync.status().dataProblems.join(' ')).toMatch(/1 new site\(s\) have no request in the outbox/);
    // Saving it again sends a create again (the user's deliberate choice), and it is no longer "lost".
    const resent = await again.sites.save({ localId: site!.localId, height: 40 });
    expect(resent.ok && resent.value.entry.op).toBe('create');
    expect(again.sites.get(site!.localId)?.syncState).toBe('pending');
  });

  it('never sends a done create again when the outbox file is cut back to before its result', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore();
    const saved = await first.sites.save({ name: 'Ridge', height: 40, latitude: 45.1, longitude: -93.2 });
    if (!saved.ok) throw new Error('not saved');
    first.sync.start();
    await first.sync.untilSettled();
    await first.sites.save({ localId: saved.value.site.localId, height: 55 });
    const settled = await first.sync.untilSettled();
    expect(settled.counts.done).toBe(2);
    const siteId = first.sites.get(saved.value.site.localId)?.siteId;
    expect(siteId).toMatch(/^\d+$/);
    await first.close();

    // Keep the header and the two 'add' records: the create and the edit are pending again on disk.
    const lines = (await readFile(join(dataDir, OUTBOX_FILE), 'utf8')).split('\n');
    const kept = lines.filter((line, index) => index === 0 || line.includes('"t":"add"'));
    expect(kept).toHaveLength(3);
    await writeFile(join(dataDir, OUTBOX_FILE), `${kept.join('\n')}\n`);

    const again = await openCore();
    expect(again.outbox.list().map((entry) => entry.state)).toEqual(['done', 'done']);
    expect(again.outbox.list()[0]).toMatchObject({ op: 'create', siteId });
    expect(again.sites.get(saved.value.site.localId)).toMatchObject({ syncState: 'synced', siteId, height: 55 });
    expect(again.sync.status().dataProblems.join(' ')).toMatch(/lost the result of 2 request\(s\)/);
    again.sync.start();
    expect((await again.sync.untilSettled()).counts.pending).toBe(0);
  });

  it('says so when queued requests belong to a profile the profiles file no longer has', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore({ sandbox: false });
    const added = await first.profiles.add({ name: 'Office', baseUrl: 'http://127.0.0.1:9', account: '42' });
    if (!added.ok) throw new Error('no profile');
    await first.profiles.use(added.value.id);
    expect((await first.sites.save({ siteId: '100', height: 30 })).ok).toBe(true);
    await first.close();
    await rm(join(dataDir, 'profiles.json'));

    const again = await openCore({ sandbox: false });
    expect(again.sync.status().dataProblems.join(' ')).toMatch(/1 queued request\(s\) belong to the profile ".+", which Sitewalk no longer has/);
    expect(again.outbox.list({ allProfiles: true })).toHaveLength(1);
  });
});
