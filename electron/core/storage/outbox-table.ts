// The outbox's rows in sitewalk.db: every statement that reads or writes the tables `outbox` and
// `pauses`. An entry is stored whole as JSON (body) beside the columns queries select on, and read
// back through one schema (entrySchema, outbox/types.ts): a row that does not fit is named, never
// trusted and never silently dropped.
import type { Statement } from 'better-sqlite3';
import { entrySchema, laneOf, type OutboxEntry, type OutboxState, type PauseInfo } from '../outbox/types';
import type { SitewalkDb } from './database';
import { RemovedLog, type Removal } from './removed-log';

interface EntryRow {
  id: string;
  rev: number;
  claimed_by: string | null;
  body: string;
}

export interface StoredEntry {
  entry: OutboxEntry;
  rev: number;
  claimedBy: string | null;
}

/** A row whose body does not fit the entry schema (written by a bug, or changed by hand). */
export class UnreadableRowError extends Error {
  override name = 'UnreadableRowError';
}

export function parseEntryRow(row: EntryRow): StoredEntry {
  let json: unknown;
  try {
    json = JSON.parse(row.body);
  } catch {
    throw new UnreadableRowError(`Outbox entry ${row.id} in the database is not readable JSON.`);
  }
  const parsed = entrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnreadableRowError(`Outbox entry ${row.id} in the database is not one Sitewalk can read (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown shape'}).`);
  }
  return { entry: parsed.data, rev: row.rev, claimedBy: row.claimed_by };
}

const COLUMNS = 'id, rev, claimed_by, body';

export class OutboxTable {
  private readonly upsert: Statement<[string, number, string, string, string, number, number, string | null, number | null, string]>;
  private readonly deleteOne: Statement<[string]>;
  private readonly byId: Statement<[string], EntryRow>;
  private readonly unfinishedRows: Statement<[], EntryRow>;
  private readonly allRows: Statement<[], EntryRow>;
  private readonly changedSince: Statement<[number], EntryRow>;
  private readonly historyFirst: Statement<[string, number], EntryRow>;
  private readonly historyAfter: Statement<[string, number, number, number, number], EntryRow>;
  private readonly doneCounts: Statement<[], { profile_id: string; n: number }>;
  private readonly lastDone: Statement<[], { profile_id: string; at: number }>;
  private readonly doneInLaneRows: Statement<[string, number], EntryRow>;
  private readonly getMeta: Statement<[string], number>;
  private readonly setMeta: Statement<[number, string]>;
  private readonly removed: RemovedLog;
  private readonly putPause: Statement<[string, string, string, number, number]>;
  private readonly deletePause: Statement<[string]>;
  private readonly pauseRows: Statement<[number], { profile_id: string; reason: string; message: string; since: number; rev: number }>;
  private readonly expiredOne: Statement<[string, number], number>;
  private readonly expireSome: Statement<[string, number, number]>;
  private readonly sendingRows: Statement<[], { id: string; claimed_by: string | null }>;

  constructor(readonly db: SitewalkDb) {
    const sql = db.sql;
    this.upsert = sql.prepare(
      'INSERT OR REPLACE INTO outbox (id, seq, profile_id, state, lane, updated_at, rev, claimed_by, claimed_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteOne = sql.prepare('DELETE FROM outbox WHERE id = ?');
    this.byId = sql.prepare(`SELECT ${COLUMNS} FROM outbox WHERE id = ?`);
    this.unfinishedRows = sql.prepare(`SELECT ${COLUMNS} FROM outbox WHERE state <> 'done' ORDER BY seq`);
    this.allRows = sql.prepare(`SELECT ${COLUMNS} FROM outbox ORDER BY seq`);
    this.changedSince = sql.prepare(`SELECT ${COLUMNS} FROM outbox WHERE rev > ? ORDER BY seq`);
    this.historyFirst = sql.prepare(`SELECT ${COLUMNS} FROM outbox WHERE state = 'done' AND profile_id = ? ORDER BY updated_at DESC, seq DESC LIMIT ?`);
    this.historyAfter = sql.prepare(
      `SELECT ${COLUMNS} FROM outbox WHERE state = 'done' AND profile_id = ? AND (updated_at < ? OR (updated_at = ? AND seq < ?)) ORDER BY updated_at DESC, seq DESC LIMIT ?`,
    );
    this.doneCounts = sql.prepare("SELECT profile_id, count(*) AS n FROM outbox WHERE state = 'done' GROUP BY profile_id");
    this.lastDone = sql.prepare("SELECT profile_id, max(updated_at) AS at FROM outbox WHERE state = 'done' GROUP BY profile_id");
    this.doneInLaneRows = sql.prepare(`SELECT ${COLUMNS} FROM outbox WHERE lane = ? AND state = 'done' AND updated_at >= ? ORDER BY seq`);
    this.getMeta = sql.prepare<[string], number>('SELECT value FROM meta WHERE key = ?').pluck();
    this.setMeta = sql.prepare('UPDATE meta SET value = ? WHERE key = ?');
    this.removed = new RemovedLog(db);
    this.putPause = sql.prepare('INSERT OR REPLACE INTO pauses (profile_id, reason, message, since, rev) VALUES (?, ?, ?, ?, ?)');
    this.deletePause = sql.prepare('DELETE FROM pauses WHERE profile_id = ?');
    this.pauseRows = sql.prepare('SELECT profile_id, reason, message, since, rev FROM pauses WHERE rev > ?');
    // Per profile, oldest first, through the history index: a batch is found without a scan.
    this.expiredOne = sql.prepare<[string, number], number>("SELECT 1 FROM outbox WHERE state = 'done' AND profile_id = ? AND updated_at < ? LIMIT 1").pluck();
    this.expireSome = sql.prepare(
      "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE state = 'done' AND profile_id = ? AND updated_at < ? ORDER BY updated_at LIMIT ?)",
    );
    this.sendingRows = sql.prepare("SELECT id, claimed_by FROM outbox WHERE state = 'sending'");
  }

  /** Writes the entry as it is now; `claimedBy` only while it is being sent. */
  put(entry: OutboxEntry, rev: number, claimedBy: string | null, now: number): void {
    const claim = entry.state === 'sending' ? claimedBy : null;
    this.upsert.run(entry.id, entry.seq, entry.profileId, entry.state, laneOf(entry), entry.updatedAt, rev, claim, claim ? now : null, JSON.stringify(entry));
  }

  delete(id: string, rev: number): void {
    this.deleteOne.run(id);
    this.removed.record('entry', id, rev);
  }

  get(id: string): StoredEntry | undefined {
    const row = this.byId.get(id);
    return row ? parseEntryRow(row) : undefined;
  }

  /** Unfinished entries in queue order, parsed one row at a time as the caller takes them. */
  * unfinished(): Generator<StoredEntry> {
    for (const row of this.unfinishedRows.iterate()) yield parseEntryRow(row);
  }

  all(): StoredEntry[] {
    return this.allRows.all().map(parseEntryRow);
  }

  /** Entries written after revision `since`, and the IDs removed after it. */
  changedAfter(since: number): { entries: StoredEntry[]; removed: Removal[] } {
    return { entries: this.changedSince.all(since).map(parseEntryRow), removed: this.removed.after('entry', since) };
  }

  history(profileId: string, limit: number, before?: { updatedAt: number; seq: number }): StoredEntry[] {
    const rows = before ? this.historyAfter.all(profileId, before.updatedAt, before.updatedAt, before.seq, limit) : this.historyFirst.all(profileId, limit);
    return rows.map(parseEntryRow);
  }

  doneCountsByProfile(): Map<string, number> {
    return new Map(this.doneCounts.all().map((row) => [row.profile_id, row.n]));
  }

  /** Finished entries of one lane done at or after `since`. */
  doneInLane(lane: string, since: number): StoredEntry[] {
    return this.doneInLaneRows.all(lane, since).map(parseEntryRow);
  }

  lastDoneByProfile(): Map<string, number> {
    return new Map(this.lastDone.all().map((row) => [row.profile_id, row.at]));
  }

  /** The sequence number the next entry gets (kept in meta so a removed entry's is never reused). */
  nextSeq(): number {
    return this.getMeta.get('next_seq') ?? 1;
  }

  setNextSeq(next: number): void {
    this.setMeta.run(next, 'next_seq');
  }

  setPause(profileId: string, pause: PauseInfo | null, rev: number): void {
    if (pause) this.putPause.run(profileId, pause.reason, pause.message, pause.since, rev);
    else {
      this.deletePause.run(profileId);
      this.removed.record('pause', profileId, rev);
    }
  }

  /** Pauses set after `since` (every pause for 0), and the profiles whose pause was lifted after it. */
  pausesAfter(since: number): { set: Array<{ profileId: string; pause: PauseInfo; rev: number }>; lifted: string[] } {
    const set = this.pauseRows.all(since).map((row) => ({
      profileId: row.profile_id,
      pause: { reason: row.reason === 'auth' ? ('auth' as const) : ('quota' as const), message: row.message, since: row.since },
      rev: row.rev,
    }));
    return { set, lifted: this.removed.after('pause', since).map((row) => row.key) };
  }

  /**
   * Drops the profiles' finished entries done before `cutoff`, oldest first, `batch` rows a write
   * transaction of its own; a profile with nothing due costs one indexed read, no write lock.
   * Returns how many were dropped.
   */
  expireHistory(profileIds: Iterable<string>, cutoff: number, batch: number): number {
    let dropped = 0;
    for (const profileId of profileIds) {
      while (this.expiredOne.get(profileId, cutoff) !== undefined) {
        const n = this.db.write(() => this.expireSome.run(profileId, cutoff, batch).changes);
        dropped += n;
        if (n === 0) break;
      }
    }
    return dropped;
  }

  /** Entries being sent, and by which process. */
  sending(): Array<{ id: string; claimedBy: string | null }> {
    return this.sendingRows.all().map((row) => ({ id: row.id, claimedBy: row.claimed_by }));
  }
}

export type { OutboxState };
