// The outbox and its sync engine on a manual clock in a folder of their own, with a scripted
// stand-in for the service client: the harness the outbox tests share, and drafts to queue.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createManualClock, type ManualClock } from '../../electron/core/clock';
import { SyncEngine, type Blocked } from '../../electron/core/outbox/engine';
import { OutboxStore, type Draft } from '../../electron/core/outbox/store';
import type { OutboxEntry } from '../../electron/core/outbox/types';
import { it as base } from '../support/fixtures';
import { ScriptedClient } from './helpers';

export interface Harness {
  clock: ManualClock;
  store: OutboxStore;
  client: ScriptedClient;
  engine: SyncEngine;
  dataDir: string;
  setReachable(value: boolean): void;
  probes(): number;
  reopen(): Promise<void>;
  /** Answers whatever is still open, stops the engine and closes the store. */
  shutDown(): Promise<void>;
}

interface HarnessOptions {
  concurrency?: number;
  random?: () => number;
  precheck?: () => Blocked | null;
}

async function startHarness(dir: string, options: HarnessOptions): Promise<Harness> {
  const clock = createManualClock();
  const client = new ScriptedClient();
  let reachable = true;
  let probes = 0;
  const state = {} as { store: OutboxStore; engine: SyncEngine };
  const build = async () => {
    state.store = (await OutboxStore.open({ dataDir: dir, clock })).store;
    state.engine = new SyncEngine({
      store: state.store,
      clock,
      random: options.random ?? (() => 0.5),
      concurrency: options.concurrency ?? 4,
      retry: { baseMs: 1_000, capMs: 60_000, maxAttempts: 5 },
      probe: { baseMs: 1_000, capMs: 8_000 },
      activeProfile: () => 'p1',
      access: {
        clientFor: () => client,
        precheck: options.precheck ? () => options.precheck!() : undefined,
        reachable: async () => {
          probes++;
          return reachable ? { state: 'online', message: 'The service answered.' } : { state: 'offline', message: 'connect ECONNREFUSED' };
        },
      },
    });
    state.engine.start();
  };
  const shutDown = async () => {
    client.auto = (call) => {
      client.success(call);
      return null;
    };
    for (const call of client.unsettled()) client.success(call);
    await state.engine.stop();
    await state.store.close();
  };
  await build();
  return {
    clock,
    client,
    dataDir: dir,
    get store() {
      return state.store;
    },
    get engine() {
      return state.engine;
    },
    setReachable: (value) => {
      reachable = value;
    },
    probes: () => probes,
    reopen: async () => {
      await shutDown();
      client.auto = null;
      await build();
    },
    shutDown,
  };
}

/** `harness(options?)`: a store and an engine on a manual clock in a folder of their own, shut down after the test. */
export const it = base.extend('harness', async ({ tempDir }, { onCleanup }) => {
  const started: Harness[] = [];
  onCleanup(async () => {
    for (const harness of started.splice(0).reverse()) await harness.shutDown();
  });
  return async (options: HarnessOptions = {}): Promise<Harness> => {
    const dir = join(tempDir, `outbox-${started.length + 1}`);
    await mkdir(dir);
    const harness = await startHarness(dir, options);
    started.push(harness);
    return harness;
  };
});

export const create = (localId: string, fields: Partial<{ name: string; height: number }> = {}): Draft => ({
  kind: 'site',
  profileId: 'p1',
  localId,
  op: 'create',
  payload: { height: fields.height ?? 30, latitude: 45, longitude: -93, ...(fields.name ? { name: fields.name } : {}) },
});

export const edit = (localId: string, siteId: string | undefined, fields: Partial<{ name: string; height: number; group: string }> = {}): Draft => ({
  kind: 'site',
  profileId: 'p1',
  localId,
  op: 'edit',
  payload: { height: fields.height ?? 30, ...(siteId ? { siteId } : {}), ...(fields.name ? { name: fields.name } : {}), ...(fields.group ? { group: fields.group } : {}) },
});

export const reprocess = (processId: string, sendEmail: boolean): Draft => ({ kind: 'reprocess', profileId: 'p1', payload: { processId, multiMapId: '77', sendEmail } });

export function state(h: Harness, id: string): OutboxEntry {
  const entry = h.store.get(id);
  if (!entry) throw new Error(`no entry ${id}`);
  return entry;
}
