// What `sitewalk import` and `sitewalk reprocess-bulk` say (run in-process, nothing sent: dry runs and
// --no-wait): the exit code when the report cannot be written, the rows a person is shown, and the
// warnings a row carries.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { reportRows } from '../support/report-csv';
import { dataDirsRemovedAfterEach, FIXTURES } from './helpers';

const dataDir = dataDirsRemovedAfterEach('sitewalk-bulk-output-');
const fixture = (name: string) => join(FIXTURES, name);
const runCli = sitewalkInTempHome();

describe('a report that cannot be written', { timeout: 180_000 }, () => {
  it('exits 3, as the docs say, in a dry run and in a run alike, and the JSON says not ok', async () => {
    const dir = await dataDir();
    const nowhere = join(dir, 'no-such-folder', 'plan.csv');
    for (const mode of ['--dry-run', '--no-wait']) {
      const human = await runCli(['import', fixture('utf8-bom.csv'), mode, '--report', nowhere, '--data-dir', dir]);
      expect(human.stderr).toMatch(/the report was not written/);
      expect(human.code, mode).toBe(3);
      const json = await runCli(['import', fixture('utf8-bom.csv'), mode, '--report', nowhere, '--json', '--data-dir', dir]);
      expect(json.code, mode).toBe(3);
      expect(json.json, mode).toMatchObject({ ok: false, report: nowhere, reportError: expect.stringMatching(/.+/) });
    }
    const eus = await runCli(['reprocess-bulk', fixture('eus-download.csv'), '--multi-map', '301', '--filter', 'City=millbrook', '--dry-run', '--report', nowhere, '--data-dir', dir]);
    expect(eus.code).toBe(3);
  });
});

/** A data folder whose register has sites 100001 and 100003 (queued, not sent), and a file whose every row has a warning. */
async function withWarnedFile(): Promise<{ dir: string; file: string }> {
  const dir = await dataDir();
  await writeFile(join(dir, 'seed.csv'), 'Siteid,Sitename,height,Latitude,Longitude\n100001,Alpha,30,40.1,-79.1\n100003,Gamma,30,40.3,-79.3\n');
  expect((await runCli(['import', join(dir, 'seed.csv'), '--no-wait', '--data-dir', dir])).code).toBe(0);
  const file = join(dir, 'warned.csv');
  await writeFile(file, 'Siteid,Sitename,height,Latitude,Longitude\n,New at Alpha,30,40.1,-79.1\n100003,,40 ft,,\n,Dms,30,40°26\'46"N,79°58\'56"W\n');
  return { dir, file };
}

const WARNINGS: Array<[number, RegExp]> = [
  [2, /Site 100001 is already at this position; this row creates another site there\./],
  [3, /Height 40 ft is sent as 12 m/],
  [4, /Latitude 40°26'46"N is read as 40\.4461111\./],
];

describe('warnings', { timeout: 180_000 }, () => {
  it('are listed in the human output of a dry run, not only counted', async () => {
    const { dir, file } = await withWarnedFile();
    const dry = await runCli(['import', file, '--dry-run', '--data-dir', dir]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/3 with a warning/);
    const lines = dry.stdout.split('\n');
    for (const [row, warning] of WARNINGS) expect(lines.find((line) => line.startsWith(`${row} `)), `row ${row}`).toMatch(warning);
  });

  it("are said in a run's rows as in the dry run's: human table, report file and JSON", async () => {
    const human = await withWarnedFile();
    const report = join(human.dir, 'report.csv');
    const run = await runCli(['import', human.file, '--no-wait', '--report', report, '--data-dir', human.dir]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const reported = reportRows(await readFile(report, 'utf8'));
    for (const [row, warning] of WARNINGS) {
      expect(lines.find((line) => line.startsWith(`${row} `)), `row ${row}`).toMatch(warning);
      expect(reported.find((line) => line[0] === String(row))?.[5], `row ${row}`).toMatch(warning);
    }

    const json = await withWarnedFile();
    const document = await runCli(['import', json.file, '--no-wait', '--json', '--data-dir', json.dir]);
    expect(document.code).toBe(0);
    const rows = document.json.rows as Array<{ row: number; status: string; message: string }>;
    for (const [row, warning] of WARNINGS) expect(rows.find((line) => line.row === row)?.message, `row ${row}`).toMatch(warning);
    // Said once: the run's own words first, then the warnings.
    expect(rows.find((line) => line.row === 4)?.message).toMatch(/^Queued; "sitewalk sync" sends it\.[^]*Latitude 40°26'46"N is read as[^]*Longitude/);
    expect(rows.find((line) => line.row === 4)?.message.match(/Latitude 40°26'46"N/g)).toHaveLength(1);
  });
});

describe('a file refused for its invalid rows', { timeout: 180_000 }, () => {
  it('lists the invalid rows and says the rest in one line, with a true summary naming --skip-invalid; --json and --report keep every row', async () => {
    const dir = await dataDir();
    const file = join(dir, 'big5k_bad.csv');
    const bad = new Set([3, 700, 1400, 2100, 2800, 3500, 4200, 4900, 4950, 5000]);
    const lines = ['Sitename,height,Latitude,Longitude'];
    for (let i = 1; i <= 5000; i++) lines.push(`Tower ${i},${bad.has(i) ? 'tall' : 30},${(40 + i / 10_000).toFixed(4)},-79.5`);
    await writeFile(file, `${lines.join('\n')}\n`);

    const run = await runCli(['import', file, '--data-dir', dir]);
    expect(run.code).toBe(1);
    const out = run.stdout.trimEnd().split('\n');
    expect(out[0]).toMatch(/^row\s+status\s+site\s+message/);
    expect(out.slice(1, -1).map((line) => line.split(/\s+/).slice(0, 2))).toEqual([...bad].map((i) => [String(i + 1), 'invalid']));
    expect(out.at(-1)).toBe('4,990 valid rows not queued: the file was refused as a whole; fix the invalid rows above or add --skip-invalid.');
    expect(run.stdout).not.toMatch(/cancelled/);
    expect(run.stderr).toMatch(/10 rows are invalid; fix them or add --skip-invalid\. Nothing was queued\./);
    expect(run.stderr).toMatch(/: 10 invalid, 4990 not queued\.$/m);
    expect(run.stderr).not.toMatch(/choose to skip/);

    const report = join(dir, 'report.csv');
    const json = await runCli(['import', file, '--json', '--report', report, '--data-dir', dir]);
    expect(json.code).toBe(1);
    expect(json.json).toMatchObject({ ok: false, outcome: 'refused', counts: { invalid: 10, cancelled: 4990 } });
    expect(json.json.rows).toHaveLength(5000);
    expect(reportRows(await readFile(report, 'utf8'))).toHaveLength(5000);
  });
});
