// The sync engine: sends the active profile's due entries through the service client, at most
// `concurrency` at a time and one at a time per lane (a site, or an EUS submission), oldest first.
// Before a request leaves, the entry is durably 'sending', so a crash mid-call is seen as
// ambiguous on the next start. After a call, policy.ts decides the next state. When the service is
// unreachable the engine goes offline and probes with backoff (the host may hint at connectivity
// too); when the probe answers, sending resumes by itself. With nothing in flight it re-checks the
// service every `checkEveryMs` (a free probe), so the status is never just the last call's result.
import type { Clock, Random, TimerHandle } from '../clock';
import type { Blocked, EngineOptions, EngineStatus, Reachability, SettleResult } from './engine-types';
import type { CallResult, ReprocessResult, ServiceClient, SiteResult } from '../service/types';
import { backoffDelay, decide, DEFAULT_CHECK_EVERY_MS, DEFAULT_PROBE, DEFAULT_RETRY, type RetryPolicy } from './policy';
import type { OutboxStore } from './store';
import { ConnectionMonitor, HUNG_AFTER_MS } from './connection';
import * as transitions from './transitions';
import { isIdempotent, laneOf, type OutboxEntry, type Problem } from './types';

export type { Blocked, EngineOptions, EngineStatus, Reachability, ServiceAccessPort, SettleResult } from './engine-types';

export class SyncEngine {
  private readonly store: OutboxStore;
  private readonly clock: Clock;
  private readonly random: Random;
  private concurrencyLimit: number;
  private readonly retry: RetryPolicy;
  private readonly probePolicy: Pick<RetryPolicy, 'baseMs' | 'capMs'>;
  private readonly inflight = new Map<string, Promise<void>>();
  /** Results being recorded (each one a transaction, committed before its promise resolves). */
  private readonly writes = new Set<Promise<void>>();
  private online = true;
  private probeAttempt = 0;
  private probeTimer: TimerHandle | null = null;
  private probing = false;
  private retryTimer: TimerHandle | null = null;
  private retryAt = Number.POSITIVE_INFINITY;
  private pumpQueued = false;
  private stopped = false;
  private started = false;
  private readonly connection: ConnectionMonitor;
  /** When each request in flight left, by lane: one waiting too long means the service hangs. */
  private readonly sentAt = new Map<string, number>();
  private probeAt: number | null = null;
  private readonly checkEveryMs: number;
  private checkTimer: TimerHandle | null = null;
  /** Entries that failed before this instant are due now: the user asked to sync. */
  private manualSyncAt = Number.NEGATIVE_INFINITY;
  private blocked: Blocked | null = null;
  private lastStatusKey = '';
  private statusRevision = 0;
  private readonly waiters = new Set<{ skipWaiting: boolean; resolve: (result: SettleResult) => void }>();

  constructor(private readonly options: EngineOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.random = options.random;
    this.concurrencyLimit = clampConcurrency(options.concurrency ?? 4);
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.checkEveryMs = Math.max(1, options.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
    // Offline, the probe backs off, but never longer than the periodic check: a service that comes
    // back is seen within that time.
    const probe = options.probe ?? DEFAULT_PROBE;
    this.probePolicy = { baseMs: probe.baseMs, capMs: Math.min(probe.capMs, this.checkEveryMs) };
    this.connection = new ConnectionMonitor(options.initialContact ?? new Map());
  }

  get concurrency(): number {
    return this.concurrencyLimit;
  }

  setConcurrency(limit: number): void {
    this.concurrencyLimit = clampConcurrency(limit);
    this.kick();
  }

  /** Starts sending whatever is due. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    // Learn how the service is doing now, even with nothing to send ("checking" until then).
    if (!this.probing) void this.runProbe();
    this.armCheck();
    this.kick();
  }

  /** The periodic re-check: skipped while calls are in flight (their answers tell) or a probe is due anyway. */
  private armCheck(): void {
    if (this.stopped) return;
    this.checkTimer = this.clock.setTimer(() => {
      this.checkTimer = null;
      if (this.stopped) return;
      if (!this.probing && !this.probeTimer && this.inflight.size === 0) void this.runProbe();
      this.armCheck();
    }, this.checkEveryMs);
  }

  /** Asks for a pass soon (after an enqueue, a retry, a key change…). Cheap to call often. */
  kick(): void {
    if (this.stopped || !this.started || this.pumpQueued) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /**
   * The user's "sync now": backoff waits are skipped, and the service is probed at once (free), so
   * the status says how it is now.
   */
  syncNow(): void {
    this.manualSyncAt = this.clock.now();
    // Always asked afresh, queue or not: "Sync now" must never leave a stale status standing.
    this.probeNow();
    this.kick();
  }

  /**
   * The active profile changed: what was learnt about the last one's service says nothing about
   * this one's, so it is asked afresh (and sending may start at once).
   */
  profileChanged(): void {
    if (this.stopped) return;
    if (this.probeTimer) this.clock.clearTimer(this.probeTimer);
    this.probeTimer = null;
    this.probeAt = null;
    this.probeAttempt = 0;
    this.online = true;
    if (this.started && !this.probing) void this.runProbe();
    this.kick();
  }

  /** A connectivity hint from the host. `true` probes at once; `false` stops sending until a probe answers. */
  setConnectivity(online: boolean): void {
    if (this.stopped) return;
    if (online) {
      if (!this.online) this.probeNow();
      return;
    }
    this.goOffline();
  }

  status(): EngineStatus {
    const profileId = this.options.activeProfile();
    const counts = profileId ? this.store.countsOf(profileId) : null;
    return {
      online: this.online,
      syncing: this.inflight.size > 0,
      paused: profileId ? this.store.pauseOf(profileId) : null,
      blocked: this.currentBlock(profileId),
      pendingCount: counts ? counts.pending + counts.sending + counts.paused : 0,
      sendingCount: counts ? counts.sending : 0,
      attentionCount: counts ? counts.failed + counts['needs-review'] : 0,
      lastSyncAt: profileId ? this.connection.facts(profileId).lastContactAt : null,
      revision: this.statusRevision,
      connection: this.connectionStatus(profileId),
    };
  }

  /**
   * Resolves when nothing of the active profile is in flight and nothing pending can be sent:
   * either all is sent (blocked null) or the queue is stuck (offline, paused, no key…) and says why.
   * Entries waiting for a backoff retry are waited for.
   */
  untilSettled(): Promise<SettleResult> {
    return this.wait(false);
  }

  /**
   * Like untilSettled, but entries waiting out a backoff do not hold it: one pass over what is due
   * now (and what becomes due through it, such as edits behind a create), then it resolves.
   */
  untilIdle(): Promise<SettleResult> {
    return this.wait(true);
  }

  private wait(skipWaiting: boolean): Promise<SettleResult> {
    const now = this.settled(skipWaiting);
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      this.waiters.add({ skipWaiting, resolve });
      this.kick();
    });
  }

  /** Lifts the profile's pause: paused entries go back to pending and sending resumes. */
  async resume(profileId: string): Promise<void> {
    const now = this.clock.now();
    await this.store.update(transitions.resume(this.store.unfinished(profileId), now));
    await this.store.setPause(profileId, null);
    this.probeAttempt = 0;
    this.kick();
  }

  /** Stops scheduling and waits for requests in flight to be answered and recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.probeTimer) this.clock.clearTimer(this.probeTimer);
    if (this.retryTimer) this.clock.clearTimer(this.retryTimer);
    if (this.checkTimer) this.clock.clearTimer(this.checkTimer);
    this.probeTimer = null;
    this.retryTimer = null;
    this.checkTimer = null;
    await Promise.allSettled([...this.inflight.values()]);
    await Promise.allSettled([...this.writes]);
    const status = this.status();
    for (const waiter of this.waiters) waiter.resolve({ blocked: { reason: 'offline', message: 'Sync stopped: Sitewalk is closing.' }, status });
    this.waiters.clear();
  }

  /** Re-emits the status if it changed (the outbox changed outside a pass: enqueue, discard…). */
  refreshStatus(): void {
    this.emitStatus();
  }

  // ---- the pass ----

  private pump(): void {
    if (this.stopped) return;
    const profileId = this.options.activeProfile();
    // What the user must fix (no key, no profile) is said whether or not the service answers.
    this.blocked = profileId ? (this.options.access.precheck?.(profileId) ?? null) : null;
    if (profileId && !this.blocked && this.online && !this.store.pauseOf(profileId) && !this.store.writeFailure) this.sendDue(profileId);
    this.emitStatus();
    this.resolveWaiters();
  }

  private sendDue(profileId: string): void {
    const now = this.clock.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const [lane, entries] of this.store.laneEntries()) {
      if (this.inflight.size >= this.concurrencyLimit) break;
      const head = entries[0];
      if (!head || head.profileId !== profileId || head.state !== 'pending' || this.inflight.has(lane)) continue;
      if (head.kind === 'site' && head.op === 'edit' && head.payload.siteId === undefined) continue;
      if (head.nextAttemptAt !== null && head.nextAttemptAt > now && head.updatedAt > this.manualSyncAt) {
        earliest = Math.min(earliest, head.nextAttemptAt);
        continue;
      }
      // A call still unanswered after HUNG_AFTER_MS turns the status to "not answering" at once.
      this.sentAt.set(lane, now);
      const hung = this.clock.setTimer(() => this.emitStatus(), HUNG_AFTER_MS);
      const work = this.send(head).finally(() => {
        this.clock.clearTimer(hung);
        this.sentAt.delete(lane);
        this.inflight.delete(lane);
        this.kick();
      });
      this.inflight.set(lane, work);
    }
    if (earliest < this.retryAt || (this.retryTimer === null && Number.isFinite(earliest))) this.armRetry(earliest);
  }

  private armRetry(at: number): void {
    if (!Number.isFinite(at)) return;
    if (this.retryTimer) this.clock.clearTimer(this.retryTimer);
    this.retryAt = at;
    this.retryTimer = this.clock.setTimer(() => {
      this.retryTimer = null;
      this.retryAt = Number.POSITIVE_INFINITY;
      this.kick();
    }, at - this.clock.now());
  }

  private async send(entry: OutboxEntry): Promise<void> {
    let client: ServiceClient;
    try {
      client = await this.options.access.clientFor(entry.profileId);
    } catch (error) {
      // No way to the service at all (the built-in sandbox did not start…): nothing left, so this
      // is "offline"; the probe finds out when it is back.
      this.options.log?.(`outbox: the service cannot be used: ${error instanceof Error ? error.message : String(error)}`);
      this.goOffline();
      return;
    }
    try {
      // A request that must not go twice (a create, an emailing reprocess) is on disk as 'sending'
      // before it leaves: a crash from then on is seen as ambiguous. One that may go twice (an edit
      // of an existing site, a reprocess without email) leaves while its mark is being written: if a
      // crash loses the mark, it is simply sent again. The store applies the change in memory at once.
      const marked = this.store.update([transitions.markSending(entry, this.clock.now())]);
      // The mark is this process's claim, committed before anything leaves: another Sitewalk on the
      // same folder that already claimed the entry (or finished it) keeps it.
      if (!this.store.isClaimedHere(entry.id)) return void (await marked.catch(() => undefined));
      if (!isIdempotent(entry)) await marked;
      const current = this.store.get(entry.id);
      if (!current || current.state !== 'sending') return void (await marked);
      const result: CallResult<SiteResult | ReprocessResult> =
        current.kind === 'site' ? await client.saveSite(current.payload) : await client.reprocessEus(current.payload);
      await marked;
      if (result.ok) {
        // The result is committed in one transaction with the register's fold (and, for a create,
        // the new site ID handed to the edits behind it). Settling waits for it.
        this.trackWrite(this.record(current, result));
        return;
      }
      await this.record(current, result);
    } catch (error) {
      // A bug or a failed write. The entry stays 'sending' on disk at worst, which the next start
      // treats as interrupted: safe either way.
      this.options.log?.(`outbox: sending ${entry.id} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private trackWrite(write: Promise<void>): void {
    const tracked = write
      .catch((error: unknown) => this.options.log?.(`outbox: recording a result failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.writes.delete(tracked);
        this.kick();
      });
    this.writes.add(tracked);
  }

  private async record(entry: OutboxEntry, result: CallResult<SiteResult | ReprocessResult>): Promise<void> {
    const now = this.clock.now();
    if (result.ok) {
      this.reached();
      this.connection.reached(entry.profileId, now);
      if (entry.kind === 'site' && entry.op === 'create') {
        const siteId = (result.value as SiteResult).siteId;
        if (siteId === null) {
          await this.store.update([transitions.recordWithoutSiteId(entry, result.value.message, noSiteIdProblem(result.value.raw), now, result.value.carriedBy)]);
          return;
        }
        // The create and the rewrite of the edits queued behind it land in one durable write.
        await this.store.update(transitions.recordSuccess(entry, result.value.message, now, { siteId, lane: this.store.lane(laneOf(entry)) }, result.value.carriedBy));
        return;
      }
      await this.store.update(transitions.recordSuccess(entry, result.value.message, now, undefined, result.value.carriedBy));
      return;
    }

    const error = result.error;
    const decision = decide(entry, error, this.retry);
    const problem = this.options.access.scrub?.(decision.problem, entry.profileId) ?? decision.problem;
    const notSent = error.kind === 'invalid-input' || (error.kind === 'network' && error.sent === 'no');
    if (!notSent) this.reached();
    this.connection.failed(entry.profileId, error, now);
    // A request that never left does not count as an attempt.
    const attempts = notSent ? Math.max(0, entry.attempts - 1) : entry.attempts;
    const nextAttemptAt = decision.state === 'pending' && !decision.offline ? now + backoffDelay(Math.max(1, attempts), this.retry, this.random) : null;
    await this.store.update([transitions.applyDecision(entry, decision, problem, attempts, now, nextAttemptAt, error.carriedBy)]);
    if (decision.state === 'paused') await this.store.setPause(entry.profileId, { ...decision.pause, since: now });
    if (decision.state === 'pending' && decision.offline) this.goOffline();
  }

  // ---- connectivity ----

  /** The service answered something: it is reachable, and the probe backoff starts over. */
  private reached(): void {
    this.probeAttempt = 0;
  }

  private goOffline(): void {
    if (this.stopped) return;
    const was = this.online;
    this.online = false;
    if (!this.probeTimer && !this.probing) this.scheduleProbe();
    if (was) this.emitStatus();
    this.resolveWaiters();
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.probeAttempt++;
    const delay = backoffDelay(this.probeAttempt, this.probePolicy, this.random);
    this.probeAt = this.clock.now() + delay;
    this.probeTimer = this.clock.setTimer(() => {
      this.probeTimer = null;
      void this.runProbe();
    }, delay);
  }

  private probeNow(): void {
    if (this.probeTimer) this.clock.clearTimer(this.probeTimer);
    this.probeTimer = null;
    if (!this.probing) void this.runProbe();
  }

  private async runProbe(): Promise<void> {
    if (this.stopped) return;
    const profileId = this.options.activeProfile();
    if (!profileId) return;
    this.probing = true;
    this.probeAt = null;
    let reach: Reachability;
    try {
      reach = await this.options.access.reachable(profileId);
    } catch (error) {
      reach = { state: 'offline', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.probing = false;
    }
    if (this.stopped) return;
    const now = this.clock.now();
    if (reach.state === 'online') this.connection.reached(profileId, now);
    else this.connection.probeFailed(profileId, reach.state, reach.message, now);
    if (reach.state !== 'offline') {
      // Any HTTP answer means it can be reached; an error page still lets the queue try (and back off).
      this.online = true;
      this.emitStatus();
      this.kick();
    } else {
      // Nothing reached it (at start, too): offline, and the probe keeps trying with backoff.
      this.goOffline();
      this.emitStatus();
    }
  }

  // ---- status and waiters ----

  private connectionStatus(profileId: string | null): EngineStatus['connection'] {
    if (!profileId) return { state: 'checking', lastError: null, nextTryAt: null };
    const facts = this.connection.facts(profileId);
    if (this.store.pauseOf(profileId)) return { state: 'paused', lastError: facts.lastError, nextTryAt: null };
    if (!this.online) return { state: 'offline', lastError: facts.lastError, nextTryAt: this.probeAt };
    const now = this.clock.now();
    let oldest = Number.POSITIVE_INFINITY;
    for (const at of this.sentAt.values()) oldest = Math.min(oldest, at);
    if (now - oldest >= HUNG_AFTER_MS) {
      const seconds = Math.round((now - oldest) / 1000);
      return { state: 'not-answering', lastError: { message: `A request has been waiting ${seconds} s for the service to answer.`, at: now }, nextTryAt: null };
    }
    // A retry time only while something of this profile is waiting for it.
    const waiting = this.store.countsOf(profileId).pending > 0;
    const nextTryAt = facts.state === 'not-answering' && waiting && Number.isFinite(this.retryAt) ? this.retryAt : null;
    return { state: facts.state, lastError: facts.lastError, nextTryAt };
  }

  private currentBlock(profileId: string | null): Blocked | null {
    if (!profileId) return { reason: 'no-profile', message: 'No profile is active.' };
    if (this.store.writeFailure) return { reason: 'write-failed', message: this.store.writeFailure.message };
    const pause = this.store.pauseOf(profileId);
    if (pause) return { reason: 'paused', message: pause.message };
    if (this.blocked) return this.blocked;
    if (!this.online) return { reason: 'offline', message: 'The service cannot be reached; Sitewalk keeps trying and sends the queue when it answers.' };
    return null;
  }

  private emitStatus(): void {
    if (!this.options.onStatus) return;
    const { revision: _revision, ...status } = this.status();
    const key = JSON.stringify(status);
    if (key === this.lastStatusKey) return;
    this.lastStatusKey = key;
    // Every status that differs from the last one told gets a newer revision: a call's answer that
    // carries an older status (computed before this one) can never replace it on screen.
    this.statusRevision++;
    this.options.onStatus({ ...status, revision: this.statusRevision });
  }

  private settled(skipWaiting: boolean): SettleResult | null {
    if (this.inflight.size > 0 || this.writes.size > 0 || this.pumpQueued) return null;
    const profileId = this.options.activeProfile();
    const status = this.status();
    if (!profileId) return { blocked: status.blocked, status };
    const now = this.clock.now();
    let movable = false;
    for (const [, entries] of this.store.laneEntries()) {
      const head = entries[0];
      if (!head || head.profileId !== profileId || head.state !== 'pending') continue;
      if (head.kind === 'site' && head.op === 'edit' && head.payload.siteId === undefined) continue;
      if (skipWaiting && head.nextAttemptAt !== null && head.nextAttemptAt > now && head.updatedAt > this.manualSyncAt) continue;
      movable = true;
      break;
    }
    const block = this.currentBlock(profileId);
    if (!movable) {
      // Nothing pending, but entries held by a pause are still unsent: say why.
      return { blocked: block?.reason === 'paused' && this.store.countsOf(profileId).paused > 0 ? block : null, status };
    }
    // Something could be sent: settled only if the queue is stuck, not if it is merely waiting.
    return block ? { blocked: block, status } : null;
  }

  private resolveWaiters(): void {
    if (this.waiters.size === 0) return;
    const results = new Map<boolean, SettleResult | null>();
    for (const waiter of [...this.waiters]) {
      if (!results.has(waiter.skipWaiting)) results.set(waiter.skipWaiting, this.settled(waiter.skipWaiting));
      const result = results.get(waiter.skipWaiting);
      if (!result) continue;
      this.waiters.delete(waiter);
      waiter.resolve(result);
    }
  }
}

function clampConcurrency(limit: number): number {
  if (!Number.isFinite(limit)) return 4;
  return Math.min(32, Math.max(1, Math.floor(limit)));
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
