// The large-CSV rows of the bulk benchmark: `sitewalk import` as a user runs it (its own process,
// the executable), on a well-formed CSV of 1.23 million rows (about 40 MB) beside the same kind of
// file at a tenth of the size, for the dry run and for the apply (--no-wait: both are refused, past
// MAX_IMPORT_ROWS; what queueing costs is measured at that limit and a tenth of it). Time
// and peak RSS (every thread's, from the process's own report); ratio = 40 MB / 4 MB, so about 10
// means the cost grows with the file and nothing worse. The whole-file parse these replace is gone
// (it took 2 min 16 s and 2.1 GB for the dry run of the same 40 MB).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './figures';
import { writeSitesCsv } from '../support/sites-csv';
import { makeTempDir } from '../support/temp';
import { MAX_IMPORT_ROWS } from '../../electron/shared/bulk/limits';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITEWALK = join(ROOT, 'electron/cli/sitewalk.mjs');
const PEAK_HOOK = fileURLToPath(new URL('../support/report-peak-rss.mjs', import.meta.url));
const GUARD = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));
const LARGE_ROWS = 1_230_000;

/** One `sitewalk import` run: its time and peak RSS; it stops with the bench (exit-with-parent.mjs). */
async function importRun(home: string, args: string[], expected: { code: number; said?: string } = { code: 0 }): Promise<{ seconds: number; peakMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_HOOK, '--import', GUARD, SITEWALK, 'import', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent-sitewalk-bench' },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  // The largest reported: the hook reports from the preview's worker thread too, as it ends.
  const peaks = [...stderr.matchAll(/^peak-rss (\d+)$/gm)].map((match) => Number(match[1]));
  if (code !== expected.code || (expected.said !== undefined && !stderr.includes(expected.said)) || peaks.length === 0) throw new Error(`sitewalk import ${args.join(' ')} ended ${code}: ${stderr.slice(-500)}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: Math.max(...peaks) / 1024 / 1024 };
}

export async function benchLargeCsv(): Promise<BenchFigure[]> {
  const dir = await makeTempDir('sitewalk-bench-large-csv-');
  try {
    const sizes = [LARGE_ROWS / 10, LARGE_ROWS];
    const runs: Array<{ mb: number; dry: { seconds: number; peakMb: number }; apply: { seconds: number; peakMb: number } }> = [];
    for (const rows of sizes) {
      const file = join(dir.path, `sites-${rows}.csv`);
      const bytes = await writeSitesCsv(file, rows);
      // Both files pass MAX_IMPORT_ROWS: the dry run checks and reports every row and says the
      // import would be refused (exit 1); the import checks them all, then refuses before queueing any.
      const dry = await importRun(dir.path, [file, '--dry-run', '--data-dir', join(dir.path, `dry-${rows}`)], { code: 1, said: 'one import queues at most' });
      const apply = await importRun(dir.path, [file, '--no-wait', '--data-dir', join(dir.path, `apply-${rows}`)], { code: 1, said: 'one import queues at most' });
      runs.push({ mb: bytes / 1e6, dry, apply });
    }
    const [small, large] = runs as [(typeof runs)[0], (typeof runs)[0]];
    // What queueing costs, at the most one import queues and at a tenth of it.
    const queued: Array<{ seconds: number; peakMb: number }> = [];
    for (const rows of [MAX_IMPORT_ROWS / 10, MAX_IMPORT_ROWS]) {
      const file = join(dir.path, `queued-${rows}.csv`);
      await writeSitesCsv(file, rows);
      queued.push(await importRun(dir.path, [file, '--no-wait', '--data-dir', join(dir.path, `queued-${rows}`)]));
    }
    const [tenth, most] = queued as [(typeof queued)[0], (typeof queued)[0]];
    const figure = (what: string, unit: string, value: number, baseline: number, note: string): BenchFigure => ({
      name: `CSV ${LARGE_ROWS.toLocaleString('en')} rows (${Math.round(large.mb)} MB): sitewalk import ${what}`,
      value: Math.round(value * 10) / 10,
      unit,
      baseline: Math.round(baseline * 10) / 10,
      ratio: Math.round((value / baseline) * 100) / 100,
      note: `baseline = the same kind of file at ${Math.round(small.mb)} MB; ${note}`,
    });
    return [
      figure('--dry-run: time', 's', large.dry.seconds, small.dry.seconds, 'streamed: read, checked, reported'),
      figure('--dry-run: peak RSS', 'MB', large.dry.peakMb, small.dry.peakMb, 'must stay under 400 MB; the whole-file parse took 2.1 GB'),
      figure(`--no-wait (refused, over ${MAX_IMPORT_ROWS.toLocaleString('en')} rows): time`, 's', large.apply.seconds, small.apply.seconds, 'checked whole, then refused before anything is queued'),
      figure(`--no-wait (refused, over ${MAX_IMPORT_ROWS.toLocaleString('en')} rows): peak RSS`, 'MB', large.apply.peakMb, small.apply.peakMb, 'counted from the preview, no report row each'),
      {
        name: `CSV ${MAX_IMPORT_ROWS.toLocaleString('en')} rows (the most one import queues): sitewalk import --no-wait peak RSS`,
        value: Math.round(most.peakMb * 10) / 10,
        unit: 'MB',
        baseline: Math.round(tenth.peakMb * 10) / 10,
        ratio: Math.round((most.peakMb / tenth.peakMb) * 100) / 100,
        note: `baseline = ${(MAX_IMPORT_ROWS / 10).toLocaleString('en')} rows; queued 10,000 rows a transaction in ${most.seconds.toFixed(1)} s; the core keeps every unsent entry and every site in memory: grows with the rows`,
      },
    ];
  } finally {
    await dir.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const figure of await benchLargeCsv()) console.log(figure);
}
