// Keeps the browsing tiles folder under maxBytes: the bytes written are added to the folder's count,
// and above the limit the least recently used tiles (oldest modification time) go, down to evictTo of
// it, so eviction does not run per tile. The first write counts the folder from disk; one eviction
// runs at a time, and writes made while it counts are added after it. Temp files a crash left are
// removed on the way. The offline folder (area downloads) is never looked at.
import { rm, stat, unlink } from 'node:fs/promises';
import { listFiles, TEMP_SUFFIX, TILE_SUFFIX } from './disk';

/** A temp file older than this was left by a crash, not by a write in progress. */
const ABANDONED_TEMP_MS = 10 * 60 * 1000;

export interface Eviction {
  /** Bytes the folder gained (or lost, negative); may start an eviction. */
  counted(delta: number): void;
  /** The eviction running now, if any. */
  running(): Promise<void> | null;
}

export interface EvictionOptions {
  /** The browsing tiles folder. */
  root: string;
  maxBytes: number;
  /** An eviction brings the folder down to this share of maxBytes. */
  evictTo: number;
  log: (line: string) => void;
  isClosed: () => boolean;
}

export function createEviction(options: EvictionOptions): Eviction {
  const { root, maxBytes, evictTo, log, isClosed } = options;
  /** Bytes in the folder as last counted plus what was written since; null until the first count. */
  let totalBytes: number | null = null;
  let eviction: Promise<void> | null = null;
  let countedDuringEviction = 0;

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
    if (totalBytes > maxBytes) startEviction();
  }

  function startEviction(): void {
    if (eviction || isClosed()) return;
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
      if (countedDuringEviction === 0 || totalBytes <= maxBytes || isClosed()) return;
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
    if (total <= maxBytes) return total;
    const target = maxBytes * evictTo;
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
    log(`tiles: the tile cache reached its limit of ${mib(maxBytes)}; removed the ${removed} least recently used tiles (${mib(total)} kept).`);
    return total;
  }

  return { counted, running: () => eviction };
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
