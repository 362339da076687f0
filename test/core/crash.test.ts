// Crash safety, end to end: the sandbox runs here with latency and "apply, then drop the
// connection" faults; a child process (crash-child.ts) queues creates and edits and syncs through
// the real client; this test SIGKILLs it at seeded random moments, restarts it, and finally lets it
// settle. Then the sandbox's state is compared with what was queued: every acknowledged op is in the
// outbox, no create was applied twice, every create is either done (with the ID the service gave)
// or waiting in review, every edit reached its site, and no journal was ever found corrupt.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect } from 'vitest';
import { seededRandom } from '../../electron/core/clock';
import type { OutboxEntryView, SiteView } from '../../electron/core/open-core';
import { createServiceClient } from '../../electron/core/service/client';
import type { RunningSandbox } from '../../electron/sandbox/index';
import { killedAfterEachTest } from '../support/children';
import { it } from '../support/fixtures';
import { bundledProcess } from '../support/process-bundles';
import { serviceCalls, serviceSites, type SandboxSite } from '../support/service-state';
import type { CrashOp, CrashPlan } from './crash-child';

const SEED = 20_251_122;
const KILLS = 18;

const children = killedAfterEachTest();

interface Run {
  acked: number[];
  problems: Array<{ kind: string }>;
  settled: { blocked: unknown; counts: Record<string, number>; entries: OutboxEntryView[]; sites: SiteView[] } | null;
  exitCode: number | null;
  stderr: string;
}

/** Starts the child on `dataDir`; kills it `killAfterMs` after it is READY (never, when null). */
function runChild(sandbox: RunningSandbox, dataDir: string, planFile: string, killAfterMs: number | null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = children.spawn(process.execPath, [bundledProcess('crash-child'), dataDir, sandbox.url, planFile], {
      env: { ...process.env, CRASH_KEY: sandbox.demo.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = { acked: [], problems: [], settled: null, exitCode: null, stderr: '' };
    let timer: NodeJS.Timeout | null = null;
    child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('OPEN ')) run.problems.push(...(JSON.parse(line.slice(5)) as Array<{ kind: string }>));
      else if (line.startsWith('ACK ')) run.acked.push(Number(line.slice(4)));
      else if (line.startsWith('SETTLED ')) run.settled = JSON.parse(line.slice(8)) as Run['settled'];
      else if (line === 'READY' && killAfterMs !== null) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      run.exitCode = code;
      resolve(run);
    });
  });
}

describe('crash safety', () => {
  it(
    'loses nothing acknowledged, applies nothing twice and sends every doubtful create to review, through 18 SIGKILLs',
    async ({ startSandbox, tempDir }) => {
      // Fault draws from a seeded generator: which call is dropped still depends on timing, so the
      // assertions below follow the sandbox's own call log rather than expecting a fixed outcome.
      const sandbox = await startSandbox({ random: seededRandom(SEED + 1) });
      const dataDir = join(tempDir, 'data');
      const random = seededRandom(SEED);
      // Sites the account already has, for the edits.
      const client = createServiceClient({
        connection: { baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, binding: 'soap11' },
        credentials: () => ({ account: sandbox.demo.account, key: sandbox.demo.key }),
      });
      const existing: string[] = [];
      for (let n = 0; n < 5; n++) {
        const created = await client.saveSite({ name: `existing-${n}`, height: 10, latitude: 40 + n, longitude: -90 });
        if (!created.ok || !created.value.siteId) throw new Error(`setup: ${JSON.stringify(created)}`);
        existing.push(created.value.siteId);
      }

      const ops: CrashOp[] = [];
      for (let n = 0; n < 40; n++) {
        const roll = random();
        if (roll < 0.4) ops.push({ kind: 'create', name: `crash-create-${n}`, height: 20 + n, latitude: 44 + n / 100, longitude: -93 });
        else if (roll < 0.8) ops.push({ kind: 'edit', siteId: existing[n % existing.length]!, height: 100 + n, description: `edit-${n}` });
        else {
          const created = ops.filter((op): op is Extract<CrashOp, { kind: 'create' }> => op.kind === 'create');
          const target = created[Math.floor(random() * created.length)];
          if (target) ops.push({ kind: 'edit-created', name: target.name, height: 200 + n, description: `edit-created-${n}` });
        }
      }
      const plan: CrashPlan = { account: sandbox.demo.account, servicePath: sandbox.servicePath, namespace: sandbox.namespace, ops };
      const planFile = join(tempDir, 'plan.json');
      await writeFile(planFile, JSON.stringify(plan));

      sandbox.setFaults({ latencyMs: 40, applyThenDropRate: 0.15 });
      const acked = new Set<number>();
      const problems: Array<{ kind: string }> = [];
      for (let kill = 0; kill < KILLS; kill++) {
        const run = await runChild(sandbox, dataDir, planFile, Math.floor(random() * 900));
        run.acked.forEach((index) => acked.add(index));
        problems.push(...run.problems);
        if (run.exitCode !== null && run.exitCode !== 0) throw new Error(`the child failed on its own (exit ${run.exitCode}): ${run.stderr}`);
      }
      // Let it finish: no more faults that leave doubt, so the queue can settle.
      const last = await runChild(sandbox, dataDir, planFile, null);
      problems.push(...last.problems);
      last.acked.forEach((index) => acked.add(index));
      expect(last.exitCode, last.stderr).toBe(0);
      const settled = last.settled!;
      expect(settled).not.toBeNull();

      // The journals were never found corrupt (a torn tail from a kill is tolerated).
      expect(problems.filter((problem) => problem.kind !== 'torn-tail')).toEqual([]);
      // Every op was queued (the last run finishes the plan), and every acknowledged one is in the outbox.
      expect(last.acked.length === 0 || Math.max(...acked) === ops.length - 1).toBe(true);
      // An edit may have been merged into a later one of the same site (later fields win): then
      // that later op's marker stands for it. Anything else missing would be a lost edit.
      const outboxText = JSON.stringify(settled.entries);
      const present = (op: CrashOp) => outboxText.includes(JSON.stringify(op.kind === 'create' ? op.name : op.description));
      const sameSite = (a: CrashOp, b: CrashOp) =>
        a.kind === 'edit' ? b.kind === 'edit' && b.siteId === a.siteId : a.kind === 'edit-created' && (b.kind === 'edit-created' || b.kind === 'create') && b.name === a.name;
      for (const index of acked) {
        const op = ops[index]!;
        const accounted = present(op) || ops.some((later, laterIndex) => laterIndex > index && sameSite(op, later) && present(later));
        expect(accounted, `acknowledged op ${index} (${op.kind}) is in the outbox`).toBe(true);
      }

      const state = await serviceSites(sandbox.url);
      const byName = new Map<string, SandboxSite[]>();
      for (const site of state) byName.set(site.name, [...(byName.get(site.name) ?? []), site]);

      let reviewed = 0;
      for (const op of ops) {
        if (op.kind !== 'create') continue;
        const onService = byName.get(op.name) ?? [];
        // Never applied twice.
        expect(onService.length, `${op.name} on the service`).toBeLessThanOrEqual(1);
        const entry = settled.entries.find((candidate) => candidate.op === 'create' && candidate.payload.name === op.name);
        expect(entry, `${op.name} in the outbox`).toBeDefined();
        if (entry!.state === 'done') {
          expect(onService).toHaveLength(1);
          expect(entry!.siteId).toBe(onService[0]!.id);
        } else {
          // Doubtful: it may or may not be on the service, and it waits for the user.
          expect(entry!.state).toBe('needs-review');
          reviewed++;
        }
      }
      // Every create ended one of the two ways.
      expect(reviewed + settled.entries.filter((entry) => entry.op === 'create' && entry.state === 'done').length).toBe(ops.filter((op) => op.kind === 'create').length);

      // Edits are safe to resend: every one reached its site, and each site holds its last edit.
      for (const siteId of existing) {
        const lastEdit = [...ops].reverse().find((op): op is Extract<CrashOp, { kind: 'edit' }> => op.kind === 'edit' && op.siteId === siteId);
        if (!lastEdit) continue;
        const site = state.find((candidate) => candidate.id === siteId);
        expect(site?.description, `site ${siteId}`).toBe(lastEdit.description);
        expect(site?.height).toBe(lastEdit.height);
      }
      // Edits of created sites: on the service once the create is done; still waiting behind a create in review.
      for (const create of ops) {
        if (create.kind !== 'create') continue;
        const later = ops.filter((op): op is Extract<CrashOp, { kind: 'edit-created' }> => op.kind === 'edit-created' && op.name === create.name);
        const entry = settled.entries.find((candidate) => candidate.op === 'create' && candidate.payload.name === create.name)!;
        const edits = settled.entries.filter((candidate) => candidate.localId === entry.localId && candidate.id !== entry.id);
        if (entry.state === 'done') {
          const site = state.find((candidate) => candidate.id === entry.siteId)!;
          const lastEdit = later[later.length - 1];
          expect(site.height, create.name).toBe(lastEdit ? lastEdit.height : create.height);
          if (lastEdit) expect(site.description).toBe(lastEdit.description);
          for (const edit of edits) expect(edit.state, edit.summary).toBe('done');
        } else {
          for (const edit of edits) expect(edit.state, edit.summary).toBe('pending');
        }
      }
      // Every create the sandbox applied and then dropped unanswered is one the app cannot know
      // about: it must wait in review, never be resent or marked done.
      const calls = await serviceCalls(sandbox.url);
      const dropped = new Set(calls.filter((call) => call.operation === 'SitesAPI' && call.outcome === 'dropped-after-apply' && !call.params.Siteid).map((call) => call.params.Sitename));
      for (const name of dropped) {
        const entry = settled.entries.find((candidate) => candidate.op === 'create' && candidate.payload.name === name);
        expect(entry?.state, `${name} was applied, then its answer was lost`).toBe('needs-review');
      }
      expect(reviewed).toBeGreaterThanOrEqual(dropped.size);
    },
    300_000,
  );
});
