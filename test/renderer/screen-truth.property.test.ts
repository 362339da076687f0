// The screen always tells the truth: random interleavings of saves, edits, discards, retries and
// sync passes against the real sandbox (with its 503 and failure injection switched on and off),
// while the renderer's store hears the host's events and the calls' answers after random delays.
// Whatever the order, once everything has arrived the store shows exactly what the core holds:
// the same sites and entries, in the same states, at the same revisions, and nothing removed.
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHostApi } from '../../electron/core/host-api';
import { openCore } from '../../electron/core/open-core';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import type { ApiEvent, SitewalkApi } from '../../electron/shared/contract/index';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/index';
import { createAppStore } from '../../renderer/src/app/store';

type Op =
  | { kind: 'create'; height: number }
  | { kind: 'edit'; pick: number; height: number }
  | { kind: 'discard'; pick: number }
  | { kind: 'retry'; pick: number }
  | { kind: 'sync' }
  | { kind: 'faults'; mode: 'none' | 'all503' | 'some503' | 'failures' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), height: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), height: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('discard' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('sync' as const) }),
  fc.record({ kind: fc.constantFrom('faults' as const), mode: fc.constantFrom('none' as const, 'all503' as const, 'some503' as const, 'failures' as const) }),
);

const FAULTS = { none: {}, all503: { proxy503Rate: 1 }, some503: { proxy503Rate: 0.5 }, failures: { failureRate: 0.5 } } as const;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo' });
});
afterAll(async () => {
  await sandbox.close();
});

/** Delivers callbacks after random short delays, and says when nothing is left in flight. */
function delays(random: () => number) {
  let inFlight = 0;
  let idle: Array<() => void> = [];
  const later = <T>(value: T): Promise<T> => {
    inFlight++;
    return new Promise((resolve) =>
      setTimeout(() => {
        resolve(value);
        inFlight--;
        if (inFlight === 0) for (const wake of idle.splice(0)) wake();
      }, Math.floor(random() * 4)),
    );
  };
  const drained = () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)));
  return { later, drained, reset: () => (idle = []) };
}

async function run(ops: Op[], seed: number): Promise<void> {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-truth-'));
  const core = await openCore({ dataDir, secretStore: createSessionSecretStore(), autoSync: false, sandbox: false, retry: { baseMs: 1, capMs: 5, maxAttempts: 3 }, probe: { baseMs: 1, capMs: 5 } });
  const host = createHostApi(core, { host: 'browser' });
  const { later, drained } = delays(random);
  try {
    sandbox.setFaults({});
    sandbox.reset('demo');
    const profile = await core.profiles.add({ name: 'Truth', baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, account: sandbox.demo.account });
    if (!profile.ok) throw new Error('no profile');
    await core.profiles.setKey(profile.value.id, sandbox.demo.key, { sessionOnly: true });
    await core.profiles.use(profile.value.id);

    // The renderer's view of the host: every answer and every event arrives a little late, events
    // in order (as IPC and the event stream deliver them), answers whenever they come.
    let chain = Promise.resolve();
    const api = new Proxy(host.api, {
      get: (target, name: keyof SitewalkApi) => async (...args: unknown[]) => later(await (target[name] as (...a: unknown[]) => Promise<unknown>)(...args)),
    });
    const store = createAppStore(api, (listener) =>
      host.onEvent((event: ApiEvent) => {
        chain = chain.then(() => later(event)).then(listener);
      }),
    );
    await store.start();
    core.sync.start();

    // Nothing waits for an answer before the next step: answers, events and sync passes interleave.
    const running: Array<Promise<unknown>> = [];
    for (const step of ops) {
      const sites = core.sites.list();
      const entries = core.outbox.list();
      switch (step.kind) {
        case 'create':
          running.push(api.saveSite({ name: `Tower ${step.height}`, height: String(step.height), latitude: '45.5', longitude: '-110.5' }).then((saved) => saved.ok && store.applySite(saved.value)));
          break;
        case 'edit': {
          const site = sites[step.pick % Math.max(1, sites.length)];
          if (site) running.push(api.saveSite({ localId: site.localId, height: String(step.height) }).then((saved) => saved.ok && store.applySite(saved.value)));
          break;
        }
        case 'discard': {
          const entry = entries[step.pick % Math.max(1, entries.length)];
          if (entry) running.push(api.discardEntry(entry.id).then((discarded) => (discarded.ok ? store.applyChanges(discarded.value) : store.refreshEntry(entry.id))));
          break;
        }
        case 'retry': {
          const entry = entries[step.pick % Math.max(1, entries.length)];
          if (entry) running.push(api.retryEntry(entry.id).then((retried) => (retried.ok ? store.applyOutboxEntry(retried.value) : store.refreshEntry(entry.id))));
          break;
        }
        case 'sync':
          running.push(core.sync.untilIdle());
          break;
        case 'faults':
          sandbox.setFaults(FAULTS[step.mode]);
          break;
      }
      // Let some of it happen before the next step, by a random amount.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
    }
    await Promise.all(running);

    sandbox.setFaults({});
    await core.sync.untilIdle();
    await chain;
    await drained();

    // Waits for the screen to settle on the truth: the host gathers a transaction's changes into one
    // event after it commits, so the last one can still be on its way once the sync is idle.
    await vi.waitFor(
      async () => {
        await chain;
        await drained();
        store.flush();
        const shown = store.getState();
        const truthSites = core.sites.list();
        const truthEntries = core.outbox.list();
        expect([...shown.sites.keys()].sort()).toEqual(truthSites.map((site) => site.localId).sort());
        for (const site of truthSites) {
          expect(shown.sites.get(site.localId), `site ${site.localId}`).toMatchObject({ revision: site.revision, syncState: site.syncState, height: site.height });
        }
        expect([...shown.outbox.keys()].sort()).toEqual(truthEntries.map((entry) => entry.id).sort());
        for (const entry of truthEntries) {
          expect(shown.outbox.get(entry.id), `entry ${entry.id}`).toMatchObject({ revision: entry.revision, state: entry.state });
        }
      },
      { timeout: 10_000, interval: 50 },
    );
    store.stop();
  } finally {
    sandbox.setFaults({});
    host.close();
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('the renderer store against the core', () => {
  it('ends equal to the core whatever order events and answers arrive in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 14 }), fc.integer({ min: 1, max: 2 ** 30 }), (ops, seed) => run(ops, seed)),
      { numRuns: 40 },
    );
  }, 120_000);
});
