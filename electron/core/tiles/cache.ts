// The map tile cache both hosts serve /tiles/{z}/{x}/{y} from: tiles seen while online are kept on
// disk under <dataDir>/tiles/ and shown offline. Invariants: one folder per tile server template, so
// a new server never shows the old one's tiles; a file is replaced whole (temp file + rename) and
// checked when read, so a damaged one is a miss, never a broken image; a fresh tile is served without
// asking the server; a stale one is asked for again and served as it is when the server fails; one
// tile is fetched once however many ask at the same time; the folder stays under maxBytes, the
// least recently used tiles going first. `get` never throws: every outcome is a TileAnswer.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../node/atomic-file';
import type { Clock } from '../clock';
import type { FetchLike } from '../service/types';
import { fillTemplate, parseTilePath, validCoords, type TileCoords } from './coords';
import { decodeEntry, encodeEntry, type TileEntry } from './entry';
import { fetchUpstream } from './upstream';

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

export const TILES_FOLDER = 'tiles';
const TILE_SUFFIX = '.tile';
const TEMP_SUFFIX = '.tmp';
/** A temp file older than this was left by a crash, not by a write in progress. */
const ABANDONED_TEMP_MS = 10 * 60 * 1000;
/** A tile's last use is recorded at most this often (it orders eviction). */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** How long a browser may keep a tile it got (its own cache, before it asks us again). */
const BROWSER_MAX_AGE_S = { min: 60, max: 24 * 60 * 60 };

/** Sitewalk's User-Agent for tile requests, with the app's version when the host knows it. */
export function tileUserAgent(version?: string): string {
  return `Sitewalk${version ? `/${version}` : ''} (desktop field tool for wireless ISPs; tile cache)`;
}

/** Where a tile came from: the server, the server confirming our copy, our fresh copy, or our stale copy because the server failed. */
export type TileSource = 'network' | 'revalidated' | 'cache' | 'stale';

export interface TileHit {
  ok: true;
  bytes: Buffer;
  contentType: string;
  source: TileSource;
  fetchedAt: number;
  /** How long the page's browser may keep it. */
  maxAgeSeconds: number;
}

export type TileMissReason = 'bad-coordinates' | 'bad-template' | 'unreachable' | 'refused' | 'closed' | 'internal';

export interface TileMiss {
  ok: false;
  /** What the hosts answer: 400 bad coordinates, 504 server unreachable, 502 server answered no tile. */
  status: 400 | 500 | 502 | 503 | 504;
  reason: TileMissReason;
  /** For a technician. */
  message: string;
  /** For a support engineer. */
  detail: string;
}

export type TileAnswer = TileHit | TileMiss;

export interface TileCache {
  get(coords: TileCoords): Promise<TileAnswer>;
  /** The file a tile of the current template is kept in (for support and tests). */
  fileFor(coords: TileCoords): string;
  /** Resolves when no request and no eviction is running. */
  idle(): Promise<void>;
  /** Aborts requests in flight and waits for them; later requests answer 503. */
  close(): Promise<void>;
}

const UNREACHABLE_MESSAGE = 'The map tile server cannot be reached, and this tile was never seen before.';

function miss(status: TileMiss['status'], reason: TileMissReason, message: string, detail: string): TileMiss {
  return { ok: false, status, reason, message, detail };
}

/** The folder name for a template: changing the tile server changes the folder. */
export function templateFolder(template: string): string {
  return createHash('sha256').update(template.trim(), 'utf8').digest('hex').slice(0, 16);
}

/** What a host answers for a request path under /tiles/. */
export async function tileForPath(cache: TileCache, path: string): Promise<TileAnswer> {
  const coords = parseTilePath(path);
  if (!coords) return miss(400, 'bad-coordinates', 'This is not a map tile address.', `expected /tiles/{z}/{x}/{y}, got ${path.slice(0, 80)}`);
  return cache.get(coords);
}

/** The headers of a tile answer, the same from both hosts. */
export function tileHeaders(hit: TileHit): Record<string, string> {
  return {
    'Content-Type': hit.contentType,
    'Content-Length': String(hit.bytes.length),
    'Cache-Control': `private, max-age=${hit.maxAgeSeconds}`,
    'X-Sitewalk-Tile': hit.source,
  };
}

type Cached = { kind: 'entry'; entry: TileEntry } | { kind: 'absent' } | { kind: 'damaged'; size: number };

export function createTileCache(options: TileCacheOptions): TileCache {
  const settings = { ...TILE_CACHE_DEFAULTS, ...withoutUndefined(options) };
  const transport: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.clock ?? { now: () => Date.now() };
  const log = options.log ?? (() => undefined);
  const root = join(options.dataDir, TILES_FOLDER);

  const inFlight = new Map<string, Promise<TileAnswer>>();
  const closing = new AbortController();
  const foldersNamed = new Set<string>();
  const writeProblemsLogged = new Set<string>();
  /** Bytes in the folder as last counted plus what was written since; null until the first count. */
  let totalBytes: number | null = null;
  let eviction: Promise<void> | null = null;
  let countedDuringEviction = 0;
  /** Until when the server is taken to be unreachable (see retryAfterMs). */
  let unreachableUntil = 0;
  let unreachable = false;
  let closed = false;

  function tilePath(folder: string, coords: TileCoords): string {
    return join(root, folder, String(coords.z), String(coords.x), `${coords.y}${TILE_SUFFIX}`);
  }

  function browserMaxAge(entry: TileEntry, source: TileSource): number {
    if (source === 'stale') return BROWSER_MAX_AGE_S.min;
    const left = Math.floor((entry.fetchedAt + settings.maxAgeMs - clock.now()) / 1000);
    return Math.min(BROWSER_MAX_AGE_S.max, Math.max(BROWSER_MAX_AGE_S.min, left));
  }

  function hit(entry: TileEntry, source: TileSource): TileHit {
    return { ok: true, bytes: entry.bytes, contentType: entry.contentType, source, fetchedAt: entry.fetchedAt, maxAgeSeconds: browserMaxAge(entry, source) };
  }

  async function readCached(file: string): Promise<Cached> {
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch {
      // Missing, or unreadable: either way there is nothing to serve.
      return { kind: 'absent' };
    }
    const entry = decodeEntry(data);
    return entry ? { kind: 'entry', entry } : { kind: 'damaged', size: data.length };
  }

  function fresh(entry: TileEntry, now: number): boolean {
    const age = now - entry.fetchedAt;
    // A fetch time in the future (the clock was set back) is not trusted as fresh.
    return age >= 0 && age < settings.maxAgeMs;
  }

  /** Records a use, so eviction takes the tiles not looked at for longest. */
  async function touch(file: string, now: number): Promise<void> {
    try {
      const { mtimeMs } = await stat(file);
      if (now - mtimeMs < TOUCH_EVERY_MS) return;
      const seconds = now / 1000;
      await utimes(file, seconds, seconds);
    } catch {
      // Evicted meanwhile, or read-only: the tile was served all the same.
    }
  }

  function logWriteProblem(error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (writeProblemsLogged.has(code)) return;
    writeProblemsLogged.add(code);
    log(`tiles: could not keep a map tile on disk (${error instanceof Error ? error.message : String(error)}); tiles still show while online.`);
  }

  async function nameFolder(folder: string, template: string): Promise<void> {
    if (foldersNamed.has(folder)) return;
    foldersNamed.add(folder);
    // Which server a folder holds, for whoever looks into the data folder.
    await writeFile(join(root, folder, 'template.txt'), `${template}\n`).catch(() => undefined);
  }

  async function store(file: string, folder: string, template: string, entry: TileEntry): Promise<void> {
    if (closed) return;
    const data = encodeEntry(entry);
    try {
      await mkdir(dirname(file), { recursive: true });
      await nameFolder(folder, template);
      const previous = await stat(file).then(
        (found) => found.size,
        () => 0,
      );
      // A tile can be fetched again: never half a file, but no fsync per tile.
      await writeFileAtomic(file, data, { durable: false });
      const seconds = clock.now() / 1000;
      await utimes(file, seconds, seconds);
      counted(data.length - previous);
    } catch (error) {
      logWriteProblem(error);
    }
  }

  async function forget(file: string, size: number): Promise<void> {
    try {
      await unlink(file);
      counted(-size);
    } catch {
      // Already gone.
    }
  }

  function counted(delta: number): void {
    if (eviction) {
      // A count is running and may or may not see this write: it is added after (a little over is
      // safe, the next count corrects it).
      countedDuringEviction += delta;
      return;
    }
    if (totalBytes === null) {
      // The first write counts the folder (and evicts, should a smaller limit apply now).
      startEviction();
      return;
    }
    totalBytes += delta;
    if (totalBytes > settings.maxBytes) startEviction();
  }

  function startEviction(): void {
    if (eviction || closed) return;
    eviction = evict()
      .catch((error: unknown) => log(`tiles: clearing old tiles failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        eviction = null;
      });
  }

  /** Counts the folder from disk and trims it; again while tiles written meanwhile keep it over the limit. */
  async function evict(): Promise<void> {
    for (;;) {
      countedDuringEviction = 0;
      const kept = await countAndTrim();
      totalBytes = kept + countedDuringEviction;
      if (countedDuringEviction === 0 || totalBytes <= settings.maxBytes || closed) return;
    }
  }

  /** Above maxBytes, removes the least recently used tiles down to evictTo; returns the bytes kept. */
  async function countAndTrim(): Promise<number> {
    const tiles: { path: string; size: number; usedAt: number }[] = [];
    let total = 0;
    for (const path of await listFiles(root, 3)) {
      let info;
      try {
        info = await stat(path);
      } catch {
        continue;
      }
      if (path.endsWith(TEMP_SUFFIX)) {
        // Temp files are written with the real clock's time, whatever clock the cache was given.
        if (Date.now() - info.mtimeMs > ABANDONED_TEMP_MS) await rm(path, { force: true }).catch(() => undefined);
        continue;
      }
      if (!path.endsWith(TILE_SUFFIX)) continue;
      tiles.push({ path, size: info.size, usedAt: info.mtimeMs });
      total += info.size;
    }
    if (total <= settings.maxBytes) return total;
    const target = settings.maxBytes * settings.evictTo;
    tiles.sort((a, b) => a.usedAt - b.usedAt);
    let removed = 0;
    for (const tile of tiles) {
      if (total <= target) break;
      try {
        await unlink(tile.path);
        total -= tile.size;
        removed++;
      } catch {
        // Gone already.
      }
    }
    log(`tiles: the tile cache reached its limit of ${mib(settings.maxBytes)}; removed the ${removed} least recently used tiles (${mib(total)} kept).`);
    return total;
  }

  function markUnreachable(detail: string): void {
    unreachableUntil = clock.now() + settings.retryAfterMs;
    if (unreachable) return;
    unreachable = true;
    log(`tiles: the map tile server cannot be reached (${detail}); showing cached tiles, trying again at most every ${Math.round(settings.retryAfterMs / 1000)} s.`);
  }

  function markReachable(): void {
    unreachableUntil = 0;
    if (!unreachable) return;
    unreachable = false;
    log('tiles: the map tile server answers again.');
  }

  /** The copy we hold, served because the server could not give a newer one: it is in use, so touched. */
  async function stale(file: string, copy: TileEntry): Promise<TileHit> {
    await touch(file, clock.now());
    return hit(copy, 'stale');
  }

  async function load(template: string, folder: string, coords: TileCoords): Promise<TileAnswer> {
    const file = tilePath(folder, coords);
    const cached = await readCached(file);
    const copy = cached.kind === 'entry' ? cached.entry : null;
    const now = clock.now();
    if (copy && fresh(copy, now)) {
      await touch(file, now);
      return hit(copy, 'cache');
    }
    if (cached.kind === 'damaged') await forget(file, cached.size);

    const url = fillTemplate(template, coords, settings.subdomains);
    if (url === null) {
      if (copy) return stale(file, copy);
      return miss(502, 'bad-template', 'The map tile address has a {placeholder} Sitewalk cannot fill.', `template: ${template}`);
    }
    const server = hostOf(url);
    if (now < unreachableUntil) {
      if (copy) return stale(file, copy);
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
        markReachable();
        const entry: TileEntry = { contentType: answer.contentType, fetchedAt: clock.now(), etag: answer.etag, lastModified: answer.lastModified, bytes: answer.bytes };
        await store(file, folder, template, entry);
        return hit(entry, 'network');
      }
      case 'not-modified': {
        markReachable();
        const entry: TileEntry = { ...copy!, fetchedAt: clock.now() };
        await store(file, folder, template, entry);
        return hit(entry, 'revalidated');
      }
      case 'unreachable':
        if (!closed) markUnreachable(`${server}: ${answer.detail}`);
        if (copy) return stale(file, copy);
        return miss(504, 'unreachable', UNREACHABLE_MESSAGE, `${server}: ${answer.detail}`);
      case 'refused':
        markReachable();
        if (copy) return stale(file, copy);
        return miss(502, 'refused', 'The map tile server did not send this tile.', `${server}: ${answer.detail}`);
    }
  }

  async function get(coords: TileCoords): Promise<TileAnswer> {
    if (closed) return miss(503, 'closed', 'Sitewalk is closing.', 'the tile cache is closed');
    if (!validCoords(coords)) {
      return miss(400, 'bad-coordinates', 'There is no map tile at these coordinates.', `z/x/y = ${String(coords.z)}/${String(coords.x)}/${String(coords.y)}`);
    }
    let template: string;
    try {
      template = options.template().trim();
    } catch (error) {
      return miss(500, 'internal', 'Sitewalk could not read the map tile address.', error instanceof Error ? error.message : String(error));
    }
    const folder = templateFolder(template);
    const key = `${folder}/${coords.z}/${coords.x}/${coords.y}`;
    const running = inFlight.get(key);
    if (running) return running;
    const work = load(template, folder, coords)
      .catch((error: unknown) => miss(500, 'internal', 'Sitewalk could not load this map tile.', error instanceof Error ? error.message : String(error)))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, work);
    return work;
  }

  async function idle(): Promise<void> {
    while (inFlight.size > 0 || eviction) {
      await Promise.allSettled([...inFlight.values(), eviction]);
    }
  }

  return {
    get,
    fileFor(coords) {
      return tilePath(templateFolder(options.template()), coords);
    },
    idle,
    async close() {
      closed = true;
      closing.abort();
      await idle();
    },
  };
}

/** Files down to `depth` folders below `dir` (the tiles folder is template/z/x/file). */
async function listFiles(dir: string, depth: number): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile()) files.push(path);
    else if (entry.isDirectory() && depth > 0) files.push(...(await listFiles(path, depth - 1)));
  }
  return files;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the tile server';
  }
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
