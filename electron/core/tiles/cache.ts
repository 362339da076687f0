// The map tile cache both hosts serve /tiles/{z}/{x}/{y} from: tiles seen while online are kept on
// disk under <dataDir>/tiles/ and shown offline. Invariants: one folder per tile server template, so
// a new server never shows the old one's tiles; a file is replaced whole (temp file + rename) and
// checked when read, so a damaged one is a miss, never a broken image; a fresh tile is served without
// asking the server; a stale one is asked for again and served as it is when the server fails; one
// tile is fetched once however many ask at the same time; the folder stays under maxBytes, the
// least recently used tiles going first. `get` never throws: every outcome is a TileAnswer.
// Several servers share one cache (each basemap's template is named per request); a server out of
// reach is backed off on its own. Tiles an area download asked to keep go to <dataDir>/tiles-offline/,
// which eviction never touches (the downloads' own caps bound it); a tile is read from either folder.
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
/** Tiles kept by area downloads: never evicted, refreshed in place when seen online. */
export const KEPT_TILES_FOLDER = 'tiles-offline';
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

/**
 * Where a tile came from: the server, the server confirming our copy, our fresh copy, our stale copy
 * because the server failed, or a basemap file on this computer.
 */
export type TileSource = 'network' | 'revalidated' | 'cache' | 'stale' | 'file';

export interface TileHit {
  ok: true;
  bytes: Buffer;
  contentType: string;
  source: TileSource;
  fetchedAt: number;
  /** How long the page's browser may keep it. */
  maxAgeSeconds: number;
}

export type TileMissReason =
  | 'bad-coordinates'
  | 'bad-template'
  | 'unreachable'
  | 'refused'
  | 'closed'
  | 'internal'
  /** No such basemap, or no tile there (outside a file's area or zoom range): Leaflet shows the grid. */
  | 'not-found'
  /** The basemap file cannot be read (moved, damaged). */
  | 'file-problem';

export interface TileMiss {
  ok: false;
  /** What the hosts answer: 400 bad coordinates, 404 no tile there, 504 server unreachable, 502 server answered no tile. */
  status: 400 | 404 | 500 | 502 | 503 | 504;
  reason: TileMissReason;
  /** For a technician. */
  message: string;
  /** For a support engineer. */
  detail: string;
}

export type TileAnswer = TileHit | TileMiss;

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
  };
}

type Cached = { kind: 'entry'; entry: TileEntry } | { kind: 'absent' } | { kind: 'damaged'; size: number };

export function createTileCache(options: TileCacheOptions): TileCache {
  const settings = { ...TILE_CACHE_DEFAULTS, ...withoutUndefined(options) };
  const transport: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.clock ?? { now: () => Date.now() };
  const log = options.log ?? (() => undefined);
  const root = join(options.dataDir, TILES_FOLDER);
  const keptRoot = join(options.dataDir, KEPT_TILES_FOLDER);

  const inFlight = new Map<string, Promise<TileAnswer>>();
  const closing = new AbortController();
  const foldersNamed = new Set<string>();
  const writeProblemsLogged = new Set<string>();
  /** Bytes in the folder as last counted plus what was written since; null until the first count. */
  let totalBytes: number | null = null;
  let eviction: Promise<void> | null = null;
  let countedDuringEviction = 0;
  /** Per server (host): until when it is taken to be unreachable (see retryAfterMs). */
  const unreachableUntil = new Map<string, number>();
  const unreachable = new Set<string>();
  let closed = false;

  function tilePath(folder: string, coords: TileCoords, base = root): string {
    return join(base, folder, String(coords.z), String(coords.x), `${coords.y}${TILE_SUFFIX}`);
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

  async function nameFolder(folderDir: string, template: string): Promise<void> {
    if (foldersNamed.has(folderDir)) return;
    foldersNamed.add(folderDir);
    // Which server a folder holds, for whoever looks into the data folder.
    await writeFile(join(folderDir, 'template.txt'), `${template}\n`, { mode: 0o600 }).catch(() => undefined);
  }

  /** Writes a tile; a kept one (offline folder) is not counted against maxBytes, as eviction never sees it. */
  async function store(file: string, folder: string, template: string, entry: TileEntry): Promise<void> {
    if (closed) return;
    const data = encodeEntry(entry);
    const kept = file.startsWith(keptRoot);
    try {
      // Folders 0700, files 0600, as everywhere in the data folder (the umask may be laxer).
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await nameFolder(join(kept ? keptRoot : root, folder), template);
      const previous = await stat(file).then(
        (found) => found.size,
        () => 0,
      );
      // A tile can be fetched again: never half a file, but no fsync per tile.
      await writeFileAtomic(file, data, { durable: false });
      const seconds = clock.now() / 1000;
      await utimes(file, seconds, seconds);
      if (!kept) counted(data.length - previous);
    } catch (error) {
      logWriteProblem(error);
    }
  }

  async function forget(file: string, size: number): Promise<void> {
    try {
      await unlink(file);
      if (!file.startsWith(keptRoot)) counted(-size);
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

  function markUnreachable(server: string, detail: string): void {
    unreachableUntil.set(server, clock.now() + settings.retryAfterMs);
    if (unreachable.has(server)) return;
    unreachable.add(server);
    log(`tiles: the map tile server cannot be reached (${detail}); showing cached tiles, trying again at most every ${Math.round(settings.retryAfterMs / 1000)} s.`);
  }

  function markReachable(server: string): void {
    unreachableUntil.delete(server);
    if (!unreachable.delete(server)) return;
    log('tiles: the map tile server answers again.');
  }

  /** The copy we hold, served because the server could not give a newer one: it is in use, so touched. */
  async function stale(file: string, copy: TileEntry): Promise<TileHit> {
    await touch(file, clock.now());
    return hit(copy, 'stale');
  }

  /** The copy on disk: the newer of the browsing folder's and the offline folder's, and which file it is in. */
  async function readBoth(folder: string, coords: TileCoords): Promise<{ copy: TileEntry | null; copyFile: string; keptFile: string; kept: boolean; file: string }> {
    const file = tilePath(folder, coords);
    const keptFile = tilePath(folder, coords, keptRoot);
    const [cached, keptCached] = await Promise.all([readCached(file), readCached(keptFile)]);
    if (cached.kind === 'damaged') await forget(file, cached.size);
    if (keptCached.kind === 'damaged') await forget(keptFile, keptCached.size);
    const browsing = cached.kind === 'entry' ? cached.entry : null;
    const kept = keptCached.kind === 'entry' ? keptCached.entry : null;
    const keptNewer = kept !== null && (browsing === null || kept.fetchedAt >= browsing.fetchedAt);
    return { copy: keptNewer ? kept : browsing, copyFile: keptNewer ? keptFile : file, keptFile, kept: kept !== null, file };
  }

  async function load(template: string, folder: string, coords: TileCoords, keep: boolean): Promise<TileAnswer> {
    const found = await readBoth(folder, coords);
    const { copy, keptFile } = found;
    // A kept tile stays kept when refreshed; a tile an area download asks for becomes kept.
    const file = keep || found.kept ? keptFile : found.file;
    const now = clock.now();
    if (copy && fresh(copy, now)) {
      if (keep && found.copyFile !== keptFile) {
        await store(keptFile, folder, template, copy);
        await forget(found.file, encodeEntry(copy).length);
      } else {
        await touch(found.copyFile, now);
      }
      return hit(copy, 'cache');
    }

    const url = fillTemplate(template, coords, settings.subdomains);
    if (url === null) {
      if (copy) return stale(found.copyFile, copy);
      return miss(502, 'bad-template', 'The map tile address has a {placeholder} Sitewalk cannot fill.', `template: ${template}`);
    }
    const server = hostOf(url);
    if (now < (unreachableUntil.get(server) ?? 0)) {
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
        markReachable(server);
        const entry: TileEntry = { contentType: answer.contentType, fetchedAt: clock.now(), etag: answer.etag, lastModified: answer.lastModified, bytes: answer.bytes };
        await store(file, folder, template, entry);
        return hit(entry, 'network');
      }
      case 'not-modified': {
        markReachable(server);
        const entry: TileEntry = { ...copy!, fetchedAt: clock.now() };
        await store(file, folder, template, entry);
        return hit(entry, 'revalidated');
      }
      case 'unreachable':
        if (!closed) markUnreachable(server, `${server}: ${answer.detail}`);
        if (copy) return stale(found.copyFile, copy);
        return miss(504, 'unreachable', UNREACHABLE_MESSAGE, `${server}: ${answer.detail}`);
      case 'refused':
        markReachable(server);
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
    while (inFlight.size > 0 || eviction) {
      await Promise.allSettled([...inFlight.values(), eviction]);
    }
  }

  async function holding(coords: TileCoords, template: string): Promise<TileHolding> {
    if (!validCoords(coords)) return 'absent';
    const { copy } = await readBoth(templateFolder(template), coords);
    if (!copy) return 'absent';
    return fresh(copy, clock.now()) ? 'fresh' : 'stale';
  }

  async function averageTileBytes(template: string, sample = 200): Promise<number | null> {
    const folder = templateFolder(template);
    let total = 0;
    let count = 0;
    for (const base of [keptRoot, root]) {
      for (const path of await listFiles(join(base, folder), 2)) {
        if (count >= sample) break;
        if (!path.endsWith(TILE_SUFFIX)) continue;
        const size = await stat(path).then((info) => info.size, () => 0);
        if (size === 0) continue;
        // The stored size includes the entry's header (about 150 bytes): close enough for an estimate.
        total += size;
        count++;
      }
    }
    return count === 0 ? null : Math.round(total / count);
  }

  return {
    get,
    holding,
    averageTileBytes,
    async dropKept(template) {
      await rm(join(keptRoot, templateFolder(template)), { recursive: true, force: true });
    },
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
