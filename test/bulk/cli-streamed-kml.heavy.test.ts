// A 40 MB KML checked by `sitewalk import --dry-run`, and the same file zipped as a KMZ previewed by
// the browser host (issue 24: a 43 MB KML peaked at 522 MB, read whole): each is read from disk a
// placemark at a time — the KMZ's doc.kml unpacked as it is read — every placemark counted, the
// process under 400 MB at its peak, the host's getStatus answering within a second throughout. The CLI
// and the host hand a file on disk to the same preview thread (preview-off-thread.ts), which reads both
// kinds, so each entry reads one kind: the four pairs cost ~60 CPU-seconds of a run for the same code.
// Stopped by SIGINT or SIGTERM while it checks the KML, the CLI exits at once and leaves no scratch file.
import { zipSync } from 'fflate';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { MAX_IMPORT_ROWS } from '../../electron/shared/bulk/limits';
import { killedAfterEachTest } from '../support/children';
import { call } from '../support/host';
import { startHostProcess, uploadFile, watchStatus } from '../support/host-process-run';
import { it } from '../support/fixtures';
import { MEASURE_PEAK, PEAK_RSS, peakOf, scratchPreviews, startSitewalk } from '../support/measured-cli';
import { writeSitesKml } from '../support/sites-kml';

const KML_BYTES = 40 * 1024 * 1024;
const children = killedAfterEachTest();

const sitewalk = (home: string, args: string[], env?: Record<string, string>) => startSitewalk(children, home, args, env);

type SitesFile = { path: string; placemarks: number };
const made = new Map<string, Promise<SitesFile>>();

/**
 * The 40 MB KML, and as a KMZ, in `dir`: the file's path and its placemarks. Made once for the
 * file's tests (in `fileTempDir`; they read it and change nothing), not once a test.
 */
function sitesFile(dir: string, format: 'kml' | 'kmz'): Promise<SitesFile> {
  const key = join(dir, `towers.${format}`);
  let file = made.get(key);
  if (!file) {
    file = format === 'kml' ? writeSitesKml(key, KML_BYTES).then((placemarks) => ({ path: key, placemarks })) : zipped(dir, key);
    made.set(key, file);
  }
  return file;
}

/** The KMZ of the KML, made in the test's process, which is not the one measured. */
async function zipped(dir: string, path: string): Promise<SitesFile> {
  const kml = await sitesFile(dir, 'kml');
  await writeFile(path, zipSync({ 'doc.kml': await readFile(kml.path), 'files/readme.txt': new TextEncoder().encode('towers') }, { level: 6 }));
  return { path, placemarks: kml.placemarks };
}

describe('a 40 MB KML', () => {
  const format = 'kml';
  it('is checked by the CLI a placemark at a time: every placemark counted, peak RSS under 400 MB', { timeout: 600_000 }, async ({ tempDir, fileTempDir }) => {
    const { path, placemarks } = await sitesFile(fileTempDir, format);
    const started = performance.now();
    const run = await sitewalk(tempDir, ['import', path, '--dry-run', '--data-dir', join(tempDir, 'data')], MEASURE_PEAK).done;
    const seconds = (performance.now() - started) / 1000;
    expect(run.stderr).toMatch(new RegExp(`${placemarks} rows: 0 to create, ${placemarks} to change, 0 unchanged, 0 invalid, 0 skipped\\.`));
    // Every row checked; the import itself would be refused past the one-import limit, and the dry run says so (exit 1).
    expect(run.stderr).toContain(`one import queues at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')}`);
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const peak = peakOf(run.stderr);
    console.log(`40 MB ${format.toUpperCase()}, ${placemarks} placemarks: sitewalk import --dry-run ${seconds.toFixed(1)} s, peak RSS ${Math.round(peak / 1024 / 1024)} MB`);
    expect(peak).toBeLessThan(PEAK_RSS);
  });
});

describe('the same KML zipped as a KMZ', () => {
  const format = 'kmz';
  it('is previewed by the browser host under 400 MB, getStatus answering within a second throughout', { timeout: 600_000 }, async ({ tempDir, fileTempDir }) => {
    const { path, placemarks } = await sitesFile(fileTempDir, format);
    const host = await startHostProcess(join(tempDir, 'data'));
    try {
      const uploaded = await uploadFile(host, path, `towers.${format}`);
      expect(uploaded.status).toBe(200);
      const opened = (JSON.parse(uploaded.body) as { value: { ok: true; value: { fileId: string } } }).value;
      const status = watchStatus(host);
      const preview = await call(host, 'previewImport', [opened.value.fileId, {}]);
      const { slowest, answers } = await status.stop();
      const value = preview.json<{ value: { ok: true; value: { problems: string[]; rowCounts: { all: number } } } }>().value.value;
      expect(value.rowCounts.all).toBe(placemarks);
      expect(answers).toBeGreaterThan(3);
      expect(slowest).toBeLessThan(1000);
      const peak = await host.peakRss();
      console.log(`40 MB ${format.toUpperCase()} in the browser host: peak RSS ${Math.round(peak / 1024 / 1024)} MB, slowest getStatus ${Math.round(slowest)} ms`);
      expect(peak).toBeLessThan(PEAK_RSS);
    } finally {
      expect(await host.stop()).toBe(0);
    }
  });
});

for (const [signal, exit] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  it(`stops on ${signal} while it checks a KML: exit ${exit} at once, nothing queued, the scratch file removed`, { timeout: 600_000 }, async ({ tempDir, fileTempDir }) => {
    const { path } = await sitesFile(fileTempDir, 'kml');
    const dataDir = join(tempDir, 'data');
    const run = sitewalk(tempDir, ['import', path, '--data-dir', dataDir]);
    const previews = () => scratchPreviews(dataDir);
    await vi.waitFor(() => expect(previews()).toHaveLength(1), { timeout: 300_000, interval: 20 });
    run.child.kill(signal);
    const ended = await run.done;
    expect(ended.stderr).toMatch(new RegExp(`stopped \\(${signal}\\) while checking the file; nothing was queued`));
    // Ended by the exit it chose, not killed in it (once a signal here: the worker was still running).
    expect({ code: ended.code, signal: ended.signal }).toEqual({ code: exit, signal: null });
    expect(previews()).toEqual([]);
  });
}
