// The local site register: every site the app knows, per profile, by a stable local ID (a temporary
// one for a site created here until the service gives it an ID) and by the service's site ID.
// It keeps what the service is known to hold ("known" fields); what is still on its way lives in
// the outbox, and the site as shown is the two overlaid (view.ts). Stored in the table `sites` of
// sitewalk.db (storage/sites-table.ts) and read from it when asked, not held in memory: opening
// the register reads no site, so a start at 50,000 sites costs what one at 1,000 does.
// A write joins the transaction in progress (the outbox's, when a save or a result changes both),
// so the register and the outbox never disagree on disk. Changes other processes make to the
// folder are read in before every write and by the database's poll, and told to subscribers.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { SITE_FIELDS } from '../../shared/domain';
import { Revisions, siteKey } from '../revisions';
import { SitewalkDb } from '../storage/database';
import type { StoredProblem } from '../storage/problems';
import { parseSiteRow, SitesTable, UnreadableSiteError, type ListRow, type SiteRow } from '../storage/sites-table';
import type { SiteFields, SiteRecord } from './site-record';

export type { SiteFields, SiteOrigin, SiteRecord } from './site-record';

export const SITE_FIELD_NAMES: ReadonlyArray<keyof SiteFields> = SITE_FIELDS;

export interface RegisterOptions {
  /** The folder's database; when absent, the register opens the one of `dataDir` and closes it with itself. */
  db?: SitewalkDb;
  dataDir: string;
  clock: Clock;
  /** Where changes get their revisions (shared with the outbox: a site's view depends on both). */
  revisions?: Revisions;
}

/** Sites another process changed (as they are now) and removed, once read in. */
type PullListener = (changed: SiteRecord[], removed: string[]) => void;

/** A site left out because its row cannot be read (found after open: a draft or measurement of the wrong shape). */
type UnreadableListener = (problem: StoredProblem) => void;

export class SiteRegister {
  private readonly listeners = new Set<PullListener>();
  private readonly unreadableListeners = new Set<UnreadableListener>();
  private readonly table: SitesTable;
  /** Sites whose row parseSiteRow refuses: left out of every answer, kept in the database as they are, each said once. */
  private readonly unreadable = new Set<string>();

  private constructor(
    private readonly db: SitewalkDb,
    private readonly ownsDb: boolean,
    readonly clock: Clock,
    private readonly revisions: Revisions,
  ) {
    this.table = new SitesTable(db);
  }

  /**
   * Opens the register without reading its sites: they are read from the database when asked for
   * (a site by ID, a profile's list). Rows no Sitewalk writes are found by one query and said (the
   * problems), the rest opens.
   */
  static async open(options: RegisterOptions): Promise<{ register: SiteRegister; problems: StoredProblem[] }> {
    const db = options.db ?? SitewalkDb.open(options.dataDir);
    const revisions = options.revisions ?? new Revisions(db);
    const register = new SiteRegister(db, !options.db, options.clock, revisions);
    const problems: StoredProblem[] = [];
    for (const { localId, message } of register.table.unreadable()) {
      register.unreadable.add(localId);
      problems.push(unreadableProblem(message));
    }
    db.onPull((since) => register.pull(since));
    return { register, problems };
  }

  /** Hears of sites another process changed or removed (this process's own changes are told by its services). */
  subscribe(listener: PullListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears of a site found unreadable after open (it is left out from then on). */
  onUnreadable(listener: UnreadableListener): () => void {
    this.unreadableListeners.add(listener);
    return () => this.unreadableListeners.delete(listener);
  }

  /**
   * The site's newest revision: its row's, or newer when an outbox entry of the site changed since
   * (the site's view changed with it), or its removal's once removed. One this process noted (its
   * own write, an entry's change, another process's change read in) is the newest it knows of; a
   * site untouched since open has its row's.
   */
  revisionOf(localId: string): number {
    const noted = this.revisions.ofSite(localId);
    return noted > 0 ? noted : (this.table.revOf(localId) ?? 0);
  }

  /** The revision this process noted for the site (an entry's change, a write, a removal); 0 if none. */
  notedRevisionOf(localId: string): number {
    return this.revisions.ofSite(localId);
  }

  /** How many sites the register holds, every profile (unreadable rows included). */
  get size(): number {
    return this.table.count();
  }

  /** The folder's newest revision (shared with the outbox): it changes with every change. */
  get revisionNow(): number {
    return this.revisions.current;
  }

  get(localId: string): SiteRecord | undefined {
    const row = this.table.row(localId);
    return row ? this.read(row) : undefined;
  }

  findBySiteId(profileId: string, siteId: string): SiteRecord | undefined {
    const row = this.table.rowBySiteId(profileId, siteId);
    return row ? this.read(row) : undefined;
  }

  /** A profile's sites, in the order they were first registered, read from the database. */
  list(profileId: string): SiteRecord[] {
    const records: SiteRecord[] = [];
    for (const row of this.table.rowsOf(profileId)) {
      const record = this.read(row);
      if (record) records.push(record);
    }
    return records;
  }

  /** The local IDs of a profile's sites (unreadable ones included), in register order. */
  localIdsOf(profileId: string): string[] {
    return this.table.localIds(profileId);
  }

  /** A profile's sites as the packed list reads them (ListRow), in register order. */
  listRowsOf(profileId: string): IterableIterator<ListRow> {
    return this.table.listRowsOf(profileId);
  }

  /** Whether the site's row is one this register refuses (left out of every answer). */
  isUnreadable(localId: string): boolean {
    return this.unreadable.has(localId);
  }

  /** The record of a row; undefined (and said, once) when it cannot be read. */
  private read(row: SiteRow): SiteRecord | undefined {
    if (this.unreadable.size > 0 && this.unreadable.has(row.local_id)) return undefined;
    try {
      return parseSiteRow(row);
    } catch (error) {
      if (!(error instanceof UnreadableSiteError)) throw error;
      this.unreadable.add(row.local_id);
      const problem = unreadableProblem(error.message);
      for (const listener of this.unreadableListeners) listener(problem);
      return undefined;
    }
  }

  /** A new local ID, unique in this register: "local-" and 10 random base-32 characters. */
  newLocalId(): string {
    for (;;) {
      const id = `local-${base32(randomChunk(7)).slice(0, 10)}`;
      if (this.table.revOf(id) === undefined) return id;
    }
  }

  /** Stores whole records durably, in the transaction in progress or one of their own. */
  async put(records: readonly SiteRecord[]): Promise<void> {
    this.putNow(records);
  }

  putNow(records: readonly SiteRecord[]): void {
    if (records.length === 0) return;
    this.db.write(() => {
      for (const site of records) {
        this.table.put(site, this.revisions.stamp(siteKey(site.localId)));
        // A row written whole by this Sitewalk is readable again.
        if (this.unreadable.size > 0) this.db.undo(deleteUndoable(this.unreadable, site.localId));
      }
    });
  }

  async remove(localIds: readonly string[]): Promise<void> {
    this.removeNow(localIds);
  }

  removeNow(localIds: readonly string[]): void {
    this.db.write(() => {
      for (const localId of localIds) {
        if (this.table.revOf(localId) === undefined) continue;
        this.table.delete(localId, this.revisions.stamp(siteKey(localId)));
      }
    });
  }

  async close(): Promise<void> {
    if (this.ownsDb) this.db.close();
  }

  private pull(since: number): void {
    const { rows, removed } = this.table.changedAfter(since);
    const changed: SiteRecord[] = [];
    for (const row of rows) {
      this.revisions.note(siteKey(row.local_id), row.rev);
      const site = this.read(row);
      if (site) changed.push(site);
    }
    const gone: string[] = [];
    for (const { key, rev } of removed) {
      this.revisions.note(siteKey(key), rev);
      // Removed, then registered again under the same ID: it is there.
      if (this.table.revOf(key) === undefined) gone.push(key);
    }
    if (changed.length > 0 || gone.length > 0) this.db.after(() => this.listeners.forEach((listener) => listener(changed, gone)));
  }
}

function unreadableProblem(message: string): StoredProblem {
  return { kind: 'damage', message: `${message} It is left out of the site list and kept in the database as it is; the other sites opened.` };
}

/** Takes `localId` out of `set` now; the returned function puts it back (for a rolled-back write). */
function deleteUndoable(set: Set<string>, localId: string): () => void {
  if (!set.delete(localId)) return () => undefined;
  return () => set.add(localId);
}

let pool = Buffer.alloc(0);
let poolOffset = 0;

/** Random bytes from a pooled buffer: 10,000 new IDs cost one call to the OS, not 10,000. */
function randomChunk(size: number): Uint8Array {
  if (poolOffset + size > pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  const chunk = pool.subarray(poolOffset, poolOffset + size);
  poolOffset += size;
  return chunk;
}

const BASE32 = 'abcdefghijkmnpqrstuvwxyz23456789';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}
