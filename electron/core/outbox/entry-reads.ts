// The outbox store's reading side. An unfinished site entry is held in memory as its head
// (unfinished.ts): what the engine schedules and the counts are made of, not the edit it sends, so
// tens of thousands of queued rows with long notes cost their scheduling facts and not their text.
// Its edit is read from its row when the entry is sent, shown or changed (one entry, one lane, a
// listing). The head's fields win over the row's: they are this process's view of the entry, while
// the row may already hold another process's change, read in at this one's next write or poll.
// Finished entries are on disk only. The writing side is store.ts (OutboxStore extends this).
import { isWaitingEdit } from '../../shared/contract/views';
import { entryKey, type Revisions } from '../revisions';
import type { OutboxTable } from '../storage/outbox-table';
import type { HistoryCursor } from './drafts';
import type { SiteEdit } from '../service/types';
import { withPayload, type EntryHead, type OutboxEntry, type OutboxState } from './types';
import { UnfinishedEntries } from './unfinished';

export class OutboxReads {
  /** Unfinished entries as heads, their lanes and the counts per state (done ones live in the database only). */
  protected readonly memory = new UnfinishedEntries();

  protected constructor(
    protected readonly table: OutboxTable,
    protected readonly revisions: Revisions,
  ) {}

  /** One entry, whole (its edit read from the database). */
  get(id: string): OutboxEntry | undefined {
    const open = this.memory.entries.get(id);
    if (open) return this.whole(open);
    const stored = this.table.get(id);
    if (stored) this.revisions.note(entryKey(id), stored.rev);
    return stored?.entry;
  }

  /** Every entry, finished ones included, oldest first (read from the database). */
  list(): OutboxEntry[] {
    return this.table.all().map((stored) => {
      this.revisions.note(entryKey(stored.entry.id), stored.rev);
      const open = this.memory.entries.get(stored.entry.id);
      if (open?.kind === 'reprocess') return open;
      return open && stored.entry.kind === 'site' ? withPayload(open, stored.entry.payload) : stored.entry;
    });
  }

  /** Unfinished entries of one lane (site:<localId> or eus:<processId>), in FIFO order, whole. */
  lane(key: string): OutboxEntry[] {
    return this.wholeOf(this.memory.lanes.get(key) ?? []);
  }

  /** An entry's state as this process holds it (an unfinished one from memory, a finished one read). */
  stateOf(id: string): OutboxState | undefined {
    return this.glance(id)?.state;
  }

  /** An entry without reading its edit: an unfinished one's head (memory), a finished one read whole. */
  glance(id: string): EntryHead | OutboxEntry | undefined {
    return this.memory.entries.get(id) ?? this.table.get(id)?.entry;
  }

  /** The heads of one lane's unfinished entries, in FIFO order (memory only: nothing is read). */
  laneHeads(key: string): readonly EntryHead[] {
    return this.memory.lanes.get(key) ?? [];
  }

  /** The folder's newest revision (shared with the register): it changes with every change. */
  get revisionNow(): number {
    return this.revisions.current;
  }

  /** Lanes with unfinished entries, as their heads (memory only). */
  laneEntries(): IterableIterator<[string, EntryHead[]]> {
    return this.memory.lanes.entries();
  }

  /** Unfinished entries (every state but done) of one profile, oldest first, as heads: memory only. */
  unfinishedHeads(profileId: string): EntryHead[] {
    const out: EntryHead[] = [];
    for (const lane of this.memory.lanes.values()) for (const entry of lane) if (entry.profileId === profileId) out.push(entry);
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Unfinished entries of one profile, oldest first, whole (their edits read in one query). */
  unfinished(profileId: string): OutboxEntry[] {
    const edits = this.unfinishedEdits();
    return this.wholeOf(this.unfinishedHeads(profileId), edits);
  }

  /**
   * Unfinished entries of one profile as a first screen lists them, oldest first, whole: every one but
   * the site edits that simply wait beyond the first `pendingLimit` of them (20,000 rows queued offline
   * are not read, made into views and sent to a page that shows 300 and counts the rest); the page
   * hears of those as they change.
   */
  unfinishedPage(profileId: string, pendingLimit: number): { entries: OutboxEntry[]; pendingLeftOut: number } {
    let pending = 0;
    const heads = this.unfinishedHeads(profileId);
    const listed = heads.filter((head) => !isWaitingEdit(head) || pending++ < pendingLimit);
    return { entries: this.wholeOf(listed), pendingLeftOut: heads.length - listed.length };
  }

  /**
   * Every lane's unfinished entries, whole, in FIFO order: their edits read in one query over the
   * unfinished rows (an index of their own) instead of one lookup an entry — the site list of a
   * folder with 20,000 queued rows reads them at once.
   */
  unfinishedLanes(): Map<string, OutboxEntry[]> {
    const edits = this.unfinishedEdits();
    const lanes = new Map<string, OutboxEntry[]>();
    for (const [key, heads] of this.memory.lanes) if (heads.length > 0) lanes.set(key, this.wholeOf(heads, edits));
    return lanes;
  }

  /** Up to `limit` done entries of one profile, newest first, older than `before` when given: one indexed query. */
  history(profileId: string, limit: number, before?: HistoryCursor): { entries: OutboxEntry[]; more: boolean } {
    const rows = this.table.history(profileId, limit + 1, before);
    const entries = rows.slice(0, limit).map((stored) => {
      this.revisions.note(entryKey(stored.entry.id), stored.rev);
      return stored.entry;
    });
    return { entries, more: rows.length > limit };
  }

  /** How many entries of a profile are in each state (kept up to date, so it costs nothing to ask). */
  countsOf(profileId: string): Readonly<Record<OutboxState, number>> {
    return this.memory.countsOf(profileId);
  }

  /** A lane's entries: the unfinished ones and those finished at or after `since` (an indexed query). */
  laneSince(key: string, since: number): OutboxEntry[] {
    return [...this.table.doneInLane(key, since).map((stored) => stored.entry), ...this.lane(key)];
  }

  /** When each profile's service last accepted a request. */
  lastDonePerProfile(): Map<string, number> {
    return this.table.lastDoneByProfile();
  }

  /** The entry of `head`, whole; undefined when its row is gone (removed by another process). */
  protected whole(head: EntryHead, edits?: ReadonlyMap<string, SiteEdit>): OutboxEntry | undefined {
    if (head.kind === 'reprocess') return head;
    let edit = edits?.get(head.id);
    if (edit === undefined) {
      const stored = this.table.get(head.id)?.entry;
      edit = stored?.kind === 'site' ? stored.payload : undefined;
    }
    return edit === undefined ? undefined : withPayload(head, edit);
  }

  /** Every unfinished site entry's edit by entry ID: one query. */
  private unfinishedEdits(): Map<string, SiteEdit> {
    const edits = new Map<string, SiteEdit>();
    for (const { entry } of this.table.unfinished()) if (entry.kind === 'site') edits.set(entry.id, entry.payload);
    return edits;
  }

  private wholeOf(heads: Iterable<EntryHead>, edits?: ReadonlyMap<string, SiteEdit>): OutboxEntry[] {
    const out: OutboxEntry[] = [];
    for (const head of heads) {
      const entry = this.whole(head, edits);
      if (entry) out.push(entry);
    }
    return out;
  }
}
