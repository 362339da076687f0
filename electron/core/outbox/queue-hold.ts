// The hold on a profile's queue while its service says it is away (a gateway's 502/503/504, 429 too
// many requests: policy.isUnavailable). Without it every due entry went out on its own backoff: a
// queue of 500 edits sent ~20 requests a second into an outage, and each edit gave up after its
// twelfth try, four or five minutes in. Held, nothing more is sent until the hold's end; then one
// entry tries the service (the others wait for its answer); another "away" answer holds the queue
// again for longer (full-jitter backoff, doubling, capped), anything else from the service's own
// code ends the hold and the queue goes on. A Retry-After in the answer (seconds, or a date) makes the
// hold at least that long. "Sync now" and a free probe that finds the service answering end the wait at
// once (the probe not before the Retry-After), still for one entry first. Kept in memory: a new process
// tries the service afresh.
import type { Random } from '../clock';
import type { CallError } from '../service/types';
import type { Blocked } from './engine-types';
import { backoffDelay, type RetryPolicy } from './policy';

interface Held {
  profileId: string;
  /** When one entry may try the service again. */
  until: number;
  /** What the service's Retry-After asked: nothing but the user's "Sync now" ends the hold before it. */
  notBefore: number;
  /** When the hold was last set or lengthened (a "sync now" after it ends the wait). */
  since: number;
  /** "Away" answers in a row from the entries that tried the service, for the backoff. */
  answers: number;
  /** The entry trying the service now, if any: nothing else goes until it is answered. */
  trying: string | null;
  /** What the service said, for the status ("HTTP 503 Service Unavailable"). */
  said: string;
}

export class QueueHold {
  private held: Held | null = null;

  /**
   * `policy`: the backoff between tries; its maxAttempts is how many "away" answers in a row a wait
   * for a settled queue rides out (as it rode out an entry's retries until it gave up) before it says why.
   */
  constructor(
    private readonly policy: RetryPolicy,
    private readonly random: Random,
  ) {}

  /**
   * The service said it is away in answer to `entryId`: the queue is held (longer when the entry was
   * the one trying it, or nothing held it yet); returns the hold's end. An answer to a request that left
   * before the hold began (or while another entry is trying the service) joins it, lengthened only as
   * far as its Retry-After asks.
   */
  hold(profileId: string, entryId: string, error: CallError, now: number): number {
    const held = this.held?.profileId === profileId ? this.held : null;
    const asked = error.kind === 'http' ? (error.retryAfterMs ?? 0) : 0;
    const said = error.kind === 'http' ? `HTTP ${error.status}${asked > 0 ? `, asking for ${describeWait(asked)}` : ''}` : error.kind;
    if (held && held.trying !== entryId && (held.until > now || held.trying !== null)) {
      if (asked > 0) held.notBefore = Math.max(held.notBefore, now + asked);
      if (held.notBefore > held.until) {
        // It asks for longer than the hold has left: the hold is set again from now, so a "Sync now"
        // pressed before this answer no longer ends it, and the status quotes it.
        held.until = held.notBefore;
        held.since = now;
        held.said = said;
      }
      return held.until;
    }
    const answers = (held?.answers ?? 0) + 1;
    // The backoff, or longer when the service said how long (never shorter: it may say "0").
    const until = now + Math.max(backoffDelay(answers, this.policy, this.random), asked);
    this.held = { profileId, until, notBefore: now + asked, since: now, answers, trying: null, said };
    return until;
  }

  /** The service took a request of the profile (or answered from its own code): the hold ends. */
  release(profileId: string): boolean {
    if (this.held?.profileId !== profileId) return false;
    this.held = null;
    return true;
  }

  /**
   * A free probe found the service answering: the entry waiting to try it may go now, or once the wait
   * the service asked for (Retry-After) is over. True when that is sooner than the hold's end.
   */
  serviceAnswered(profileId: string, now: number): boolean {
    const held = this.held;
    const earliest = Math.max(now, held?.notBefore ?? now);
    if (held?.profileId !== profileId || held.trying !== null || held.until <= earliest) return false;
    held.until = earliest;
    return true;
  }

  /**
   * For the profile's next pass: null when it is not held (send as usual); otherwise how many entries
   * may go now (one, or none while one is trying the service or the hold has not ended) and when the
   * hold ends (a "sync now" since it was set ends it now).
   */
  allowance(profileId: string, now: number, manualSyncAt: number): { entries: 0 | 1; until: number } | null {
    const held = this.held;
    if (held?.profileId !== profileId) return null;
    if (held.trying !== null) return { entries: 0, until: Number.POSITIVE_INFINITY };
    const ended = held.until <= now || manualSyncAt > held.since;
    return { entries: ended ? 1 : 0, until: held.until };
  }

  /** `entryId` has left to try the service for the held queue. */
  trying(entryId: string): void {
    if (this.held) this.held.trying = entryId;
  }

  /** `entryId`'s call is over (whatever became of it): another entry may try the service when the hold ends. */
  answered(entryId: string): void {
    if (this.held?.trying === entryId) this.held.trying = null;
  }

  /** Why the profile's queue waits, for the status; null when it is not held. */
  block(profileId: string): Blocked | null {
    const held = this.held;
    if (held?.profileId !== profileId) return null;
    return {
      reason: 'unavailable',
      message: `The service says it cannot take requests now (${held.said}). Sitewalk holds the queue and tries one entry at a time until it answers again; nothing is lost.`,
    };
  }

  /** Whether a wait for a settled queue should stop here and say why: the service has said it is away too many times in a row. */
  settles(profileId: string): boolean {
    return this.held?.profileId === profileId && this.held.answers >= this.policy.maxAttempts && this.held.trying === null;
  }

  /** Forgets the hold (another profile became active: its service is another matter). */
  clear(): void {
    this.held = null;
  }
}

/** "45 s", "3 min": a Retry-After as the status says it. */
function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}
