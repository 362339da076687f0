// A bulk sync as an office user starts it: 5,000 edits of existing sites queued in one batch, then
// sent by the core's outbox and sync engine to a sandbox that takes 25 ms to answer each call (its
// fault injection, like a cellular link). Achieved throughput is set beside the ideal for the
// engine's concurrency (concurrency ÷ latency) and beside sending one at a time. The sandbox runs in
// a child process; every edit must end done and the sandbox must hold the last height sent.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { createServiceClient } from '../../electron/core/service/client';
import type { BenchFigure } from './figures';
import { DEMO, raiseQuota, startSandboxProcess, type SandboxProcess } from './peers';
import { testCoreOptions } from '../support/core';

export interface SyncOptions {
  /** Edits in the measured bulk sync (default 5,000). */
  edits?: number;
  /** Edits sent one at a time for the baseline (default 500: at 25 ms each that alone is 12.5 s). */
  oneAtATimeEdits?: number;
  latencyMs?: number;
  /** The engine's cross-site concurrency (default 4, the core's default). */
  concurrency?: number;
}

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
  const editCount = options.edits ?? 5000;
  const oneAtATimeCount = options.oneAtATimeEdits ?? 500;
  const latencyMs = options.latencyMs ?? 25;
  const concurrency = options.concurrency ?? 4;

  const sandbox = await startSandboxProcess();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-sync-'));
  let core: SitewalkCore | undefined;
  try {
    await raiseQuota(sandbox);
    const siteIds = await createSites(sandbox, editCount + oneAtATimeCount);
    await sandbox.inspect('faults', { method: 'PUT', body: { latencyMs } });

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

    const bulkSites = siteIds.slice(0, editCount);
    const soloSites = siteIds.slice(editCount);
    const bulkSeconds = await timedSync(core, bulkSites, 45);
    await checkApplied(sandbox, bulkSites, 45);
    core.sync.setConcurrency(1);
    const soloSeconds = await timedSync(core, soloSites, 46);
    await checkApplied(sandbox, soloSites, 46);

    const achieved = editCount / bulkSeconds;
    const ideal = concurrency / (latencyMs / 1000);
    const oneAtATime = oneAtATimeCount / soloSeconds;
    return [
      {
        name: `sync: ${editCount.toLocaleString('en-US')} edits at ${latencyMs} ms latency, concurrency ${concurrency}`,
        value: achieved,
        unit: 'edits/s',
        baseline: ideal,
        ratio: achieved / ideal,
        note: `target ≥ 0.85 of the ideal (concurrency ÷ latency); ${bulkSeconds.toFixed(1)} s in all`,
      },
      {
        name: 'sync: the same, beside one at a time',
        value: achieved,
        unit: 'edits/s',
        baseline: oneAtATime,
        ratio: achieved / oneAtATime,
        note: `one at a time measured on ${oneAtATimeCount.toLocaleString('en-US')} edits (ideal ${(1000 / latencyMs).toFixed(0)}/s)`,
      },
    ];
  } finally {
    await core?.close();
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
