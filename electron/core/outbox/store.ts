// The outbox's durable state in sitewalk.db (storage/outbox-table.ts): every entry, the FIFO lanes
// of unfinished entries and the profiles' pauses. Unfinished entries (what the engine sends and the
// page shows as queued) are also kept in memory as their heads (what is scheduled and counted by,
// not the edit sent: unfinished.ts); an entry is read whole from the database when it is sent,
// shown or changed, and finished ones only when asked for (history pages, one entry, the list).
// Every change is one transaction, committed (on disk) before the call returns: an enqueue of
// 10,000 drafts, a result with the new site ID handed to the edits behind its create and the
// register's update all commit together or not at all. Changes other processes make to the same
// folder are read in before every write and by poll(), and told to subscribers like our own.
// Sending is claimed per entry: the move to 'sending' records which process sends it, inside the
// write transaction, so an entry is sent by one process only. Scheduling lives in engine.ts; new
// entries are made in drafts.ts, other processes' changes read in by others-changes.ts.
import type { Clock } from '../clock';
import { entryKey, Revisions, siteKey } from '../revisions';
import { SitewalkDb } from '../storage/database';
import { OutboxTable } from '../storage/outbox-table';
import { canCoalesce, canMove, coalesce, recoverInterrupted, TransitionError, type Transition } from './transitions';
import { newEntry, type Draft, type Enqueued } from './drafts';
import { readOthersChanges, type OutboxChange, type OutboxMemory } from './others-changes';
import { headOf, type EntryHead, type OutboxEntry, type PauseInfo } from './types';
import { OutboxReads } from './entry-reads';

export type { Draft, Enqueued, HistoryCursor, ReprocessDraft, SiteDraft } from './drafts';
export type { OutboxChange } from './others-changes';

export interface OutboxStoreOptions {
  /** The folder's database; when absent, the store opens the one of `dataDir` and closes it with itself. */
  db?: SitewalkDb;
  dataDir: string;
  clock: Clock;
  /** Done entries older than this are dropped by expireHistory() (default 7 days). */
  historyMs?: number;
  /** Where changes get their revisions (the core shares one with the site register). */
  revisions?: Revisions;
  /** This process's ID in claims (peers.ts); default: one made for the store. */
  processId?: string;
}

type ChangeListener = (changes: OutboxChange[], removed: EntryHead[]) => void;

export class OutboxStore extends OutboxReads {
  private readonly pauses = new Map<string, PauseInfo>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly appliedListeners = new Set<ChangeListener>();
  private commits = 0;
  private failure: Error | null = null;
  /** What other processes' changes are read into (others-changes.ts). */
  private readonly shared: OutboxMemory;

  private constructor(
    private readonly db: SitewalkDb,
    private readonly ownsDb: boolean,
    private readonly clock: Clock,
    private readonly historyMs: number,
    revisions: Revisions,
    readonly processId: string,
  ) {
    super(new OutboxTable(db), revisions);
    this.shared = { table: this.table, memory: this.memory, pauses: this.pauses, claims: this.claims, revisions, processId };
  }

  /** Opens the outbox of a data folder: its unfinished entries and pauses are read; history stays on disk. */
  static async open(options: OutboxStoreOptions): Promise<{ store: OutboxStore; problems: never[] }> {
    const db = options.db ?? SitewalkDb.open(options.dataDir);
    const revisions = options.revisions ?? new Revisions(db);
    const store = new OutboxStore(db, !options.db, options.clock, options.historyMs ?? 7 * 24 * 3600_000, revisions, options.processId ?? `p-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
    // Read a row at a time: only the heads stay.
    for (const stored of store.table.unfinished()) {
      store.memory.insert(headOf(stored.entry));
      revisions.note(entryKey(stored.entry.id), stored.rev);
    }
    for (const { profileId, pause } of store.table.pausesAfter(0).set) store.pauses.set(profileId, pause);
    store.memory.doneCounts = store.table.doneCountsByProfile();
    db.onPull((since) => store.pull(since));
    return { store, problems: [] };
  }

  /** Called after every committed change (this process's or another's), with the entries as they are now. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called inside the transaction of this process's own changes, before they commit: a listener's
   * writes (the register's) commit with them or not at all. Listeners must not write to this store.
   */
  onApplied(listener: ChangeListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Why the last write failed (the disk is full…), or null once a write succeeded again. */
  get writeFailure(): Error | null {
    return this.failure;
  }

  pauseOf(profileId: string): PauseInfo | null {
    return this.pauses.get(profileId) ?? null;
  }

  /** Write transactions committed by this store since open (support and tests). */
  get writeStats(): { commits: number } {
    return { commits: this.commits };
  }

  /** Whether this process claimed the entry (it is 'sending' here, not in another Sitewalk). */
  isClaimedHere(id: string): boolean {
    return this.claims.has(id);
  }

  private readonly claims = new Set<string>();

  /**
   * Queues drafts durably, in order, in one transaction. A site draft merges into the last
   * unfinished entry of its site when that entry is pending, failed or paused and nothing of the
   * site is being sent: later fields win, the entry keeps its place and becomes pending.
   */
  async enqueue(drafts: readonly Draft[]): Promise<Enqueued[]> {
    return this.enqueueNow(drafts);
  }

  /** enqueue() for a caller that adds its own writes to the same transaction (SitewalkDb.write). */
  enqueueNow(drafts: readonly Draft[]): Enqueued[] {
    return this.transact(() => {
      const now = this.clock.now();
      const results: Enqueued[] = [];
      const changes: OutboxChange[] = [];
      let nextSeq = this.table.nextSeq();
      // Entries made or merged into by this call, whole: their rows are written once it is over.
      const made = new Map<string, OutboxEntry>();
      for (const draft of drafts) {
        if (draft.kind === 'site') {
          const lane = this.memory.lanes.get(`site:${draft.localId}`) ?? [];
          const last = lane[lane.length - 1];
          const sending = lane.some((entry) => entry.state === 'sending');
          const whole = last?.kind === 'site' && !sending && canCoalesce(last) && last.profileId === draft.profileId ? (made.get(last.id) ?? this.whole(last)) : undefined;
          if (last && whole?.kind === 'site') {
            const { patch } = coalesce(whole, draft.payload, now);
            const updated = this.applyPatch(last, whole, patch);
            made.set(updated.id, updated);
            changes.push({ entry: updated, previous: last, revision: 0 });
            results.push({ entry: updated, coalesced: true });
            continue;
          }
        }
        const entry = newEntry(draft, nextSeq++, now);
        const head = headOf(entry);
        made.set(entry.id, entry);
        this.memory.insert(head);
        this.db.undo(() => this.memory.drop(head));
        changes.push({ entry, previous: null, revision: 0 });
        results.push({ entry, coalesced: false });
      }
      this.table.setNextSeq(nextSeq);
      this.persist(changes, []);
      return results;
    });
  }

  /**
   * Applies transitions (transitions.ts, absolute values) in one transaction; unknown or finished
   * IDs are skipped. Every state change is checked against the allowed table first, on the rows as
   * they are now (another process may have changed them): one refused transition refuses the whole
   * batch before anything changes. A move to 'sending' is this process's claim: an entry another
   * process is already sending is refused.
   */
  async update(transitions: readonly Transition[]): Promise<OutboxEntry[]> {
    return this.updateNow(transitions);
  }

  updateNow(transitions: readonly Transition[]): OutboxEntry[] {
    return this.transact(() => {
      for (const { id, patch } of transitions) {
        if (patch.state === undefined) continue;
        // A finished entry is on disk only: a move out of 'done' is refused like any other.
        const previous = this.memory.entries.get(id) ?? this.table.get(id)?.entry;
        if (!previous) continue;
        if (!canMove(previous.state, patch.state) || (patch.state === 'sending' && previous.state === 'sending')) throw new TransitionError(id, previous.state, patch.state);
      }
      const changes: OutboxChange[] = [];
      for (const { id, patch } of transitions) {
        const previous = this.memory.entries.get(id);
        const whole = previous && this.whole(previous);
        if (!previous || !whole) continue;
        const entry = this.applyPatch(previous, whole, patch);
        if (entry.state === 'sending') this.claim(id, true);
        else if (previous.state === 'sending') this.claim(id, false);
        changes.push({ entry, previous, revision: 0 });
      }
      this.persist(changes, []);
      return changes.map((change) => change.entry);
    });
  }

  /** Removes entries durably (discard). */
  async remove(ids: readonly string[]): Promise<EntryHead[]> {
    return this.removeNow(ids);
  }

  removeNow(ids: readonly string[]): EntryHead[] {
    return this.transact(() => {
      const removed: EntryHead[] = [];
      for (const id of ids) {
        const entry = this.memory.entries.get(id);
        if (!entry) continue;
        this.memory.drop(entry);
        this.db.undo(() => this.memory.insert(entry));
        removed.push(entry);
      }
      this.persist([], removed);
      return removed;
    });
  }

  async setPause(profileId: string, pause: PauseInfo | null): Promise<void> {
    const previous = this.pauses.get(profileId) ?? null;
    if (!pause && !previous) return;
    this.transact(() => {
      if (pause) this.pauses.set(profileId, pause);
      else this.pauses.delete(profileId);
      this.db.undo(() => (previous ? this.pauses.set(profileId, previous) : this.pauses.delete(profileId)));
      this.table.setPause(profileId, pause, this.db.stamp());
      this.db.after(() => this.notify([], []));
    });
  }

  /**
   * Entries a dead process left 'sending' (`claimedBy` says which processes count as dead; at
   * start-up alone, every one). Safe ones go back to pending; a create or an emailing reprocess
   * goes to review, because the service may already have applied it.
   */
  async recoverInterrupted(isDead: (claimedBy: string | null) => boolean = () => true): Promise<OutboxEntry[]> {
    return this.transact(() => {
      const dead = new Set(this.table.sending().filter((row) => isDead(row.claimedBy)).map((row) => row.id));
      const stuck = [...this.memory.entries.values()].filter((entry) => dead.has(entry.id));
      return this.updateNow(recoverInterrupted(stuck, this.clock.now()));
    });
  }

  /** Entries being sent by another process (its ID), for the claims' watch (peers.ts). */
  claimsOfOthers(): Array<{ id: string; claimedBy: string | null }> {
    return this.table.sending().filter((row) => row.claimedBy !== this.processId);
  }

  /**
   * Drops finished entries older than the history kept (history-expiry.ts runs it at open, hourly
   * and at close); returns how many. Each batch of `batch` rows is a transaction of its own, so a
   * writer (this process's or another's) waits for one short batch at most, never for all of them.
   * Nothing is written when nothing is due. Not a write failure of the user's: the caller says it.
   */
  expireHistory(batch = 500): number {
    const dropped = this.table.expireHistory([...this.memory.doneCounts.keys()], this.clock.now() - this.historyMs, batch);
    if (dropped > 0) this.memory.doneCounts = this.table.doneCountsByProfile();
    return dropped;
  }

  /** Runs `fn` as one transaction with this store's writes (and the register's) in it. */
  transaction<T>(fn: () => T): T {
    return this.transact(fn);
  }

  /** Closes the database when the store opened it. */
  async close(): Promise<void> {
    if (this.ownsDb) this.db.close();
  }

  // ---- internals ----

  /** One write transaction; a failure is kept for writeFailure (the engine stops sending meanwhile). */
  private transact<T>(fn: () => T): T {
    const outer = !this.db.inWrite;
    try {
      const result = this.db.write(fn);
      if (outer) {
        this.commits++;
        this.failure = null;
      }
      return result;
    } catch (error) {
      if (outer && !(error instanceof TransitionError) && error instanceof Error) this.failure = error;
      throw error;
    }
  }

  /** Writes the changed rows with their revisions, tells onApplied listeners, and subscribers after the commit. */
  private persist(changes: OutboxChange[], removed: EntryHead[]): void {
    const now = this.clock.now();
    for (const change of changes) {
      change.revision = this.revisions.stamp(entryKey(change.entry.id));
      if (change.entry.kind === 'site') this.revisions.note(siteKey(change.entry.localId), change.revision);
      this.table.put(change.entry, change.revision, this.processId, now);
    }
    for (const entry of removed) {
      const revision = this.revisions.stamp(entryKey(entry.id));
      if (entry.kind === 'site') this.revisions.note(siteKey(entry.localId), revision);
      this.table.delete(entry.id, revision);
    }
    if (changes.length === 0 && removed.length === 0) return;
    for (const listener of [...this.appliedListeners]) listener(changes, removed);
    this.db.after(() => this.notify(changes, removed));
  }

  /** Another process's committed changes since `since`, into memory, then told to subscribers. */
  private pull(since: number): void {
    const { changes, removed, pausesMoved } = readOthersChanges(this.shared, since);
    if (changes.length > 0 || removed.length > 0 || pausesMoved) this.db.after(() => this.notify(changes, removed));
  }

  private claim(id: string, mine: boolean): void {
    if (mine === this.claims.has(id)) return;
    if (mine) this.claims.add(id);
    else this.claims.delete(id);
    this.db.undo(() => (mine ? this.claims.delete(id) : this.claims.add(id)));
  }

  /**
   * Replaces the entry with its patched copy (its head in memory until it is done), undone if the
   * transaction fails; returns the patched entry, whole. `whole` is `previous` with its edit.
   */
  private applyPatch(previous: EntryHead, whole: OutboxEntry, patch: Readonly<Partial<OutboxEntry>>): OutboxEntry {
    // id, seq, kind and lane never change through a patch.
    const entry = { ...whole, ...patch, id: whole.id, seq: whole.seq, kind: whole.kind } as OutboxEntry;
    if (entry.kind === 'site' && whole.kind === 'site') entry.localId = whole.localId;
    const head = headOf(entry);
    this.memory.replace(previous, head);
    this.db.undo(() => this.memory.replace(head, previous));
    return entry;
  }

  /** The entry's newest revision (its removal's, once removed). */
  revisionOf(id: string): number {
    return this.revisions.of(entryKey(id));
  }

  private notify(changes: OutboxChange[], removed: EntryHead[]): void {
    for (const listener of [...this.listeners]) listener(changes, removed);
  }
}
