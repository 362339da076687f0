// The sync engine: sends the active profile's due entries through the service client, at most
// `concurrency` at a time and one at a time per lane (a site, or an EUS submission), oldest first.
// Before a request leaves, the entry is durably 'sending', so a crash mid-call is seen as
// ambiguous on the next start. After a call, policy.ts decides the next state. When the service is
// unreachable the engine goes offline and probes with backoff (the host may hint at connectivity
// too); when the probe answers, sending resumes by itself. When it answers that it is away (503…),
// the queue is held and one entry at a time tries it (queue-hold.ts). Idle, it re-checks the
// service every `checkEveryMs` (a free probe), so the status is never just the last call's result.
// Its parts: the probe (service-probe.ts), recording a call's answer (record-result.ts), and how
// the queue and the connection read for the user (engine-status.ts).
import { atTime, settledWithin, type Clock, type Random, type TimerHandle } from '../clock';
import type { Blocked, EngineOptions, EngineStatus, SettleResult } from './engine-types';
import type { CallResult, ReprocessResult, ServiceClient, SiteResult } from '../service/types';
import { CLOSE_GRACE_MS, DEFAULT_CHECK_EVERY_MS, DEFAULT_PROBE, DEFAULT_RETRY, HOLD_CAP_MS, type RetryPolicy } from './policy';
import { QueueHold } from './queue-hold';
import type { OutboxStore } from './store';
import { ConnectionMonitor, HUNG_AFTER_MS } from './connection';
import { connectionStatus, currentBlock, isSendable, settledQueue, waitingUntil } from './engine-status';
import { recordResult, type RecordContext } from './record-result';
import { ServiceProbe } from './service-probe';
import * as transitions from './transitions';
import { isIdempotent, type EntryHead, type OutboxEntry } from './types';

export type { Blocked, EngineOptions, EngineStatus, Reachability, ServiceAccessPort, SettleResult } from './engine-types';

export class SyncEngine {
  private readonly store: OutboxStore;
  private readonly clock: Clock;
  private readonly random: Random;
  private concurrencyLimit: number;
  private readonly retry: RetryPolicy;
  private readonly inflight = new Map<string, Promise<void>>();
  /** Results being recorded (each one a transaction, committed before its promise resolves). */
  private readonly writes = new Set<Promise<void>>();
  private retryTimer: TimerHandle | null = null;
  private retryAt = Number.POSITIVE_INFINITY;
  private pumpQueued = false;
  private stopped = false;
  private started = false;
  private readonly connection: ConnectionMonitor;
  /** When each request in flight left, by lane: one waiting too long means the service hangs. */
  private readonly sentAt = new Map<string, number>();
  /** Entries that failed before this instant are due now: the user asked to sync. */
  private manualSyncAt = Number.NEGATIVE_INFINITY;
  private blocked: Blocked | null = null;
  private lastStatusKey = '';
  private statusRevision = 0;
  private readonly waiters = new Set<{ skipWaiting: boolean; resolve: (result: SettleResult) => void }>();
  private readonly recorder: RecordContext;
  private readonly probe: ServiceProbe;
  private readonly held: QueueHold; // the active profile's queue, held while its service says it is away
  /** Cancels the calls still in flight once closing has waited its grace for them. */
  private readonly closing = new AbortController();

  constructor(private readonly options: EngineOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.random = options.random;
    this.concurrencyLimit = clampConcurrency(options.concurrency ?? 4);
    this.retry = options.retry ?? DEFAULT_RETRY;
    const checkEveryMs = Math.max(1, options.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
    this.connection = new ConnectionMonitor(options.initialContact ?? new Map());
    // Offline, the probe backs off, but never longer than the periodic check: a service that comes
    // back is seen within that time.
    const policy = options.probe ?? DEFAULT_PROBE;
    this.held = new QueueHold({ ...this.retry, capMs: Math.min(this.retry.capMs, HOLD_CAP_MS) }, this.random);
    this.probe = new ServiceProbe({
      clock: this.clock,
      random: this.random,
      connection: this.connection,
      access: options.access,
      policy: { baseMs: policy.baseMs, capMs: Math.min(policy.capMs, checkEveryMs) },
      checkEveryMs,
      activeProfile: () => options.activeProfile(),
      busy: () => this.inflight.size > 0,
      changed: () => this.emitStatus(),
      settle: () => this.resolveWaiters(),
      kick: () => this.kick(),
      answering: (profileId) => void (this.held.serviceAnswered(profileId, this.clock.now()) && this.kick()),
    });
    this.recorder = {
      store: this.store,
      clock: this.clock,
      random: this.random,
      retry: this.retry,
      connection: this.connection,
      scrub: (problem, profileId) => this.options.access.scrub?.(problem, profileId) ?? problem,
      reached: () => this.probe.reached(),
      goOffline: () => this.goOffline(),
      hold: (entry, error, now) => this.held.hold(entry.profileId, entry.id, error, now),
      release: (profileId) => void (this.held.release(profileId) && this.kick()),
    };
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
    this.probe.start();
    this.kick();
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

  /** The user's "sync now": backoff waits are skipped; the service is probed at once (free), so the status is now's. */
  syncNow(): void {
    this.manualSyncAt = this.clock.now();
    // Always asked afresh, queue or not: "Sync now" must never leave a stale status standing.
    this.probe.now();
    this.kick();
  }

  /**
   * The active profile changed: what was learnt about the last one's service says nothing about
   * this one's, so it is asked afresh (and sending may start at once).
   */
  profileChanged(): void {
    if (this.stopped) return;
    this.held.clear();
    this.probe.reset(this.started);
    this.kick();
  }

  /** A connectivity hint from the host. `true` probes at once; `false` stops sending until a probe answers. */
  setConnectivity(online: boolean): void {
    if (this.stopped) return;
    if (online) {
      if (!this.probe.online) this.probe.now();
      return;
    }
    this.goOffline();
  }

  status(): EngineStatus {
    const profileId = this.options.activeProfile();
    const counts = profileId ? this.store.countsOf(profileId) : null;
    return {
      online: this.probe.online,
      syncing: this.inflight.size > 0,
      paused: profileId ? this.store.pauseOf(profileId) : null,
      blocked: this.currentBlock(profileId) ?? (profileId ? this.held.block(profileId) : null),
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
    await this.store.update(transitions.resume(this.store.unfinishedHeads(profileId), now));
    await this.store.setPause(profileId, null);
    this.probe.reached();
    this.kick();
  }

  /**
   * Stops scheduling and waits for requests in flight to be answered and recorded, at most the close
   * grace: a call unanswered then (a hung service) is cancelled and recorded as interrupted.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.probe.stop();
    if (this.retryTimer) this.clock.clearTimer(this.retryTimer);
    this.retryTimer = null;
    const answered = Promise.allSettled([...this.inflight.values()]);
    if (!(await settledWithin(this.clock, this.options.closeGraceMs ?? CLOSE_GRACE_MS, answered))) this.closing.abort(new Error('Sitewalk is closing.'));
    await answered;
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
    if (profileId && !this.blocked && this.probe.online && !this.store.pauseOf(profileId) && !this.store.writeFailure) this.sendDue(profileId);
    this.emitStatus();
    this.resolveWaiters();
  }

  private sendDue(profileId: string): void {
    const now = this.clock.now();
    // Held (the service said it is away): nothing, or one entry to try it.
    const allowance = this.held.allowance(profileId, now, this.manualSyncAt);
    let room = allowance ? allowance.entries : Number.POSITIVE_INFINITY;
    let earliest = allowance && room === 0 ? allowance.until : Number.POSITIVE_INFINITY;
    for (const [lane, entries] of this.store.laneEntries()) {
      if (this.inflight.size >= this.concurrencyLimit || room === 0) break;
      const head = entries[0];
      if (!isSendable(head, profileId) || this.inflight.has(lane)) continue;
      const until = waitingUntil(head, now, this.manualSyncAt);
      if (until !== null) {
        earliest = Math.min(earliest, until);
        continue;
      }
      // A call still unanswered after HUNG_AFTER_MS turns the status to "not answering" at once.
      this.sentAt.set(lane, now);
      const cancelHung = atTime(this.clock, now + HUNG_AFTER_MS, () => this.emitStatus());
      if (allowance) this.held.trying(head.id);
      room--;
      const work = this.send(head).finally(() => {
        cancelHung();
        this.held.answered(head.id);
        this.sentAt.delete(lane);
        this.inflight.delete(lane);
        this.kick();
      });
      this.inflight.set(lane, work);
    }
    // Held shut: set to the hold's end, later too (a late answer lengthened it; the status says it), else only earlier.
    const shut = allowance?.entries === 0 && earliest !== this.retryAt;
    if (shut || earliest < this.retryAt || this.retryTimer === null) this.armRetry(earliest);
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

  private async send(entry: EntryHead): Promise<void> {
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
      const call = { signal: this.closing.signal };
      const result: CallResult<SiteResult | ReprocessResult> =
        current.kind === 'site' ? await client.saveSite(current.payload, call) : await client.reprocessEus(current.payload, call);
      await marked;
      if (!result.ok && result.error.kind === 'network' && result.error.code === 'ABORTED' && result.error.sent === 'maybe' && this.closing.signal.aborted) {
        // Cancelled by closing: what a crash leaves, said as such (an edit goes again, a create to review).
        await this.store.update(transitions.recoverInterrupted([current], this.clock.now()));
        return;
      }
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

  private record(entry: OutboxEntry, result: CallResult<SiteResult | ReprocessResult>): Promise<void> {
    return recordResult(this.recorder, entry, result);
  }

  // ---- connectivity ----

  private goOffline(): void {
    this.probe.goOffline();
  }

  // ---- status and waiters ----

  private connectionStatus(profileId: string | null): EngineStatus['connection'] {
    const { store, connection, retryAt } = this;
    const { online, probeAt } = this.probe;
    return connectionStatus(profileId, { store, connection, online, probeAt, sentAt: this.sentAt.values(), retryAt, now: this.clock.now() });
  }

  private currentBlock(profileId: string | null): Blocked | null {
    return currentBlock(this.store, profileId, this.blocked, this.probe.online);
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
    const { store, held, manualSyncAt } = this;
    return settledQueue({ store, profileId, status, skipWaiting, now: this.clock.now(), manualSyncAt, block: this.currentBlock(profileId), held });
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
