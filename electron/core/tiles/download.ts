// "Download this area": copies a tile server's tiles for a box and a zoom range into the offline
// folder of the tile cache, for servers whose terms allow it (download-policy.ts). Polite: two
// requests at a time with the cache's User-Agent, tiles already held and fresh are not asked for
// again (that is also how a download resumes: start it again), a tile the server refuses is counted
// and not retried, an unreachable server or a long run of refusals stops the download, and it stops
// at its size cap. Nothing of a download survives a restart but the tiles it saved.
import {
  DEFAULT_DOWNLOAD_CAP_BYTES,
  MAX_DOWNLOAD_BYTES,
  type DownloadAreaInput,
  type DownloadPlanView,
  type DownloadView,
  type OfflineTilesView,
} from '../../shared/contract/basemaps';
import { refuse, type Result } from '../../shared/result';
import type { Clock } from '../clock';
import type { BasemapSource } from './basemaps';
import type { TileCache } from './cache';
import { rangeCount, tileRange, type TileCoords, type TileRange } from './coords';
import { downloadRefusal } from './download-policy';

/** Assumed size of a tile when none of this server is on disk yet (a typical 256 px PNG of streets). */
export const DEFAULT_TILE_BYTES = 20 * 1024;
/** More tiles than this is refused whatever their size: pick fewer zoom levels or a smaller area. */
export const MAX_DOWNLOAD_TILES = 100_000;
export const DOWNLOAD_CONCURRENCY = 2;
/** Refusals in a row after which the server is taken not to serve this area (counted, then stopped). */
export const MAX_FAILURES_IN_A_ROW = 50;
const PROGRESS_EVERY_MS = 250;
/**
 * What a file takes on disk is counted, not its bytes: a 300-byte tile fills a 4 KiB block, and each
 * column of tiles is a folder of its own (2 MB of tiles once took 64.9 MB on disk).
 */
export const DISK_BLOCK_BYTES = 4096;

/** Bytes on disk of a file of `bytes` bytes: whole blocks. */
export function diskBytes(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / DISK_BLOCK_BYTES)) * DISK_BLOCK_BYTES;
}

export interface DownloadsOptions {
  source(basemapId: string): BasemapSource | null;
  cache(): TileCache;
  /** The downloaded tiles as a whole (their one limit): none given, no overall limit. */
  offline?: () => Promise<OfflineTilesView>;
  /** Every change of a download, throttled to a few per second while it runs. */
  onProgress(download: DownloadView): void;
  clock?: Pick<Clock, 'now'>;
  progressEveryMs?: number;
  concurrency?: number;
}

export interface Downloads {
  plan(input: DownloadAreaInput): Promise<Result<DownloadPlanView>>;
  start(input: DownloadAreaInput): Promise<Result<DownloadView>>;
  cancel(downloadId: string): Result<DownloadView>;
  list(): DownloadView[];
  /** Cancels a running download of this basemap and waits for its last requests (before the basemap goes). */
  stopFor(basemapId: string): Promise<void>;
  /** Cancels the running download, whatever its basemap, and waits for its last requests. */
  stopAll(): Promise<void>;
  /** Cancels the running download and waits for its requests. */
  close(): Promise<void>;
}

interface Planned {
  view: DownloadPlanView;
  template: string | null;
  ranges: TileRange[];
}

const RESUME_HINT = 'Start it again to resume: tiles already saved are skipped (a download does not continue by itself after Sitewalk closes).';

function capOf(input: DownloadAreaInput): number {
  return Math.min(MAX_DOWNLOAD_BYTES, input.maxBytes ?? DEFAULT_DOWNLOAD_CAP_BYTES);
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 * 1024 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / (1024 * 1024)))} MB`;
}

/** Two sizes said so that a reader sees the first is the larger: more digits when they round alike. */
function twoSizes(larger: number, smaller: number): [string, string] {
  if (mb(larger) !== mb(smaller)) return [mb(larger), mb(smaller)];
  const precise = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
  return [precise(larger), precise(smaller)];
}

export function createDownloads(options: DownloadsOptions): Downloads {
  const clock = options.clock ?? { now: () => Date.now() };
  const progressEvery = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  const concurrency = options.concurrency ?? DOWNLOAD_CONCURRENCY;
  const views = new Map<string, DownloadView>();
  const order: string[] = [];
  let running: { id: string; stop: AbortController; done: Promise<void> } | null = null;
  let counter = 0;

  async function plan(input: DownloadAreaInput): Promise<Result<Planned>> {
    const source = options.source(input.basemapId);
    if (!source) return refuse('basemapId', 'There is no such basemap (it may have been removed).');
    const capBytes = capOf(input);
    const base = { basemapId: input.basemapId, tiles: 0, tilesCached: 0, estimatedBytes: 0, capBytes };
    const refusedPlan = (refusal: string, tiles = 0): Result<Planned> => ({ ok: true, value: { view: { ...base, tiles, refusal }, template: source.template, ranges: [] } });

    const policy = downloadRefusal(source);
    if (policy) return refusedPlan(policy);
    if (input.minZoom > input.maxZoom) return refusedPlan('The smallest zoom must not be above the largest.');
    const minZoom = Math.max(input.minZoom, source.minZoom);
    const maxZoom = Math.min(input.maxZoom, source.maxZoom);
    if (minZoom > maxZoom) return refusedPlan(`This tile server has zooms ${source.minZoom} to ${source.maxZoom} only; choose a zoom range within them.`);
    const [west, south, east, north] = input.bounds;
    if (west >= east || south >= north) return refusedPlan('The area is empty: its west edge must be left of its east edge and its south edge below its north edge.');
    const ranges: TileRange[] = [];
    let tiles = 0;
    for (let z = minZoom; z <= maxZoom; z++) {
      const range = tileRange(input.bounds, z);
      ranges.push(range);
      tiles += rangeCount(range);
    }
    if (tiles > MAX_DOWNLOAD_TILES) {
      return refusedPlan(`This is ${tiles.toLocaleString('en-US')} tiles; Sitewalk downloads at most ${MAX_DOWNLOAD_TILES.toLocaleString('en-US')} at a time. Choose a smaller area or fewer zoom levels (each zoom level has four times the tiles of the one before).`, tiles);
    }
    const template = source.template!;
    const cache = options.cache();
    let tilesCached = 0;
    for (const coords of tilesOf(ranges)) {
      if ((await cache.holding(coords, template)) === 'fresh') tilesCached++;
    }
    const average = (await cache.averageTileBytes(template)) ?? DEFAULT_TILE_BYTES;
    const columns = ranges.reduce((sum, range) => sum + (range.xMax - range.xMin + 1), 0);
    const estimatedBytes = (tiles - tilesCached) * diskBytes(average) + (tilesCached < tiles ? columns * DISK_BLOCK_BYTES : 0);
    const view: DownloadPlanView = { ...base, tiles, tilesCached, estimatedBytes, refusal: null };
    const offline = await options.offline?.();
    if (offline && offline.bytesOnDisk + estimatedBytes > offline.limitBytes) {
      view.refusal = `Downloaded tiles take ${mb(offline.bytesOnDisk)} of the ${mb(offline.limitBytes)} you allow for all of them, and this area would take about ${mb(estimatedBytes)} more. Clear downloaded tiles or raise that limit (Settings → Basemaps), or choose a smaller area.`;
    } else if (estimatedBytes > capBytes) {
      const [estimated, cap] = twoSizes(estimatedBytes, capBytes);
      view.refusal = `This area would take about ${estimated} on disk, more than the limit of ${cap}${capBytes < MAX_DOWNLOAD_BYTES ? ` (it can be raised up to ${mb(MAX_DOWNLOAD_BYTES)})` : ''}. Choose a smaller area or fewer zoom levels.`;
    }
    return { ok: true, value: { view, template, ranges } };
  }

  /** Tells the hosts a copy: `views` holds the live objects the workers count in. */
  function publish(view: DownloadView): void {
    options.onProgress({ ...view, area: { ...view.area } });
  }

  /** True while a download runs; a cancelled one is waited for (its last requests finish) rather than refused. */
  async function busy(): Promise<boolean> {
    const current = running;
    if (!current) return false;
    if (views.get(current.id)?.state === 'running') return true;
    await current.done;
    return running !== null;
  }

  async function start(input: DownloadAreaInput): Promise<Result<DownloadView>> {
    if (await busy()) return refuse('basemapId', 'An area download is already running; wait for it or cancel it first.');
    const planned = await plan(input);
    if (!planned.ok) return planned;
    const { view: planView, template, ranges } = planned.value;
    if (planView.refusal) return refuse('basemapId', planView.refusal);
    if (await busy()) return refuse('basemapId', 'An area download is already running; wait for it or cancel it first.');
    const id = `download-${++counter}`;
    const view: DownloadView = {
      id,
      basemapId: input.basemapId,
      state: 'running',
      tiles: planView.tiles,
      tilesDone: 0,
      tilesFailed: 0,
      bytes: 0,
      capBytes: planView.capBytes,
      message: `Downloading ${planView.tiles.toLocaleString('en-US')} tiles (${planView.tilesCached.toLocaleString('en-US')} already saved). If Sitewalk closes, start it again: saved tiles are skipped.`,
      area: { ...input },
    };
    order.unshift(id);
    views.set(id, view);
    const stop = new AbortController();
    const offline = await options.offline?.();
    const room = offline ? offline.limitBytes - offline.bytesOnDisk : Number.POSITIVE_INFINITY;
    const done = run(view, template!, ranges, stop.signal, room).finally(() => {
      if (running?.id === id) running = null;
    });
    running = { id, stop, done };
    publish(view);
    return { ok: true, value: { ...view } };
  }

  /** `room`: what the overall limit of downloaded tiles leaves for this one. */
  async function run(view: DownloadView, template: string, ranges: TileRange[], signal: AbortSignal, room: number): Promise<void> {
    const cache = options.cache();
    const queue = tilesOf(ranges);
    let failuresInARow = 0;
    const columns = new Set<string>();
    let lastPublished = clock.now();
    let ending: { state: DownloadView['state']; message: string } | null = null;
    const end = (state: DownloadView['state'], message: string) => {
      ending ??= { state, message };
    };

    const progress = () => {
      const now = clock.now();
      if (now - lastPublished < progressEvery) return;
      lastPublished = now;
      publish(view);
    };

    async function worker(): Promise<void> {
      for (;;) {
        if (signal.aborted || ending) return;
        const next = queue.next();
        if (next.done) return;
        const answer = await cache.get(next.value, { template, keep: true });
        if (signal.aborted) return;
        if (answer.ok && answer.source !== 'stale') {
          view.tilesDone++;
          failuresInARow = 0;
          if (answer.source === 'network' || answer.source === 'revalidated') {
            view.bytes += diskBytes(answer.bytes.length);
            const column = `${next.value.z}/${next.value.x}`;
            if (!columns.has(column)) {
              columns.add(column);
              view.bytes += DISK_BLOCK_BYTES;
            }
          }
        } else {
          view.tilesFailed++;
          failuresInARow++;
          if (!answer.ok && answer.reason === 'unreachable') end('failed', `The tile server cannot be reached, so the download stopped after ${view.tilesDone.toLocaleString('en-US')} of ${view.tiles.toLocaleString('en-US')} tiles. ${RESUME_HINT}`);
          else if (failuresInARow >= MAX_FAILURES_IN_A_ROW) end('failed', `The tile server refused ${MAX_FAILURES_IN_A_ROW} tiles in a row, so the download stopped (${view.tilesDone.toLocaleString('en-US')} of ${view.tiles.toLocaleString('en-US')} tiles saved). ${RESUME_HINT}`);
        }
        if (view.bytes >= room) {
          end('failed', `Stopped at the limit for all downloaded tiles: ${view.tilesDone.toLocaleString('en-US')} of ${view.tiles.toLocaleString('en-US')} tiles saved. Clear downloaded tiles or raise that limit (Settings → Basemaps).`);
        }
        if (view.bytes >= view.capBytes) {
          const raise = view.capBytes < MAX_DOWNLOAD_BYTES ? `, or raise the limit (up to ${mb(MAX_DOWNLOAD_BYTES)})` : '';
          end('failed', `Stopped at the size limit of ${mb(view.capBytes)} on disk: ${view.tilesDone.toLocaleString('en-US')} of ${view.tiles.toLocaleString('en-US')} tiles saved. Choose a smaller area or fewer zoom levels${raise}.`);
        }
        progress();
      }
    }

    try {
      await Promise.all(Array.from({ length: concurrency }, () => worker()));
    } catch (error) {
      end('failed', `The download stopped on an error (${error instanceof Error ? error.message : String(error)}). ${RESUME_HINT}`);
    }
    if (signal.aborted || view.state !== 'running') return; // cancel() published the final view.
    const finished = ending as { state: DownloadView['state']; message: string } | null;
    if (finished) {
      view.state = finished.state;
      view.message = finished.message;
    } else {
      const failed = view.tilesFailed > 0 ? ` ${view.tilesFailed.toLocaleString('en-US')} tiles the server did not send are missing; start it again to try those once more.` : '';
      view.state = 'done';
      view.message = `Done: ${view.tilesDone.toLocaleString('en-US')} of ${view.tiles.toLocaleString('en-US')} tiles are saved for offline use (${mb(view.bytes)} on disk).${failed}`;
    }
    publish(view);
  }

  async function stopRunning(): Promise<void> {
    const current = running;
    if (!current) return;
    cancel(current.id);
    await current.done;
  }

  function cancel(downloadId: string): Result<DownloadView> {
    const view = views.get(downloadId);
    if (!view) return refuse('downloadId', 'There is no such download (downloads are forgotten when Sitewalk closes).');
    if (running?.id !== downloadId || view.state !== 'running') return { ok: true, value: { ...view } };
    running.stop.abort();
    view.state = 'cancelled';
    view.message = `Cancelled: ${view.tilesDone.toLocaleString('en-US')} of ${view.tiles.toLocaleString('en-US')} tiles saved. ${RESUME_HINT}`;
    publish(view);
    return { ok: true, value: { ...view, area: { ...view.area } } };
  }

  return {
    async plan(input) {
      const planned = await plan(input);
      return planned.ok ? { ok: true, value: planned.value.view } : planned;
    },
    start,
    cancel,
    // The running one first (it is the newest: only one runs at a time).
    list: () => order.map((id) => views.get(id)!).map((view) => ({ ...view, area: { ...view.area } })),
    async stopFor(basemapId) {
      const current = running;
      if (!current || views.get(current.id)?.basemapId !== basemapId) return;
      cancel(current.id);
      await current.done;
    },
    stopAll: stopRunning,
    close: stopRunning,
  };
}

/** Every tile of the ranges, zoom by zoom (small zooms first: the overview is there soonest). */
function* tilesOf(ranges: readonly TileRange[]): Generator<TileCoords> {
  for (const range of ranges) {
    for (let x = range.xMin; x <= range.xMax; x++) {
      for (let y = range.yMin; y <= range.yMax; y++) yield { z: range.z, x, y };
    }
  }
}
