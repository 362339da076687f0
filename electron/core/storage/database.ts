// The data folder's database, sitewalk.db: the one connection of this process, its settings, its
// schema and its write transactions. SQLite in WAL mode with full synchronous commits: a commit is
// on disk when write() returns, readers never wait for a writer, and any number of Sitewalk
// processes (the app, the CLI) may have the folder open. A write takes the database's write lock at
// once (BEGIN IMMEDIATE), first reads what other processes changed since this one last looked (so
// every decision is made on the current rows), and gives every row it changes the folder's next
// revision. Memory kept by the stores is changed inside the same transaction and put back if it
// fails (undo); listeners hear of a change once it is committed (after).
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index';

export const DATABASE_FILE = 'sitewalk.db';
/** How long a write waits for another process's write to finish before giving up. */
const BUSY_TIMEOUT_MS = 10_000;
/** The connection's page cache, KiB. */
const CACHE_KIB = 2048;

export type Sqlite = Database.Database;

/** Refused at open: a database written by a newer Sitewalk, which this one would misread. */
export class NewerDatabaseError extends Error {
  override name = 'NewerDatabaseError';
}

/** The database file is not one SQLite can read (cut short, garbled, not a database). */
export class DamagedDatabaseError extends Error {
  override name = 'DamagedDatabaseError';
}

interface Transaction {
  revision: number;
  undo: Array<() => void>;
  after: Array<() => void>;
}

/** Reads what other processes changed since `since` (a revision) into memory; returns nothing. */
export type PullChanges = (since: number) => void;

export class SitewalkDb {
  private tx: Transaction | null = null;
  /** The newest revision this process has seen (its own, or read from others'). */
  private seen = 0;
  private lastDataVersion = 0;
  private readonly pullers: PullChanges[] = [];
  private readonly getRevision: Database.Statement<[], number>;
  private readonly setRevision: Database.Statement<[number]>;
  private readonly dataVersion: Database.Statement<[], number>;
  private closed = false;
  /** Set while other processes' changes are read in: their notifications, run whatever happens next. */
  private pulled: Array<() => void> | null = null;

  private constructor(
    readonly sql: Sqlite,
    readonly path: string,
  ) {
    this.getRevision = sql.prepare<[], number>("SELECT value FROM meta WHERE key = 'revision'").pluck();
    this.setRevision = sql.prepare<[number]>("UPDATE meta SET value = ? WHERE key = 'revision'");
    this.dataVersion = sql.prepare<[], number>('PRAGMA data_version').pluck();
    this.seen = this.getRevision.get() ?? 0;
    this.lastDataVersion = this.dataVersion.get() ?? 0;
  }

  /**
   * Opens (creating when absent) the database of `dataDir`: checks it (quick_check), migrates it
   * to this version's schema in one transaction, and refuses one from a newer Sitewalk.
   */
  static open(dataDir: string): SitewalkDb {
    const path = join(dataDir, DATABASE_FILE);
    let sql: Sqlite;
    try {
      sql = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    } catch (error) {
      throw new DamagedDatabaseError(`${path} cannot be opened (${describe(error)}).`, { cause: error });
    }
    try {
      sql.pragma('journal_mode = WAL');
      sql.pragma('synchronous = FULL');
      sql.pragma('foreign_keys = ON');
      // SQLite's own default page cache (2 MiB), not the driver's 16 MiB: the reads that touch many
      // pages (this check, which reads the whole file — ~80 MB at 50,000 sites, most of it history —
      // and the site list's scan) read each page once, and a larger cache only kept them in this
      // process's memory; the operating system's file cache serves a page read again.
      sql.pragma(`cache_size = -${CACHE_KIB}`);
      const check = sql.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new DamagedDatabaseError(`${path} failed its integrity check (${String(check)}).`);
      migrate(sql, path);
    } catch (error) {
      sql.close();
      if (error instanceof NewerDatabaseError || error instanceof DamagedDatabaseError) throw error;
      if (isDamage(error)) throw new DamagedDatabaseError(`${path} is damaged (${describe(error)}).`, { cause: error });
      throw error;
    }
    return new SitewalkDb(sql, path);
  }

  /** The newest revision this process knows of. */
  get revision(): number {
    return this.tx ? this.tx.revision : this.seen;
  }

  /** A store's reader of other processes' changes, run before every write and by poll(). */
  onPull(pull: PullChanges): void {
    this.pullers.push(pull);
  }

  /**
   * Runs `fn` as one write transaction (joining the one in progress, when called inside one). A
   * thrown error rolls everything back, memory included (undo), and comes out with a sentence for
   * the user when the disk is full or the database is damaged.
   */
  write<T>(fn: () => T): T {
    if (this.tx) return fn();
    if (this.closed) throw new Error('The data folder has been closed.');
    const tx: Transaction = { revision: 0, undo: [], after: [] };
    let result: T;
    try {
      result = this.sql
        .transaction(() => {
          this.tx = tx;
          this.pullNow();
          tx.revision = this.seen;
          const value = fn();
          if (tx.revision !== this.seen) this.setRevision.run(tx.revision);
          return value;
        })
        .immediate();
    } catch (error) {
      this.tx = null;
      for (const undo of tx.undo.reverse()) undo();
      this.runPulled();
      throw explainWriteError(error);
    }
    this.tx = null;
    this.seen = tx.revision;
    // Our own commit moves data_version for the others only; nothing to pull for it.
    this.runPulled();
    for (const after of tx.after) after();
    return result;
  }

  /** The next revision, for a row changed in the transaction in progress. */
  stamp(): number {
    if (!this.tx) throw new Error('A revision is only given inside a write.');
    return ++this.tx.revision;
  }

  /** Puts memory back if the transaction in progress fails. */
  undo(step: () => void): void {
    if (this.tx) this.tx.undo.push(step);
  }

  /** Runs once the transaction in progress is committed (at once outside one). */
  after(step: () => void): void {
    if (this.pulled) this.pulled.push(step);
    else if (this.tx) this.tx.after.push(step);
    else step();
  }

  get inWrite(): boolean {
    return this.tx !== null;
  }

  /** Reads other processes' changes when there are any (PRAGMA data_version moved): cheap to call often. */
  poll(): void {
    if (this.closed || this.tx) return;
    const version = this.dataVersion.get() ?? 0;
    if (version === this.lastDataVersion) return;
    this.lastDataVersion = version;
    this.sql.transaction(() => this.pullNow())();
    this.runPulled();
  }

  private pullNow(): void {
    const newest = this.getRevision.get() ?? 0;
    if (newest <= this.seen) return;
    const since = this.seen;
    this.seen = newest;
    if (this.tx) this.tx.revision = newest;
    this.pulled ??= [];
    const pulled = this.pulled;
    try {
      for (const pull of this.pullers) pull(since);
    } finally {
      this.pulled = null;
      this.pendingPulled.push(...pulled);
    }
  }

  private pendingPulled: Array<() => void> = [];

  private runPulled(): void {
    const steps = this.pendingPulled;
    this.pendingPulled = [];
    for (const step of steps) step();
  }

  /** Bytes the database and its WAL take on disk now. */
  sizeOnDisk(): number {
    let total = 0;
    for (const file of [this.path, `${this.path}-wal`]) {
      try {
        total += statSync(file).size;
      } catch {
        // No WAL right now.
      }
    }
    return total;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sql.close();
  }
}

function migrate(sql: Sqlite, path: string): void {
  const version = sql.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new NewerDatabaseError(
      `The data folder's database (${path}) was written by a newer Sitewalk (schema ${version}; this one knows up to ${SCHEMA_VERSION}). Update Sitewalk to open this data folder; nothing in it was changed.`,
    );
  }
  if (version === SCHEMA_VERSION) return;
  sql
    .transaction(() => {
      for (let next = version; next < SCHEMA_VERSION; next++) sql.exec(MIGRATIONS[next]!);
      sql.pragma(`user_version = ${SCHEMA_VERSION}`);
    })
    .immediate();
}

const DAMAGE_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB', 'SQLITE_IOERR_SHORT_READ']);

function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && DAMAGE_CODES.has(code);
}

/** A failed write, with a sentence for the user when the cause is theirs to fix. */
export function explainWriteError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_FULL' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR'))) {
    const why = code === 'SQLITE_FULL' ? 'the disk is full' : `the disk refused the write: ${describe(error)}`;
    return new Error(`Sitewalk could not save to its data folder (${why}); nothing of this change was kept. Free some disk space and try again.`, { cause: error });
  }
  if (code === 'SQLITE_BUSY') {
    return new Error(`Another Sitewalk kept the data folder busy for more than ${BUSY_TIMEOUT_MS / 1000} s; nothing of this change was kept. Try again.`, { cause: error });
  }
  if (isDamage(error)) return new DamagedDatabaseError(`The data folder's database is damaged (${describe(error)}); nothing of this change was kept. Restart Sitewalk: it sets the damaged file aside and says what it held.`, { cause: error });
  return error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
