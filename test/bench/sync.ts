// Bulk syncs as an office user starts them: edits of existing sites queued in one durable batch, then
// sent by the core's real outbox and sync engine to a sandbox (a child process) that takes 25, 100 or
// 300 ms to answer each call (its fault injection: a LAN, a cellular link, a satellite link), with
// the engine sending 4, 8 or 16 at once. Each cell's throughput is set beside the ideal for that
// latency and concurrency (concurrency ÷ latency): at 100 and 300 ms the engine's own cost must be
// lost in the wait (target ≥ 0.95); at 25 ms on a small machine the CPU shows. Each cell runs on a
// fresh data folder (after one untimed round that sets up the profile's client and connections) and
// sends whole rounds (a multiple of its concurrency) lasting a few seconds, so the whole group stays
// within a couple of minutes on 2 cores; every edit must end done and the sandbox must hold the
// height sent.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { createServiceClient } from '../../electron/core/service/client';
import type { BenchFigure } from './figures';
import { DEMO, raiseQuota, startSandboxProcess, type SandboxProcess } from './peers';
import { testCoreOptions } from '../support/core';

export interface SyncOptions {
  /** Answer latencies of the sandbox, ms (default 25, 100, 300). */
  latenciesMs?: number[];
  /** The engine's cross-site concurrency (default 4, 8, 16; the app's default is 4). */
  concurrencies?: number[];
  /** How long each cell should take at the ideal rate, by latency (default 5 s at 25 ms, 6 s at 100 ms, 7.5 s at 300 ms). */
  secondsPerCell?: (latencyMs: number) => number;
}

/** Whole rounds of `concurrency` edits lasting about `seconds` at the ideal rate. */
export function editsPerCell(latencyMs: number, concurrency: number, seconds: number): number {
  return concurrency * Math.max(1, Math.ceil((seconds * 1000) / latencyMs));
}

const defaultSeconds = (latencyMs: number): number => (latencyMs <= 25 ? 5 : latencyMs <= 100 ? 6 : 7.5);

/** Creates `count` sites in the sandbox (no latency yet) and returns their service IDs. */
async function createSites(sandbox: SandboxProcess, count: number): Promise<string[]> {
  const client = createServiceClient({
    connection: { baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, binding: 'http-post' },
    credentials: () => ({ account: DEMO.account, key: DEMO.key }),
  });
  const ids: string[] = new Array<string>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        const result = await client.saveSite({
          name: `Bench tower ${i + 1}`,
          height: 30,
          latitude: 40 + (i % 100) / 1000,
          longitude: -105 - Math.floor(i / 100) / 1000,
        });
        if (!result.ok) throw new Error(`creating bench site ${i + 1}: ${result.error.detail}`);
        if (result.value.siteId === null) throw new Error(`creating bench site ${i + 1}: no site ID in "${result.value.raw}"`);
        ids[i] = result.value.siteId;
      }
    }),
  );
  return ids;
}

/** Queues one edit per site in one durable batch, then times the sync from its start until settled. */
async function timedSync(core: SitewalkCore, siteIds: readonly string[], height: number): Promise<number> {
  const queued = await core.sites.saveMany(siteIds.map((siteId) => ({ siteId, height })));
  if (!queued.ok) throw new Error(`queueing the edits was refused: ${queued.issues[0]?.message ?? 'no reason given'}`);
  const started = performance.now();
  await core.sync.syncNow();
  const settled = await core.sync.untilSettled();
  const seconds = (performance.now() - started) / 1000;
  const { counts } = settled;
  const stuck = counts.pending + counts.sending + counts.failed + counts['needs-review'] + counts.paused;
  if (settled.blocked !== null || stuck > 0) {
    const firstProblem = core.outbox.list().find((entry) => entry.problem !== null)?.problem;
    throw new Error(
      `the sync did not finish cleanly (${JSON.stringify(counts)}${settled.blocked ? `, blocked: ${settled.blocked.message}` : ''})` +
      (firstProblem ? `: ${firstProblem.message} ${firstProblem.detail}` : ''),
    );
  }
  return seconds;
}

/** Spot-checks that the sandbox holds what was sent last. */
async function checkApplied(sandbox: SandboxProcess, siteIds: readonly string[], height: number): Promise<void> {
  const step = Math.max(1, Math.floor(siteIds.length / 25));
  for (let i = 0; i < siteIds.length; i += step) {
    const site = await sandbox.inspect<Record<string, unknown>>(`sites/${siteIds[i]}`);
    if (String(site.height) !== String(height)) {
      throw new Error(`site ${siteIds[i]} has height ${String(site.height)} in the sandbox, not the ${height} m that was synced`);
    }
  }
}

export async function benchSync(options: SyncOptions = {}): Promise<BenchFigure[]> {
  const latencies = options.latenciesMs ?? [25, 100, 300];
  const concurrencies = options.concurrencies ?? [4, 8, 16];
  const secondsFor = options.secondsPerCell ?? defaultSeconds;
  const cells = latencies.flatMap((latencyMs) => concurrencies.map((concurrency) => ({ latencyMs, concurrency, edits: editsPerCell(latencyMs, concurrency, secondsFor(latencyMs)) })));

  const sandbox = await startSandboxProcess();
  try {
    await raiseQuota(sandbox);
    // One set of sites for every cell: each cell edits the first N of them to a height of its own.
    const siteIds = await createSites(sandbox, Math.max(...cells.map((cell) => cell.edits)));
    const figures: BenchFigure[] = [];
    for (const [index, cell] of cells.entries()) {
      await sandbox.inspect('faults', { method: 'PUT', body: { latencyMs: cell.latencyMs } });
      const height = 40 + 2 * index;
      const sites = siteIds.slice(0, cell.edits);
      const seconds = await timedCell(sandbox, sites, height, cell.concurrency);
      await checkApplied(sandbox, sites, height);
      const achieved = cell.edits / seconds;
      const ideal = cell.concurrency / (cell.latencyMs / 1000);
      figures.push({
        name: `sync: ${cell.latencyMs} ms latency, concurrency ${cell.concurrency}`,
        value: achieved,
        unit: 'edits/s',
        baseline: ideal,
        ratio: achieved / ideal,
        note: `ideal = concurrency ÷ latency${cell.latencyMs >= 100 ? '; target ≥ 0.95' : ''}; ${cell.edits.toLocaleString('en-US')} edits in ${seconds.toFixed(1)} s`,
      });
    }
    return figures;
  } finally {
    await sandbox.stop();
  }
}

/** One cell: a fresh core and data folder, a profile for the sandbox, the edits queued and timed through. */
async function timedCell(sandbox: SandboxProcess, siteIds: readonly string[], height: number, concurrency: number): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-sync-'));
  let core: SitewalkCore | undefined;
  try {
    core = await openCore(testCoreOptions({ dataDir, sandbox: false, autoSync: false, concurrency }));
    const profile = await core.profiles.add({
      name: 'Bench',
      baseUrl: sandbox.url,
      servicePath: sandbox.servicePath,
      namespace: sandbox.namespace,
      binding: 'http-post',
      account: DEMO.account,
    });
    if (!profile.ok) throw new Error(`the bench profile was refused: ${profile.issues[0]?.message}`);
    const used = await core.profiles.use(profile.value.id);
    if (!used.ok) throw new Error(`the bench profile could not be made active: ${used.issues[0]?.message}`);
    const keyed = await core.profiles.setKey(profile.value.id, DEMO.key, { sessionOnly: true });
    if (!keyed.ok) throw new Error(`the bench key was refused: ${keyed.issues[0]?.message}`);
    core.sync.setConcurrency(concurrency);
    // One untimed round first: the profile's client, its connections and the journal are set up
    // once per core, not per edit; what is timed is the steady rate of a long bulk sync.
    await timedSync(core, siteIds.slice(0, concurrency), height - 1);
    return await timedSync(core, siteIds, height);
  } finally {
    await core?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
