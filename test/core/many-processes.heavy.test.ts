// The app and the CLI on one data folder at once: the real app — the browser host as `npm start --
// --browser` starts it, in a process of its own, driven over the HTTP API the page uses — and four
// `sitewalk sync` processes, 20 rounds, with SIGKILLs at seeded random moments (the app's process
// too, restarted on the same folder). Each entry is claimed inside a write transaction by the
// process that sends it, a dead process's claim is taken back and treated as interrupted. Then the
// sandbox's own records are compared with what was queued: every edit reached its site, no create
// was applied twice, every create is done with the ID the service gave or waits in review, and no
// request was sent by two processes at once (an edit sent again only after its sender was killed
// mid-call).
// Heavy: a few minutes of child processes; run it on its own.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect } from 'vitest';
import { seededRandom } from '../../electron/core/clock';
import { ensureRenderer } from '../../electron/main/build';
import type { OutboxListing, ProfileView, Result, SiteView } from '../../electron/shared/contract/index';
import { killedAfterEachTest } from '../support/children';
import { pageApi, type PageCall } from '../support/page-api';
import { runSitewalk } from '../support/cli';
import { it } from '../support/fixtures';
import { bundledProcess } from '../support/process-bundles';
import { serviceCalls, serviceSites } from '../support/service-state';
import { waiting } from '../support/wait';

const SEED = 20_261_125;
const ROUNDS = 20;
const PROCESSES = 4;
const children = killedAfterEachTest();

/** The environment of every process of the test: a HOME of its own, no OS keyring. */
function env(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), SITEWALK_DATA_DIR: '', NO_COLOR: '1', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent-sitewalk-test', ...extra };
}

interface AppProcess {
  child: ChildProcess;
  /** One API call as the page makes it (POST /api/METHOD with the run's token); the method's answer. */
  call: PageCall;
}

/** The app as `npm start -- --browser --no-open` runs it (electron/start.ts, from the run's bundle of it), once it says where it runs. */
async function startApp(home: string, dataDir: string): Promise<AppProcess> {
  const child = children.spawn(process.execPath, [bundledProcess('start'), '--browser', '--no-open', '--port', '0', '--data-dir', dataDir], {
    env: env(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code, signal) => reject(new Error(`the app exited (${code ?? signal}) before it said where it runs: ${stderr}`)));
  });
  const match = /^Sitewalk is running at (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)$/.exec(line);
  if (!match) throw new Error(`the app said: ${line}`);
  const [, origin, token] = match;
  return { child, call: pageApi(origin!, token!) };
}

/** Starts the app and gives the Crew profile its key (the app keeps it for its session: no keyring here). */
async function startAppWithKey(home: string, dataDir: string, key: string): Promise<AppProcess> {
  const app = await startApp(home, dataDir);
  const crew = (await app.call<ProfileView[]>('listProfiles')).find((candidate) => candidate.name === 'Crew')!;
  expect((await app.call<Result<ProfileView>>('setApiKey', crew.id, key)).ok).toBe(true);
  return app;
}

/** `sitewalk sync --until-settled` on the folder; SIGKILLed after `killAfterMs` when given. Resolves when it has exited. */
function syncProcess(home: string, dataDir: string, key: string, killAfterMs: number | null): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = children.spawn(process.execPath, [bundledProcess('sitewalk'), 'sync', '--until-settled', '--data-dir', dataDir], {
      env: env(home, { SITEWALK_KEY: key }),
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('the app and four sync processes on one data folder', () => {
  it(
    'applies every queued edit, creates nothing twice and sends nothing from two processes at once, through 20 rounds of SIGKILLs',
    async ({ startSandbox, tempDir }) => {
      const sandbox = await startSandbox({ faults: { latencyMs: 30 } });
      const random = seededRandom(SEED);
      const home = join(tempDir, 'home');
      const dataDir = join(tempDir, 'data');
      await mkdir(home, { recursive: true });
      const profile = await runSitewalk(home, ['profile', 'add', 'Crew', '--base-url', sandbox.url, '--account', sandbox.demo.account, '--binding', 'http-post', '--data-dir', dataDir]);
      expect(profile.code, profile.stderr).toBe(0);
      expect((await runSitewalk(home, ['profile', 'use', 'Crew', '--data-dir', dataDir])).code).toBe(0);

      // What `npm start` would build first, built before the app's time starts.
      await ensureRenderer();
      let app = await startAppWithKey(home, dataDir, sandbox.demo.key);
      const existing = (await serviceSites(sandbox.url)).filter((site) => site.account === sandbox.demo.account).slice(0, 5);
      expect(existing.length).toBeGreaterThan(3);

      const edits: Array<{ siteId: string; description: string }> = [];
      const creates: string[] = [];
      let kills = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const site of existing.slice(0, 3 + (round % 3))) {
          const description = `r${round} ${site.id}`;
          const saved = await app.call<Result<SiteView>>('saveSite', { siteId: site.id, height: 20 + round, description });
          expect(saved.ok).toBe(true);
          edits.push({ siteId: site.id, description });
        }
        const name = `Round ${round} tower`;
        expect((await app.call<Result<SiteView>>('saveSite', { name, height: 30, latitude: 45 + round / 100, longitude: -93 })).ok).toBe(true);
        creates.push(name);
        const runs = Array.from({ length: PROCESSES }, () => {
          const kill = random() < 0.4 ? 300 + Math.floor(random() * 1500) : null;
          if (kill !== null) kills++;
          return syncProcess(home, dataDir, sandbox.demo.key, kill);
        });
        // The app is killed too, now and then, while the sync processes run; it starts again on the folder.
        if (random() < 0.25) {
          const appKill = 300 + Math.floor(random() * 1500);
          kills++;
          const killed = app.child;
          setTimeout(() => killed.kill('SIGKILL'), appKill);
          await Promise.all(runs);
          if (killed.exitCode === null && killed.signalCode === null) await once(killed, 'exit');
          app = await startAppWithKey(home, dataDir, sandbox.demo.key);
        } else {
          await Promise.all(runs);
        }
      }
      // A last sync nobody kills, and the app: everything that can be sent is sent.
      expect(await syncProcess(home, dataDir, sandbox.demo.key, null)).not.toBeNull();
      await expect
        .poll(async () => (await app.call<OutboxListing>('listOutbox')).active.filter((entry) => entry.state === 'pending' || entry.state === 'sending').length, waiting('the queue to settle', 120_000))
        .toBe(0);

      const calls = (await serviceCalls(sandbox.url)).filter((call) => call.operation === 'SitesAPI');
      const sites = await serviceSites(sandbox.url);
      // Every edit reached its site: the last one queued for each site is what the service holds (an
      // edit queued while an earlier one still waited was merged into it: later fields win).
      for (const site of existing) {
        const last = edits.filter((edit) => edit.siteId === site.id).at(-1);
        if (last) expect(sites.find((candidate) => candidate.id === site.id)?.description).toBe(last.description);
      }
      // No create applied twice; each is done with its ID or waits for review.
      // Listed by the CLI while the app has the folder open.
      const listed = await runSitewalk(home, ['outbox', '--all', '--json', '--data-dir', dataDir]);
      expect(listed.code, listed.stderr).toBe(0);
      const entries = listed.json.entries as Array<{ op?: string; state: string; siteId?: string | null; payload: { name?: string } }>;
      for (const name of creates) {
        const made = sites.filter((site) => site.name === name);
        expect(made.length, name).toBeLessThanOrEqual(1);
        const entry = entries.find((candidate) => candidate.op === 'create' && candidate.payload.name === name);
        expect(entry, name).toBeDefined();
        if (entry!.state === 'done') expect(entry!.siteId, name).toBe(made[0]?.id);
        else expect(entry!.state, name).toBe('needs-review');
      }
      // An edit went out more than once only when a kill interrupted its call: at most one resend per
      // kill and call in flight (4 at a time), never the four-fold sending of processes that do not claim.
      const editCalls = calls.filter((call) => edits.some((edit) => JSON.stringify(call).includes(edit.description)));
      expect(editCalls.length).toBeLessThanOrEqual(edits.length + kills * PROCESSES);

      // The app closes as a user closes it (SIGTERM: it flushes the outbox and exits 0).
      app.child.kill('SIGTERM');
      const [code] = (await once(app.child, 'exit')) as [number | null];
      expect(code).toBe(0);
    },
    600_000,
  );
});
