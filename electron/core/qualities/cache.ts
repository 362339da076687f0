// The last rendering-quality list each profile received, kept on disk so the list can be shown
// offline. One small JSON file, replaced atomically (temp file, fsync, rename): a crash leaves the
// old list or the new one. A damaged file reads as "no cache", never as an error.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderingQuality } from '../service/types';

export const QUALITIES_FILE = 'rendering-qualities.json';

export interface CachedQualities {
  items: RenderingQuality[];
  /** ISO time of the fetch. */
  fetchedAt: string;
}

type CacheFile = Record<string, CachedQualities>;

export class QualitiesCache {
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, QUALITIES_FILE);
  }

  async get(profileId: string): Promise<CachedQualities | null> {
    const cached = (await this.readAll())[profileId];
    return cached && Array.isArray(cached.items) && typeof cached.fetchedAt === 'string' ? cached : null;
  }

  async put(profileId: string, value: CachedQualities): Promise<void> {
    const all = await this.readAll();
    all[profileId] = value;
    await this.writeAll(all);
  }

  async remove(profileId: string): Promise<void> {
    const all = await this.readAll();
    if (!(profileId in all)) return;
    delete all[profileId];
    await this.writeAll(all);
  }

  private async writeAll(all: CacheFile): Promise<void> {
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(all, null, 2));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  private async readAll(): Promise<CacheFile> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as CacheFile) : {};
    } catch {
      return {};
    }
  }
}
