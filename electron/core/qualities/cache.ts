// The last rendering-quality list each profile received, kept in the table `qualities` of the data
// folder's database so the list can be shown offline. A row that does not parse reads as "no
// cache", never as an error. (Older Sitewalks kept it in rendering-qualities.json: a cache, fetched
// again on the next refresh, so it is not imported.)
import type { Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { SitewalkDb } from '../storage/database';
import type { RenderingQuality } from '../service/types';

const cachedSchema = z.object({
  items: z.array(z.object({ id: z.number(), name: z.string(), error: z.string().nullable() })),
  fetchedAt: z.string(),
});

export interface CachedQualities {
  items: RenderingQuality[];
  /** ISO time of the fetch. */
  fetchedAt: string;
}

export class QualitiesCache {
  private readonly byProfile: Statement<[string], string>;
  private readonly upsert: Statement<[string, string]>;
  private readonly deleteRow: Statement<[string]>;

  constructor(private readonly db: SitewalkDb) {
    this.byProfile = db.sql.prepare<[string], string>('SELECT body FROM qualities WHERE profile_id = ?').pluck();
    this.upsert = db.sql.prepare('INSERT OR REPLACE INTO qualities (profile_id, body) VALUES (?, ?)');
    this.deleteRow = db.sql.prepare('DELETE FROM qualities WHERE profile_id = ?');
  }

  async get(profileId: string): Promise<CachedQualities | null> {
    const body = this.byProfile.get(profileId);
    if (body === undefined) return null;
    try {
      const parsed = cachedSchema.safeParse(JSON.parse(body));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async put(profileId: string, value: CachedQualities): Promise<void> {
    this.db.write(() => this.upsert.run(profileId, JSON.stringify(value)));
  }

  async remove(profileId: string): Promise<void> {
    this.db.write(() => this.deleteRow.run(profileId));
  }
}
