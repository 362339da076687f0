// The outbox's durability cost, measured: 10,000 new sites queued in one durable batch (as a CSV
// import does), then synced to the sandbox (in a child process, like a real service), with the
// time and the bytes the core wrote to disk. Beside it, the same run with the queue kept the way a
// quick implementation would: one conf/electron-store JSON document rewritten at every change.
// That baseline rewrites the whole queue per change, so its cost grows with the square of the queue:
// it is run at 1,000 entries (10,000 would write tens of gigabytes), with our outbox run at the same
// size for a like-for-like ratio. Last, the register's load time with 10,000 sites in it.
// Targets (printed, not asserted): < 2 s to queue 10,000 durably; ≥ 20× fewer bytes than the baseline.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Conf from 'conf';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { systemClock } from '../../electron/core/clock';
import { createServiceClient } from '../../electron/core/service/client';
import type { ServiceClient, SiteEdit } from '../../electron/core/service/types';
import type { BenchFigure } from './figures';
import { registerLoad } from './register-load';
import { DEMO, raiseQuota, startSandboxProcess, type SandboxProcess } from './peers';
import { testCoreOptions } from '../support/core';

export interface OutboxBenchOptions {
  /** Sites queued and synced through our outbox (default 10,000). */
  sites?: number;
  /** Size of the like-for-like comparison with the rewritten document (default 1,000). */
  baselineSites?: number;
  concurrency?: number;
}

function site(n: number, tag: string): SiteEdit {
  return { name: `${tag} tower ${n + 1}`, height: 20 + (n % 80), latitude: 40 + (n % 1000) / 10_000, longitude: -100 - Math.floor(n / 1000) / 1000, group: 'Bench' };
}

interface Run {
  enqueueMs: number;
  syncMs: number;
  bytes: number;
  fsyncs: number;
}

/** Our outbox through the core: one batch, then a sync until settled. */
async function runOutbox(sandbox: SandboxProcess, count: number, concurrency: number, tag: string): Promise<{ run: Run; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-outbox-'));
  let core: SitewalkCore | null = null;
  try {
    core = await openCore(testCoreOptions({ dataDir, sandbox: false, autoSync: false, concurrency }));
    const added = await core.profiles.add({ name: 'Bench', baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, account: DEMO.account });
    if (!added.ok) throw new Error(added.issues[0]!.message);
    await core.profiles.use(added.value.id);
    await core.profiles.setKey(added.value.id, DEMO.key, { sessionOnly: true });
    const before = core.storage();

    const queuedAt = performance.now();
    const queued = await core.sites.saveMany(Array.from({ length: count }, (_, n) => site(n, tag)));
    const enqueueMs = performance.now() - queuedAt;
    if (!queued.ok) throw new Error(`queueing was refused: ${queued.issues[0]!.message}`);

    const syncAt = performance.now();
    await core.sync.syncNow();
    const settled = await core.sync.untilSettled();
    const syncMs = performance.now() - syncAt;
    if (settled.counts.done !== count) throw new Error(`only ${settled.counts.done} of ${count} ended done: ${JSON.stringify(settled.counts)} ${settled.blocked?.message ?? ''}`);
    const after = core.storage();
    return { run: { enqueueMs, syncMs, bytes: after.databaseBytes - before.databaseBytes, fsyncs: after.commits - before.commits }, dataDir };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await core?.close();
  }
}

/**
 * The baseline: the same requests through the same client and concurrency, with the queue as one
 * conf document rewritten (atomically, as conf does) at every change: enqueue, sending, done.
 */
async function runRewrittenDocument(sandbox: SandboxProcess, count: number, concurrency: number, tag: string): Promise<Run> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-baseline-'));
  try {
    const store = new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'queue', projectName: 'sitewalk-bench', accessPropertiesByDotNotation: false });
    let bytes = 0;
    const save = async (queue: unknown[]) => {
      store.set('queue', queue);
      bytes += (await stat(store.path)).size;
    };
    interface Item {
      id: string;
      state: 'pending' | 'sending' | 'done';
      payload: SiteEdit;
      attempts: number;
      createdAt: number;
      updatedAt: number;
      result: string | null;
      siteId: string | null;
    }
    const now = systemClock.now();
    const queue: Item[] = Array.from({ length: count }, (_, n) => ({
      id: `o${n + 1}`,
      state: 'pending',
      payload: site(n, tag),
      attempts: 0,
      createdAt: now,
      updatedAt: now,
      result: null,
      siteId: null,
    }));
    const queuedAt = performance.now();
    await save(queue);
    const enqueueMs = performance.now() - queuedAt;

    const client: ServiceClient = createServiceClient({
      connection: { baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, binding: 'http-post' },
      credentials: () => ({ account: DEMO.account, key: DEMO.key }),
    });
    let next = 0;
    const syncAt = performance.now();
    // Writes are synchronous in conf, so the rewrites are naturally one at a time.
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < queue.length) {
          const item = queue[next++]!;
          item.state = 'sending';
          item.attempts++;
          item.updatedAt = Date.now();
          await save(queue);
          const result = await client.saveSite(item.payload);
          if (!result.ok) throw new Error(`baseline send failed: ${result.error.message}`);
          item.state = 'done';
          item.result = result.value.message;
          item.siteId = result.value.siteId;
          item.updatedAt = Date.now();
          await save(queue);
        }
      }),
    );
    return { enqueueMs, syncMs: performance.now() - syncAt, bytes, fsyncs: 1 + 2 * count };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchOutbox(options: OutboxBenchOptions = {}): Promise<BenchFigure[]> {
  const count = options.sites ?? 10_000;
  const small = options.baselineSites ?? 1_000;
  const concurrency = options.concurrency ?? 4;
  const tag = randomBytes(3).toString('hex');
  const sandbox = await startSandboxProcess();
  const dataDirs: string[] = [];
  try {
    await raiseQuota(sandbox);
    const big = await runOutbox(sandbox, count, concurrency, `${tag}-big`);
    dataDirs.push(big.dataDir);
    const load = await registerLoad(big.dataDir);
    const ours = await runOutbox(sandbox, small, concurrency, `${tag}-ours`);
    dataDirs.push(ours.dataDir);
    const baseline = await runRewrittenDocument(sandbox, small, concurrency, `${tag}-doc`);

    const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 100) / 100;
    const bytesRatio = Math.round((baseline.bytes / ours.run.bytes) * 10) / 10;
    return [
      {
        name: `outbox: queue ${count.toLocaleString('en')} new sites durably (one batch)`,
        value: Math.round(big.run.enqueueMs),
        unit: 'ms',
        note: `target < 2000 ms${big.run.enqueueMs < 2000 ? ' (met)' : ' (NOT met)'}; validation, register and outbox included`,
      },
      {
        name: `outbox: sync ${count.toLocaleString('en')} creates to the sandbox (concurrency ${concurrency})`,
        value: Math.round(big.run.syncMs / 100) / 10,
        unit: 's',
        note: `${Math.round(count / (big.run.syncMs / 1000))} requests/s, ${big.run.fsyncs} outbox fsyncs (group commit)`,
      },
      {
        name: `outbox: bytes written for ${count.toLocaleString('en')} (queue + sync, register included)`,
        value: mb(big.run.bytes),
        unit: 'MB',
        note: `${Math.round(big.run.bytes / count)} bytes per site`,
      },
      {
        name: `outbox vs one JSON document rewritten per change: bytes written, ${small.toLocaleString('en')} sites`,
        value: mb(ours.run.bytes),
        unit: 'MB',
        baseline: mb(baseline.bytes),
        ratio: bytesRatio,
        note: `ratio = baseline ÷ ours, target ≥ 20×${bytesRatio >= 20 ? ' (met)' : ' (NOT met)'}; the baseline grows with the square of the queue`,
      },
      {
        name: `outbox vs one JSON document rewritten per change: queue + sync time, ${small.toLocaleString('en')} sites`,
        value: Math.round((ours.run.enqueueMs + ours.run.syncMs) / 100) / 10,
        unit: 's',
        baseline: Math.round((baseline.enqueueMs + baseline.syncMs) / 100) / 10,
        ratio: Math.round(((baseline.enqueueMs + baseline.syncMs) / (ours.run.enqueueMs + ours.run.syncMs)) * 10) / 10,
        note: 'ratio = baseline ÷ ours (higher is better for us)',
      },
      {
        name: `register: load ${load.sites.toLocaleString('en')} sites`,
        value: Math.round(load.ms),
        unit: 'ms',
        note: `median of 5 opens; target well under 1000 ms${load.ms < 1000 ? ' (met)' : ' (NOT met)'}`,
      },
    ];
  } finally {
    await sandbox.stop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }
}
