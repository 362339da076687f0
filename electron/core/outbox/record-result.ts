// What the engine does with a call's answer: a success is recorded (a create's new site ID handed
// to the edits queued behind it in the same write), a failure goes through policy.decide and is
// applied as one transition with its backoff, a pause, going offline or holding the profile's queue
// (the service said it is away). Each record is one transaction, committed before the returned
// promise resolves.
import type { Clock, Random } from '../clock';
import type { CallError, CallResult, ReprocessResult, SiteResult } from '../service/types';
import type { ConnectionMonitor } from './connection';
import { backoffDelay, decide, isUnavailable, type RetryPolicy } from './policy';
import type { OutboxStore } from './store';
import * as transitions from './transitions';
import { laneOf, type OutboxEntry, type Problem } from './types';

export interface RecordContext {
  store: OutboxStore;
  clock: Clock;
  random: Random;
  retry: RetryPolicy;
  connection: ConnectionMonitor;
  /** Strips anything secret from a problem before it is stored. */
  scrub?(problem: Problem, profileId: string): Problem;
  /** The service answered something: it can be reached. */
  reached(): void;
  /** Nothing reached the service: stop sending until a probe answers. */
  goOffline(): void;
  /**
   * The service said it is away (policy.isUnavailable) in answer to `entry`: the profile's queue is
   * held; returns when `entry` is to be tried again (the hold's end).
   */
  hold(entry: OutboxEntry, error: CallError, now: number): number;
  /** The service took a request (or answered one from its own code): a hold on the profile's queue ends. */
  release(profileId: string): void;
}

export async function recordResult(ctx: RecordContext, entry: OutboxEntry, result: CallResult<SiteResult | ReprocessResult>): Promise<void> {
  const { store } = ctx;
  const now = ctx.clock.now();
  if (result.ok) {
    ctx.reached();
    ctx.release(entry.profileId);
    ctx.connection.reached(entry.profileId, now);
    if (entry.kind === 'site' && entry.op === 'create') {
      const siteId = (result.value as SiteResult).siteId;
      if (siteId === null) {
        await store.update([transitions.recordWithoutSiteId(entry, result.value.message, noSiteIdProblem(result.value.raw), now, result.value.carriedBy)]);
        return;
      }
      // The create and the rewrite of the edits queued behind it land in one durable write.
      await store.update(transitions.recordSuccess(entry, result.value.message, now, { siteId, lane: store.lane(laneOf(entry)) }, result.value.carriedBy));
      return;
    }
    await store.update(transitions.recordSuccess(entry, result.value.message, now, undefined, result.value.carriedBy));
    return;
  }

  const error = result.error;
  const decision = decide(entry, error, ctx.retry);
  const problem = ctx.scrub?.(decision.problem, entry.profileId) ?? decision.problem;
  const notSent = error.kind === 'invalid-input' || (error.kind === 'network' && error.sent === 'no');
  const away = isUnavailable(error);
  if (!notSent) ctx.reached();
  // The service's own code answered (a fault, an error of its own, a refusal): it takes requests again.
  if (!notSent && !away && error.kind !== 'network' && error.kind !== 'timeout') ctx.release(entry.profileId);
  ctx.connection.failed(entry.profileId, error, now);
  // A request that never left does not count as an attempt, nor one the service said it was away for.
  const counted = decision.state === 'pending' ? decision.countsAsAttempt : !notSent;
  const attempts = counted ? entry.attempts : Math.max(0, entry.attempts - 1);
  // The whole queue waits, whatever becomes of this entry (a create goes to review all the same).
  const heldUntil = away ? ctx.hold(entry, error, now) : null;
  const nextAttemptAt = decision.state === 'pending' && !decision.offline ? (heldUntil ?? now + backoffDelay(Math.max(1, attempts), ctx.retry, ctx.random)) : null;
  await store.update([transitions.applyDecision(entry, decision, problem, { attempts, left: !notSent }, now, nextAttemptAt, error.carriedBy)]);
  if (decision.state === 'paused') await store.setPause(entry.profileId, { ...decision.pause, since: now });
  if (decision.state === 'pending' && decision.offline) ctx.goOffline();
}

function noSiteIdProblem(raw: string): Problem {
  return {
    kind: 'no-site-id',
    message: 'The service accepted the new site but did not say which ID it got. Find the site in the account and enter its ID here, so later edits reach it.',
    detail: `SitesAPI result: ${JSON.stringify(raw.slice(0, 500))}`,
    retryable: false,
    quotaExhausted: false,
    authRejected: false,
    mayHaveBeenApplied: true,
  };
}
