// The tile cache on disk: <dataDir>/tiles/ for tiles seen while browsing (evicted by eviction.ts) and
// <dataDir>/tiles-offline/ for tiles an area download asked to keep (never evicted), each with one
// folder per tile server template (<folder>/<z>/<x>/<y>.tile), so a new server never shows the old
// one's tiles. A file is replaced whole (temp file + rename) and checked when read, so a damaged one
// is a miss, never a broken image; its modification time is its last use, which orders eviction.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../node/atomic-file';
import type { Clock } from '../clock';
import type { TileCoords } from './coords';
import { decodeEntry, encodeEntry, type TileEntry } from './entry';

export const TILES_FOLDER = 'tiles';
/** Tiles kept by area downloads: never evicted, refreshed in place when seen online. */
export const KEPT_TILES_FOLDER = 'tiles-offline';
export const TILE_SUFFIX = '.tile';
export const TEMP_SUFFIX = '.tmp';
/** A tile's last use is recorded at most this often (it orders eviction). */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/** The folder name for a template: changing the tile server changes the folder. */
export function templateFolder(template: string): string {
  return createHash('sha256').update(template.trim(), 'utf8').digest('hex').slice(0, 16);
}

type Cached = { kind: 'entry'; entry: TileEntry } | { kind: 'absent' } | { kind: 'damaged'; size: number };

/** What is on disk for one tile: the newer copy of the two folders' and the files involved. */
export interface OnDisk {
  copy: TileEntry | null;
  /** The file `copy` was read from. */
  copyFile: string;
  /** Where the tile is (or would be) in the offline folder. */
  keptFile: string;
  /** The offline folder holds a copy. */
  kept: boolean;
  /** Where the tile is (or would be) in the browsing folder. */
  file: string;
}

export interface TileDisk {
  /** The browsing folder, <dataDir>/tiles. */
  readonly root: string;
  fileOf(folder: string, coords: TileCoords): string;
  readBoth(folder: string, coords: TileCoords): Promise<OnDisk>;
  /** Writes a tile; a kept one (offline folder) is not counted against the limit, as eviction never sees it. */
  store(file: string, folder: string, template: string, entry: TileEntry): Promise<void>;
  forget(file: string, size: number): Promise<void>;
  /** Records a use, so eviction takes the tiles not looked at for longest. */
  touch(file: string, now: number): Promise<void>;
  averageTileBytes(template: string, sample: number): Promise<number | null>;
  dropKept(template: string): Promise<void>;
}

export interface TileDiskOptions {
  dataDir: string;
  clock: Pick<Clock, 'now'>;
  log: (line: string) => void;
  /** Nothing more is written once the cache is closed. */
  isClosed: () => boolean;
  /** Bytes the browsing folder gained (or lost, negative) by a write or a removal. */
  onCounted: (delta: number) => void;
}

export function createTileDisk(options: TileDiskOptions): TileDisk {
  const { clock, log, isClosed, onCounted } = options;
  const root = join(options.dataDir, TILES_FOLDER);
  const keptRoot = join(options.dataDir, KEPT_TILES_FOLDER);
  const foldersNamed = new Set<string>();
  const writeProblemsLogged = new Set<string>();

  function tilePath(folder: string, coords: TileCoords, base = root): string {
    return join(base, folder, String(coords.z), String(coords.x), `${coords.y}${TILE_SUFFIX}`);
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

  async function store(file: string, folder: string, template: string, entry: TileEntry): Promise<void> {
    if (isClosed()) return;
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
      if (!kept) onCounted(data.length - previous);
    } catch (error) {
      logWriteProblem(error);
    }
  }

  async function forget(file: string, size: number): Promise<void> {
    try {
      await unlink(file);
      if (!file.startsWith(keptRoot)) onCounted(-size);
    } catch {
      // Already gone.
    }
  }

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

  async function readBoth(folder: string, coords: TileCoords): Promise<OnDisk> {
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

  async function averageTileBytes(template: string, sample: number): Promise<number | null> {
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
    root,
    fileOf: (folder, coords) => tilePath(folder, coords),
    readBoth,
    store,
    forget,
    touch,
    averageTileBytes,
    async dropKept(template) {
      await rm(join(keptRoot, templateFolder(template)), { recursive: true, force: true });
    },
  };
}

/** Files down to `depth` folders below `dir` (the tiles folder is template/z/x/file). */
export async function listFiles(dir: string, depth: number): Promise<string[]> {
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
