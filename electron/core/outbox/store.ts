// The outbox's durable state: every entry, the FIFO lanes of unfinished entries, and the profiles'
// pauses, kept in memory and journaled (journal.ts). Every mutation updates memory and appends one
// record per changed entry, resolving once the records are on disk; a batch of 10,000 enqueues is
// one write and one fsync. Compaction rewrites the journal only when it has grown to several times
// the live state, so the cost per change stays constant. Scheduling lives in engine.ts.
import { join } from 'node:path';
import type { EusReprocess, SiteEdit } from '../service/types';
import type { Clock } from '../clock';
import { entryKey, Revisions, siteKey } from '../revisions';
import { Journal, SETTLED_COMPACTION } from '../storage/journal';
import { RecordReader, type StoredProblem } from '../storage/records';
import { canCoalesce, canMove, coalesce, recoverInterrupted, TransitionError, type Transition } from './transitions';
import { isCommonOutboxRecord, laneOf, OUTBOX_STATES, outboxRecordSchema, type OutboxEntry, type OutboxRecord, type OutboxState, type PauseInfo, type ReprocessEntry, type SiteEntry } from './types';

export const OUTBOX_FILE = 'outbox.journal';
const JOURNAL_NAME = 'sitewalk-outbox';

export type SiteDraft = { kind: 'site'; profileId: string; localId: string; op: 'create' | 'edit'; payload: SiteEdit };
export type ReprocessDraft = { kind: 'reprocess'; profileId: string; payload: EusReprocess };
export type Draft = SiteDraft | ReprocessDraft;

export interface Enqueued {
  entry: OutboxEntry;
  /** True when the draft was merged into a queued edit of the same site (later fields win). */
  coalesced: boolean;
}

export interface OutboxStoreOptions {
  dataDir: string;
  clock: Clock;
  /** Done entries older than this are dropped at compaction (default 7 days). */
  historyMs?: number;
  /** Compact when the journal holds more than this many records and 4× the live ones (default 4096). */
  compactAfterRecords?: number;
  /** Where changes get their revisions (the core shares one counter with the site register). */
  revisions?: Revisions;
}

export interface OutboxChange {
  entry: OutboxEntry;
  /** null when the entry was just added. */
  previous: OutboxEntry | null;
  /** The entry's revision as of this change (stamped when the change is applied in memory). */
  revision: number;
}

type ChangeListener = (changes: OutboxChange[], removed: OutboxEntry[]) => void;

export class OutboxStore {
  private readonly entries = new Map<string, OutboxEntry>();
  private readonly lanes = new Map<string, OutboxEntry[]>();
  private readonly pauses = new Map<string, PauseInfo>();
  private nextSeq = 1;
  private readonly listeners = new Set<ChangeListener>();
  private readonly appliedListeners = new Set<ChangeListener>();
  private readonly counts = new Map<string, Record<OutboxState, number>>();
  /** Set when a write failed: memory is then ahead of the disk, so nothing more is accepted. */
  private failure: Error | null = null;

  private constructor(
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly historyMs: number,
    private readonly compactAfter: number,
    private readonly revisions: Revisions,
  ) {}

  /** Opens the outbox of a data folder and replays its journal. */
  static async open(options: OutboxStoreOptions): Promise<{ store: OutboxStore; problems: StoredProblem[] }> {
    const file = join(options.dataDir, OUTBOX_FILE);
    // Records are checked and replayed as they are read: superseded ones are never all held at once.
    const replayed: Replayed = { entries: new Map(), pauses: new Map(), nextSeq: 1 };
    const reader = new RecordReader(outboxRecordSchema, file, 'outbox', (record) => replay(replayed, record), isCommonOutboxRecord);
    const { journal, problems: damaged } = await Journal.open(file, JOURNAL_NAME, { onRecord: (record) => reader.accept(record) });
    const store = new OutboxStore(journal, options.clock, options.historyMs ?? 7 * 24 * 3600_000, options.compactAfterRecords ?? 4096, options.revisions ?? new Revisions());
    for (const [profileId, pause] of replayed.pauses) store.pauses.set(profileId, pause);
    store.nextSeq = replayed.nextSeq;
    store.rebuildLanes(replayed.entries.values());
    replayed.entries.clear();
    const problems = [...damaged, ...(await reader.finish())];
    // A damaged record is set aside (.corrupt); rewriting now stops it being reported again.
    if (problems.some((problem) => problem.kind !== 'torn-tail')) await store.compact();
    return { store, problems };
  }

  /** Called after every durable change, with the entries as they are now. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called synchronously when a change is applied in memory, before it is on disk: for state that
   * must never lag behind what get() and lane() show (the register's service IDs). Listeners must
   * not write to this store.
   */
  onApplied(listener: ChangeListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  get(id: string): OutboxEntry | undefined {
    return this.entries.get(id);
  }

  /** Every entry, oldest first. */
  list(): OutboxEntry[] {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Unfinished entries of one lane (site:<localId> or eus:<processId>), in FIFO order. */
  lane(key: string): readonly OutboxEntry[] {
    return this.lanes.get(key) ?? [];
  }

  /** The newest revision of its counter (shared with the register in the core): it changes with every change. */
  get revisionNow(): number {
    return this.revisions.current;
  }

  /** Lanes with unfinished entries, in the order they first got one. */
  laneEntries(): IterableIterator<[string, OutboxEntry[]]> {
    return this.lanes.entries();
  }

  /** Unfinished entries (every state but done) of one profile, oldest first: only the lanes are read. */
  unfinished(profileId: string): OutboxEntry[] {
    const out: OutboxEntry[] = [];
    for (const lane of this.lanes.values()) for (const entry of lane) if (entry.profileId === profileId) out.push(entry);
    return out.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Up to `limit` done entries of one profile, newest first (by when they were done, then by queue
   * order), older than `before` when given; one pass over the entries keeping the best `limit`.
   */
  history(profileId: string, limit: number, before?: HistoryCursor): { entries: OutboxEntry[]; more: boolean } {
    const page: OutboxEntry[] = [];
    let more = false;
    for (const entry of this.entries.values()) {
      if (entry.state !== 'done' || entry.profileId !== profileId) continue;
      if (before && !newer(before, entry)) continue;
      if (page.length === limit) {
        more = true;
        // page is newest first: its last one is the oldest kept.
        if (newer(page[limit - 1]!, entry)) continue;
        page.pop();
      }
      let index = page.length;
      while (index > 0 && newer(entry, page[index - 1]!)) index--;
      page.splice(index, 0, entry);
    }
    return { entries: page, more };
  }

  /** How many entries of a profile are in each state (kept up to date, so it costs nothing to ask). */
  countsOf(profileId: string): Readonly<Record<OutboxState, number>> {
    return this.counts.get(profileId) ?? emptyCounts();
  }

  /** The sequence number the next entry gets: every entry ever queued here has a lower one. */
  get nextSequence(): number {
    return this.nextSeq;
  }

  /** Why the outbox refuses changes (a failed write), or null. */
  get writeFailure(): Error | null {
    return this.failure;
  }

  pauseOf(profileId: string): PauseInfo | null {
    return this.pauses.get(profileId) ?? null;
  }

  get journalStats(): { bytesWritten: number; syncs: number; records: number; size: number } {
    return { bytesWritten: this.journal.bytesWritten, syncs: this.journal.syncCount, records: this.journal.recordCount, size: this.journal.size };
  }

  /**
   * Queues drafts durably, in order: resolves once they are on disk. A site draft merges into the
   * last unfinished entry of its site when that entry is pending, failed or paused and nothing of
   * the site is being sent: later fields win, the entry keeps its place and becomes pending.
   */
  async enqueue(drafts: readonly Draft[]): Promise<Enqueued[]> {
    this.assertWritable();
    const now = this.clock.now();
    const results: Enqueued[] = [];
    const records: OutboxRecord[] = [];
    const changes: OutboxChange[] = [];
    for (const draft of drafts) {
      if (draft.kind === 'site') {
        const lane = this.lanes.get(`site:${draft.localId}`) ?? [];
        const last = lane[lane.length - 1] as SiteEntry | undefined;
        const sending = lane.some((entry) => entry.state === 'sending');
        if (last && !sending && canCoalesce(last) && last.profileId === draft.profileId) {
          const { patch } = coalesce(last, draft.payload, now);
          const updated = this.applyPatch(last.id, patch)!;
          records.push({ t: 'set', id: last.id, patch });
          changes.push({ entry: updated, previous: last, revision: 0 });
          results.push({ entry: updated, coalesced: true });
          continue;
        }
      }
      const entry = this.newEntry(draft, now);
      this.insert(entry);
      records.push({ t: 'add', entry });
      changes.push({ entry, previous: null, revision: 0 });
      results.push({ entry, coalesced: false });
    }
    this.applied(changes, []);
    try {
      await this.write(records);
    } catch (error) {
      // Not on disk, so not queued: memory goes back to what the disk holds, and the caller hears
      // that nothing was queued (never "failed" for an edit that is in fact waiting).
      for (const { entry, previous } of [...changes].reverse()) {
        if (previous) this.applyPatch(previous.id, previous);
        else this.drop(entry);
      }
      throw error;
    }
    this.notify(changes, []);
    this.maybeCompact();
    return results;
  }

  /**
   * Applies transitions (transitions.ts, absolute values) durably; unknown IDs are skipped. Every
   * state change is checked against the allowed table first: one refused transition refuses the
   * whole batch, before anything changes. Returns the updated entries.
   */
  async update(transitions: readonly Transition[]): Promise<OutboxEntry[]> {
    this.assertWritable();
    for (const { id, patch } of transitions) {
      const previous = this.entries.get(id);
      if (previous && patch.state !== undefined && !canMove(previous.state, patch.state)) throw new TransitionError(id, previous.state, patch.state);
    }
    const records: OutboxRecord[] = [];
    const changes: OutboxChange[] = [];
    for (const { id, patch } of transitions) {
      const previous = this.entries.get(id);
      if (!previous) continue;
      const entry = this.applyPatch(id, patch)!;
      records.push({ t: 'set', id, patch });
      changes.push({ entry, previous, revision: 0 });
    }
    this.applied(changes, []);
    await this.write(records);
    this.notify(changes, []);
    this.maybeCompact();
    return changes.map((change) => change.entry);
  }

  /** Removes entries durably (discard). */
  async remove(ids: readonly string[]): Promise<OutboxEntry[]> {
    this.assertWritable();
    const removed: OutboxEntry[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      this.drop(entry);
      removed.push(entry);
    }
    this.applied([], removed);
    await this.write(removed.map((entry) => ({ t: 'del', id: entry.id }) satisfies OutboxRecord));
    this.notify([], removed);
    this.maybeCompact();
    return removed;
  }

  async setPause(profileId: string, pause: PauseInfo | null): Promise<void> {
    this.assertWritable();
    if (pause) this.pauses.set(profileId, pause);
    else if (!this.pauses.delete(profileId)) return;
    await this.write([{ t: 'pause', profileId, pause } satisfies OutboxRecord]);
    this.notify([], []);
  }

  /**
   * Entries left 'sending' by a process that died mid-call. Safe ones go back to pending; a create
   * or an emailing reprocess goes to review, because the service may already have applied it.
   */
  async recoverInterrupted(): Promise<OutboxEntry[]> {
    return this.update(recoverInterrupted(this.entries.values(), this.clock.now()));
  }

  /** Rewrites the journal as a snapshot of the live state now (done entries past history dropped). */
  compact(): Promise<void> {
    return this.journal.compact(() => {
      const cutoff = this.clock.now() - this.historyMs;
      const expired: OutboxEntry[] = [];
      for (const entry of this.entries.values()) {
        if (entry.state === 'done' && entry.updatedAt < cutoff) expired.push(entry);
      }
      for (const entry of expired) this.drop(entry);
      if (expired.length > 0) {
        this.applied([], expired);
        queueMicrotask(() => this.notify([], expired));
      }
      const records: OutboxRecord[] = [];
      records.push({ t: 'seq', next: this.nextSeq });
      for (const [profileId, pause] of this.pauses) records.push({ t: 'pause', profileId, pause });
      for (const entry of this.list()) records.push({ t: 'add', entry });
      return records;
    });
  }

  /**
   * For when bulk work has settled (a sync went idle, an import ended): compacts when the file holds
   * much more than a snapshot of the live entries would (SETTLED_COMPACTION): after an import and its
   * sync, every entry has an add and two or three patches. Resolves at once when there is little to gain.
   */
  compactIfBloated(): Promise<void> {
    if (this.journal.compacting) return this.journal.compacting;
    if (this.failure) return Promise.resolve();
    const liveBytes = Journal.estimateSnapshotBytes(this.entries.values(), this.entries.size, (entry) => ({ t: 'add', entry }) satisfies OutboxRecord);
    if (!this.journal.compactionDue(this.entries.size + this.pauses.size + 1, { ...SETTLED_COMPACTION, liveBytes })) return Promise.resolve();
    return this.compact();
  }

  /** Waits for writes and closes the journal. */
  async close(): Promise<void> {
    await this.journal.compacting?.catch(() => undefined);
    await this.journal.close();
  }

  // ---- internals ----

  private assertWritable(): void {
    if (this.failure) throw this.failure;
  }

  private async write(records: OutboxRecord[]): Promise<void> {
    try {
      await this.journal.append(records);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      this.failure ??= new Error(
        `Sitewalk could not write its outbox to disk (${cause}). Nothing more is queued until it is restarted; free some disk space or check the data folder.`,
      );
      throw this.failure;
    }
  }

  private track(previous: OutboxEntry | undefined, next: OutboxEntry | undefined): void {
    if (previous) {
      const counts = this.counts.get(previous.profileId);
      if (counts) counts[previous.state]--;
    }
    if (next) {
      let counts = this.counts.get(next.profileId);
      if (!counts) {
        counts = emptyCounts();
        this.counts.set(next.profileId, counts);
      }
      counts[next.state]++;
    }
  }

  private maybeCompact(): void {
    if (this.journal.compacting) return;
    const live = this.entries.size + this.pauses.size + 1;
    // By count and by size: a few records with huge texts must not grow the file unnoticed.
    if (this.journal.compactionDue(live, { minRecords: this.compactAfter })) {
      // Failure to compact loses nothing (the journal stays as it was); it is retried on the next change.
      void this.compact().catch(() => undefined);
    }
  }

  private newEntry(draft: Draft, now: number): OutboxEntry {
    const seq = this.nextSeq++;
    const base = {
      id: `o${seq}`,
      seq,
      profileId: draft.profileId,
      state: 'pending' as const,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
      nextAttemptAt: null,
      result: null,
      problem: null,
    };
    if (draft.kind === 'site') {
      return { ...base, kind: 'site', localId: draft.localId, op: draft.op, payload: { ...draft.payload }, resultSiteId: null } satisfies SiteEntry;
    }
    return { ...base, kind: 'reprocess', payload: { ...draft.payload } } satisfies ReprocessEntry;
  }

  private insert(entry: OutboxEntry): void {
    this.entries.set(entry.id, entry);
    this.track(undefined, entry);
    if (entry.seq >= this.nextSeq) this.nextSeq = entry.seq + 1;
    if (entry.state !== 'done') this.addToLane(entry);
  }

  private addToLane(entry: OutboxEntry): void {
    const key = laneOf(entry);
    const lane = this.lanes.get(key);
    if (!lane) {
      this.lanes.set(key, [entry]);
      return;
    }
    // Usually appended at the end; keep seq order in any case.
    let index = lane.length;
    while (index > 0 && lane[index - 1]!.seq > entry.seq) index--;
    lane.splice(index, 0, entry);
  }

  private removeFromLane(entry: OutboxEntry): void {
    const key = laneOf(entry);
    const lane = this.lanes.get(key);
    if (!lane) return;
    const index = lane.findIndex((candidate) => candidate.id === entry.id);
    if (index >= 0) lane.splice(index, 1);
    if (lane.length === 0) this.lanes.delete(key);
  }

  private drop(entry: OutboxEntry): void {
    if (this.entries.delete(entry.id)) this.track(entry, undefined);
    this.removeFromLane(entry);
  }

  /** Replaces the entry with its patched copy, in the map and in its lane. */
  private applyPatch(id: string, patch: Readonly<Partial<OutboxEntry>>): OutboxEntry | undefined {
    const previous = this.entries.get(id);
    if (!previous) return undefined;
    // id, seq, kind and lane never change through a patch.
    const entry = { ...previous, ...patch, id: previous.id, seq: previous.seq, kind: previous.kind } as OutboxEntry;
    if (entry.kind === 'site' && previous.kind === 'site') entry.localId = previous.localId;
    this.entries.set(id, entry);
    this.track(previous, entry);
    const key = laneOf(previous);
    const lane = this.lanes.get(key);
    const index = lane ? lane.findIndex((candidate) => candidate.id === id) : -1;
    if (entry.state === 'done') {
      if (index >= 0) this.removeFromLane(previous);
    } else if (index >= 0) {
      lane![index] = entry;
    } else {
      this.addToLane(entry);
    }
    return entry;
  }

  private rebuildLanes(entries: Iterable<OutboxEntry>): void {
    this.lanes.clear();
    const sorted = [...entries].sort((a, b) => a.seq - b.seq);
    this.entries.clear();
    this.counts.clear();
    for (const entry of sorted) {
      this.entries.set(entry.id, entry);
      this.track(undefined, entry);
      if (entry.state !== 'done') this.addToLane(entry);
    }
  }

  /** The entry's newest revision (its removal's, once removed). */
  revisionOf(id: string): number {
    return this.revisions.of(entryKey(id));
  }

  private applied(changes: OutboxChange[], removed: OutboxEntry[]): void {
    for (const change of changes) {
      change.revision = this.revisions.stamp(entryKey(change.entry.id));
      if (change.entry.kind === 'site') this.revisions.stamp(siteKey(change.entry.localId));
    }
    for (const entry of removed) {
      this.revisions.stamp(entryKey(entry.id));
      if (entry.kind === 'site') this.revisions.stamp(siteKey(entry.localId));
    }
    for (const listener of [...this.appliedListeners]) listener(changes, removed);
  }

  private notify(changes: OutboxChange[], removed: OutboxEntry[]): void {
    for (const listener of [...this.listeners]) listener(changes, removed);
  }
}

/** The state the journal's records build up as they are read, before the store takes it. */
interface Replayed {
  entries: Map<string, OutboxEntry>;
  pauses: Map<string, PauseInfo>;
  nextSeq: number;
}

function replay(state: Replayed, record: OutboxRecord): void {
  switch (record.t) {
    case 'add': {
      state.entries.delete(record.entry.id);
      state.entries.set(record.entry.id, record.entry);
      if (record.entry.seq >= state.nextSeq) state.nextSeq = record.entry.seq + 1;
      break;
    }
    case 'set': {
      const previous = state.entries.get(record.id);
      if (previous) state.entries.set(record.id, { ...previous, ...record.patch, id: previous.id, seq: previous.seq, kind: previous.kind } as OutboxEntry);
      break;
    }
    case 'del':
      state.entries.delete(record.id);
      break;
    case 'pause':
      if (record.pause) state.pauses.set(record.profileId, record.pause);
      else state.pauses.delete(record.profileId);
      break;
    case 'seq':
      if (Number.isSafeInteger(record.next) && record.next > state.nextSeq) state.nextSeq = record.next;
      break;
  }
}

/** Where a page of the history stops: the last entry's finishing time and queue position. */
export interface HistoryCursor {
  updatedAt: number;
  seq: number;
}

/** Whether `a` comes before `b` in the history (newest first): done later, or queued later at the same instant. */
function newer(a: HistoryCursor, b: HistoryCursor): boolean {
  return a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.seq > b.seq);
}

function emptyCounts(): Record<OutboxState, number> {
  return Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as Record<OutboxState, number>;
}
