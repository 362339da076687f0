// The outbox's unfinished entries in memory: by ID, in their FIFO lanes (site:<localId> or
// eus:<processId>, oldest first), and counted per profile and state — with the count of finished
// ones, which are on disk only. A site entry is held as its head (types.ts: all but the edit it
// sends, which the store reads from the database when it needs it), so 20,000 queued rows with long
// notes cost their scheduling facts, not their text. The store changes it inside its transactions
// (and undoes what a failed one changed); it decides nothing.
import { laneOf, OUTBOX_STATES, type EntryHead, type OutboxState } from './types';

export class UnfinishedEntries {
  readonly entries = new Map<string, EntryHead>();
  readonly lanes = new Map<string, EntryHead[]>();
  private readonly counts = new Map<string, Record<OutboxState, number>>();
  /** Finished entries per profile: counted once at open, then kept with every change. */
  doneCounts = new Map<string, number>();

  countsOf(profileId: string): Record<OutboxState, number> {
    return { ...(this.counts.get(profileId) ?? emptyCounts()), done: this.doneCounts.get(profileId) ?? 0 };
  }

  bumpDone(profileId: string, delta: number): void {
    this.doneCounts.set(profileId, (this.doneCounts.get(profileId) ?? 0) + delta);
  }

  private track(previous: EntryHead | undefined, next: EntryHead | undefined): void {
    if (previous && previous.state !== 'done') {
      const counts = this.counts.get(previous.profileId);
      if (counts) counts[previous.state]--;
    }
    if (next && next.state !== 'done') {
      let counts = this.counts.get(next.profileId);
      if (!counts) {
        counts = emptyCounts();
        this.counts.set(next.profileId, counts);
      }
      counts[next.state]++;
    }
  }

  insert(entry: EntryHead): void {
    if (entry.state === 'done') return;
    this.entries.set(entry.id, entry);
    this.track(undefined, entry);
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

  drop(entry: EntryHead): void {
    if (!this.entries.delete(entry.id)) return;
    this.track(entry, undefined);
    const key = laneOf(entry);
    const lane = this.lanes.get(key);
    if (!lane) return;
    const index = lane.findIndex((candidate) => candidate.id === entry.id);
    if (index >= 0) lane.splice(index, 1);
    if (lane.length === 0) this.lanes.delete(key);
  }

  /** Puts `next` where `previous` is (same lane, same place); a done entry leaves memory. */
  replace(previous: EntryHead, next: EntryHead): void {
    if (previous.state === 'done' && next.state !== 'done') this.bumpDone(previous.profileId, -1);
    if (next.state === 'done' && previous.state !== 'done') this.bumpDone(next.profileId, 1);
    const lane = this.lanes.get(laneOf(previous));
    const index = lane ? lane.findIndex((candidate) => candidate.id === previous.id) : -1;
    if (next.state === 'done' || !lane || index < 0) {
      this.drop(previous);
      this.insert(next);
      return;
    }
    this.entries.set(next.id, next);
    this.track(previous, next);
    lane[index] = next;
  }
}

function emptyCounts(): Record<OutboxState, number> {
  return Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as Record<OutboxState, number>;
}
