// Bulk work as the app's page asks for it through the hosts' contract (createHostApi on a real core),
// against the sandbox over real HTTP: a file handed over once, its dry run, the run the host follows
// with progress events and a report, cancel, an EUS download reprocessed with email, exports, and
// the refusals a page can meet (a damaged upload, a file that is gone, a report asked too early), and
// where the files wait meanwhile (on disk in the data folder, removed when dropped).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, vi } from 'vitest';
import type { ApiEvent, Result, BulkRunView, EusPlan, ImportPreviewView, SitewalkApi } from '../../electron/shared/contract/index';
import { createHostApi } from '../../electron/core/host-api';
import type { SitewalkCore } from '../../electron/core/open-core';
import { it } from '../support/fixtures';
import { serviceMail, serviceMultiMaps, serviceSites, serviceSubmissions } from '../support/service-state';
import { useService } from '../support/core';
import { waiting } from '../support/wait';

// A service with no sites yet, and a core that sends only when a run asks it to.
it.override('sandboxSeed', 'empty');
it.override('coreOptions', { autoSync: false });

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  return result.value;
}

/** The hosts' contract over `core`, with the bulk-run events it sends. */
function hostOn(core: SitewalkCore) {
  const hostApi = createHostApi(core, { host: 'browser', bulk: { progressIntervalMs: 20 } });
  const events: BulkRunView[] = [];
  hostApi.onEvent((event: ApiEvent) => {
    if (event.type === 'bulk-run') events.push(event.run);
  });
  return { api: hostApi.api, events, close: () => hostApi.close() };
}

/** Resolves with the run once an event says it ended, then its rows from getBulkRun. */
async function ended(api: SitewalkApi, events: BulkRunView[], runId: string): Promise<BulkRunView> {
  await vi.waitFor(() => {
    if (!events.some((run) => run.id === runId && run.state === 'ended')) throw new Error(`run ${runId} has not ended (its last state: ${events.findLast((run) => run.id === runId)?.state ?? 'no event yet'})`);
  }, { ...waiting('the run to end', 60_000), interval: 20 });
  return (await api.getBulkRun(runId))!;
}

/** Once an event says the run has checked its file again and is queueing (its first progress). */
async function queueing(events: BulkRunView[], runId: string): Promise<void> {
  await vi.waitFor(() => expect(events.some((run) => run.id === runId && !run.checking && run.progress !== null)).toBe(true), waiting('the run to queue its first batch', 60_000));
}

/** The preview stores an import keeps in the data folder's uploads/ while it checks a file. */
function previewStores(core: SitewalkCore): string[] {
  return readdirSync(join(core.dataDir, 'uploads')).filter((name) => name.includes('preview'));
}

const SITES_CSV = ['Site name,Height (ft),Lat,Lon,Group,Colour', 'Ridge One,100,45.1,-111.1,North,blue', 'Ridge Two,164,45.2,-111.2,North,green', 'Ridge Three,98,45.3,-111.3,South,red', ''].join('\r\n');

describe('bulk work through the host contract', () => {
  it('previews a file without queueing, then applies it: every row reported, the service holds the rows, progress told on the way', async ({ sandbox, core }) => {
    const { api, events } = hostOn(core);
    const file = value(await api.openBulkFile({ name: 'audit.csv', base64: base64(SITES_CSV) }));
    expect(file).toMatchObject({ name: 'audit.csv', size: Buffer.byteLength(SITES_CSV) });

    const preview: ImportPreviewView = value(await api.previewImport(file.fileId, {}));
    expect(preview.summary).toMatchObject({ total: 3, ready: 3, creates: 3, invalid: 0 });
    expect(preview.firstPage.rows.map((row) => row.edit?.height)).toEqual([30, 50, 30]);
    expect(core.outbox.list()).toHaveLength(0);

    // Answered at once: checking the file again (the register may have changed) is the run's first step.
    const started = value(await api.startImport(file.fileId, {}));
    expect(started).toMatchObject({ kind: 'import', fileName: 'audit.csv', state: 'running', checking: true, progress: null });
    const run = await ended(api, events, started.id);
    expect(run.result).toMatchObject({ outcome: 'completed', counts: { total: 3, created: 3 } });
    expect(run.rows!.map((row) => [row.row, row.status])).toEqual([
      [2, 'created'],
      [3, 'created'],
      [4, 'created'],
    ]);
    expect(events.some((event) => event.id === started.id && event.state === 'running' && event.progress !== null)).toBe(true);
    expect(events.every((event) => event.rows === null)).toBe(true);

    const onService = await serviceSites(sandbox.url);
    for (const row of run.rows!) {
      const site = onService.find((candidate) => candidate.id === row.siteId);
      expect(site?.name).toBe(row.name);
    }
    expect(onService.find((site) => site.name === 'Ridge Two')).toMatchObject({ height: 50, latitude: 45.2, longitude: -111.2, group: 'North', pinStyle: 4 });

    const report = value(await api.getBulkReport(started.id));
    expect(report.fileName).toBe('audit-report.csv');
    expect(report.content.split('\r\n')[0]).toBe('\uFEFFrow,siteId,name,action,status,message');
    expect(report.content).toContain(`3,${run.rows![1]!.siteId},Ridge Two,create,created,`);
  });

  it('maps columns by hand and fills blanks from defaults, and refuses a file with invalid rows unless told to skip them', async ({ sandbox, core }) => {
    const { api, events } = hostOn(core);
    const csv = 'Tower,Elev,Y,X\r\nA,30,45.1,-111.1\r\nB,thirty,45.2,-111.2\r\nC,,45.3,-111.3\r\n';
    const file = value(await api.openBulkFile({ name: 'towers.csv', base64: base64(csv) }));

    const mapped = value(await api.previewImport(file.fileId, { mapping: { Tower: 'name', Elev: 'height' }, defaults: { height: '25' } }));
    expect(mapped.columns.map((column) => [column.header, column.target, column.source])).toEqual([
      ['Tower', 'name', 'manual'],
      ['Elev', 'height', 'manual'],
      ['Y', 'latitude', 'auto'],
      ['X', 'longitude', 'auto'],
    ]);
    expect(mapped.summary).toMatchObject({ total: 3, ready: 2, invalid: 1 });
    expect(value(await api.getPreviewRows(file.fileId, { filter: 'all', offset: 0 })).rows[2]!.edit?.height).toBe(25);

    const refused = await ended(api, events, value(await api.startImport(file.fileId, { mapping: { Tower: 'name', Elev: 'height' }, defaults: { height: '25' } })).id);
    expect(refused.result).toMatchObject({ outcome: 'refused' });
    expect(await serviceSites(sandbox.url)).toHaveLength(0);

    const skipping = value(await api.startImport(file.fileId, { mapping: { Tower: 'name', Elev: 'height' }, defaults: { height: '25' }, skipInvalid: true }));
    const run = await ended(api, events, skipping.id);
    expect(run.rows!.map((row) => row.status)).toEqual(['created', 'invalid', 'created']);
    expect((await serviceSites(sandbox.url)).map((site) => site.name).sort()).toEqual(['A', 'C']);
  });

  it('cancels a run: rows not yet sent leave the outbox and are reported cancelled', async ({ sandbox, core }) => {
    sandbox.setFaults({ latencyMs: 150 });
    const { api, events } = hostOn(core);
    const rows = Array.from({ length: 60 }, (_, index) => `Cancel ${index},20,45.${index},-111`);
    const file = value(await api.openBulkFile({ name: 'many.csv', base64: base64(`name,height,lat,lon\n${rows.join('\n')}\n`) }));
    const started = value(await api.startImport(file.fileId, {}));
    await queueing(events, started.id);
    value(await api.cancelBulkRun(started.id));
    const run = await ended(api, events, started.id);
    expect(run.result!.outcome).toBe('cancelled');
    const cancelled = run.rows!.filter((row) => row.status === 'cancelled').length;
    const created = run.rows!.filter((row) => row.status === 'created').length;
    expect(cancelled).toBeGreaterThan(0);
    expect(cancelled + created).toBe(60);
    expect((await serviceSites(sandbox.url)).length).toBe(created);
    expect(core.outbox.list().filter((entry) => entry.state === 'pending')).toHaveLength(0);
  });

  it('stops following when the host closes, and leaves what is queued in the outbox', async ({ sandbox, core }) => {
    sandbox.setFaults({ latencyMs: 200 });
    const { api, events, close } = hostOn(core);
    const rows = Array.from({ length: 30 }, (_, index) => `Closing ${index},20,45.${index},-111`);
    const file = value(await api.openBulkFile({ name: 'closing.csv', base64: base64(`name,height,lat,lon\n${rows.join('\n')}\n`) }));
    const started = value(await api.startImport(file.fileId, {}));
    await queueing(events, started.id);
    close();
    const run = await ended(api, events, started.id);
    expect(run.result).toMatchObject({ outcome: 'stopped', stoppedBecause: expect.stringMatching(/waits in the outbox/) });
    expect(run.rows!.filter((row) => row.status === 'cancelled')).toHaveLength(0);
    const waiting = run.rows!.filter((row) => row.status === 'queued').length;
    expect(waiting).toBeGreaterThan(0);
    expect(core.outbox.list().filter((entry) => entry.state === 'pending' || entry.state === 'sending').length).toBeGreaterThan(0);
  });

  // The check of a large file takes seconds: the page follows it and can stop it, losing nothing.
  for (const stop of ['cancel', 'close'] as const) {
    it(`stops checking the file again when ${stop === 'cancel' ? 'the run is cancelled' : 'the host closes'}: nothing queued, the rows checked so far removed`, async ({ core }) => {
      const { api, events, close } = hostOn(core);
      const rows = Array.from({ length: 30_000 }, (_, index) => `Checked ${index},20,${(40 + index / 10_000).toFixed(4)},-111`);
      const file = value(await api.openBulkFile({ name: 'checked.csv', base64: base64(`name,height,lat,lon\n${rows.join('\n')}\n`) }));
      value(await api.previewImport(file.fileId, {}));
      const started = value(await api.startImport(file.fileId, {}));
      expect(started).toMatchObject({ checking: true, progress: null });
      if (stop === 'cancel') value(await api.cancelBulkRun(started.id));
      else close();
      const run = await ended(api, events, started.id);
      expect(run).toMatchObject({ checking: false, progress: null, rows: [] });
      expect(run.result).toMatchObject(stop === 'cancel' ? { outcome: 'cancelled', counts: { total: 0, queued: 0 } } : { outcome: 'stopped', stoppedBecause: 'Sitewalk closed while the file was checked again; nothing was queued.' });
      expect(core.outbox.list()).toEqual([]);
      // The dry run's own rows stay while the file is open (they go with it at close); the check's are gone.
      expect(previewStores(core)).toHaveLength(stop === 'cancel' ? 1 : 0);
    });
  }

  it('reprocesses the selected rows of an EUS download into a Multi Map, emailing each submission once', async ({ startSandbox, openCore }) => {
    const sandbox = await startSandbox({ seed: 'demo' });
    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url);
    const { api, events } = hostOn(core);
    const submissions = (await serviceSubmissions(sandbox.url)).slice(0, 4);
    const target = (await serviceMultiMaps(sandbox.url)).find((map) => map.id !== submissions[0]!.multiMapId)!;
    const csv = ['Process ID,Name,Address', ...submissions.map((s) => `${s.processId},${s.name},"${s.address}"`), `${submissions[0]!.processId},${submissions[0]!.name},again`].join('\n');
    const file = value(await api.openBulkFile({ name: 'eus.csv', base64: base64(csv) }));

    const unchosen: EusPlan = value(await api.previewReprocessFile(file.fileId, { multiMapId: '', sendEmail: false }));
    expect(unchosen.processIdColumn).toBe('Process ID');
    expect(unchosen.rows).toHaveLength(5);
    expect(unchosen.problems.join(' ')).toMatch(/Multi Map/);

    const choice = { multiMapId: target.id, sendEmail: true, selectedRows: [2, 3, 4, 6] };
    const plan = value(await api.previewReprocessFile(file.fileId, choice));
    expect(plan.summary).toMatchObject({ ready: 3, repeats: 1 });
    const mailBefore = (await serviceMail(sandbox.url)).length;
    const run = await ended(api, events, value(await api.startReprocessFile(file.fileId, choice)).id);
    expect(run.rows!.map((row) => [row.row, row.status])).toEqual([
      [2, 'reprocessed'],
      [3, 'reprocessed'],
      [4, 'reprocessed'],
      [6, 'skipped'],
    ]);
    const after = await serviceSubmissions(sandbox.url);
    for (const submission of submissions.slice(0, 3)) expect(after.find((s) => s.processId === submission.processId)!.multiMapId).toBe(target.id);
    expect(after.find((s) => s.processId === submissions[3]!.processId)!.multiMapId).toBe(submissions[3]!.multiMapId);
    const mail = (await serviceMail(sandbox.url)).slice(mailBefore);
    expect(new Set(mail.map((m) => m.processId))).toEqual(new Set(submissions.slice(0, 3).map((s) => s.processId)));
  });

  it('exports the register as CSV that imports back unchanged, and as KML and GeoJSON', async ({ core }) => {
    const { api, events } = hostOn(core);
    const file = value(await api.openBulkFile({ name: 'audit.csv', base64: base64(SITES_CSV) }));
    await ended(api, events, value(await api.startImport(file.fileId, {})).id);

    const csv = value(await api.exportSites('csv', {}));
    expect(csv.fileName).toMatch(/^sitewalk-sites-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.content.startsWith('\uFEFFSiteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle')).toBe(true);
    const again = value(await api.openBulkFile({ name: csv.fileName, base64: base64(csv.content) }));
    expect(value(await api.previewImport(again.fileId, {})).summary).toMatchObject({ total: 3, unchanged: 3, ready: 0 });

    const kml = value(await api.exportSites('kml', {}));
    expect(kml.mimeType).toBe('application/vnd.google-earth.kml+xml');
    expect(kml.content.match(/<Placemark/g)).toHaveLength(3);
    const geojson = JSON.parse(value(await api.exportSites('geojson', {})).content) as { features: unknown[] };
    expect(geojson.features).toHaveLength(3);

    // Only the sites the page shows: what the list's search and filters leave.
    const two = core.sites.list().slice(0, 2);
    const only = value(await api.exportSites('csv', { localIds: two.map((site) => site.localId) }));
    expect(only.content.trim().split('\r\n')).toHaveLength(3);
    expect(only.notes[0]).toBe('2 sites written.');
    for (const site of two) expect(only.content).toContain(site.name);
  });

  it('refuses a damaged or empty upload, a file that is gone, and a report before the run ends', async ({ sandbox, core }) => {
    sandbox.setFaults({ latencyMs: 300 });
    const { api } = hostOn(core);
    expect(await api.openBulkFile({ name: 'x.csv', base64: '' })).toMatchObject({ ok: false, issues: [{ field: 'file', message: 'x.csv is empty.' }] });
    expect(await api.openBulkFile({ name: 'x.csv', base64: 'bmFtZSxoZWlnaHQ*&^' })).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/did not arrive whole/) }] });
    expect(await api.previewImport('no-such-file', {})).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/no longer open/) }] });
    const file = value(await api.openBulkFile({ name: 'one.csv', base64: base64('name,height,lat,lon\nSlow,20,45,-111\n') }));
    const started = value(await api.startImport(file.fileId, {}));
    expect(await api.getBulkReport(started.id)).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/once the run has ended/) }] });
    expect(await api.getBulkRun('nope')).toBeNull();
  });

  it('holds each file on disk in the data folder (0700, 0600), drops the oldest past the count, and removes them at close and at the next start', async ({ core }) => {
    const uploads = join(core.dataDir, 'uploads');
    // What a run that died left behind (its process is gone), and a file of a process still running.
    mkdirSync(uploads, { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(uploads, `${gone}-left.upload`), 'name\n');
    writeFileSync(join(uploads, `${process.ppid}-running.upload`), 'name\n');
    const hostApi = createHostApi(core, { host: 'browser', bulk: { maxFiles: 2 } });
    try {
      expect(readdirSync(uploads)).toEqual([`${process.ppid}-running.upload`]);
      expect(statSync(uploads).mode & 0o777).toBe(0o700);
      const opened = [];
      for (const name of ['a.csv', 'b.csv', 'c.csv']) opened.push(value(await hostApi.api.openBulkFile({ name, base64: base64('name,height,lat,lon\nRidge,30,45.1,-111.1\n') })));
      const held = readdirSync(uploads).filter((name) => name.startsWith(`${process.pid}-`));
      expect(held).toHaveLength(2);
      for (const name of held) expect(statSync(join(uploads, name)).mode & 0o777).toBe(0o600);
      expect(await hostApi.api.previewImport(opened[0]!.fileId, {})).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/no longer open/) }] });
      expect(value(await hostApi.api.previewImport(opened[2]!.fileId, {})).summary).toMatchObject({ ready: 1 });
    } finally {
      await hostApi.close();
    }
    expect(readdirSync(uploads)).toEqual([`${process.ppid}-running.upload`]);
  });

  it('takes a streamed file as it arrives and stops reading past the limit, keeping nothing', async ({ core }) => {
    const hostApi = createHostApi(core, { host: 'browser', bulk: { maxFileBytes: 64 * 1024 } });
    const uploads = join(core.dataDir, 'uploads');
    try {
      const row = 'Ridge,30,45.1,-111.1\n';
      const fits = Readable.from([Buffer.from('name,height,lat,lon\n'), Buffer.from(row.repeat(100))]);
      const file = value((await hostApi.receiveBulkFile('fits.csv', fits, null)) as Result<{ fileId: string; size: number }>);
      expect(file.size).toBe(20 + row.length * 100);
      expect(value(await hostApi.api.previewImport(file.fileId, {})).summary).toMatchObject({ ready: 100 });

      let pulled = 0;
      // Endless: only a reader that stops at the limit gets past this.
      const endless = new Readable({
        read() {
          pulled++;
          this.push(Buffer.alloc(16 * 1024, 0x41));
        },
      });
      expect(await hostApi.receiveBulkFile('endless.csv', endless, null)).toEqual({ tooLarge: 'endless.csv is larger than 0 MB, the limit; split the file.' });
      expect(pulled).toBeLessThan(20);
      expect(await hostApi.receiveBulkFile('told.csv', Readable.from([]), 10 * 1024 * 1024)).toEqual({ tooLarge: 'told.csv is 10 MB; the limit is 0 MB. Split the file.' });
      expect(await hostApi.receiveBulkFile('empty.csv', Readable.from([]), 0)).toMatchObject({ ok: false, issues: [{ message: 'empty.csv is empty.' }] });
      // The one file that fits, and its preview's rows (kept beside it on disk while it is held).
      expect(readdirSync(uploads).filter((name) => !name.endsWith('-preview.upload'))).toHaveLength(1);
      expect(readdirSync(uploads).filter((name) => name.endsWith('-preview.upload'))).toHaveLength(1);
    } finally {
      await hostApi.close();
    }
  });

  it('answers the dry run with counts and a first page, keeps the rows, and gives any page of any filter and the whole report', async ({ core }) => {
    const { api } = hostOn(core);
    // 250 rows; every tenth has no height (invalid).
    const rows = Array.from({ length: 250 }, (_, index) => `Ridge ${index},${index % 10 === 0 ? '' : 30},45.${index},-111.1`);
    const file = value(await api.openBulkFile({ name: 'many.csv', base64: base64(`name,height,lat,lon\n${rows.join('\n')}\n`) }));
    const preview = value(await api.previewImport(file.fileId, {}));
    expect(preview).not.toHaveProperty('rows');
    expect(preview.rowCounts).toEqual({ all: 250, invalid: 25, notes: 0, create: 225, edit: 0, unchanged: 0, skip: 0 });
    // The invalid rows first, since there are some.
    expect(preview.firstPage).toMatchObject({ filter: 'invalid', offset: 0, total: 25 });
    expect(preview.firstPage.rows.map((row) => row.row)).toEqual(Array.from({ length: 25 }, (_, index) => 2 + index * 10));

    const third = value(await api.getPreviewRows(file.fileId, { filter: 'all', offset: 200 }));
    expect(third).toMatchObject({ filter: 'all', offset: 200, total: 250 });
    expect(third.rows.map((row) => row.row)).toEqual(Array.from({ length: 50 }, (_, index) => 202 + index));
    const creates = value(await api.getPreviewRows(file.fileId, { filter: 'create', offset: 100 }));
    expect(creates.rows).toHaveLength(100);
    expect(creates.rows[0]).toMatchObject({ row: 114, action: 'create', ready: true });
    expect(value(await api.getPreviewRows(file.fileId, { filter: 'all', offset: 300 })).rows).toEqual([]);

    const report = value(await api.getDryRunReport(file.fileId));
    expect(report.fileName).toBe('many-dry-run.csv');
    expect(report.content.trimEnd().split('\r\n')).toHaveLength(251);

    const other = value(await api.openBulkFile({ name: 'other.csv', base64: base64('name,height,lat,lon\nA,30,45,-111\n') }));
    expect(await api.getPreviewRows(other.fileId, { filter: 'all', offset: 0 })).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/not been checked yet/) }] });
  });
});
