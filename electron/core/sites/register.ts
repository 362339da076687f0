// The local site register: every site the app knows, per profile, by a stable local ID (a temporary
// one for a site created here until the service gives it an ID) and by the service's site ID.
// It keeps what the service is known to hold ("known" fields); what is still on its way lives in
// the outbox, and the site as shown is the two overlaid (view.ts). Stored in the table `sites` of
// sitewalk.db (storage/sites-table.ts) and held in memory, since the map shows every site at once.
// A write joins the transaction in progress (the outbox's, when a save or a result changes both),
// so the register and the outbox never disagree on disk. Changes other processes make to the
// folder are read in before every write and by the database's poll, and told to subscribers.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { SITE_FIELDS } from '../../shared/domain';
import { Revisions, siteKey } from '../revisions';
import { SitewalkDb } from '../storage/database';
import { parseSiteRow, SitesTable } from '../storage/sites-table';
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

export class SiteRegister {
  /** Service site ID → local ID, per profile. */
  private readonly bySiteId = new Map<string, Map<string, string>>();
  private readonly listeners = new Set<PullListener>();
  private readonly table: SitesTable;

  private constructor(
    private readonly db: SitewalkDb,
    private readonly ownsDb: boolean,
    readonly clock: Clock,
    private readonly revisions: Revisions,
    private readonly sites: Map<string, SiteRecord>,
  ) {
    this.table = new SitesTable(db);
  }

  static async open(options: RegisterOptions): Promise<{ register: SiteRegister; problems: never[] }> {
    const db = options.db ?? SitewalkDb.open(options.dataDir);
    const revisions = options.revisions ?? new Revisions(db);
    const register = new SiteRegister(db, !options.db, options.clock, revisions, new Map());
    for (const row of register.table.all()) {
      const site = parseSiteRow(row);
      register.sites.set(site.localId, site);
      register.index(site);
      revisions.note(siteKey(site.localId), row.rev);
    }
    db.onPull((since) => register.pull(since));
    return { register, problems: [] };
  }

  /** Hears of sites another process changed or removed (this process's own changes are told by its services). */
  subscribe(listener: PullListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The site's newest revision (its removal's, once removed). */
  revisionOf(localId: string): number {
    return this.revisions.ofSite(localId);
  }

  get size(): number {
    return this.sites.size;
  }

  /** The folder's newest revision (shared with the outbox): it changes with every change. */
  get revisionNow(): number {
    return this.revisions.current;
  }

  /** Every site, all profiles, in the order they were first registered (not copied: do not change it while iterating). */
  records(): IterableIterator<SiteRecord> {
    return this.sites.values();
  }

  get(localId: string): SiteRecord | undefined {
    return this.sites.get(localId);
  }

  findBySiteId(profileId: string, siteId: string): SiteRecord | undefined {
    const localId = this.bySiteId.get(profileId)?.get(siteId);
    return localId === undefined ? undefined : this.sites.get(localId);
  }

  /** Sites of one profile (or all), in the order they were first registered. */
  list(profileId?: string): SiteRecord[] {
    const all = [...this.sites.values()];
    return profileId === undefined ? all : all.filter((site) => site.profileId === profileId);
  }

  /** A new local ID, unique in this register: "local-" and 10 random base-32 characters. */
  newLocalId(): string {
    for (;;) {
      const id = `local-${base32(randomChunk(7)).slice(0, 10)}`;
      if (!this.sites.has(id)) return id;
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
        const previous = this.sites.get(site.localId);
        this.set(site);
        this.db.undo(() => (previous ? this.set(previous) : this.unset(site.localId)));
        this.table.put(site, this.revisions.stamp(siteKey(site.localId)));
      }
    });
  }

  async remove(localIds: readonly string[]): Promise<void> {
    this.removeNow(localIds);
  }

  removeNow(localIds: readonly string[]): void {
    this.db.write(() => {
      for (const localId of localIds) {
        const previous = this.sites.get(localId);
        if (!previous) continue;
        this.unset(localId);
        this.db.undo(() => this.set(previous));
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
      const site = parseSiteRow(row);
      this.set(site);
      this.revisions.note(siteKey(site.localId), row.rev);
      changed.push(site);
    }
    const gone: string[] = [];
    for (const { key, rev } of removed) {
      this.revisions.note(siteKey(key), rev);
      if (this.unset(key)) gone.push(key);
    }
    if (changed.length > 0 || gone.length > 0) this.db.after(() => this.listeners.forEach((listener) => listener(changed, gone)));
  }

  private set(site: SiteRecord): void {
    const previous = this.sites.get(site.localId);
    if (previous) this.unindex(previous);
    this.sites.set(site.localId, site);
    this.index(site);
  }

  private unset(localId: string): boolean {
    const previous = this.sites.get(localId);
    if (!previous) return false;
    this.unindex(previous);
    this.sites.delete(localId);
    return true;
  }

  private index(site: SiteRecord): void {
    if (!site.siteId) return;
    let profile = this.bySiteId.get(site.profileId);
    if (!profile) {
      profile = new Map();
      this.bySiteId.set(site.profileId, profile);
    }
    profile.set(site.siteId, site.localId);
  }

  private unindex(site: SiteRecord): void {
    if (!site.siteId) return;
    const profile = this.bySiteId.get(site.profileId);
    // Only the site's own entry: another record may have taken the ID since (set() keeps the last).
    if (profile?.get(site.siteId) === site.localId) profile.delete(site.siteId);
  }
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
