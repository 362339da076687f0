// How the engine reads its own state for the user: which lane heads can be sent, what blocks the
// active profile's queue, and what the connection looks like (paused, offline, a request hanging,
// or what calls and probes last said). Pure: the engine hands in what it knows.
import type { Blocked, EngineStatus, SettleResult } from './engine-types';
import { HUNG_AFTER_MS, type ConnectionMonitor } from './connection';
import type { QueueHold } from './queue-hold';
import type { OutboxStore } from './store';
import type { EntryHead } from './types';

/** Whether a lane's head is the profile's and pending, and can go (an edit waits for its site's ID). */
export function isSendable(head: EntryHead | undefined, profileId: string): head is EntryHead {
  if (!head || head.profileId !== profileId || head.state !== 'pending') return false;
  return !(head.kind === 'site' && head.op === 'edit' && head.siteId === null);
}

/**
 * When the head's backoff ends, while it is waiting one out; null when it is due now (its time
 * came, or the user asked to sync after it failed).
 */
export function waitingUntil(head: EntryHead, now: number, manualSyncAt: number): number | null {
  return head.nextAttemptAt !== null && head.nextAttemptAt > now && head.updatedAt > manualSyncAt ? head.nextAttemptAt : null;
}

/** Why the profile's queue cannot move now, or null. `precheck` is what the service access said. */
export function currentBlock(store: OutboxStore, profileId: string | null, precheck: Blocked | null, online: boolean): Blocked | null {
  if (!profileId) return { reason: 'no-profile', message: 'No profile is active.' };
  if (store.writeFailure) return { reason: 'write-failed', message: store.writeFailure.message };
  const pause = store.pauseOf(profileId);
  if (pause) return { reason: 'paused', message: pause.message };
  if (precheck) return precheck;
  if (!online) return { reason: 'offline', message: 'The service cannot be reached; Sitewalk keeps trying and sends the queue when it answers.' };
  return null;
}

export interface ConnectionFacts {
  store: OutboxStore;
  connection: ConnectionMonitor;
  online: boolean;
  /** When the next probe is due, while offline. */
  probeAt: number | null;
  /** When each request in flight left. */
  sentAt: Iterable<number>;
  /** When the next backoff retry is due (Infinity when none is). */
  retryAt: number;
  now: number;
}

export function connectionStatus(profileId: string | null, facts: ConnectionFacts): EngineStatus['connection'] {
  if (!profileId) return { state: 'checking', lastError: null, nextTryAt: null };
  const learnt = facts.connection.facts(profileId);
  if (facts.store.pauseOf(profileId)) return { state: 'paused', lastError: learnt.lastError, nextTryAt: null };
  if (!facts.online) return { state: 'offline', lastError: learnt.lastError, nextTryAt: facts.probeAt };
  const now = facts.now;
  let oldest = Number.POSITIVE_INFINITY;
  for (const at of facts.sentAt) oldest = Math.min(oldest, at);
  if (now - oldest >= HUNG_AFTER_MS) {
    const seconds = Math.round((now - oldest) / 1000);
    return { state: 'not-answering', lastError: { message: `A request has been waiting ${seconds} s for the service to answer.`, at: now }, nextTryAt: null };
  }
  // A retry time only while something of this profile is waiting for it.
  const waiting = facts.store.countsOf(profileId).pending > 0;
  const nextTryAt = learnt.state === 'not-answering' && waiting && Number.isFinite(facts.retryAt) ? facts.retryAt : null;
  return { state: learnt.state, lastError: learnt.lastError, nextTryAt };
}

export interface QueueFacts {
  store: OutboxStore;
  profileId: string;
  status: EngineStatus;
  /** One pass (entries waiting out a backoff or a hold do not hold it), or until settled. */
  skipWaiting: boolean;
  now: number;
  manualSyncAt: number;
  /** What stops the queue (currentBlock). */
  block: Blocked | null;
  held: Pick<QueueHold, 'block' | 'settles'>;
}

/**
 * Whether a wait for the profile's queue is over, with nothing in flight: nothing left that could be
 * sent (null blocked, or the pause or hold that keeps the rest), or the queue is stuck and says why;
 * null while it is merely waiting for a retry.
 */
export function settledQueue(facts: QueueFacts): SettleResult | null {
  const { store, profileId, status, skipWaiting, now, manualSyncAt, block } = facts;
  // A held queue waits as a backoff does: one pass does not wait for it.
  const held = facts.held.block(profileId);
  // Nothing of ours is in flight (settled() checks), so an entry 'sending' is another Sitewalk's (the
  // app beside `sitewalk sync --until-settled`): a wait until settled waits for its answer too.
  if (!skipWaiting && store.countsOf(profileId).sending > 0) return null;
  let movable = false;
  for (const [, entries] of store.laneEntries()) {
    const head = entries[0];
    if (!isSendable(head, profileId)) continue;
    if (skipWaiting && (held || waitingUntil(head, now, manualSyncAt) !== null)) continue;
    movable = true;
    break;
  }
  if (!movable) {
    // Nothing pending, but entries held by a pause are still unsent: say why.
    return { blocked: block?.reason === 'paused' && store.countsOf(profileId).paused > 0 ? block : held, status };
  }
  // Something could be sent: settled only if the queue is stuck, not if it is merely waiting (a hold
  // is ridden out until the service has said it is away as many times in a row as an entry is tried).
  if (block) return { blocked: block, status };
  return facts.held.settles(profileId) ? { blocked: held, status } : null;
}
