// The area downloads' folder (tiles-offline/) as one thing the user manages: what it takes on disk
// (allocated blocks, as `du` counts them), the one overall limit the user sets for it, and "Clear
// downloaded tiles". Downloads check the limit before they start and stop when they reach it.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_OFFLINE_TILES_BYTES, DEFAULT_OFFLINE_TILES_BYTES, type OfflineTilesView } from '../../shared/contract/basemaps';
import { refuse, type Result } from '../../shared/result';
import type { KeyValueStore } from '../profiles/kv';
import { KEPT_TILES_FOLDER } from './cache';

export const OFFLINE_LIMIT_SETTING_KEY = 'offlineTilesLimitBytes';

export interface OfflineTiles {
  view(): Promise<OfflineTilesView>;
  setLimit(bytes: number): Promise<Result<OfflineTilesView>>;
  /** Removes every downloaded tile (the caller stops a running download first). */
  clear(): Promise<OfflineTilesView>;
}

/** Bytes allocated on disk below `dir` (files and folders), 0 when it does not exist. */
export async function allocatedBytes(dir: string): Promise<number> {
  let total = 0;
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const info = await stat(path).catch(() => null);
      if (!info) continue;
      total += info.blocks * 512;
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(dir);
  return total;
}

export function createOfflineTiles(dataDir: string, settings: KeyValueStore): OfflineTiles {
  const root = join(dataDir, KEPT_TILES_FOLDER);
  const limit = (): number => {
    const stored = settings.get(OFFLINE_LIMIT_SETTING_KEY);
    return typeof stored === 'number' && Number.isInteger(stored) && stored > 0 ? Math.min(stored, MAX_OFFLINE_TILES_BYTES) : DEFAULT_OFFLINE_TILES_BYTES;
  };
  const view = async (): Promise<OfflineTilesView> => ({ bytesOnDisk: await allocatedBytes(root), limitBytes: limit() });
  return {
    view,
    async setLimit(bytes) {
      if (!Number.isInteger(bytes) || bytes < 1024 * 1024 || bytes > MAX_OFFLINE_TILES_BYTES) {
        return refuse('limitBytes', `The limit for downloaded tiles must be between 1 MB and ${MAX_OFFLINE_TILES_BYTES / 1024 ** 3} GB.`);
      }
      settings.set(OFFLINE_LIMIT_SETTING_KEY, bytes);
      return { ok: true, value: await view() };
    },
    async clear() {
      await rm(root, { recursive: true, force: true });
      return view();
    },
  };
}
