// KML files with one huge part (issue 24), each generated here and written to disk as it is made:
// a 200 MB <description>, a placemark whose <coordinates> run 200 MB (60 MB each for the browser
// host, which takes no file over 64 MB), one placemark of 1.6 million small elements, 300,000
// folders named after their placemarks. Checked by `sitewalk import
// --dry-run` and previewed by the browser host, each is refused with a sentence naming the limit
// and the placemark, the process under 400 MB at its peak and the host's getStatus answering within
// a second throughout. Long tracks within the limits are still read.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { killedAfterEachTest } from '../support/children';
import { call } from '../support/host';
import { startHostProcess, uploadFile, watchStatus } from '../support/host-process-run';
import { writeHugeDescription, writeLateNamedFolders, writeLongLineString, writeLongTrack, writeManyElements } from '../support/huge-kml';
import { it } from '../support/fixtures';
import { MEASURE_PEAK, PEAK_RSS, peakOf, startSitewalk } from '../support/measured-cli';

const children = killedAfterEachTest();

/** `sitewalk import PATH --dry-run`, its peak RSS reported: exit code, stderr and peak. */
function dryRun(home: string, path: string): Promise<{ code: number | null; stderr: string; peak: number }> {
  return startSitewalk(children, home, ['import', path, '--dry-run', '--data-dir', join(home, 'data')], MEASURE_PEAK).done.then((run) => ({ ...run, peak: peakOf(run.stderr) }));
}

type Preview = { ok: true; value: { problems: string[]; rowCounts: { all: number } } } | { ok: false; issues: { message: string }[] };

/** previewImport of the file through a browser host in a process of its own: what it said, its row count, the slowest getStatus and the peak RSS. */
async function hostPreview(dir: string, path: string, name: string) {
  const host = await startHostProcess(join(dir, 'data'));
  try {
    const uploaded = await uploadFile(host, path, name);
    expect(uploaded.status).toBe(200);
    const opened = (JSON.parse(uploaded.body) as { value: { ok: true; value: { fileId: string } } }).value;
    const status = watchStatus(host);
    const response = await call(host, 'previewImport', [opened.value.fileId, {}]);
    const { slowest, answers } = await status.stop();
    expect(response.status).toBe(200);
    const preview = response.json<{ value: Preview }>().value;
    const said = preview.ok ? preview.value.problems : preview.issues.map((issue) => issue.message);
    return { said: said.join(' '), rows: preview.ok ? preview.value.rowCounts.all : 0, slowest, answers, peak: await host.peakRss() };
  } finally {
    expect(await host.stop()).toBe(0);
  }
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

const MiB = 1024 * 1024;
/** What the CLI is given of the files whose size is chosen, and what the host is: it takes up to 64 MB. */
const CLI_BYTES = 200 * MiB;
const HOST_BYTES = 60 * MiB;

describe.each<[string, (path: string, bytes: number) => Promise<void>, RegExp]>([
  ['a KML whose <description> runs 200 MB', (path, bytes) => writeHugeDescription(path, bytes), /^The KML has more than 10 million characters without markup from line 4 on/],
  // A point and the space after it are 29 characters.
  ['a KML whose one placemark has 200 MB of <coordinates>', (path, bytes) => writeLongLineString(path, Math.floor(bytes / 29), 'Huge track'), /The <Placemark> on line 4 \("Huge track"\) is longer than 12 million characters, the most one placemark may be/],
  ['a KML whose one placemark wraps 1.6 million small elements (30 MB)', (path) => writeManyElements(path, 800_000), /The <Placemark> on line 4 \("Wrapper"\) holds more than 120,000 elements, the most one placemark may hold/],
  ['a KML of 300,000 folders each named after its placemark', (path) => writeLateNamedFolders(path, 300_000), /The KML names more than 100,000 folders after the placemarks in them/],
])('%s', (label, write, sentence) => {
  it('is refused by the CLI’s dry run with a sentence naming the limit, peak RSS under 400 MB', { timeout: 600_000 }, async ({ tempDir }) => {
    const path = join(tempDir, 'huge.kml');
    await write(path, CLI_BYTES);
    const run = await dryRun(tempDir, path);
    console.log(`${label}: sitewalk import --dry-run peak RSS ${mb(run.peak)}`);
    expect(run.stderr).toMatch(new RegExp(sentence.source.replace(/^\^/, '')));
    expect(run.code).not.toBe(0);
    expect(run.peak).toBeLessThan(PEAK_RSS);
  });

  it('is refused by the browser host with the same sentence, under 400 MB, getStatus answering within a second', { timeout: 600_000 }, async ({ tempDir }) => {
    const path = join(tempDir, 'huge.kml');
    await write(path, HOST_BYTES);
    const preview = await hostPreview(tempDir, path, 'huge.kml');
    console.log(`${label}: browser host peak RSS ${mb(preview.peak)}, slowest getStatus ${Math.round(preview.slowest)} ms`);
    expect(preview.said).toMatch(sentence);
    expect(preview.rows).toBe(0);
    expect(preview.answers).toBeGreaterThan(0);
    expect(preview.slowest).toBeLessThan(1000);
    expect(preview.peak).toBeLessThan(PEAK_RSS);
  });
});

describe.each<[string, (path: string) => Promise<void>]>([
  ['a LineString of 200,000 points (6 MB)', (path) => writeLongLineString(path, 200_000)],
  ['a gx:Track of 59,000 points (5 MB)', (path) => writeLongTrack(path, 59_000)],
])('a long GPS track: %s', (label, write) => {
  it('is read by the CLI’s dry run as one placemark (not a site: not a point), peak RSS under 400 MB', { timeout: 600_000 }, async ({ tempDir }) => {
    const path = join(tempDir, 'track.kml');
    await write(path);
    const run = await dryRun(tempDir, path);
    console.log(`${label}: sitewalk import --dry-run peak RSS ${mb(run.peak)}`);
    expect(run.stderr).toContain('1 of 1 placemarks is not a single point and will be skipped');
    expect(run.stderr).not.toMatch(/it was not read/);
    expect(run.peak).toBeLessThan(PEAK_RSS);
  });

  it('is previewed by the browser host as one row, under 400 MB, getStatus answering within a second', { timeout: 600_000 }, async ({ tempDir }) => {
    const path = join(tempDir, 'track.kml');
    await write(path);
    const preview = await hostPreview(tempDir, path, 'track.kml');
    console.log(`${label}: browser host peak RSS ${mb(preview.peak)}, slowest getStatus ${Math.round(preview.slowest)} ms`);
    expect(preview.rows).toBe(1);
    expect(preview.said).not.toMatch(/it was not read/);
    expect(preview.slowest).toBeLessThan(1000);
    expect(preview.peak).toBeLessThan(PEAK_RSS);
  });
});
