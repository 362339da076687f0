// `sitewalk import|export|reprocess-bulk` (run in-process) on a temp data folder: what is queued,
// what is refused, the exit codes, the JSON document and the report file. Nothing here sends
// anything (dry runs and --no-wait); sending is covered against the sandbox in apply-sandbox.test.ts.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { reportRows } from '../support/report-csv';
import { dataDirsRemovedAfterEach, FIXTURES } from './helpers';

const dataDir = dataDirsRemovedAfterEach('sitewalk-bulk-cli-');
const fixture = (name: string) => join(FIXTURES, name);
const runCli = sitewalkInTempHome();

async function outboxEntries(dir: string): Promise<Array<{ state: string; summary: string; payload: Record<string, unknown> }>> {
  const run = await runCli(['outbox', '--data-dir', dir, '--json']);
  expect(run.code).toBe(0);
  return (run.json?.entries ?? run.json?.outbox ?? []) as Array<{ state: string; summary: string; payload: Record<string, unknown> }>;
}

describe('sitewalk import', { timeout: 180_000 }, () => {
  it('dry run: reports every row, queues nothing, exits 1 because rows are invalid', async () => {
    const dir = await dataDir();
    const run = await runCli(['import', fixture('mixed-valid.csv'), '--dry-run', '--json', '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ ok: false, command: 'import', dryRun: true, summary: { total: 5, ready: 2, invalid: 3 } });
    expect(run.json?.rows.map((row: { row: number; status: string }) => [row.row, row.status])).toEqual([
      [2, 'would-queue'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'invalid'],
      [6, 'would-queue'],
    ]);
    expect(await outboxEntries(dir)).toEqual([]);
  });

  it('refuses a file with invalid rows as a whole unless --skip-invalid, and then queues exactly the valid ones in one batch', async () => {
    const dir = await dataDir();
    const refused = await runCli(['import', fixture('mixed-valid.csv'), '--no-wait', '--json', '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ ok: false, outcome: 'refused', blockers: [expect.stringMatching(/3 rows are invalid.*Nothing was queued/)] });
    expect(await outboxEntries(dir)).toEqual([]);

    const queued = await runCli(['import', fixture('mixed-valid.csv'), '--no-wait', '--skip-invalid', '--json', '--data-dir', dir]);
    // The invalid rows are still reported and still make the exit code 1.
    expect(queued.code).toBe(1);
    expect(queued.json).toMatchObject({ ok: false, outcome: 'queued', counts: { queued: 2, invalid: 3 } });
    const entries = await outboxEntries(dir);
    expect(entries.map((entry) => [entry.state, entry.payload.name])).toEqual([
      ['pending', 'Good'],
      ['pending', 'Also good'],
    ]);
  });

  it('writes the row-by-row report as CSV with every row of the file', async () => {
    const dir = await dataDir();
    const report = join(dir, 'report.csv');
    const run = await runCli(['import', fixture('duplicates.csv'), '--dry-run', '--report', report, '--data-dir', dir]);
    expect(run.code).toBe(1);
    const rows = reportRows(await readFile(report, 'utf8'));
    expect(rows.map((row) => [row[0], row[1], row[4]])).toEqual([
      ['2', '100001', 'would-queue'],
      ['3', '100002', 'invalid'],
      ['4', '100003', 'would-queue'],
      ['5', '100002', 'invalid'],
    ]);
    expect(rows[1]?.[5]).toMatch(/Site ID 100002 is on rows 3 and 5/);
    // Human output names the rows that need a look.
    expect(run.stdout).toMatch(/^row\s+status\s+site\s+message/);
  });

  it('applies a manual mapping and defaults from the command line', async () => {
    const dir = await dataDir();
    const file = join(dir, 'audit.csv');
    await writeFile(file, 'Tower;Elev ft;N;E\r\nRidge;100;40,1;-79,1\r\n');
    const run = await runCli(['import', file, '--mapping', 'Tower=name,Elev ft=heightFeet', '--mapping', 'N=latitude,E=longitude', '--default', 'pinStyle=green', '--no-wait', '--json', '--data-dir', dir]);
    expect(run.code).toBe(0);
    const entries = await outboxEntries(dir);
    expect(entries[0]?.payload).toMatchObject({ name: 'Ridge', height: 30, latitude: 40.1, longitude: -79.1, pinStyle: 4 });
  });

  it('exits 2 for a mapping to a column the file does not have, or a bad option, and queues nothing', async () => {
    const dir = await dataDir();
    const unknown = await runCli(['import', fixture('utf8-bom.csv'), '--mapping', 'Tower=name', '--json', '--data-dir', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.json?.error.issues[0].message).toMatch(/no column "Tower"/);
    const badDefault = await runCli(['import', fixture('utf8-bom.csv'), '--default', 'colour', '--data-dir', dir]);
    expect(badDefault.code).toBe(2);
    expect(badDefault.stderr).toMatch(/--default "colour" must be field=value/);
    expect(await outboxEntries(dir)).toEqual([]);
  });

  it('exits 3 when the file is missing, in no believable encoding, or has a broken quote', async () => {
    const dir = await dataDir();
    const missing = await runCli(['import', join(dir, 'nope.csv'), '--json', '--data-dir', dir]);
    expect(missing.code).toBe(3);
    expect(missing.json).toMatchObject({ ok: false, error: { message: `There is no file at ${join(dir, 'nope.csv')}.` } });
    const garbled = await runCli(['import', fixture('not-western.csv'), '--data-dir', dir]);
    expect(garbled.code).toBe(3);
    expect(garbled.stderr).toMatch(/still looks wrong/);
    const broken = await runCli(['import', fixture('broken-quote.csv'), '--skip-invalid', '--json', '--data-dir', dir]);
    expect(broken.code).toBe(3);
    expect(broken.json?.problems[0]).toMatch(/never closed/);
    expect(await outboxEntries(dir)).toEqual([]);
  });

  it('says on stderr that a Windows-1252 file was read as such', async () => {
    const dir = await dataDir();
    const run = await runCli(['import', fixture('windows-1252.csv'), '--dry-run', '--json', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/read as Windows-1252/);
    expect(run.json?.details.encoding).toBe('windows-1252');
  });
});

describe('sitewalk export', { timeout: 180_000 }, () => {
  it('writes CSV to stdout, and KML or GeoJSON to a file with a JSON summary', async () => {
    const dir = await dataDir();
    expect((await runCli(['import', fixture('utf8-bom.csv'), '--no-wait', '--data-dir', dir])).code).toBe(0);
    const csv = await runCli(['export', '--data-dir', dir]);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')).toEqual([
      'Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle',
      ',Caf\u00e9 Ridge,30,40.4461,-79.9822,North slope,Ridge,2',
      '100002,Z\u00fcrich Stra\u00dfe,45,40.5,-80.01,,Valley,4',
      '',
    ]);
    expect(csv.stderr).toMatch(/1 site has no service ID yet/);
    // --json keeps its promise of one JSON document on stdout: the file's text is in it.
    const document = await runCli(['export', '--json', '--data-dir', dir]);
    expect(document.code).toBe(0);
    expect(document.json).toMatchObject({ ok: true, command: 'export', format: 'csv', count: 2, text: csv.stdout });

    const kmlPath = join(dir, 'sites.kml');
    const kml = await runCli(['export', '-o', kmlPath, '--json', '--data-dir', dir]);
    expect(kml.code).toBe(0);
    expect(kml.json).toMatchObject({ ok: true, format: 'kml', count: 2, file: kmlPath });
    expect(await readFile(kmlPath, 'utf8')).toMatch(/<Placemark id="site-100002">[\s\S]*<styleUrl>#pin-4<\/styleUrl>/);

    const geoPath = join(dir, 'sites.geojson');
    expect((await runCli(['export', '--format', 'geojson', '-o', geoPath, '--data-dir', dir])).code).toBe(0);
    const geo = JSON.parse(await readFile(geoPath, 'utf8')) as { features: Array<{ geometry: { coordinates: number[] } }> };
    expect(geo.features[1]?.geometry.coordinates).toEqual([-80.01, 40.5]);
  });

  it('writes a CSV file for Excel with a byte-order mark, and exits 3 when the folder does not exist', async () => {
    const dir = await dataDir();
    const path = join(dir, 'sites.csv');
    expect((await runCli(['export', '-o', path, '--data-dir', dir])).code).toBe(0);
    expect((await readFile(path, 'utf8')).startsWith('\uFEFFSiteid,')).toBe(true);
    const nowhere = await runCli(['export', '-o', join(dir, 'no', 'x.csv'), '--data-dir', dir]);
    expect(nowhere.code).toBe(3);
  });
});

describe('sitewalk reprocess-bulk', { timeout: 180_000 }, () => {
  it('dry run: filters rows, reprocesses each submission once, names the Multi Map and the email choice', async () => {
    const dir = await dataDir();
    const run = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', '301', '--filter', 'City=millbrook', '--dry-run', '--json', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ ok: true, processIdColumn: 'ProcessID', multiMapId: '301', sendEmail: false, summary: { ready: 2, repeats: 1, excluded: 2 } });
    expect(run.json?.rows.map((row: { row: number; status: string; name: string }) => [row.row, row.status, row.name])).toEqual([
      [2, 'would-queue', 'Ann Lee'],
      [3, 'would-queue', 'Bo Kim'],
      [5, 'skipped', 'Bo Kim'],
    ]);
    expect(run.stderr).toMatch(/2 submissions would be reprocessed into Multi Map 301 without email/);
  });

  it('queues one reprocess per submission with --no-wait; a bad Multi Map ID is a usage error', async () => {
    const dir = await dataDir();
    const bad = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', 'north', '--data-dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Multi Map ID must be digits only/);
    // Row 6 has no process ID: refused as a whole by default…
    const refused = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', '301', '--email', '--no-wait', '--json', '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ outcome: 'refused', counts: { invalid: 1, cancelled: 3 } });
    expect(await outboxEntries(dir)).toEqual([]);
    // …and with --skip-invalid the three submissions are queued, each once; the row is still reported (exit 1).
    const run = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', '301', '--email', '--no-wait', '--skip-invalid', '--json', '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ outcome: 'queued', counts: { queued: 3, skipped: 1, invalid: 1 } });
    const entries = await outboxEntries(dir);
    expect(entries.map((entry) => entry.payload)).toEqual([
      { processId: '58001', multiMapId: '301', sendEmail: true },
      { processId: '58002', multiMapId: '301', sendEmail: true },
      { processId: '58003', multiMapId: '301', sendEmail: true },
    ]);
  });

  it('--within keeps the submissions near a site (distances from the data folder\'s sites), and says when the file has no positions', async () => {
    const dir = await dataDir();
    const sites = join(dir, 'towers.csv');
    await writeFile(sites, 'Sitename,height,Latitude,Longitude\nRidge,30,45.1,-111.1\n');
    expect((await runCli(['import', sites, '--no-wait', '--data-dir', dir])).code).toBe(0);
    const eus = join(dir, 'eus-positions.csv');
    await writeFile(eus, 'ProcessID,Name,Lat,Lon\n1,Near,45.105,-111.1\n2,Far,46.1,-111.1\n3,Nowhere,,\n');
    const run = await runCli(['reprocess-bulk', eus, '--multi-map', '301', '--within', '2', '--dry-run', '--json', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.json?.rows.map((row: { row: number; status: string }) => [row.row, row.status])).toEqual([[2, 'would-queue']]);
    expect(run.json).toMatchObject({ summary: { ready: 1, excluded: 2 } });
    const none = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', '301', '--within', '2', '--dry-run', '--data-dir', dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no latitude and longitude columns/);
    const bad = await runCli(['reprocess-bulk', eus, '--multi-map', '301', '--within', 'near', '--dry-run', '--data-dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--within takes a distance in kilometers/);
  });
});
