// `sitewalk import` of a 200 MB CSV made of one line (issue 24: 3.2 GB before any bound): the file is
// streamed through the line-length bound by the preview's worker and refused after its first
// megabyte, with the sentence, exit 3, and the whole process under 400 MB at its peak. The same file
// read whole first (the earlier path: bytes in the main thread, copied into the worker) is measured
// in the same run for comparison.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { it } from '../support/fixtures';
import { ROOT, startSitewalk } from '../support/cli';

const PEAK_RSS = 400 * 1024 * 1024;
const HOOK = fileURLToPath(new URL('../support/report-peak-rss.mjs', import.meta.url));

/** The largest reported: the hook reports from the preview's worker thread too, as it ends. */
function peakOf(stderr: string): number {
  const peaks = [...stderr.matchAll(/^peak-rss (\d+)$/gm)].map((match) => Number(match[1]));
  if (peaks.length === 0) throw new Error(`no peak-rss line in: ${stderr.slice(-500)}`);
  return Math.max(...peaks);
}

/** A header, then one line of `bytes` bytes of cells, written in 1 MB pieces. */
async function writeOneLineCsv(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('Name,Latitude,Longitude\n');
  const piece = Buffer.alloc(1024 * 1024, 'a,');
  for (let written = 0; written < bytes; written += piece.length) if (!out.write(piece)) await once(out, 'drain');
  out.end('\n');
  await once(out, 'finish');
}

it('refuses a 200 MB one-line CSV after reading its start: exit 3 with the sentence, peak RSS under 400 MB', async ({ tempDir }) => {
  const file = join(tempDir, 'line.csv');
  await writeOneLineCsv(file, 200 * 1024 * 1024);
  const run = await startSitewalk(tempDir, ['import', file, '--dry-run', '--data-dir', join(tempDir, 'data')], { env: { NODE_OPTIONS: `--import ${HOOK}` } }).done;
  expect(run.stderr).toMatch(/Line 2 of the file is longer than 1 million characters/);
  expect(run.code).toBe(3);
  const peak = peakOf(run.stderr);

  // Baseline: the same file read whole and handed to the worker as bytes.
  const store = join(tempDir, 'baseline-preview.db');
  const script = `const { readFileSync } = await import('node:fs'); const { previewImportStored } = await import(${JSON.stringify(join(ROOT, 'electron/core/bulk/preview-off-thread.ts'))}); const p = await previewImportStored(new Uint8Array(readFileSync(${JSON.stringify(file)})), { fileName: 'line.csv' }, ${JSON.stringify(store)}); process.stdout.write(p.head.problems.join(' ')); p.drop();`;
  // From source, as before: its worker thread loads through tsx.
  const { SITEWALK_PROCESS_BUNDLES: _prebuilt, ...env } = process.env;
  const baseline = spawn(process.execPath, ['--import', 'tsx', '--import', HOOK, '--input-type=module', '-e', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  baseline.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  baseline.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await once(baseline, 'close');
  expect(stdout, stderr.slice(-1500)).toMatch(/Line 2 of the file is longer/);
  console.log(`200 MB one-line CSV: sitewalk import peak RSS ${Math.round(peak / 1024 / 1024)} MB; read whole first (the earlier path) ${Math.round(peakOf(stderr) / 1024 / 1024)} MB`);
  expect(peak).toBeLessThan(PEAK_RSS);
});
