// Setting group, pin colour, height or description on many sites at once: a preview per site, then
// one durable write (one outbox entry per changed site), or nothing at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { applySitesBatch, previewSitesBatch } from '../../electron/core/sites/batch-edit';
import { createHostApi, HostApiError } from '../../electron/core/host-api';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function coreWithSites(): Promise<{ core: SitewalkCore; dataDir: string; ids: string[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-batch-'));
  const core = await openCore({ dataDir, secretStore: createSessionSecretStore(), autoSync: false, sandbox: false });
  cleanups.push(async () => {
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const ids: string[] = [];
  const known = [
    { siteId: '101', name: 'Ridge', height: 30, group: 'North', pinStyle: 1, description: '' },
    { siteId: '102', name: 'Silo', height: 45, group: 'South', pinStyle: 2, description: 'grain silo' },
    { siteId: '103', name: 'Water tower', height: 24, group: 'North', pinStyle: 1, description: '' },
  ];
  for (const { siteId, ...fields } of known) {
    const added = await core.sites.addExisting(siteId, fields);
    if (!added.ok) throw new Error(added.issues[0]!.message);
    ids.push(added.value.localId);
  }
  return { core, dataDir, ids };
}

describe('the batch edit', () => {
  it('previews per site what changes and leaves alone a site that already has the value', async () => {
    const { core, ids } = await coreWithSites();
    const preview = previewSitesBatch(core.sites, { localIds: ids, change: { group: ' North ', pinStyle: 'green' } });
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    expect(preview.value.change).toEqual({ group: 'North', pinStyle: 4 });
    expect(preview.value.rows.map((row) => [row.name, row.changes])).toEqual([
      ['Ridge', [{ field: 'pinStyle', from: 1, to: 4 }]],
      ['Silo', [{ field: 'group', from: 'South', to: 'North' }, { field: 'pinStyle', from: 2, to: 4 }]],
      ['Water tower', [{ field: 'pinStyle', from: 1, to: 4 }]],
    ]);
    expect(preview.value.summary).toEqual({ sites: 3, changing: 3, unchanged: 0, problems: 0 });
    // A preview queues nothing.
    expect(core.outbox.list()).toHaveLength(0);
  });

  it('queues one entry per changed site, only with the fields that change, and shows every site pending', async () => {
    const { core, ids } = await coreWithSites();
    const applied = await applySitesBatch(core.sites, { localIds: ids, change: { group: 'North', height: '' } });
    expect(applied).toMatchObject({ ok: true, value: { unchanged: 2 } });
    if (!applied.ok) return;
    expect(applied.value.queued.map((q) => q.localId)).toEqual([ids[1]]);
    const entries = core.outbox.list();
    expect(entries).toHaveLength(1);
    // The height goes with it because the service needs one with every change; the rest stays out.
    expect(entries[0]!.payload).toEqual({ siteId: '102', group: 'North', height: 45 });
    expect(core.sites.get(ids[1]!)).toMatchObject({ group: 'North', syncState: 'pending', pinStyle: 2, description: 'grain silo' });
    expect(core.sites.get(ids[0]!)).toMatchObject({ syncState: 'synced' });
  });

  it('refuses a change that breaks the site rules, naming the field, and queues nothing', async () => {
    const { core, ids } = await coreWithSites();
    const outcome = await applySitesBatch(core.sites, { localIds: ids, change: { height: '52 ft' } });
    expect(outcome).toMatchObject({ ok: false, issues: [{ field: 'height', message: expect.stringMatching(/Height must be a number of meters/) }] });
    expect(await applySitesBatch(core.sites, { localIds: ids, change: { group: '  ' } })).toMatchObject({ ok: false, issues: [{ field: 'change' }] });
    expect(core.outbox.list()).toHaveLength(0);
  });

  it('refuses the whole batch when one site cannot take the change, and says which', async () => {
    const { core, ids } = await coreWithSites();
    const noHeight = await core.sites.addExisting('104', { name: 'Barn' });
    if (!noHeight.ok) throw new Error('not added');
    const outcome = await applySitesBatch(core.sites, { localIds: [...ids, noHeight.value.localId, 'L-gone'], change: { group: 'East' } });
    expect(outcome).toMatchObject({
      ok: false,
      issues: [
        { field: 'localIds', message: expect.stringMatching(/^"Barn": Its height is not known/) },
        { field: 'localIds', message: expect.stringMatching(/no longer in this profile/) },
      ],
    });
    expect(core.outbox.list()).toHaveLength(0);
    expect(core.sites.list().filter((site) => site.group === 'East')).toEqual([]);
  });

  it('refuses to apply over a site that changed since the preview', async () => {
    const { core, ids } = await coreWithSites();
    const preview = previewSitesBatch(core.sites, { localIds: ids, change: { description: 'checked 2026' } });
    if (!preview.ok) throw new Error('no preview');
    const revisions = Object.fromEntries(preview.value.rows.map((row) => [row.localId, row.revision]));
    expect((await core.sites.save({ localId: ids[2]!, description: 'new antenna' })).ok).toBe(true);
    const outcome = await applySitesBatch(core.sites, { localIds: ids, change: { description: 'checked 2026' }, revisions });
    expect(outcome).toMatchObject({ ok: false, issues: [{ field: 'revisions', message: 'A site changed since the preview ("Water tower"): look at the preview again before applying. Nothing was queued.' }] });
    expect(core.outbox.list()).toHaveLength(1);
  });

  it('keeps nothing of a batch whose write fails part way: no entry, no changed site', async () => {
    const { core, dataDir, ids } = await coreWithSites();
    // Another connection to the same database makes the second insert of any write fail, as a
    // disk refusing the write part way through would.
    const other = new Database(join(dataDir, 'sitewalk.db'));
    other.exec("CREATE TRIGGER refuse_second AFTER INSERT ON outbox WHEN (SELECT count(*) FROM outbox) >= 2 BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END;");
    other.close();
    await expect(applySitesBatch(core.sites, { localIds: ids, change: { group: 'West' } })).rejects.toThrow(/refused the write/);
    expect(core.outbox.list()).toHaveLength(0);
    expect(core.sites.list().map((site) => [site.group, site.syncState])).toEqual([
      ['North', 'synced'],
      ['South', 'synced'],
      ['North', 'synced'],
    ]);
    const reopened = new Database(join(dataDir, 'sitewalk.db'), { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
    reopened.close();
  });

  it('is checked at the host boundary: an empty batch or an unknown field is refused before the core', async () => {
    const { core, ids } = await coreWithSites();
    const host = createHostApi(core, { host: 'browser' });
    try {
      await expect(host.dispatch('applyBatchEdit', [{ localIds: [], change: { group: 'X' } }])).rejects.toBeInstanceOf(HostApiError);
      await expect(host.dispatch('previewBatchEdit', [{ localIds: ids, change: { name: 'Same name for all' } }])).rejects.toThrow(/previewBatchEdit: argument 1/);
      expect(core.outbox.list()).toHaveLength(0);
      const applied = (await host.dispatch('applyBatchEdit', [{ localIds: ids, change: { description: 'audited' } }])) as { ok: boolean; value: { queued: unknown[] } };
      expect(applied.ok).toBe(true);
      expect(applied.value.queued).toHaveLength(3);
    } finally {
      await host.close();
    }
  });
});
