// `sitewalk import` and `sitewalk reprocess-bulk` against the sandbox (started in this test process
// on a random loopback port): the import waits for the service and its report matches the service's
// state row by row; Ctrl-C cancels what was not sent yet — a real process and a real SIGINT there,
// the CLI's main() in this process everywhere else.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { auditCsv } from '../bench/bulk';
import { it } from '../support/fixtures';
import { reportRows } from '../support/report-csv';
import { serviceMail, serviceMultiMaps, serviceSites, serviceSubmissions } from '../support/service-state';
import { waiting } from '../support/wait';
import { sitewalkInTempHome, startSitewalk } from '../support/cli';
import { FIXTURES } from './helpers';

it.override('sandboxSeed', 'empty');
const runCli = sitewalkInTempHome();

/** Makes `dir` a data folder whose active profile is the sandbox at `url`; the key comes from SITEWALK_KEY per run. */
async function profileFor(url: string, dir: string): Promise<{ dir: string; env: Record<string, string> }> {
  const env = { SITEWALK_KEY: 'sandbox-demo-key' };
  expect((await runCli(['profile', 'add', 'Office', '--base-url', url, '--account', '10001', '--data-dir', dir], { env })).code).toBe(0);
  expect((await runCli(['profile', 'use', 'Office', '--data-dir', dir], { env })).code).toBe(0);
  return { dir, env };
}

describe('sitewalk bulk commands against the sandbox', { timeout: 300_000 }, () => {
  it('imports a European Excel file, sends it, and writes a report that matches the service', async ({ sandbox, tempDir }) => {
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const report = join(dir, 'report.csv');
    const run = await runCli(['import', join(FIXTURES, 'semicolon-decimal-comma.csv'), '--report', report, '--json', '--data-dir', dir], { env });
    expect(run.stderr).not.toContain('\r');
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ ok: true, outcome: 'completed', counts: { created: 2 } });
    const rows = reportRows(await readFile(report, 'utf8'));
    const sites = new Map((await serviceSites(sandbox.url)).map((site) => [String(site.id), site]));
    expect(rows.map((row) => [row[0], row[2], row[4]])).toEqual([
      ['2', 'Nordhang', 'created'],
      ['3', 'S\u00fcdhang', 'created'],
    ]);
    expect(sites.get(rows[0]![1]!)).toMatchObject({ name: 'Nordhang', latitude: 40.4461, longitude: -79.9822, description: 'Mast, Stahl, 30 m', pinStyle: 1 });
    expect(sites.get(rows[1]![1]!)).toMatchObject({ name: 'S\u00fcdhang', height: 42, pinStyle: 4 });

    // The register now holds the new IDs: exporting and importing again changes nothing.
    const exported = join(dir, 'export.csv');
    expect((await runCli(['export', '-o', exported, '--data-dir', dir], { env })).code).toBe(0);
    const again = await runCli(['import', exported, '--json', '--data-dir', dir], { env });
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ counts: { unchanged: 2, created: 0, updated: 0 } });
    expect(await serviceSites(sandbox.url)).toHaveLength(2);
  });

  it('cancels on Ctrl-C: rows not yet sent leave the outbox, the rest is reported as it went', async ({ sandbox, tempDir }) => {
    sandbox.setFaults({ latencyMs: 60 });
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const file = join(dir, 'audit.csv');
    await writeFile(file, auditCsv(300));
    const cli = startSitewalk(dir, ['import', file, '--json', '--data-dir', dir], { env });
    // Interrupt once the service has some of the sites.
    await expect.poll(async () => (await serviceSites(sandbox.url)).length, { ...waiting('the import to start sending', 120_000), interval: 50 }).toBeGreaterThanOrEqual(10);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Cancelling/);
    expect(run.json).toMatchObject({ ok: false, outcome: 'cancelled' });
    const created = (run.json!.rows as Array<{ status: string; siteId: string }>).filter((row) => row.status === 'created');
    expect(run.json!.counts.created + run.json!.counts.cancelled).toBe(300);
    expect(run.json!.counts.cancelled).toBeGreaterThan(0);
    const onService = new Set((await serviceSites(sandbox.url)).map((site) => String(site.id)));
    expect(onService).toEqual(new Set(created.map((row) => row.siteId)));
    const outbox = await runCli(['outbox', '--json', '--data-dir', dir], { env });
    expect(outbox.json?.entries).toEqual([]);
  });

  it('says which entry a run waits behind and writes its report, instead of exiting silently (a real process)', async ({ startSandbox, tempDir }) => {
    const sandbox = await startSandbox({ seed: 'demo' });
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const target = String((await serviceMultiMaps(sandbox.url))[0]!.id);
    // A reprocess of a submission the service does not have fails, and stays in the outbox.
    expect((await runCli(['reprocess', '--process-id', '990001', '--multi-map', target, '--data-dir', dir], { env })).code).toBe(0);
    expect((await runCli(['sync', '--data-dir', dir], { env })).code).toBe(3);
    const failed = (await runCli(['outbox', '--json', '--data-dir', dir], { env })).json.entries[0];
    expect(failed).toMatchObject({ state: 'failed' });
    // The same submission again, from a file: its row waits behind the failed entry, which only a person can act on.
    const file = join(dir, 'eus.csv');
    const report = join(dir, 'report.csv');
    await writeFile(file, 'ProcessID\n990001\n');
    const run = await startSitewalk(dir, ['reprocess-bulk', file, '--multi-map', target, '--report', report, '--json', '--data-dir', dir], { env }).done;
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ ok: false, outcome: 'stopped', stoppedBecause: expect.stringContaining(`behind an earlier entry of the same site or submission that failed or needs review (${failed.id})`) });
    expect(reportRows(await readFile(report, 'utf8'))).toHaveLength(1);
  });

  it("says a row's warnings in the run's rows once it is sent, as the dry run did: updated, and the meters a height in feet became", async ({ sandbox, tempDir }) => {
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const first = join(dir, 'first.csv');
    await writeFile(first, 'Sitename,height,Latitude,Longitude\nRidge,30,40.1,-79.1\n');
    const created = await runCli(['import', first, '--json', '--data-dir', dir], { env });
    expect(created.code, created.stderr).toBe(0);
    const siteId = String(created.json!.rows[0].siteId);
    const edit = join(dir, 'edit.csv');
    await writeFile(edit, `Siteid,Sitename,height,Latitude,Longitude\n${siteId},,40 ft,,\n`);
    const run = await runCli(['import', edit, '--data-dir', dir], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^2\\s+updated\\s+${siteId}\\s+.*Height 40 ft is sent as 12 m`, 'm'));
    expect((await serviceSites(sandbox.url)).find((site) => String(site.id) === siteId)).toMatchObject({ height: 12 });
  });

  it('reprocesses submissions listed in an EUS download into a Multi Map', async ({ startSandbox, tempDir }) => {
    const sandbox = await startSandbox({ seed: 'demo' });
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const submissions = (await serviceSubmissions(sandbox.url)).slice(0, 4);
    const target = (await serviceMultiMaps(sandbox.url))[0]!.id;
    const file = join(dir, 'eus.csv');
    await writeFile(file, ['ProcessID,Name,Address', ...submissions.map((s) => `${s.processId},"${s.name}","${s.address}"`)].join('\n'));
    const run = await runCli(['reprocess-bulk', file, '--multi-map', target, '--json', '--data-dir', dir], { env });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ ok: true, outcome: 'completed', sendEmail: false, counts: { reprocessed: 4 } });
    const after = new Map((await serviceSubmissions(sandbox.url)).map((s) => [s.processId, s]));
    for (const submission of submissions) expect(after.get(submission.processId)?.multiMapId).toBe(target);
  });

  it('never emails a submission twice in 24 hours from a file: emailed ones are left out and named until --force, and the mail log says so', async ({ startSandbox, tempDir }) => {
    const sandbox = await startSandbox({ seed: 'demo' });
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const target = (await serviceMultiMaps(sandbox.url))[1]!.id;
    const mailOf = async (processId: string) => (await serviceMail(sandbox.url)).filter((m) => m.processId === processId).length;
    // 880101 and 880104 are emailed once each, one at a time, as a crew would in the EUS panel.
    for (const processId of ['880101', '880104']) {
      expect((await runCli(['reprocess', '--process-id', processId, '--multi-map', target, '--email', '--data-dir', dir], { env })).code).toBe(0);
      expect((await runCli(['sync', '--data-dir', dir], { env })).code).toBe(0);
    }
    const perSubmission = await mailOf('880101');
    expect(perSubmission).toBeGreaterThan(0);
    expect(await mailOf('880104')).toBe(perSubmission);

    // The single command refuses a second email and says how to go ahead.
    const single = await runCli(['reprocess', '--process-id', '880101', '--multi-map', target, '--email', '--data-dir', dir], { env });
    expect(single.code).not.toBe(0);
    expect(single.stderr).toMatch(/880101 already has a reprocess with email sent just now[\s\S]*--force/);

    const file = join(dir, 'eus.csv');
    await writeFile(file, 'ProcessID,Name\n880101,Ann\n880104,Bo\n880107,Cy\n');
    const dry = await runCli(['reprocess-bulk', file, '--multi-map', target, '--email', '--dry-run', '--json', '--data-dir', dir], { env });
    expect(dry.code).toBe(1);
    expect((dry.json!.rows as Array<{ siteId: string; status: string }>).map((row) => [row.siteId, row.status])).toEqual([
      ['880101', 'skipped'],
      ['880104', 'skipped'],
      ['880107', 'would-queue'],
    ]);

    const run = await runCli(['reprocess-bulk', file, '--multi-map', target, '--email', '--json', '--data-dir', dir], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/2 submissions were emailed \(or queued to be\) in the last 24 hours[^\n]*880101 \(emailed just now\), 880104 \(emailed just now\)\. Add --force to email them again\./);
    expect(run.json).toMatchObject({ ok: false, counts: { reprocessed: 1, skipped: 2 } });
    expect([await mailOf('880101'), await mailOf('880104'), await mailOf('880107')]).toEqual([perSubmission, perSubmission, perSubmission]);

    // --force is the explicit "yes, again": all three are emailed once more.
    const forced = await runCli(['reprocess-bulk', file, '--multi-map', target, '--email', '--force', '--json', '--data-dir', dir], { env });
    expect(forced.code).toBe(0);
    expect(forced.json).toMatchObject({ ok: true, counts: { reprocessed: 3 } });
    expect([await mailOf('880101'), await mailOf('880104'), await mailOf('880107')]).toEqual([2 * perSubmission, 2 * perSubmission, 2 * perSubmission]);
  });
});

describe('sitewalk sync beside another Sitewalk process', { timeout: 300_000 }, () => {
  type Entry = { state: string };
  const outboxOf = async (dir: string, env: Record<string, string>): Promise<Entry[]> => (await runCli(['outbox', '--json', '--data-dir', dir], { env })).json.entries;

  it('--until-settled waits for the entries another process is sending, instead of ending with them "still queued"', async ({ sandbox, tempDir }) => {
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    sandbox.setFaults({ latencyMs: 1_500 });
    const file = join(dir, 'audit.csv');
    await writeFile(file, auditCsv(4));
    const importing = startSitewalk(dir, ['import', file, '--json', '--data-dir', dir], { env });
    await expect.poll(async () => (await outboxOf(dir, env)).some((entry) => entry.state === 'sending'), waiting('the import to be sending', 120_000)).toBe(true);
    const sync = await runCli(['sync', '--until-settled', '--json', '--data-dir', dir], { env });
    expect(sync.code).toBe(0);
    expect(sync.json.counts).toMatchObject({ pending: 0, sending: 0, done: 4 });
    expect((await importing.done).code).toBe(0);
    expect(await serviceSites(sandbox.url)).toHaveLength(4);
  });

  it('Ctrl-C stops sending but records what was in flight: nothing the service made is left for review (a real process)', async ({ sandbox, tempDir }) => {
    const { dir, env } = await profileFor(sandbox.url, tempDir);
    const file = join(dir, 'audit.csv');
    await writeFile(file, auditCsv(40));
    expect((await runCli(['import', file, '--no-wait', '--data-dir', dir], { env })).code).toBe(0);
    sandbox.setFaults({ latencyMs: 400 });
    const syncing = startSitewalk(dir, ['sync', '--until-settled', '--json', '--data-dir', dir], { env });
    await expect.poll(async () => (await serviceSites(sandbox.url)).length, { ...waiting('the sync to be sending', 120_000), interval: 50 }).toBeGreaterThanOrEqual(4);
    syncing.child.kill('SIGINT');
    const run = await syncing.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/Stopping \(SIGINT\): nothing more is sent/);
    expect(run.json).toMatchObject({ ok: false });
    // Every create the service made is recorded with its ID; none waits for review, none is sent again.
    const entries = await outboxOf(dir, env);
    expect(entries.filter((entry) => entry.state !== 'pending')).toEqual([]);
    const sites: Array<{ siteId: string | null }> = (await runCli(['site', 'list', '--json', '--data-dir', dir], { env })).json.sites;
    const onService = (await serviceSites(sandbox.url)).map((site) => String(site.id));
    expect(new Set(sites.flatMap((site) => (site.siteId === null ? [] : [site.siteId])))).toEqual(new Set(onService));
    expect(onService.length + entries.length).toBe(40);
  });
});
