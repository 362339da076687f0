// Every statement on the table `removed`: the tombstone of each site, outbox entry or pause taken
// out of sitewalk.db, with the revision it went at, so a window catching up after revision N learns
// of removals as well as of changes. The sites and outbox tables both write here through this.
import type { Statement } from 'better-sqlite3';
import type { SitewalkDb } from './database';

/** What a tombstone stands for; its key is a site's local ID, an entry's ID or a profile's ID. */
export type RemovedKind = 'site' | 'entry' | 'pause';

export interface Removal {
  key: string;
  rev: number;
}

export class RemovedLog {
  private readonly mark: Statement<[RemovedKind, string, number]>;
  private readonly since: Statement<[RemovedKind, number], Removal>;

  constructor(db: SitewalkDb) {
    this.mark = db.sql.prepare('INSERT OR REPLACE INTO removed (what, key, rev) VALUES (?, ?, ?)');
    this.since = db.sql.prepare('SELECT key, rev FROM removed WHERE what = ? AND rev > ?');
  }

  /** Notes that `key` was removed at revision `rev` (a later removal of the same key replaces it). */
  record(what: RemovedKind, key: string, rev: number): void {
    this.mark.run(what, key, rev);
  }

  /** The removals of that kind after revision `since`. */
  after(what: RemovedKind, since: number): Removal[] {
    return this.since.all(what, since);
  }
}
