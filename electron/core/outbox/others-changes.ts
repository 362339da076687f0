// Reading in what other Sitewalk processes committed to the same data folder's outbox: their new
// and changed entries go into the unfinished entries in memory (a finished one only counts), their
// removals leave it, their pauses replace ours, and a claim we thought ours is dropped when another
// process's row says otherwise. The store runs it at the start of every write and when the folder
// moved (SitewalkDb.poll), and tells its subscribers what changed once it is read.
import { entryKey, type Revisions, siteKey } from '../revisions';
import type { OutboxTable } from '../storage/outbox-table';
import { headOf, type EntryHead, type OutboxEntry, type PauseInfo } from './types';
import type { UnfinishedEntries } from './unfinished';

export interface OutboxChange {
  entry: OutboxEntry;
  /** What was held of it before (its head), null when the entry was just added. */
  previous: EntryHead | null;
  /** The entry's revision as of this change. */
  revision: number;
}

/** The store's memory that other processes' changes are read into. */
export interface OutboxMemory {
  table: OutboxTable;
  memory: UnfinishedEntries;
  pauses: Map<string, PauseInfo>;
  /** Entries this process is sending (its claims). */
  claims: Set<string>;
  revisions: Revisions;
  processId: string;
}

export interface OthersChanges {
  changes: OutboxChange[];
  removed: EntryHead[];
  /** Whether any profile's pause was set or lifted. */
  pausesMoved: boolean;
}

/** Reads the rows changed and removed after revision `since` into memory; returns what moved. */
export function readOthersChanges(state: OutboxMemory, since: number): OthersChanges {
  const { table, memory, revisions } = state;
  const { entries, removed } = table.changedAfter(since);
  const changes: OutboxChange[] = [];
  for (const { entry, rev, claimedBy } of entries) {
    const previous = memory.entries.get(entry.id) ?? null;
    revisions.note(entryKey(entry.id), rev);
    if (entry.kind === 'site') revisions.note(siteKey(entry.localId), rev);
    if (entry.state !== 'sending' || claimedBy !== state.processId) state.claims.delete(entry.id);
    if (previous) memory.replace(previous, headOf(entry));
    else if (entry.state === 'done') memory.bumpDone(entry.profileId, 1);
    else memory.insert(headOf(entry));
    changes.push({ entry, previous, revision: rev });
  }
  const gone: EntryHead[] = [];
  for (const { key, rev } of removed) {
    revisions.note(entryKey(key), rev);
    const entry = memory.entries.get(key);
    if (!entry) continue;
    if (entry.kind === 'site') revisions.note(siteKey(entry.localId), rev);
    memory.drop(entry);
    gone.push(entry);
  }
  const pauses = table.pausesAfter(since);
  for (const { profileId, pause } of pauses.set) state.pauses.set(profileId, pause);
  for (const profileId of pauses.lifted) if (!pauses.set.some((set) => set.profileId === profileId)) state.pauses.delete(profileId);
  return { changes, removed: gone, pausesMoved: pauses.set.length > 0 || pauses.lifted.length > 0 };
}
