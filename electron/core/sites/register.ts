// The local site register: every site the app knows, per profile, by a stable local ID (a temporary
// one for a site created here until the service gives it an ID) and by the service's site ID.
// It keeps what the service is known to hold ("known" fields); what is still on its way lives in
// the outbox, and the site as shown is the two overlaid (view.ts). Persisted as a journal of whole
// site records (put/del), compacted when it grows and, once bulk work settles, when it holds much
// more than the live sites (an import then its sync writes every site twice): read as a stream at
// open, so only the live sites are ever held. A compaction writes the sites in columns, a thousand
// per record (snapshot.ts): 100,000 sites are ~15 MB instead of ~32 MB and load in about half the time.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../clock';
import { z } from 'zod';
import { PIN_STYLES, SITE_FIELDS, type PinStyle } from '../../shared/domain';
import type { SiteOrigin } from '../../shared/contract/views';
import { Revisions, siteKey } from '../revisions';
import { Journal, SETTLED_COMPACTION } from '../storage/journal';
import { RecordReader, type StoredProblem } from '../storage/records';
import { chunkProblem, isSiteChunk, snapshotRecords, unpackChunk, type SiteChunk } from './snapshot';
import { exactObject, isNonEmptyString, isNonNegativeInt, isNumber, isString, literal, nullable, oneOf, opt, req } from '../storage/shape';

export const REGISTER_FILE = 'sites.journal';
const JOURNAL_NAME = 'sitewalk-sites';
/**
 * The register's journal format. 1: a `put` or `del` per line. 2: compactions also write `sites`
 * chunks (snapshot.ts). This version reads both: a format-1 file is read as it is, appended to as it
 * is, and becomes format 2 at its next compaction. A Sitewalk from before format 2 knows only 1: its
 * Journal.open reads the header, finds 2 > 1 and refuses the whole file with "sites.journal was
 * written by a newer Sitewalk (format 2); update Sitewalk to open this data folder" — before handing
 * anything on, setting anything aside, compacting or cutting it — so no site is dropped. (Only a file
 * whose header line is itself damaged would reach an older reader's records: its chunks would then
 * fail its record schema and be set aside in sites.journal.corrupt, reported, not silently dropped.)
 */
export const REGISTER_FORMAT_VERSION = 2;

/** A site's editable fields; absent = not known (or not changed). */
export interface SiteFields {
  name?: string;
  height?: number;
  latitude?: number;
  longitude?: number;
  description?: string;
  group?: string;
  pinStyle?: PinStyle;
}

export const SITE_FIELD_NAMES: ReadonlyArray<keyof SiteFields> = SITE_FIELDS;

export type { SiteOrigin } from '../../shared/contract/views';

export interface SiteRecord {
  localId: string;
  profileId: string;
  /** The service's site ID; null until a create is confirmed. */
  siteId: string | null;
  origin: SiteOrigin;
  /** What the service holds, as far as Sitewalk knows. */
  known: SiteFields;
  /** The highest outbox sequence number already folded into `known` (replays are idempotent). */
  appliedSeq: number;
  createdAt: number;
  updatedAt: number;
  /**
   * Set when the outbox lost the request this site was waiting for (its file was deleted, emptied
   * or cut short): the site needs the user's review, never shows as synced. Cleared by a new save.
   */
  lost?: string;
  /**
   * For a site created or first seen here: the fields of its first queued request, kept so a
   * request the outbox lost still shows what the user typed. Dropped once the service confirms it.
   */
  draft?: SiteFields;
}

type RegisterRecord = { t: 'put'; site: SiteRecord } | { t: 'del'; localId: string } | SiteChunk;

const siteFieldsSchema = z.object({
  name: z.string().optional(),
  height: z.number().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  description: z.string().optional(),
  group: z.string().optional(),
  pinStyle: z.literal(PIN_STYLES).optional(),
});

const siteRecordSchema = z.object({
  localId: z.string().min(1),
  profileId: z.string(),
  siteId: z.string().nullable(),
  origin: z.enum(['created', 'existing', 'imported']),
  known: siteFieldsSchema,
  appliedSeq: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lost: z.string().optional(),
  draft: siteFieldsSchema.optional(),
});

// The same shapes, checked by hand for the fast path (storage/shape.ts): kept in step with the schemas
// above (test/storage/shape.test.ts compares the two on generated records).
const siteFieldsShape = exactObject({
  name: opt(isString),
  height: opt(isNumber),
  latitude: opt(isNumber),
  longitude: opt(isNumber),
  description: opt(isString),
  group: opt(isString),
  pinStyle: opt(oneOf(PIN_STYLES)),
});
const siteRecordShape = exactObject({
  localId: req(isNonEmptyString),
  profileId: req(isString),
  siteId: req(nullable(isString)),
  origin: req(oneOf(['created', 'existing', 'imported'])),
  known: req(siteFieldsShape),
  appliedSeq: req(isNonNegativeInt),
  createdAt: req(isNumber),
  updatedAt: req(isNumber),
  lost: opt(isString),
  draft: opt(siteFieldsShape),
});
const putShape = exactObject({ t: req(literal('put')), site: req(siteRecordShape) });
const delShape = exactObject({ t: req(literal('del')), localId: req(isString) });
export const isRegisterRecord = (value: unknown): value is RegisterRecord => putShape(value) || delShape(value) || isSiteChunk(value);

// A chunk has one check, the hand-written one (snapshot.ts): the schema only names what it found wrong.
const chunkSchema = z.looseObject({ t: z.literal('sites') }).superRefine((value, context) => {
  const problem = chunkProblem(value);
  if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
});

export const registerRecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('put'), site: siteRecordSchema }),
  z.object({ t: z.literal('del'), localId: z.string() }),
  chunkSchema,
]) as unknown as z.ZodType<RegisterRecord>;

export interface RegisterOptions {
  dataDir: string;
  clock: Clock;
  /** Compact when the journal holds more than this many records and 3× the live ones (default 2048). */
  compactAfterRecords?: number;
  /** Where changes get their revisions (shared with the outbox: a site's view depends on both). */
  revisions?: Revisions;
}

export class SiteRegister {
  /** Service site ID → local ID, per profile. */
  private readonly bySiteId = new Map<string, Map<string, string>>();
  private failure: Error | null = null;

  private constructor(
    private readonly journal: Journal,
    readonly clock: Clock,
    private readonly compactAfter: number,
    private readonly revisions: Revisions,
    private readonly sites: Map<string, SiteRecord>,
  ) {}

  static async open(options: RegisterOptions): Promise<{ register: SiteRegister; problems: StoredProblem[] }> {
    const file = join(options.dataDir, REGISTER_FILE);
    // Records are checked and replayed as they are read, straight into the register's map (a re-put
    // keeps its first place, as set() does): superseded ones are never all held at once.
    const sites = new Map<string, SiteRecord>();
    const reader = new RecordReader(
      registerRecordSchema,
      file,
      'site list',
      (record) => {
        if (record.t === 'put') sites.set(record.site.localId, record.site);
        else if (record.t === 'del') sites.delete(record.localId);
        else unpackChunk(record, (site) => sites.set(site.localId, site));
      },
      isRegisterRecord,
    );
    const { journal, problems: damaged } = await Journal.open(file, JOURNAL_NAME, { onRecord: (record) => reader.accept(record), version: REGISTER_FORMAT_VERSION });
    const register = new SiteRegister(journal, options.clock, options.compactAfterRecords ?? 2048, options.revisions ?? new Revisions(), sites);
    // The service-ID index is built once, from the live sites only.
    for (const site of sites.values()) register.index(site);
    const problems = [...damaged, ...(await reader.finish())];
    if (problems.some((problem) => problem.kind !== 'torn-tail')) await register.compact();
    return { register, problems };
  }

  /** The site's newest revision (its removal's, once removed). */
  revisionOf(localId: string): number {
    return this.revisions.ofSite(localId);
  }

  get size(): number {
    return this.sites.size;
  }

  /** The newest revision of its counter (shared with the outbox in the core): it changes with every change. */
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

  /** Stores whole records durably (one write for all). */
  async put(records: readonly SiteRecord[]): Promise<void> {
    if (records.length === 0) return;
    // Memory always takes the records, even after a failed write: the outbox is the source of
    // truth and the register is rebuilt from it at the next open (reconcile.ts).
    for (const site of records) {
      this.set(site);
      this.revisions.stamp(siteKey(site.localId));
    }
    if (this.failure) throw this.failure;
    await this.write(records.map((site) => ({ t: 'put', site }) satisfies RegisterRecord));
    this.maybeCompact();
  }

  async remove(localIds: readonly string[]): Promise<void> {
    if (this.failure) throw this.failure;
    const removed = localIds.filter((localId) => this.unset(localId));
    for (const localId of removed) this.revisions.stamp(siteKey(localId));
    await this.write(removed.map((localId) => ({ t: 'del', localId }) satisfies RegisterRecord));
    this.maybeCompact();
  }

  compact(): Promise<void> {
    return this.journal.compact(() => snapshotRecords(this.sites.values()));
  }

  /**
   * For when bulk work has settled (an import ended, a sync went idle): compacts when the file holds
   * much more than a snapshot of the live sites would (SETTLED_COMPACTION), so the next start reads
   * each site once. Resolves at once when there is little to gain.
   */
  compactIfBloated(): Promise<void> {
    if (this.journal.compacting) return this.journal.compacting;
    const liveBytes = estimateSnapshotBytes(this.sites.values(), this.sites.size);
    if (!this.journal.compactionDue(this.sites.size + 1, { ...SETTLED_COMPACTION, liveBytes })) return Promise.resolve();
    return this.compact();
  }

  get journalStats(): { bytesWritten: number; records: number; size: number } {
    return { bytesWritten: this.journal.bytesWritten, records: this.journal.recordCount, size: this.journal.size };
  }

  async close(): Promise<void> {
    await this.journal.compacting?.catch(() => undefined);
    await this.journal.close();
  }

  private async write(records: RegisterRecord[]): Promise<void> {
    try {
      await this.journal.append(records);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      this.failure ??= new Error(`Sitewalk could not write its site list to disk (${cause}); restart it after freeing disk space.`);
      throw this.failure;
    }
  }

  private maybeCompact(): void {
    if (this.journal.compacting) return;
    if (this.journal.compactionDue(this.sites.size + 1, { factor: 3, minRecords: this.compactAfter })) {
      void this.compact().catch(() => undefined);
    }
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

/** About how many bytes a compaction of `count` sites would write: a chunk of up to 256 of them, spread evenly, measured and scaled. */
function estimateSnapshotBytes(sites: Iterable<SiteRecord>, count: number, samples = 256): number {
  if (count <= 0) return 0;
  const step = Math.max(1, Math.floor(count / samples));
  const sample: SiteRecord[] = [];
  let index = 0;
  for (const site of sites) {
    if (index++ % step === 0) sample.push(site);
    if (sample.length >= samples) break;
  }
  const bytes = snapshotRecords(sample, samples).reduce((sum, record) => sum + Journal.encodedSize(record), 0);
  return Math.round((bytes / sample.length) * count);
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
