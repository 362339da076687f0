// Bulk runs end to end against the sandbox over real HTTP (loopback, random port), through the real
// core: its outbox (one durable batch), its sync engine and the real service client. The report is
// checked row by row against what the sandbox holds afterwards.
import { describe, expect } from 'vitest';
import { runReprocess, type BulkProgress } from '../../electron/core/bulk/apply';
import { runImport } from '../../electron/core/bulk/import-run';
import { coreOutboxPort, exportSitesOf, knownSitesOf } from '../../electron/core/bulk/core-port';
import { planReprocess, readEusCsv } from '../../electron/shared/bulk/eus';
import { exportCsv } from '../../electron/shared/bulk/export';
import { previewImport } from '../../electron/shared/bulk/import';
import { auditCsv } from '../bench/bulk';
import { it } from '../support/fixtures';
import { serviceMail, serviceMultiMaps, serviceSites, serviceSubmissions } from '../support/service-state';

// A service with no sites yet, and a core that sends only when a run asks it to. No call times out
// here: on a machine at load 20 a call to the loopback sandbox can take past the 30 s default, and a
// create whose answer never came rightly goes to review (3 of 10,000 did, failing the count) — these
// tests check the reports, the timeout rules have their own tests (test/service, test/core).
it.override('sandboxSeed', 'empty');
it.override('coreOptions', { autoSync: false, timeoutMs: 600_000 });

const encode = (text: string) => new TextEncoder().encode(text);

describe('bulk import applied to the service', () => {
  it('imports 10,000 rows in one batch, and every row of the report matches what the service holds', { timeout: 900_000 }, async ({ sandbox, core }) => {
    core.sync.setConcurrency(8);
    const bytes = auditCsv(10_000);
    const preview = await previewImport(bytes, { fileName: 'audit.csv', known: knownSitesOf(core) });
    expect(preview.summary).toMatchObject({ total: 10_000, ready: 10_000, invalid: 0 });

    const progress: BulkProgress[] = [];
    const result = await runImport(coreOutboxPort(core), preview, { onProgress: (p) => progress.push(p) });
    expect(result.outcome).toBe('completed');
    expect(result.counts).toMatchObject({ total: 10_000, created: 10_000 });
    // Progress moved forward and ended complete; a time left was given along the way.
    expect(progress.at(-1)).toMatchObject({ total: 10_000, done: 10_000, pending: 0, sending: 0, etaMs: 0 });
    expect(progress.some((p) => p.etaMs !== null && p.etaMs > 0)).toBe(true);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.done).toBeGreaterThanOrEqual(progress[i - 1]!.done);

    const onService = new Map((await serviceSites(sandbox.url)).map((site) => [String(site.id), site]));
    expect(onService.size).toBe(10_000);
    const rowsById = new Set<string>();
    for (const row of result.rows) {
      const source = preview.rows.find((candidate) => candidate.row === row.row)!.edit!;
      expect(row.status).toBe('created');
      expect(row.message).toBe(`Created as site ${row.siteId}.`);
      rowsById.add(row.siteId);
      const site = onService.get(row.siteId);
      expect(site, `row ${row.row}`).toBeDefined();
      expect({ name: site!.name, height: site!.height, latitude: site!.latitude, longitude: site!.longitude, description: site!.description, group: site!.group, pinStyle: site!.pinStyle }).toEqual({
        name: source.name,
        height: source.height,
        latitude: source.latitude,
        longitude: source.longitude,
        description: source.description,
        group: source.group,
        pinStyle: source.pinStyle,
      });
    }
    expect(rowsById.size).toBe(10_000);
  });

  it('round-trips: CSV → register → CSV changes nothing, and an edited export sends exactly the edit', { timeout: 180_000 }, async ({ sandbox, core }) => {
    const original = 'Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle\r\n,Ridge,30,40.4461,-79.9822,"Lattice, 3 legs",North,2\r\n,=Water tank,18,40.5012,-80.0105,-ground mount,@ops,4\r\n,Caf\u00e9,5,-33.8688,151.2093,,,1\r\n';
    const first = await runImport(coreOutboxPort(core), await previewImport(encode(original), { fileName: 'a.csv', known: knownSitesOf(core) }));
    expect(first.counts.created).toBe(3);

    const exported = exportCsv(exportSitesOf(core)).text;
    const ids = first.rows.map((row) => row.siteId);
    // The same sites, now with the IDs the service gave them; text that looks like a formula is guarded.
    expect(exported).toBe(
      `Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle\r\n${ids[0]},Ridge,30,40.4461,-79.9822,"Lattice, 3 legs",North,2\r\n${ids[1]},'=Water tank,18,40.5012,-80.0105,'-ground mount,'@ops,4\r\n${ids[2]},Caf\u00e9,5,-33.8688,151.2093,,,1\r\n`,
    );

    const again = await previewImport(encode(exported), { fileName: 'export.csv', known: knownSitesOf(core) });
    expect(again.summary).toMatchObject({ unchanged: 3, ready: 0 });
    const noop = await runImport(coreOutboxPort(core), again);
    expect(noop.counts).toMatchObject({ unchanged: 3, created: 0, updated: 0 });
    expect(core.outbox.list().filter((entry) => entry.state !== 'done')).toEqual([]);
    expect(exportCsv(exportSitesOf(core)).text).toBe(exported);

    const edited = exported.replace(`${ids[0]},Ridge,30,`, `${ids[0]},Ridge,35,`);
    const editRun = await runImport(coreOutboxPort(core), await previewImport(encode(edited), { fileName: 'edited.csv', known: knownSitesOf(core) }));
    expect(editRun.counts).toMatchObject({ updated: 1, unchanged: 2 });
    expect(editRun.rows[0]).toMatchObject({ row: 2, siteId: ids[0], status: 'updated' });
    expect((await serviceSites(sandbox.url)).find((site) => String(site.id) === ids[0])?.height).toBe(35);
    expect(exportCsv(exportSitesOf(core)).text).toBe(edited);
  });

  it('cancels in the middle: unsent rows leave the outbox, sent ones are reported as they went', { timeout: 300_000 }, async ({ sandbox, core }) => {
    sandbox.setFaults({ latencyMs: 40 });
    core.sync.setConcurrency(2);
    const preview = await previewImport(auditCsv(200), { fileName: 'audit.csv' });
    const controller = new AbortController();
    const result = await runImport(coreOutboxPort(core), preview, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done >= 20) controller.abort();
      },
    });
    expect(result.outcome).toBe('cancelled');
    expect(result.counts.created).toBeGreaterThanOrEqual(20);
    expect(result.counts.cancelled).toBeGreaterThan(0);
    expect(result.counts.created + result.counts.cancelled).toBe(200);

    const onService = new Set((await serviceSites(sandbox.url)).map((site) => String(site.id)));
    const created = result.rows.filter((row) => row.status === 'created');
    expect(onService.size).toBe(created.length);
    for (const row of created) expect(onService.has(row.siteId)).toBe(true);
    for (const row of result.rows.filter((candidate) => candidate.status === 'cancelled')) {
      expect(row.message).toBe('Removed from the outbox before it was sent.');
      expect(core.outbox.get(row.entryId!)).toBeNull();
    }
    // Nothing of the batch is left to go out later, and the register holds only the sites that exist.
    expect(core.outbox.list().filter((entry) => entry.state !== 'done')).toEqual([]);
    expect(core.sites.list()).toHaveLength(created.length);
  });

  it('reports a row the service refuses as failed with the service\'s reason, and the others as done', { timeout: 120_000 }, async ({ sandbox, core }) => {
    const text = 'Siteid,Sitename,height,Latitude,Longitude\r\n,New,30,40,-79\r\n999999,Ghost,20,,\r\n';
    const result = await runImport(coreOutboxPort(core), await previewImport(encode(text), { fileName: 'a.csv' }));
    expect(result.outcome).toBe('completed');
    expect(result.rows.map((row) => [row.row, row.status])).toEqual([
      [2, 'created'],
      [3, 'failed'],
    ]);
    expect(result.rows[1]!.message).toMatch(/999999/);
    expect((await serviceSites(sandbox.url)).map((site) => site.name)).toEqual(['New']);
  });

  it('stops waiting when the service cannot be reached and reports the rows as still queued', { timeout: 120_000 }, async ({ sandbox, core }) => {
    await sandbox.close();
    const result = await runImport(coreOutboxPort(core), await previewImport(auditCsv(5), { fileName: 'a.csv' }));
    expect(result.outcome).toBe('stopped');
    expect(result.stoppedBecause).toBeTruthy();
    expect(result.counts).toMatchObject({ queued: 5 });
    expect(result.rows[0]!.message).toMatch(/^Waiting in the outbox: /);
    // The run stops as soon as the engine goes offline; entries still in flight on other lanes at
    // that moment come back to pending when their own failed attempt is recorded, a moment later.
    await expect.poll(() => core.outbox.list().map((entry) => entry.state), { timeout: 30_000 }).toEqual(Array(5).fill('pending'));
  });
});

describe('bulk EUS reprocess applied to the service', () => {
  // The demo account's submissions and Multi Maps.
  it.override('sandboxSeed', 'demo');

  it('reprocesses the selected submissions into one Multi Map with the email, once each', { timeout: 180_000 }, async ({ sandbox, core }) => {
    const submissions = await serviceSubmissions(sandbox.url);
    const maps = await serviceMultiMaps(sandbox.url);
    expect(submissions.length).toBeGreaterThanOrEqual(10);
    const target = maps.at(-1)!.id;
    const chosen = submissions.slice(0, 10);
    const csv = ['Process ID,Name,Address', ...chosen.map((s) => `${s.processId},"${s.name}","${s.address}"`), `${chosen[0]!.processId},"${chosen[0]!.name}",again`].join('\r\n');
    const mailBefore = (await serviceMail(sandbox.url)).length;

    const plan = planReprocess(readEusCsv(encode(csv)), { multiMapId: target, sendEmail: true });
    expect(plan.summary).toMatchObject({ ready: 10, repeats: 1 });
    const result = await runReprocess(coreOutboxPort(core), plan);
    expect(result.outcome).toBe('completed');
    expect(result.counts).toMatchObject({ reprocessed: 10, skipped: 1 });
    expect(result.rows.at(-1)).toMatchObject({ status: 'skipped', message: 'Same process ID as row 2; reprocessed once.' });

    const after = new Map((await serviceSubmissions(sandbox.url)).map((s) => [s.processId, s]));
    for (const row of result.rows.filter((candidate) => candidate.status === 'reprocessed')) {
      const submission = after.get(row.siteId)!;
      expect(submission.multiMapId).toBe(target);
      expect(submission.reprocessHistory.filter((entry) => entry.toMultiMapId === target && entry.sendEmail)).toHaveLength(1);
    }
    const mail = (await serviceMail(sandbox.url)).slice(mailBefore);
    expect(new Set(mail.map((message) => message.processId))).toEqual(new Set(chosen.map((s) => s.processId)));
  });
});
