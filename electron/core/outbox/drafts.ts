// What is handed to the outbox to queue (a draft) and the entry a draft becomes: its first state,
// its place in the queue (seq) and its lane. The store decides whether a draft merges into a
// queued entry instead (transitions.coalesce); this module only builds new ones.
import type { EusReprocess, SiteEdit } from '../service/types';
import type { OutboxEntry, ReprocessEntry, SiteEntry } from './types';

export type SiteDraft = { kind: 'site'; profileId: string; localId: string; op: 'create' | 'edit'; payload: SiteEdit };
export type ReprocessDraft = { kind: 'reprocess'; profileId: string; payload: EusReprocess };
export type Draft = SiteDraft | ReprocessDraft;

export interface Enqueued {
  entry: OutboxEntry;
  /** True when the draft was merged into a queued edit of the same site (later fields win). */
  coalesced: boolean;
}

/** Where a page of the history stops: the last entry's finishing time and queue position. */
export interface HistoryCursor {
  updatedAt: number;
  seq: number;
}

/**
 * A new pending entry for `draft`, `seq` its place in the queue (and its ID). Written out field by
 * field: a spread of the shared fields plus the kind's own is many times slower in V8, and an import
 * makes 10,000 of these in one transaction.
 */
export function newEntry(draft: Draft, seq: number, now: number): OutboxEntry {
  if (draft.kind === 'site') {
    return {
      id: `o${seq}`,
      seq,
      profileId: draft.profileId,
      state: 'pending',
      attempts: 0,
      totalAttempts: 0,
      createdAt: now,
      updatedAt: now,
      nextAttemptAt: null,
      result: null,
      problem: null,
      kind: 'site',
      localId: draft.localId,
      op: draft.op,
      payload: { ...draft.payload },
      resultSiteId: null,
    } satisfies SiteEntry;
  }
  return {
    id: `o${seq}`,
    seq,
    profileId: draft.profileId,
    state: 'pending',
    attempts: 0,
    totalAttempts: 0,
    createdAt: now,
    updatedAt: now,
    nextAttemptAt: null,
    result: null,
    problem: null,
    kind: 'reprocess',
    payload: { ...draft.payload },
  } satisfies ReprocessEntry;
}
