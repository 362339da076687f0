// "Download this area" against a tile server on loopback: the plan's numbers, the refusals (the
// public OpenStreetMap servers whatever is marked, servers not marked, files, too many tiles, over the
// cap), and a run: progress, cancel, resume without asking for a saved tile twice, the cap, refused
// tiles counted once, an unreachable server.
import { describe, expect } from 'vitest';
import type { HostBackend } from '../../electron/core/host-backend';
import { DISK_BLOCK_BYTES, diskBytes, rangeCount, tileRange } from '../../electron/core/tiles';
import type { DownloadAreaInput, DownloadPlanView, DownloadView, Result } from '../../electron/shared/contract/index';
import { TEST_AREA, writePmtiles } from '../support/basemap-files';
import { it as base } from '../support/fixtures';
import { startFakeTileServer, type FakeTileServer } from '../tiles/fake-tile-server';
import { join } from 'node:path';

const it = base
  // eslint-disable-next-line no-empty-pattern
  .extend('tileServer', async ({}, { onCleanup }) => {
    const server = await startFakeTileServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend('backend', async ({ openBackend }) => openBackend({ tiles: { cache: { retryAfterMs: 0 }, progressEveryMs: 10 } }));

const ZOOMS = { minZoom: 10, maxZoom: 12 };
const TILES = [10, 11, 12].reduce((sum, z) => sum + rangeCount(tileRange(TEST_AREA, z)), 0);
/** Folders of tiles (one per zoom and column): each takes a block on disk. */
const COLUMNS = [10, 11, 12].reduce((sum, z) => sum + (tileRange(TEST_AREA, z).xMax - tileRange(TEST_AREA, z).xMin + 1), 0);

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`refused: ${result.issues.map((issue) => issue.message).join('; ')}`);
  return result.value;
}

/** A server the user marked as allowing downloads, as basemap 'custom' id. */
async function allowedServer(backend: HostBackend, server: FakeTileServer, allowsDownload = true): Promise<string> {
  const views = value(await backend.hostApi.api.saveBasemapSource({ name: 'Our tiles', kind: 'custom', template: server.template('area'), attribution: 'Ours', allowsDownload }));
  return views.filter((view) => view.kind === 'custom').at(-1)!.id;
}

function area(basemapId: string, extra: Partial<DownloadAreaInput> = {}): DownloadAreaInput {
  return { basemapId, bounds: TEST_AREA, ...ZOOMS, ...extra };
}

/** Starts a download and resolves with its last event once it has ended. */
async function run(backend: HostBackend, input: DownloadAreaInput, events: DownloadView[] = []): Promise<DownloadView> {
  const ended = new Promise<DownloadView>((resolve) => {
    const stop = backend.hostApi.onEvent((event) => {
      if (event.type !== 'download') return;
      events.push(event.download);
      if (event.download.state !== 'running') {
        stop();
        resolve(event.download);
      }
    });
  });
  value(await backend.hostApi.api.startDownload(input));
  return ended;
}

const requestedPaths = (server: FakeTileServer) => server.requests.map((request) => request.path).filter((path) => path.startsWith('/area/'));

describe('the plan', () => {
  it('counts the tiles per zoom, those already saved, and estimates the size from saved tiles of that server', async ({ backend, tileServer }) => {
    const id = await allowedServer(backend, tileServer);
    const fresh = value(await backend.hostApi.api.planDownload(area(id)));
    // On disk: 20 KiB tiles are five whole blocks each, and each column of tiles is a folder.
    expect(fresh).toEqual<DownloadPlanView>({ basemapId: id, tiles: TILES, tilesCached: 0, estimatedBytes: TILES * 20 * 1024 + COLUMNS * DISK_BLOCK_BYTES, capBytes: 500 * 1024 ** 2, refusal: null });

    tileServer.tileBytes = 1000;
    const range = tileRange(TEST_AREA, 10);
    for (let x = range.xMin; x <= range.xMax; x++) expect((await backend.tiles.tileFor(`/tiles/${id}/10/${x}/${range.yMin}`)).ok).toBe(true);
    const seen = range.xMax - range.xMin + 1;
    const after = value(await backend.hostApi.api.planDownload(area(id, { maxBytes: 10 * 1024 ** 3 })));
    expect(after.tilesCached).toBe(seen);
    // Saved tiles are about 1000 bytes (plus the cache entry's small header): one block each on disk, and the folders.
    expect(after.estimatedBytes).toBe((TILES - seen) * DISK_BLOCK_BYTES + COLUMNS * DISK_BLOCK_BYTES);
    // Never above the host's maximum, whatever is asked.
    expect(after.capBytes).toBe(2 * 1024 ** 3);
    // Clamped to the server's zoom range.
    value(await backend.hostApi.api.saveBasemapSource({ id, name: 'Our tiles', kind: 'custom', template: tileServer.template('area'), attribution: 'Ours', allowsDownload: true, maxZoom: 11 }));
    expect(value(await backend.hostApi.api.planDownload(area(id))).tiles).toBe(TILES - rangeCount(tileRange(TEST_AREA, 12)));
  });

  it('refuses the public OpenStreetMap servers even when marked as allowing downloads, and says why', async ({ backend }) => {
    const api = backend.hostApi.api;
    const street = (await api.listBasemaps())[0]!;
    expect(street.template).toContain('tile.openstreetmap.org');
    expect(street.downloadRefusal).toMatch(/Tile Usage Policy.*forbids bulk downloading/);
    // The street map is tile.openstreetmap.org itself (a second server at its address is refused as a duplicate).
    const osms = [street];
    for (const template of ['https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://a.tile.openstreetmap.fr/hot/{z}/{x}/{y}.png']) {
      const views = value(await api.saveBasemapSource({ name: 'OSM', kind: 'custom', template, attribution: '&copy; OpenStreetMap', allowsDownload: true }));
      const osm = views.at(-1)!;
      expect(osm.downloadRefusal).toMatch(/public OpenStreetMap tile servers/);
      osms.push(osm);
    }
    for (const osm of osms) {
      const plan = value(await api.planDownload(area(osm.id)));
      expect(plan.refusal).toMatch(/Tile Usage Policy \(operations\.osmfoundation\.org\/policies\/tiles\) forbids bulk downloading.*basemap file \(MBTiles or PMTiles\).*your own tile server/);
      const started = await api.startDownload(area(osm.id));
      expect(started.ok).toBe(false);
    }
  });

  it('refuses a server not marked as allowing it, a file, too many tiles, and an area over the cap', async ({ backend, tileServer, tempDir }) => {
    const api = backend.hostApi.api;
    const unmarked = await allowedServer(backend, tileServer, false);
    expect(value(await api.planDownload(area(unmarked))).refusal).toMatch(/not marked as allowing downloads/);
    await writePmtiles(join(tempDir, 'hills.pmtiles'));
    const file = value(await api.addBasemapFile({ path: join(tempDir, 'hills.pmtiles') })).find((view) => view.kind === 'pmtiles')!;
    expect(value(await api.planDownload(area(file.id))).refusal).toMatch(/already offline/);
    // The same server, now marked as allowing downloads.
    const id = unmarked;
    value(await api.saveBasemapSource({ id, name: 'Our tiles', kind: 'custom', template: tileServer.template('area'), attribution: 'Ours', allowsDownload: true }));
    const huge = value(await api.planDownload(area(id, { bounds: [-120, 30, -100, 48], minZoom: 10, maxZoom: 14 })));
    expect(huge.refusal).toMatch(/at most 100,000 at a time/);
    const capped = value(await api.planDownload(area(id, { maxBytes: 100 * 1024 })));
    expect(capped.refusal).toMatch(/more than the limit of/);
    expect((await api.startDownload(area(id, { maxBytes: 100 * 1024 }))).ok).toBe(false);
    expect(tileServer.count()).toBe(0);
  });
});

describe('a download', () => {
  it('fetches every tile once with Sitewalk\'s User-Agent, reports progress, and a second run asks for nothing', async ({ backend, tileServer }) => {
    const id = await allowedServer(backend, tileServer);
    const events: DownloadView[] = [];
    const done = await run(backend, area(id), events);
    expect(done).toMatchObject({ state: 'done', tiles: TILES, tilesDone: TILES, tilesFailed: 0 });
    expect(done.message).toMatch(/saved for offline use/);
    expect(events[0]!.state).toBe('running');
    const paths = requestedPaths(tileServer);
    expect(paths.length).toBe(TILES);
    expect(new Set(paths).size).toBe(TILES);
    expect(String(tileServer.requests[0]!.headers['user-agent'])).toMatch(/^Sitewalk/);
    expect(await backend.hostApi.api.listDownloads()).toEqual([done]);

    // Offline, the area is there.
    await tileServer.down();
    const range = tileRange(TEST_AREA, 12);
    const offline = await backend.tiles.tileFor(`/tiles/${id}/12/${range.xMax}/${range.yMax}`);
    expect(offline.ok && offline.source).toBe('cache');
    await tileServer.up();

    const again = await run(backend, area(id));
    expect(again).toMatchObject({ state: 'done', tilesDone: TILES });
    expect(requestedPaths(tileServer).length).toBe(TILES);
    expect(value(await backend.hostApi.api.planDownload(area(id))).tilesCached).toBe(TILES);
  });

  it('stops when cancelled, and started again fetches only the tiles it had not saved', async ({ backend, tileServer }) => {
    const id = await allowedServer(backend, tileServer);
    tileServer.delayMs = 30;
    const events: DownloadView[] = [];
    const ended = run(backend, area(id), events);
    await expect.poll(() => requestedPaths(tileServer).length).toBeGreaterThanOrEqual(4);
    // Progress while it runs: the count moves on between events.
    await expect.poll(() => events.filter((event) => event.state === 'running' && event.tilesDone > 0).length).toBeGreaterThan(0);
    const downloadId = (await backend.hostApi.api.listDownloads())[0]!.id;
    const cancelled = value(await backend.hostApi.api.cancelDownload(downloadId));
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.message).toMatch(/Start it again to resume/);
    expect((await ended).state).toBe('cancelled');
    const before = requestedPaths(tileServer).length;
    expect(before).toBeLessThan(TILES);

    tileServer.delayMs = 0;
    const resumed = await run(backend, area(id));
    expect(resumed).toMatchObject({ state: 'done', tilesDone: TILES });
    const paths = requestedPaths(tileServer);
    expect(paths.length).toBe(TILES);
    expect(new Set(paths).size).toBe(TILES);
    const list = await backend.hostApi.api.listDownloads();
    expect(list.map((download) => download.state)).toEqual(['done', 'cancelled']);
  });

  it('stops at its size cap', async ({ backend, tileServer }) => {
    const id = await allowedServer(backend, tileServer);
    // A few small tiles seen first make the estimate small; the area's real tiles are larger.
    tileServer.tileBytes = 200;
    const range = tileRange(TEST_AREA, 10);
    expect((await backend.tiles.tileFor(`/tiles/${id}/10/${range.xMin}/${range.yMin}`)).ok).toBe(true);
    tileServer.tileBytes = 20_000;
    // The estimate (a block per small tile, and the folders) is under the cap; the real tiles are not.
    const cap = (TILES + COLUMNS) * DISK_BLOCK_BYTES + 10_000;
    const stopped = await run(backend, area(id, { maxBytes: cap }));
    expect(stopped.state).toBe('failed');
    expect(stopped.message).toMatch(/Stopped at the size limit of 1 MB on disk.*raise the limit \(up to 2\.0 GB\)\.$/);
    expect(stopped.bytes).toBeGreaterThanOrEqual(cap);
    // Counted on disk: whole blocks per tile and a block per new folder, overshooting by at most one tile per worker.
    expect(stopped.bytes).toBeLessThan(cap + 3 * (diskBytes(20_000) + DISK_BLOCK_BYTES));
    expect(requestedPaths(tileServer).length).toBeLessThan(TILES);
  });

  it('counts tiles the server refuses, asks for each once, and stops when the server cannot be reached', async ({ backend, tileServer }) => {
    const id = await allowedServer(backend, tileServer);
    tileServer.mode = 'error';
    const refused = await run(backend, area(id));
    expect(refused).toMatchObject({ state: 'done', tilesDone: 0, tilesFailed: TILES });
    expect(refused.message).toMatch(/did not send are missing/);
    expect(requestedPaths(tileServer).length).toBe(TILES);

    tileServer.mode = 'png';
    await tileServer.down();
    try {
      const unreachable = await run(backend, area(id));
      expect(unreachable.state).toBe('failed');
      expect(unreachable.message).toMatch(/cannot be reached.*Start it again to resume/);
    } finally {
      await tileServer.up();
    }
  });
});

describe('downloaded tiles as a whole', () => {
  it('keeps every download under the one limit the user sets, and "Clear downloaded tiles" removes them all', async ({ backend, tileServer }) => {
    const api = backend.hostApi.api;
    const id = await allowedServer(backend, tileServer);
    expect(await api.getOfflineTiles()).toEqual({ bytesOnDisk: 0, limitBytes: 2 * 1024 ** 3 });
    const done = await run(backend, area(id));
    expect(done.state).toBe('done');
    const held = await api.getOfflineTiles();
    // Counted as du counts: at least a block per tile.
    expect(held.bytesOnDisk).toBeGreaterThanOrEqual(TILES * DISK_BLOCK_BYTES);

    // A limit that leaves less room than the next area needs: refused, with what to do.
    const limitBytes = held.bytesOnDisk + 1024 * 1024;
    expect(value(await api.setOfflineTilesLimit(limitBytes))).toEqual({ bytesOnDisk: held.bytesOnDisk, limitBytes });
    const deeper = value(await api.planDownload(area(id, { minZoom: 13, maxZoom: 16 })));
    expect(deeper.refusal).toMatch(/^Downloaded tiles take .* you allow for all of them.*Clear downloaded tiles or raise that limit/);
    expect(await api.setOfflineTilesLimit(1000)).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/between 1 MB and 64 GB/) }] });

    const cleared = value(await api.clearDownloadedTiles());
    expect(cleared).toEqual({ bytesOnDisk: 0, limitBytes });
    expect(value(await api.planDownload(area(id))).tilesCached).toBe(0);
  });
});
