// The process crash.test.ts kills: it opens the core on a data folder, queues what is left of a
// plan (creates, edits of existing sites, edits of the sites it created), and syncs until settled,
// printing one line per fact on stdout for the parent: READY, OPEN <journal problems as JSON>,
// ACK <op index> once an op's enqueue has returned (it is then on disk), and SETTLED <summary>.
// It finds where to resume by looking for each op's marker in the outbox (ops are queued in order).
// Run: node --import tsx test/core/crash-child.ts <dataDir> <baseUrl> <planFile>; key in CRASH_KEY (the test
// starts the run's bundle of it: test/support/process-bundles.ts).
import { readFile } from 'node:fs/promises';
import { openCore } from '../../electron/core/open-core';
import { createSessionSecretStore } from '../../electron/core/profiles/session';

export type CrashOp =
  | { kind: 'create'; name: string; height: number; latitude: number; longitude: number }
  | { kind: 'edit'; siteId: string; height: number; description: string }
  | { kind: 'edit-created'; name: string; height: number; description: string };

export interface CrashPlan {
  account: string;
  servicePath: string;
  namespace: string;
  ops: CrashOp[];
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The text an op leaves in the outbox, by which a restarted child knows it was queued. */
export function markerOf(op: CrashOp): string {
  return op.kind === 'create' ? op.name : op.description;
}

async function main(): Promise<void> {
  const [dataDir, baseUrl, planFile] = process.argv.slice(2);
  if (!dataDir || !baseUrl || !planFile) throw new Error('usage: crash-child <dataDir> <baseUrl> <planFile>');
  const plan = JSON.parse(await readFile(planFile, 'utf8')) as CrashPlan;
  const core = await openCore({
    dataDir,
    secretStore: createSessionSecretStore(),
    sandbox: false,
    concurrency: 4,
    // Quick retries so a run settles in seconds; the policy is the same as in the app.
    retry: { baseMs: 20, capMs: 300, maxAttempts: 1000 },
    probe: { baseMs: 20, capMs: 200 },
    timeoutMs: 10_000,
  });
  say(`OPEN ${JSON.stringify(core.journalProblems)}`);
  let profile = await core.profiles.get('Crash');
  if (!profile) {
    const added = await core.profiles.add({ name: 'Crash', baseUrl, servicePath: plan.servicePath, namespace: plan.namespace, binding: 'soap11', account: plan.account });
    if (!added.ok) throw new Error(JSON.stringify(added.issues));
    profile = added.value;
  }
  await core.profiles.use(profile.id);
  const key = process.env.CRASH_KEY ?? '';
  const keyed = await core.profiles.setKey(profile.id, key, { sessionOnly: true });
  if (!keyed.ok) throw new Error(JSON.stringify(keyed.issues));
  core.sync.start();
  say('READY');

  // Ops are queued in order, so the last one whose marker is in the outbox tells where to resume.
  const text = JSON.stringify(core.outbox.list());
  let next = 0;
  plan.ops.forEach((op, index) => {
    if (text.includes(JSON.stringify(markerOf(op)))) next = index + 1;
  });

  for (let index = next; index < plan.ops.length; index++) {
    const op = plan.ops[index]!;
    let outcome;
    if (op.kind === 'create') {
      outcome = await core.sites.save({ name: op.name, height: op.height, latitude: op.latitude, longitude: op.longitude });
    } else if (op.kind === 'edit') {
      outcome = await core.sites.save({ siteId: op.siteId, height: op.height, description: op.description });
    } else {
      const site = core.sites.list().find((candidate) => candidate.name === op.name);
      if (!site) throw new Error(`op ${index}: no site named ${op.name}`);
      outcome = await core.sites.save({ localId: site.localId, height: op.height, description: op.description });
    }
    if (!outcome.ok) throw new Error(`op ${index}: ${JSON.stringify(outcome.issues)}`);
    say(`ACK ${index}`);
  }

  const summary = await core.sync.untilSettled();
  say(`SETTLED ${JSON.stringify({ blocked: summary.blocked, counts: summary.counts, entries: core.outbox.list(), sites: core.sites.list() })}`);
  await core.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`crash-child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
