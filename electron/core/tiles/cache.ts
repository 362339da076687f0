// The map tile cache both hosts serve /tiles/{z}/{x}/{y} from: tiles seen while online are kept on
// disk and shown offline. Invariants: a fresh tile is served without asking the server; a stale one is
// asked for again and served as it is when the server fails; one tile is fetched once however many ask
// at the same time; `get` never throws: every outcome is a TileAnswer. Several servers share one cache
// (each basemap's template is named per request). The jobs around a request are each a module: the
// folders and files (disk.ts: one folder per template, whole-file writes, the offline folder for
// area downloads), the size limit (eviction.ts), a server out of reach left alone for a while
// (backoff.ts) and how long a tile is fresh (freshness.ts).
import type { Clock } from '../clock';
import type { FetchLike } from '../service/types';
import { createBackoff, serverOf } from './backoff';
import { fillTemplate, parseTilePath, validCoords, type TileCoords } from './coords';
import { createTileDisk, templateFolder } from './disk';
import { encodeEntry, type TileEntry } from './entry';
import { createEviction } from './eviction';
import { hitOf, isFresh } from './freshness';
import { miss, type TileAnswer, type TileHit, type TileSource } from './tile-answer';
import { fetchUpstream } from './upstream';

export { KEPT_TILES_FOLDER, TILES_FOLDER, templateFolder } from './disk';
export { tileHeaders, type TileAnswer, type TileHit, type TileMiss, type TileMissReason, type TileSource } from './tile-answer';

export interface TileCacheOptions {
  /** The core's data folder; tiles go to <dataDir>/tiles/. */
  dataDir: string;
  /** The current tile server template (the settings' tileUrl), read on every request. */
  template: () => string;
  /** Transport to the tile server (the Electron host passes net.fetch). Default: Node's fetch. */
  fetch?: FetchLike;
  /** Largest size of the whole tiles folder; above it the least recently used tiles go. */
  maxBytes?: number;
  /** An eviction brings the folder down to this share of maxBytes, so it does not run per tile. */
  evictTo?: number;
  /** How long a tile is served from disk without asking the server (OSM asks for at least 7 days). */
  maxAgeMs?: number;
  /** Per upstream request, headers and body. */
  timeoutMs?: number;
  /** Largest tile kept or served. */
  maxTileBytes?: number;
  /**
   * After the server could not be reached, how long tiles are answered from disk only without
   * trying again: offline, each new tile would otherwise wait for its own failure.
   */
  retryAfterMs?: number;
  /** Sent with every upstream request: the OSM tile policy asks applications to identify themselves. */
  userAgent?: string;
  /** What {s} is filled with, one letter per subdomain (Leaflet's default). */
  subdomains?: string;
  clock?: Pick<Clock, 'now'>;
  /** Transitions only (server unreachable, reachable again, a failed write): never one line per tile. */
  log?: (line: string) => void;
}

export const TILE_CACHE_DEFAULTS = {
  maxBytes: 256 * 1024 * 1024,
  evictTo: 0.8,
  maxAgeMs: 7 * 24 * 60 * 60 * 1000,
  timeoutMs: 10_000,
  maxTileBytes: 2 * 1024 * 1024,
  retryAfterMs: 15_000,
  userAgent: tileUserAgent(),
  subdomains: 'abc',
} as const;

/** Sitewalk's User-Agent for tile requests, with the app's version when the host knows it. */
export function tileUserAgent(version?: string): string {
  return `Sitewalk${version ? `/${version}` : ''} (desktop field tool for wireless ISPs; tile cache)`;
}

/** Which server a request is for and whether an area download asked for it. */
export interface TileRequest {
  /** The tile server template; default: the cache's `template` option. */
  template?: string;
  /** Keep the tile in the offline folder, out of eviction's reach (area downloads). */
  keep?: boolean;
}

/** What the cache holds for a tile, without asking the server. */
export type TileHolding = 'fresh' | 'stale' | 'absent';

export interface TileCache {
  get(coords: TileCoords, request?: TileRequest): Promise<TileAnswer>;
  /** Whether a tile of `template` is on disk and fresh (an area download's plan and resume). */
  holding(coords: TileCoords, template: string): Promise<TileHolding>;
  /** The average size of up to `sample` tiles of `template` on disk, or null when there are none. */
  averageTileBytes(template: string, sample?: number): Promise<number | null>;
  /** Removes the tiles an area download kept for `template` (its basemap was removed). */
  dropKept(template: string): Promise<void>;
  /** The file a tile of the current template is kept in (for support and tests). */
  fileFor(coords: TileCoords): string;
  /** Resolves when no request and no eviction is running. */
  idle(): Promise<void>;
  /** Aborts requests in flight and waits for them; later requests answer 503. */
  close(): Promise<void>;
}

const UNREACHABLE_MESSAGE = 'The map tile server cannot be reached, and this tile was never seen before.';

/** What a host answers for a request path under /tiles/. */
export async function tileForPath(cache: TileCache, path: string): Promise<TileAnswer> {
  const coords = parseTilePath(path);
  if (!coords) return miss(400, 'bad-coordinates', 'This is not a map tile address.', `expected /tiles/{z}/{x}/{y}, got ${path.slice(0, 80)}`);
  return cache.get(coords);
}

export function createTileCache(options: TileCacheOptions): TileCache {
  const settings = { ...TILE_CACHE_DEFAULTS, ...withoutUndefined(options) };
  const transport: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.clock ?? { now: () => Date.now() };
  const log = options.log ?? (() => undefined);
  const inFlight = new Map<string, Promise<TileAnswer>>();
  const closing = new AbortController();
  let closed = false;
  const isClosed = () => closed;
  const disk = createTileDisk({ dataDir: options.dataDir, clock, log, isClosed, onCounted: (delta) => eviction.counted(delta) });
  const eviction = createEviction({ root: disk.root, maxBytes: settings.maxBytes, evictTo: settings.evictTo, log, isClosed });
  const backoff = createBackoff({ retryAfterMs: settings.retryAfterMs, clock, log });

  const hit = (entry: TileEntry, source: TileSource): TileHit => hitOf(entry, source, clock.now(), settings.maxAgeMs);
  const fresh = (entry: TileEntry, now: number) => isFresh(entry, now, settings.maxAgeMs);

  /** The copy we hold, served because the server could not give a newer one: it is in use, so touched. */
  async function stale(file: string, copy: TileEntry): Promise<TileHit> {
    await disk.touch(file, clock.now());
    return hit(copy, 'stale');
  }

  async function load(template: string, folder: string, coords: TileCoords, keep: boolean): Promise<TileAnswer> {
    const found = await disk.readBoth(folder, coords);
    const { copy, keptFile } = found;
    // A kept tile stays kept when refreshed; a tile an area download asks for becomes kept.
    const file = keep || found.kept ? keptFile : found.file;
    const now = clock.now();
    if (copy && fresh(copy, now)) {
      if (keep && found.copyFile !== keptFile) {
        await disk.store(keptFile, folder, template, copy);
        await disk.forget(found.file, encodeEntry(copy).length);
      } else {
        await disk.touch(found.copyFile, now);
      }
      return hit(copy, 'cache');
    }

    const url = fillTemplate(template, coords, settings.subdomains);
    if (url === null) {
      if (copy) return stale(found.copyFile, copy);
      return miss(502, 'bad-template', 'The map tile address has a {placeholder} Sitewalk cannot fill.', `template: ${template}`);
    }
    const server = serverOf(url);
    if (backoff.waiting(server, now)) {
      if (copy) return stale(found.copyFile, copy);
      return miss(504, 'unreachable', UNREACHABLE_MESSAGE, `${server}: not asked again yet after the last failure`);
    }

    const answer = await fetchUpstream({
      url,
      fetch: transport,
      userAgent: settings.userAgent,
      timeoutMs: settings.timeoutMs,
      maxBytes: settings.maxTileBytes,
      etag: copy?.etag ?? null,
      lastModified: copy?.lastModified ?? null,
      signal: closing.signal,
    });
    switch (answer.kind) {
      case 'image': {
        backoff.reachable(server);
        const entry: TileEntry = { contentType: answer.contentType, fetchedAt: clock.now(), etag: answer.etag, lastModified: answer.lastModified, bytes: answer.bytes };
        await disk.store(file, folder, template, entry);
        return hit(entry, 'network');
      }
      case 'not-modified': {
        backoff.reachable(server);
        const entry: TileEntry = { ...copy!, fetchedAt: clock.now() };
        await disk.store(file, folder, template, entry);
        return hit(entry, 'revalidated');
      }
      case 'unreachable':
        if (!closed) backoff.unreachable(server, `${server}: ${answer.detail}`);
        if (copy) return stale(found.copyFile, copy);
        return miss(504, 'unreachable', UNREACHABLE_MESSAGE, `${server}: ${answer.detail}`);
      case 'refused':
        backoff.reachable(server);
        if (copy) return stale(found.copyFile, copy);
        return miss(502, 'refused', 'The map tile server did not send this tile.', `${server}: ${answer.detail}`);
    }
  }

  async function get(coords: TileCoords, request: TileRequest = {}): Promise<TileAnswer> {
    if (closed) return miss(503, 'closed', 'Sitewalk is closing.', 'the tile cache is closed');
    if (!validCoords(coords)) {
      return miss(400, 'bad-coordinates', 'There is no map tile at these coordinates.', `z/x/y = ${String(coords.z)}/${String(coords.x)}/${String(coords.y)}`);
    }
    let template: string;
    try {
      template = (request.template ?? options.template()).trim();
    } catch (error) {
      return miss(500, 'internal', 'Sitewalk could not read the map tile address.', error instanceof Error ? error.message : String(error));
    }
    const folder = templateFolder(template);
    const keep = request.keep === true;
    const key = `${folder}/${coords.z}/${coords.x}/${coords.y}${keep ? '/keep' : ''}`;
    const running = inFlight.get(key);
    if (running) return running;
    const work = load(template, folder, coords, keep)
      .catch((error: unknown) => miss(500, 'internal', 'Sitewalk could not load this map tile.', error instanceof Error ? error.message : String(error)))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, work);
    return work;
  }

  async function idle(): Promise<void> {
    while (inFlight.size > 0 || eviction.running()) {
      await Promise.allSettled([...inFlight.values(), eviction.running()]);
    }
  }

  async function holding(coords: TileCoords, template: string): Promise<TileHolding> {
    if (!validCoords(coords)) return 'absent';
    const { copy } = await disk.readBoth(templateFolder(template), coords);
    if (!copy) return 'absent';
    return fresh(copy, clock.now()) ? 'fresh' : 'stale';
  }

  return {
    get,
    holding,
    averageTileBytes: (template, sample = 200) => disk.averageTileBytes(template, sample),
    dropKept: (template) => disk.dropKept(template),
    fileFor(coords) {
      return disk.fileOf(templateFolder(options.template()), coords);
    },
    idle,
    async close() {
      closed = true;
      closing.abort();
      await idle();
    },
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
