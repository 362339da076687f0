// Basemap files made to harm, each generated here, against the browser host in a process of its own
// (issue 24): none takes the host down or freezes it. Each is refused or turned off with a sentence,
// the process's peak RSS stays under 400 MB, getStatus answers within a second throughout, and the
// next start is clean, still saying what was wrong. A careless reader would abort on the first
// (fs.read of 2^31 bytes) or pass 400 MB on every other one.
import { join } from 'node:path';
import Conf from 'conf';
import { describe, expect } from 'vitest';
import type { BasemapView } from '../../electron/shared/contract/index';
import { BASEMAPS_SETTING_KEY, BASEMAPS_READING_KEY } from '../../electron/core/tiles';
import { writePmtiles } from '../support/basemap-files';
import { call, raw } from '../support/host';
import { startHostProcess, watchStatus, type HostProcess } from '../support/host-process-run';
import { allocatedBytes, entryOf2GiB, gigabytePng, GOOD_TILE, HOSTILE_TILE, leafBomb, mbtilesEndlessView, mbtilesHugeTile, metadataBomb } from '../support/hostile-basemaps';
import { it } from '../support/fixtures';

const PEAK_RSS = 400 * 1024 * 1024;

async function value<T>(host: HostProcess, method: string, args: unknown[]): Promise<T> {
  const response = await call(host, method, args);
  if (response.status !== 200) throw new Error(`${method}: HTTP ${response.status} ${response.body}`);
  return response.json<{ value: T }>().value;
}

const tile = (host: HostProcess, basemapId: string, coords: { z: number; x: number; y: number }) =>
  raw(host.port, { path: `/tiles/${basemapId}/${coords.z}/${coords.x}/${coords.y}`, headers: { 'sec-fetch-site': 'same-origin', authorization: `Bearer ${host.token}` } });

type Make = (path: string) => Promise<void>;

/** Adds the file, uses it and asks for the hostile tile four times at once, watching the process. */
async function attack(host: HostProcess, path: string): Promise<{ added: boolean; refusal: string | null; basemapId: string | null }> {
  const added = await value<{ ok: true; value: BasemapView[] } | { ok: false; issues: { message: string }[] }>(host, 'addBasemapFile', [{ path }]);
  if (!added.ok) return { added: false, refusal: added.issues[0]!.message, basemapId: null };
  const file = added.value.find((view) => view.kind === 'mbtiles' || view.kind === 'pmtiles')!;
  await value(host, 'useBasemap', [file.id]);
  const answers = await Promise.all(Array.from({ length: 4 }, () => tile(host, file.id, HOSTILE_TILE)));
  for (const answer of answers) expect(answer.status).toBe(404);
  return { added: true, refusal: answers[0]!.json<{ error: { message: string } }>().error.message, basemapId: file.id };
}

describe.each<[string, string, Make, RegExp]>([
  ['a PMTiles of under 1 KB with a tile entry of 2^31 bytes', 'entry.pmtiles', entryOf2GiB, /a tile in it is 2048 MB, over the 4 MB Sitewalk reads at once/],
  ['a PMTiles whose gzip leaf directory inflates to 100 million entries', 'leaf-bomb.pmtiles', leafBomb, /a leaf directory in it is larger than 4 MB/],
  ['a sparse PMTiles serving one "PNG" of 1 GiB', 'gigabyte.pmtiles', gigabytePng, /a tile in it is 1024 MB, over the 4 MB/],
  ['a PMTiles whose metadata inflates to 400 MB', 'metadata-bomb.pmtiles', metadataBomb, /the metadata in it is larger than 1 MB/],
  ['an MBTiles with one tile of 128 MB', 'huge-tile.mbtiles', mbtilesHugeTile, /a tile in it \(10\/195\/365\) is 128 MB, over the 4 MB Sitewalk reads for one tile/],
  ['an MBTiles whose tiles view runs a recursive CTE of 10^12 steps for one tile', 'endless.mbtiles', mbtilesEndlessView, /reading from it took longer than 5 s, which no usable basemap file needs/],
])('%s', (_label, name, make, sentence) => {
  it('is refused or turned off with a sentence, under 400 MB, the API answering, and stays off after a restart', async ({ tempDir }) => {
    const path = join(tempDir, name);
    await make(path);
    expect(await allocatedBytes(path)).toBeLessThan(200 * 1024 * 1024);
    const dataDir = join(tempDir, 'data');
    const host = await startHostProcess(dataDir);
    let outcome: Awaited<ReturnType<typeof attack>>;
    try {
      const status = watchStatus(host);
      outcome = await attack(host, path);
      const { slowest, answers } = await status.stop();
      expect(outcome.refusal).toMatch(sentence);
      expect(answers).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(1000);
      expect(await host.peakRss()).toBeLessThan(PEAK_RSS);
      if (outcome.added) {
        const views = await value<BasemapView[]>(host, 'listBasemaps', []);
        expect(views.find((view) => view.id === outcome.basemapId)).toMatchObject({ active: false, problem: expect.stringMatching(sentence) });
        expect(views.find((view) => view.id === 'street')).toMatchObject({ active: true });
      }
    } finally {
      expect(await host.stop()).toBe(0);
    }

    // The next start is clean, says the problem, and does not read the file again.
    const again = await startHostProcess(dataDir);
    try {
      const views = await value<BasemapView[]>(again, 'listBasemaps', []);
      if (outcome.added) {
        expect(views.find((view) => view.id === outcome.basemapId)).toMatchObject({ active: false, problem: expect.stringMatching(sentence) });
        expect((await tile(again, outcome.basemapId!, HOSTILE_TILE)).json<{ error: { message: string } }>().error.message).toMatch(sentence);
      } else {
        expect(views.map((view) => view.id)).toEqual(['street']);
      }
      expect(await again.peakRss()).toBeLessThan(PEAK_RSS);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });
});

describe('a file that was being read when Sitewalk stopped', () => {
  it('is turned off at the next start instead of being opened again, and comes back when chosen', async ({ tempDir }) => {
    const path = join(tempDir, 'fine.pmtiles');
    await writePmtiles(path, { tiles: [GOOD_TILE] });
    const dataDir = join(tempDir, 'data');
    const first = await startHostProcess(dataDir);
    let basemapId: string;
    try {
      const added = await value<{ ok: true; value: BasemapView[] }>(first, 'addBasemapFile', [{ path }]);
      basemapId = added.value.find((view) => view.kind === 'pmtiles')!.id;
      await value(first, 'useBasemap', [basemapId]);
    } finally {
      await first.stop();
    }
    // What a run that died inside the read leaves behind: the file still named as being read.
    const settings = new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'settings', projectName: 'sitewalk', accessPropertiesByDotNotation: false });
    expect(settings.get(BASEMAPS_SETTING_KEY)).toMatchObject({ active: basemapId });
    settings.set(BASEMAPS_READING_KEY, [basemapId]);

    const next = await startHostProcess(dataDir);
    try {
      const views = await value<BasemapView[]>(next, 'listBasemaps', []);
      expect(views.find((view) => view.id === basemapId)).toMatchObject({ active: false, problem: expect.stringMatching(/stopped while reading the basemap file "fine\.pmtiles".*Choose it again/) });
      expect(views.find((view) => view.id === 'street')).toMatchObject({ active: true });
      // Chosen again by the user: opened, and its tiles served.
      const used = await value<{ ok: boolean }>(next, 'useBasemap', [basemapId]);
      expect(used.ok).toBe(true);
      const good = await tile(next, basemapId, GOOD_TILE);
      expect(good.status).toBe(200);
      expect(good.headers['content-type']).toBe('image/png');
      expect((await value<BasemapView[]>(next, 'listBasemaps', [])).find((view) => view.id === basemapId)).toMatchObject({ active: true, problem: null });
    } finally {
      await next.stop();
    }
  });
});
