// Every change of an outbox entry's state, and the table of the changes allowed. The store applies
// only Transitions, and only this module makes them, so no other file can write `state`; the store
// checks each one against ALLOWED before anything changes in memory or on disk.
//
//                  enqueue
//                     │
//                     ▼        resume / user retry / edit
//   ┌──────────► ┌─────────┐ ◄───────────────────────────────┐
//   │ backoff    │ pending │ ─── coalesce (later fields win) ┐│
//   │ (retry)    └─────────┘ ◄───────────────────────────────┘│
//   │                 │ markSending                           │
//   │                 ▼                                       │
//   │            ┌─────────┐  success   ┌──────┐             │
//   └─────────── │ sending │ ─────────► │ done │ (history)   │
//                └─────────┘            └──────┘             │
//                 │  │  │                   ▲ user confirms  │
//   rejected ─────┘  │  └── quota/auth ─┐   │                │
//      ▼             │ ambiguous, not   ▼   │                │
//  ┌────────┐        │ safe to resend  ┌────────┐            │
//  │ failed │        ▼                 │ paused │ ───────────┤
//  └────────┘   ┌──────────────┐       └────────┘            │
//      │        │ needs-review │ ─── user resends ───────────┤
//      │        └──────────────┘                             │
//      └─────────────── user retries / edits ────────────────┘
//
// A crash (or a process that stopped while its claim was in flight) leaves 'sending' behind:
// recoverInterrupted turns it into pending (safe to resend) or needs-review (a create, an emailing
// reprocess). Discard removes an unsent entry (store.remove).
import type { Decision } from './policy';
import { interruptedProblem } from './policy';
import { isIdempotent, type EntryHead, type OutboxEntry, type OutboxState, type Problem, type SiteEntry } from './types';
import type { CarriedBy, EusReprocess, SiteEdit } from '../service/types';
import { movesPosition } from '../../shared/validation/measurement';

/** Which states an entry may move to from each state (staying in a state is always allowed). */
export const ALLOWED: Readonly<Record<OutboxState, readonly OutboxState[]>> = {
  pending: ['sending'],
  sending: ['done', 'failed', 'needs-review', 'paused', 'pending'],
  failed: ['pending'],
  'needs-review': ['pending', 'done'],
  paused: ['pending'],
  done: [],
};

export function canMove(from: OutboxState, to: OutboxState): boolean {
  return from === to || ALLOWED[from].includes(to);
}

declare const made: unique symbol;

/** A change of one entry, made by this module only (the brand keeps anyone else from writing one). */
export type Transition = { readonly id: string; readonly patch: Readonly<Partial<OutboxEntry>>; readonly [made]: true };

function transition(entry: Pick<OutboxEntry, 'id'>, patch: Partial<OutboxEntry>): Transition {
  return { id: entry.id, patch } as Transition;
}

/** Refused by the store: a transition the table does not allow (a bug, or a race a caller must re-check). */
export class TransitionError extends Error {
  constructor(
    readonly entryId: string,
    readonly from: OutboxState,
    readonly to: OutboxState,
  ) {
    super(`Outbox entry ${entryId} cannot go from ${from} to ${to}.`);
    this.name = 'TransitionError';
  }
}

// ---------- the sync engine's ----------

/** A request is about to leave: one more attempt. */
export function markSending(entry: OutboxEntry | EntryHead, now: number): Transition {
  return transition(entry, { state: 'sending', attempts: entry.attempts + 1, totalAttempts: entry.totalAttempts + 1, updatedAt: now });
}

/**
 * Which binding carried the try just made: set when another binding than the profile's carried it,
 * cleared when the profile's own did (and nothing written when there is nothing to say).
 */
function carrier(entry: OutboxEntry, carriedBy: CarriedBy | undefined): Partial<OutboxEntry> {
  if (carriedBy) return { carriedBy };
  return entry.carriedBy ? { carriedBy: null } : {};
}

/**
 * The service accepted the request. For a create this also gives the edits queued behind it (in
 * `lane`, still without a service ID) the new ID, in the same durable write. `carriedBy`: the
 * binding that carried it, when not the profile's (request validation, query length).
 */
export function recordSuccess(
  entry: OutboxEntry,
  result: string,
  now: number,
  created?: { siteId: string; lane: readonly OutboxEntry[] },
  carriedBy?: CarriedBy,
): Transition[] {
  const done: Partial<OutboxEntry> = { state: 'done', updatedAt: now, nextAttemptAt: null, result, problem: null, ...carrier(entry, carriedBy) };
  if (!created) return [transition(entry, done)];
  return [transition(entry, { ...done, resultSiteId: created.siteId }), ...giveFollowersSiteId(entry, created.lane, created.siteId, now)];
}

/** A create the service accepted without saying which ID it gave: the user must look it up. */
export function recordWithoutSiteId(entry: OutboxEntry, result: string, problem: Problem, now: number, carriedBy?: CarriedBy): Transition {
  return transition(entry, { state: 'needs-review', updatedAt: now, result, problem, ...carrier(entry, carriedBy) });
}

/**
 * A failed call, as policy.decide judged it. `attempts` is the entry's count after the call (a
 * request that never left does not count, nor one the service said it was away for); `left` whether
 * the request left the machine at all; `nextAttemptAt` is the backoff for a retry; `carriedBy` the
 * binding that carried the failed try, when not the profile's.
 */
export function applyDecision(
  entry: OutboxEntry,
  decision: Decision,
  problem: Problem,
  tries: { attempts: number; left: boolean },
  now: number,
  nextAttemptAt: number | null = null,
  carriedBy?: CarriedBy,
): Transition {
  const { attempts, left } = tries;
  return transition(entry, {
    state: decision.state,
    attempts,
    // A try that never left comes off the total (every try of the request) as it comes off the count.
    totalAttempts: left ? entry.totalAttempts : Math.max(0, entry.totalAttempts - (entry.attempts - attempts)),
    updatedAt: now,
    nextAttemptAt: decision.state === 'pending' ? nextAttemptAt : null,
    problem,
    ...carrier(entry, carriedBy),
  });
}

/**
 * A pause is lifted (the user fixed the key, or retried): paused entries go back to pending, without
 * the problem that paused them ("No API calls left"), which no longer says why they wait.
 */
export function resume(entries: readonly (OutboxEntry | EntryHead)[], now: number): Transition[] {
  return entries.filter((entry) => entry.state === 'paused').map((entry) => transition(entry, { state: 'pending', nextAttemptAt: null, problem: null, updatedAt: now }));
}

/** Entries a dead process left 'sending': safe ones are sent again, the rest wait for review. */
export function recoverInterrupted(entries: Iterable<OutboxEntry | EntryHead>, now: number): Transition[] {
  const changes: Transition[] = [];
  for (const entry of entries) {
    if (entry.state !== 'sending') continue;
    changes.push(transition(entry, { state: isIdempotent(entry) ? 'pending' : 'needs-review', problem: interruptedProblem(entry), nextAttemptAt: null, updatedAt: now }));
  }
  return changes;
}

// ---------- the store's ----------

/** States a site edit may be merged into (nothing of its site is being sent). */
export function canCoalesce(entry: OutboxEntry | EntryHead): boolean {
  return entry.state === 'pending' || entry.state === 'failed' || entry.state === 'paused';
}

/** A later edit of the same site merged into a queued one: later fields win, it is pending again. */
export function coalesce(entry: SiteEntry, later: SiteEdit, now: number): Transition {
  return transition(entry, { payload: mergeEdit(entry.payload, later), state: 'pending', updatedAt: now, nextAttemptAt: null, problem: null });
}

/** Later fields win; a field the later edit leaves blank keeps the earlier value. */
export function mergeEdit(earlier: SiteEdit, later: SiteEdit): SiteEdit {
  const merged: SiteEdit = { ...earlier };
  for (const [key, value] of Object.entries(later) as Array<[keyof SiteEdit, unknown]>) {
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  // How a position was measured belongs to that position: one typed over later does not inherit it,
  // while a later edit that re-sends the same coordinates (the form sends them all) keeps it.
  if (later.measurement === undefined && movesPosition(earlier, later)) delete merged.measurement;
  return merged;
}

// ---------- the user's ----------

/**
 * Send again, with a full set of tries: from failed, needs-review (a deliberate resend) or a pending
 * backoff. The total of tries is kept: the user is shown both.
 */
export function userRetry(entry: OutboxEntry, now: number): Transition {
  return transition(entry, { state: 'pending', attempts: 0, nextAttemptAt: null, updatedAt: now });
}

/** The queued request replaced by a corrected one (not yet sent): pending, tries start over, the total too (a new request). */
export function userEdit(entry: OutboxEntry, payload: SiteEdit | EusReprocess, now: number): Transition {
  return transition(entry, { payload, state: 'pending', attempts: 0, totalAttempts: 0, nextAttemptAt: null, problem: null, updatedAt: now } as Partial<OutboxEntry>);
}

/**
 * The user says a needs-review entry did happen. A create needs the ID the service gave; the edits
 * queued behind it get that ID in the same write.
 */
export function userConfirm(entry: OutboxEntry, now: number, created?: { siteId: string; lane: readonly OutboxEntry[] }): Transition[] {
  if (!created) return [transition(entry, { state: 'done', result: 'Confirmed by the user: the service applied it.', updatedAt: now, nextAttemptAt: null })];
  const confirmed = transition(entry, {
    state: 'done',
    resultSiteId: created.siteId,
    result: `Confirmed by the user: the service created site ${created.siteId}.`,
    updatedAt: now,
    nextAttemptAt: null,
  });
  return [confirmed, ...giveFollowersSiteId(entry, created.lane, created.siteId, now)];
}

/** Why the user cannot discard the entry now, or null when it may go. */
export function discardRefusal(entry: OutboxEntry): string | null {
  if (entry.state === 'sending') return `Entry ${entry.id} is being sent right now; wait for its answer.`;
  if (entry.state === 'done') return `Entry ${entry.id} is already done; there is nothing to discard.`;
  return null;
}

/** The edits behind a create (same lane, no service ID yet) become edits of the new site. */
function giveFollowersSiteId(create: OutboxEntry, lane: readonly OutboxEntry[], siteId: string, now: number): Transition[] {
  return lane
    .filter((other): other is SiteEntry => other.id !== create.id && other.kind === 'site' && other.payload.siteId === undefined)
    .map((other) => transition(other, { payload: { ...other.payload, siteId }, op: 'edit', updatedAt: now }));
}
