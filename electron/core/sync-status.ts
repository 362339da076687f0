// How the engine's status reaches the hosts and the CLI (the contract's SyncStatus, dates as ISO
// text, the data folder's problems with it), and the core's `sync` controls around the engine.
import type { SettleResult, EngineStatus, SyncEngine } from './outbox/engine';
import type { OutboxStore } from './outbox/store';
import type { SettleSummary, SitewalkCore, SyncStatus } from './sitewalk-core';
import type { StoredProblem } from './storage/problems';

/** When each profile's service last accepted a request, as the outbox remembers it (one indexed query). */
export function lastDonePerProfile(store: OutboxStore): Map<string, number> {
  return store.lastDonePerProfile();
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toSyncStatus(status: EngineStatus, activeProfileId: string, problems: readonly StoredProblem[]): SyncStatus {
  return {
    online: status.online,
    syncing: status.syncing,
    paused: status.paused ? { reason: status.paused.reason, message: status.paused.message, since: new Date(status.paused.since).toISOString() } : null,
    blocked: status.blocked,
    pendingCount: status.pendingCount,
    sendingCount: status.sendingCount,
    attentionCount: status.attentionCount,
    lastSyncAt: iso(status.lastSyncAt),
    connection: {
      state: status.connection.state,
      lastError: status.connection.lastError ? { message: status.connection.lastError.message, at: iso(status.connection.lastError.at)! } : null,
      nextTryAt: iso(status.connection.nextTryAt),
    },
    activeProfileId,
    revision: status.revision,
    dataProblems: problems.map((problem) => problem.message),
  };
}

/**
 * Runs `wait` with the process held open. The engine's retry and probe timers do not keep a process
 * alive (an app must be able to quit), so a CLI waiting for the queue to settle while the only thing
 * left is a backoff timer would see Node exit under it, silently.
 */
async function keepingProcessAlive<T>(wait: () => Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, 60_000);
  try {
    return await wait();
  } finally {
    clearInterval(hold);
  }
}

/** The core's `sync` controls: the engine's, plus lifting a pause on "sync now" and holding the process while waiting. */
export function syncControl(
  engine: SyncEngine,
  store: OutboxStore,
  activeId: () => string,
  status: () => SyncStatus,
  summary: (result: SettleResult) => SettleSummary,
): Omit<SitewalkCore['sync'], 'otherSender'> {
  // The entries whose answer this process recorded (the app beside a CLI sends others): only this
  // process's own writes reach onApplied, and a 'sending' entry of ours leaves that state only there.
  const answered = new Set<string>();
  store.onApplied((changes) => {
    for (const { entry, previous } of changes) if (previous?.state === 'sending' && entry.state !== 'sending') answered.add(entry.id);
  });
  return {
    start: () => engine.start(),
    answeredHere: (entryId) => answered.has(entryId),
    syncNow: async () => {
      if (store.pauseOf(activeId())) await engine.resume(activeId());
      engine.start();
      engine.syncNow();
      return status();
    },
    untilSettled: () => keepingProcessAlive(async () => summary(await engine.untilSettled())),
    untilIdle: () => keepingProcessAlive(async () => summary(await engine.untilIdle())),
    status,
    setConnectivity: (online) => engine.setConnectivity(online),
    setConcurrency: (limit) => engine.setConcurrency(limit),
    stop: () => engine.stop(),
  };
}
