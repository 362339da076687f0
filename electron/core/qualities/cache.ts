// The last rendering-quality list each profile received, kept on disk so the list can be shown
// offline. One small JSON file, replaced atomically: a crash leaves the old list or the new one. A
// damaged file, or a profile's part of it that does not parse, reads as "no cache", never as an error.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../node/atomic-file';
import type { RenderingQuality } from '../service/types';

const cachedSchema = z.object({
  items: z.array(z.object({ id: z.number(), name: z.string(), error: z.string().nullable() })),
  fetchedAt: z.string(),
});

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
    const parsed = cachedSchema.safeParse((await this.readAll())[profileId]);
    return parsed.success ? parsed.data : null;
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
    await writeFileAtomic(this.path, JSON.stringify(all, null, 2));
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
