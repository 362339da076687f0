// The Sitewalk processes that have the data folder open (the app, CLI commands), each with a
// heartbeat in the table `peers`. An entry is claimed for sending by one process (its ID in
// outbox.claimed_by); when that process is gone — its PID no longer runs on this computer, or its
// heartbeat is older than STALE_AFTER_MS (another computer on a shared folder, a hung process) —
// the claim is taken back and the entry follows the rules for an interrupted call.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Statement } from 'better-sqlite3';
import type { SitewalkDb } from './database';
import { processRunning } from '../../node/process-alive';

/** How often a process says it is alive. */
export const BEAT_EVERY_MS = 2_000;
/** A process silent this long is taken for dead, whatever its PID. */
export const STALE_AFTER_MS = 20_000;

interface PeerRow {
  pid: number;
  host: string;
  beat_at: number;
}

/** Ends the ID of a process that sends the outbox by itself (the app): the CLI says so in its hints. */
const SENDS = ':sends';

export class Peers {
  readonly id: string;
  private readonly host = hostname();
  private readonly upsert: Statement<[string, number, string, number, number]>;
  private readonly beatRow: Statement<[number, string]>;
  private readonly byId: Statement<[string], PeerRow>;
  private readonly deleteRow: Statement<[string]>;
  private readonly forgetStale: Statement<[number]>;

  private readonly live: Statement<[string], PeerRow & { id: string }>;

  /** `sends`: this process sends the outbox by itself (an app), said in its ID for the others to see. */
  constructor(
    private readonly db: SitewalkDb,
    private readonly now: () => number,
    sends = false,
  ) {
    this.id = `${this.host}:${process.pid}:${randomBytes(4).toString('hex')}${sends ? SENDS : ''}`;
    const sql = db.sql;
    this.live = sql.prepare('SELECT id, pid, host, beat_at FROM peers WHERE id != ?');
    this.upsert = sql.prepare('INSERT OR REPLACE INTO peers (id, pid, host, started_at, beat_at) VALUES (?, ?, ?, ?, ?)');
    this.beatRow = sql.prepare('UPDATE peers SET beat_at = ? WHERE id = ?');
    this.byId = sql.prepare('SELECT pid, host, beat_at FROM peers WHERE id = ?');
    this.deleteRow = sql.prepare('DELETE FROM peers WHERE id = ?');
    this.forgetStale = sql.prepare('DELETE FROM peers WHERE beat_at < ?');
  }

  /** Joins the folder's processes (and forgets ones long gone). */
  join(): void {
    const now = this.now();
    this.db.write(() => {
      this.forgetStale.run(now - 10 * STALE_AFTER_MS);
      this.upsert.run(this.id, process.pid, this.host, now, now);
    });
  }

  /** Says this process is alive (no revision: nobody's views change). */
  beat(): void {
    this.db.write(() => this.beatRow.run(this.now(), this.id));
  }

  /** Whether the process with this claim ID is gone (an unknown or missing ID counts as gone). */
  isDead(id: string | null): boolean {
    if (id === null || id === this.id) return id === null;
    const row = this.byId.get(id);
    if (!row) return true;
    if (this.now() - row.beat_at > STALE_AFTER_MS) return true;
    return row.host === this.host && !processRunning(row.pid);
  }

  /** Whether another process that sends by itself (the app) has the folder open and is alive. */
  otherSender(): boolean {
    return this.live.all(this.id).some((row) => row.id.endsWith(SENDS) && !this.isDead(row.id));
  }

  leave(): void {
    try {
      this.db.write(() => this.deleteRow.run(this.id));
    } catch {
      // A folder that cannot be written at close keeps the row; it goes stale on its own.
    }
  }
}
