// `sitewalk` profile/site/reprocess/outbox/sync/rendering-qualities as a user runs them: the CLI's
// main() in this process (test/support/cli.ts: an isolated environment, one run per command), a temp
// data folder, and a sandbox on loopback — in this process for a profile of one's own, or the
// built-in one the CLI starts itself and keeps in <dataDir>/sandbox.json between runs. The key goes
// in through SITEWALK_KEY only and must never come out.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openHostBackend } from '../../electron/core/host-backend';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { startSandbox } from '../../electron/sandbox/index';
import { sitewalkInTempHome } from '../support/cli';
import { countingProxy } from '../support/counting-proxy';
import { freePort } from '../support/net';
import { serviceSites } from '../support/service-state';
import { makeTempDir } from '../support/temp';

const KEY = 'sandbox-demo-key';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
const dirs: Array<{ remove(): Promise<void> }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo' });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(async () => {
  sandbox.setFaults({});
  for (const dir of dirs.splice(0)) await dir.remove();
});

const run = sitewalkInTempHome();
const sitewalk = (args: string[], env: Record<string, string> = {}, stdin?: string) => run(args, { env, stdin });

async function setCallsLeft(callsLeft: number): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/accounts/10001`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callsLeft }) });
  if (!response.ok) throw new Error(`PATCH account answered ${response.status}`);
}

async function sandboxCalls(): Promise<Array<{ outcome: string; params: Record<string, string | null> }>> {
  return (await (await fetch(`${sandbox.url}/_sandbox/calls`)).json()) as Array<{ outcome: string; params: Record<string, string | null> }>;
}

async function until(check: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function dataDir(): Promise<string> {
  const dir = await makeTempDir('sitewalk-cli-');
  dirs.push(dir);
  return dir.path;
}

/** A data folder with a profile "Field" on the test's sandbox (or `baseUrl`), active. */
async function fieldProfile(baseUrl = sandbox.url): Promise<string> {
  const dir = await dataDir();
  const added = await sitewalk(['profile', 'add', 'Field', '--base-url', baseUrl, '--account', '10001', '--binding', 'soap11', '--data-dir', dir]);
  expect(added.code, added.stderr).toBe(0);
  const used = await sitewalk(['profile', 'use', 'Field', '--data-dir', dir]);
  expect(used.code, used.stderr).toBe(0);
  return dir;
}

describe('sitewalk CLI: profiles', { timeout: 120_000 }, () => {
  it('adds, lists and switches profiles, and prints stable JSON', async () => {
    const dir = await dataDir();
    const first = await sitewalk(['profile', 'list', '--json', '--data-dir', dir]);
    expect(first.code).toBe(0);
    const listed = JSON.parse(first.stdout) as { profiles: Array<{ name: string; active: boolean; hasKey: boolean; keyStore: string }> };
    expect(listed.profiles).toEqual([expect.objectContaining({ name: 'Sandbox', active: true, hasKey: true, keyStore: 'session-only' })]);

    const added = await sitewalk(['profile', 'add', 'Office', '--base-url', 'https://api.example.test', '--account', '77', '--json', '--data-dir', dir]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ ok: true, keySaved: false, profile: { name: 'Office', active: false, hasKey: false } });
    const used = await sitewalk(['profile', 'use', 'office', '--data-dir', dir]);
    expect(used.code).toBe(0);
    const human = await sitewalk(['profile', 'list', '--data-dir', dir]);
    expect(human.stdout).toMatch(/^\*\s+Office/m);
  });

  it('takes --data-dir and --json before the command, between its words, or after it', async () => {
    const dir = await dataDir();
    await sitewalk(['profile', 'add', 'Where', '--base-url', sandbox.url, '--account', '10001', '--data-dir', dir]);
    for (const args of [
      ['--data-dir', dir, '--json', 'profile', 'list'],
      ['profile', '--data-dir', dir, 'list', '--json'],
      ['profile', 'list', '--json', `--data-dir=${dir}`],
    ]) {
      const listed = await sitewalk(args);
      expect(listed.code, `${args.join(' ')}: ${listed.stderr}`).toBe(0);
      expect((JSON.parse(listed.stdout) as { profiles: Array<{ name: string }> }).profiles.map((p) => p.name)).toContain('Where');
    }
  });

  it('refuses a bad profile with exit 2 and a sentence naming the problem', async () => {
    const dir = await dataDir();
    const bad = await sitewalk(['profile', 'add', 'Office', '--base-url', 'ftp://x', '--account', '1', '--data-dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/base URL must start with https:\/\//);
    const unknown = await sitewalk(['profile', 'use', 'Nope', '--data-dir', dir]);
    expect(unknown.code).toBe(2);
  });

  it('says when a key from --key-stdin cannot be kept on this machine, and never prints it', async () => {
    const dir = await dataDir();
    const added = await sitewalk(['profile', 'add', 'Office', '--base-url', 'https://api.example.test', '--account', '77', '--key-stdin', '--data-dir', dir], {}, 'the-secret-key\n');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(/SITEWALK_KEY/);
    expect(added.stdout + added.stderr).not.toContain('the-secret-key');
  });
});

describe('sitewalk CLI: sites, outbox and sync', { timeout: 120_000 }, () => {
  it('queues a site, syncs it until settled and lists it synced with its service ID', async () => {
    const dir = await fieldProfile();
    const add = await sitewalk(['site', 'add', '--lat', '45.25', '--lon', '-93.5', '--height', '40', '--name', 'CLI Ridge', '--pin-style', '2', '--data-dir', dir]);
    expect(add.code, add.stderr).toBe(0);
    const localId = add.stdout.trim();
    expect(localId).toMatch(/^local-[a-z2-9]{10}$/);

    const sync = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(sync.code, sync.stderr).toBe(0);
    const document = JSON.parse(sync.stdout) as { ok: boolean; counts: Record<string, number>; blocked: unknown };
    expect(document).toMatchObject({ ok: true, blocked: null, counts: { done: 1, pending: 0 } });
    expect(sync.stdout + sync.stderr).not.toContain(KEY);

    const list = await sitewalk(['site', 'list', '--json', '--data-dir', dir]);
    const sites = (JSON.parse(list.stdout) as { sites: Array<{ localId: string; siteId: string | null; syncState: string; pinStyle: number }> }).sites;
    expect(sites).toHaveLength(1);
    expect(sites[0]).toMatchObject({ localId, syncState: 'synced', pinStyle: 2 });
    const onService = (await serviceSites(sandbox.url)).find((site) => site.id === sites[0]!.siteId);
    expect(onService).toMatchObject({ name: 'CLI Ridge', height: 40, latitude: 45.25, longitude: -93.5 });

    // Edit it by its service ID; only the height changes.
    const edit = await sitewalk(['site', 'edit', sites[0]!.siteId!, '--height', '44', '--data-dir', dir]);
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stdout.trim()).toBe(localId);
    const second = await sitewalk(['sync', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(second.code).toBe(0);
    // This run sent one entry; two are done in all: the summary does not pass the total off as this run's.
    expect(second.stderr).toMatch(/^1 sent by this run; 0 still queued, 0 failed, 0 need review, 0 paused \(2 done in all\)\.$/m);
    expect((await serviceSites(sandbox.url)).find((site) => site.id === sites[0]!.siteId)).toMatchObject({ name: 'CLI Ridge', height: 44 });
    const idle = await sitewalk(['sync', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(JSON.parse(idle.stdout)).toMatchObject({ sent: 0, counts: { done: 2 } });
  });

  it('reads degrees-minutes-seconds, a decimal comma and a height with its unit, as the form and the import do', async () => {
    const dir = await fieldProfile();
    const add = await sitewalk(['site', 'add', '--lat', '40°26\'46"N', '--lon', '-79,9822', '--height', '52 ft', '--name', 'DMS Ridge', '--json', '--data-dir', dir]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/Height 52 ft is sent as 16 m/);
    expect(JSON.parse(add.stdout)).toMatchObject({ site: { latitude: 40.4461111, longitude: -79.9822, height: 16 } });
    // A bare number is in the documented unit, meters: rounded to whole meters as "30.6 m" is, and said.
    const bare = await sitewalk(['site', 'add', '--lat', '45', '--lon', '-93', '--height', '30.6', '--json', '--data-dir', dir]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stderr).toMatch(/^Height 30\.6 is sent as 31 m \(the service stores whole meters\)\.$/m);
    expect(JSON.parse(bare.stdout)).toMatchObject({ site: { height: 31 } });
    const wrongAxis = await sitewalk(['site', 'add', '--lat', '79°58\'56"W', '--lon', '-79.9', '--height', '15.8 m', '--data-dir', dir]);
    expect(wrongAxis.code).toBe(2);
    expect(wrongAxis.stderr).toMatch(/This is a longitude \(E\/W\); the latitude needs N or S/);
  });

  it('refuses bad input with exit 2 and queues nothing', async () => {
    const dir = await fieldProfile();
    const bad = await sitewalk(['site', 'add', '--lat', '95', '--lon', '-93', '--height', 'thirty', '--data-dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Height must be a number of meters, like 30, or of feet, like 98 ft/);
    expect(bad.stderr).toMatch(/Latitude must be between -90 and 90/);
    const outbox = await sitewalk(['outbox', '--json', '--data-dir', dir]);
    expect((JSON.parse(outbox.stdout) as { entries: unknown[] }).entries).toEqual([]);
  });

  it('exits 4 when the profile has no key, and says so', async () => {
    const dir = await fieldProfile();
    expect((await sitewalk(['site', 'add', '--lat=45', '--lon=-93', '--height=30', '--data-dir', dir])).code).toBe(0);
    const noKey = await sitewalk(['sync', '--until-settled', '--data-dir', dir]);
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toMatch(/has no API key/);
    // An empty SITEWALK_KEY is no key either: the same answer, and no call made with a blank one.
    const callsBefore = (await sandboxCalls()).length;
    const emptyKey = await sitewalk(['sync', '--until-settled', '--data-dir', dir], { SITEWALK_KEY: '' });
    expect(emptyKey.code).toBe(4);
    expect(emptyKey.stderr).toMatch(/has no API key/);
    expect((await sandboxCalls()).slice(callsBefore).filter((call) => call.params['key'] !== undefined)).toEqual([]);
  });

  it('exits 4 when the account has no API calls left, with the pause in the JSON', async () => {
    const dir = await fieldProfile();
    expect((await sitewalk(['site', 'add', '--lat=45', '--lon=-93', '--height=30', '--data-dir', dir])).code).toBe(0);
    await setCallsLeft(0);
    try {
      const quota = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
      expect(quota.code).toBe(4);
      expect((JSON.parse(quota.stdout) as { status: { paused: { reason: string } } }).status.paused.reason).toBe('quota');
    } finally {
      await setCallsLeft(1_000_000);
    }
  });

  it('exits 5 when the service cannot be reached, and keeps the entry queued', async () => {
    const dir = await dataDir();
    await sitewalk(['profile', 'add', 'Gone', '--base-url', `http://127.0.0.1:${await freePort()}`, '--account', '1', '--data-dir', dir]);
    await sitewalk(['profile', 'use', 'Gone', '--data-dir', dir]);
    await sitewalk(['site', 'add', '--lat=45', '--lon=-93', '--height=30', '--data-dir', dir]);
    const offline = await sitewalk(['sync', '--until-settled', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(offline.code).toBe(5);
    const still = await sitewalk(['outbox', '--json', '--data-dir', dir]);
    expect((JSON.parse(still.stdout) as { entries: Array<{ state: string }> }).entries.map((entry) => entry.state)).toEqual(['pending']);
  });

  it('exits 3 when a create needs review, and `outbox resolve` confirms it with the service\'s ID', async () => {
    const dir = await fieldProfile();
    const add = await sitewalk(['site', 'add', '--lat=46', '--lon=-94', '--height=30', '--name=Lost answer', '--data-dir', dir]);
    sandbox.setFaults({ applyThenDropRate: 1 });
    const sync = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    sandbox.setFaults({ applyThenDropRate: 0 });
    expect(sync.code).toBe(3);
    const document = JSON.parse(sync.stdout) as { attention: Array<{ id: string; state: string; localId: string }> };
    expect(document.attention).toEqual([expect.objectContaining({ state: 'needs-review', localId: add.stdout.trim() })]);
    const created = (await serviceSites(sandbox.url)).filter((site) => site.name === 'Lost answer');
    expect(created).toHaveLength(1);

    const noId = await sitewalk(['outbox', 'resolve', document.attention[0]!.id, '--data-dir', dir]);
    expect(noId.code).toBe(2);
    const resolved = await sitewalk(['outbox', 'resolve', document.attention[0]!.id, '--site-id', created[0]!.id, '--json', '--data-dir', dir]);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ ok: true, entry: { state: 'done', siteId: created[0]!.id } });
    const again = await sitewalk(['sync', '--until-settled', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(again.code).toBe(0);
  });

  it('waits through a retry with --until-settled instead of ending silently while only a backoff timer is left', async () => {
    const dir = await fieldProfile();
    const siteId = (await serviceSites(sandbox.url))[0]!.id;
    await sitewalk(['site', 'add', '--site-id', siteId, '--data-dir', dir]);
    await sitewalk(['site', 'edit', siteId, '--height=77', '--data-dir', dir]);
    // The first answer is lost on the way back; an edit is safe to send again, after a backoff.
    sandbox.setFaults({ applyThenDropRate: 1 });
    const settling = sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    await until(async () => (await sandboxCalls()).some((call) => call.outcome === 'dropped-after-apply' && call.params.Siteid === siteId));
    sandbox.setFaults({});
    const result = await settling;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, counts: { done: 1, pending: 0 } });
    expect((await serviceSites(sandbox.url)).find((site) => site.id === siteId)!.height).toBe(77);
  });

  it('says with exit 6 when one pass leaves an entry waiting to be sent again', async () => {
    const dir = await fieldProfile();
    const siteId = (await serviceSites(sandbox.url))[1]!.id;
    await sitewalk(['site', 'add', '--site-id', siteId, '--data-dir', dir]);
    await sitewalk(['site', 'edit', siteId, '--height=78', '--data-dir', dir]);
    sandbox.setFaults({ proxy503Rate: 1 });
    const pass = await sitewalk(['sync', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(pass.code, pass.stderr).toBe(6);
    expect(JSON.parse(pass.stdout)).toMatchObject({ ok: false, counts: { pending: 1, done: 0 } });
    sandbox.setFaults({});
    const settled = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(settled.code, settled.stderr).toBe(0);
  });

  it('queues an EUS reprocess and prints its entry ID', async () => {
    const dir = await fieldProfile();
    const bad = await sitewalk(['reprocess', '--process-id', 'P-1', '--multi-map', '12a', '--data-dir', dir]);
    expect(bad.code).toBe(2);
    const queued = await sitewalk(['reprocess', '--process-id', 'P-1', '--multi-map', '123', '--email', '--json', '--data-dir', dir]);
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ ok: true, entry: { kind: 'reprocess', state: 'pending', payload: { processId: 'P-1', multiMapId: '123', sendEmail: true } } });
  });

  it('discards an entry and retries one', async () => {
    const dir = await fieldProfile();
    await sitewalk(['site', 'add', '--lat=45', '--lon=-93', '--height=30', '--data-dir', dir]);
    const outbox = JSON.parse((await sitewalk(['outbox', '--json', '--data-dir', dir])).stdout) as { entries: Array<{ id: string }> };
    const retry = await sitewalk(['outbox', 'retry', outbox.entries[0]!.id, '--data-dir', dir]);
    expect(retry.code).toBe(0);
    const discard = await sitewalk(['outbox', 'discard', outbox.entries[0]!.id, '--json', '--data-dir', dir]);
    expect(JSON.parse(discard.stdout)).toEqual({ ok: true, removed: [outbox.entries[0]!.id] });
    expect((await sitewalk(['site', 'list', '--json', '--data-dir', dir])).stdout).toContain('"sites": []');
    expect((await sitewalk(['outbox', 'discard', 'o999', '--data-dir', dir])).code).toBe(2);
  });

  it('lists rendering qualities, and shows the cache, saying so, when the service is gone', async () => {
    const own = await startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo' });
    const dir = await dataDir();
    await sitewalk(['profile', 'add', 'Short', '--base-url', own.url, '--account', '10001', '--data-dir', dir]);
    await sitewalk(['profile', 'use', 'Short', '--data-dir', dir]);
    const fresh = await sitewalk(['rendering-qualities', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
    await own.close();
    expect(fresh.code, fresh.stderr).toBe(0);
    const live = JSON.parse(fresh.stdout) as { items: unknown[]; fromCache: boolean };
    expect(live.fromCache).toBe(false);
    expect(live.items.length).toBeGreaterThan(0);
    const cached = await sitewalk(['rendering-qualities', '--data-dir', dir], { SITEWALK_KEY: KEY });
    expect(cached.code).toBe(0);
    expect(cached.stderr).toMatch(/Showing the cached list from/);
    expect(cached.stdout).toMatch(/ID\s+NAME/);
  });
});

describe('sitewalk CLI: the built-in Sandbox profile', { timeout: 120_000 }, () => {
  it('starts the sandbox itself and keeps its state in the data folder between runs', async () => {
    const dir = await dataDir();
    const add = await sitewalk(['site', 'add', '--lat=45', '--lon=-93', '--height=25', '--name=Built-in', '--data-dir', dir]);
    expect(add.code, add.stderr).toBe(0);
    const sync = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir]);
    expect(sync.code, sync.stderr).toBe(0);
    const sites = (JSON.parse((await sitewalk(['site', 'list', '--json', '--data-dir', dir])).stdout) as { sites: Array<{ siteId: string; syncState: string }> }).sites;
    expect(sites[0]!.syncState).toBe('synced');
    // A second run edits the same site on the same (restarted) sandbox: it must still know the site.
    const edit = await sitewalk(['site', 'edit', sites[0]!.siteId, '--height', '26', '--data-dir', dir]);
    expect(edit.code).toBe(0);
    const again = await sitewalk(['sync', '--until-settled', '--json', '--data-dir', dir]);
    expect(again.code, again.stdout).toBe(0);
    expect((JSON.parse(again.stdout) as { counts: { done: number } }).counts.done).toBe(2);
  });
});

/** A loopback proxy to the sandbox that counts the site calls (SitesAPI) in flight at the same time. */
describe('sitewalk sync --concurrency', { timeout: 180_000 }, () => {
  /** Queues a height edit of each of `count` sandbox sites, from the `first`-th on. */
  async function queueEdits(dir: string, first: number, count: number): Promise<void> {
    const sites = (await serviceSites(sandbox.url)).slice(first, first + count);
    expect(sites).toHaveLength(count);
    for (const [index, site] of sites.entries()) {
      expect((await sitewalk(['site', 'add', '--site-id', site.id, '--data-dir', dir])).code).toBe(0);
      const edit = await sitewalk(['site', 'edit', site.id, `--height=${50 + index}`, '--data-dir', dir]);
      expect(edit.code, edit.stderr).toBe(0);
    }
  }

  it("sends at most N entries at once: --concurrency, else the app's setting for the data folder, else 4", async () => {
    const proxy = await countingProxy(sandbox.url, 'SitesAPI');
    try {
      const dir = await fieldProfile(proxy.url);
      const idle = await sitewalk(['sync', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
      expect(idle.code, idle.stderr).toBe(0);
      expect(JSON.parse(idle.stdout)).toMatchObject({ ok: true, concurrency: 4 });

      // The app keeps its setting in the data folder; the CLI follows it unless told otherwise.
      const backend = await openHostBackend({ host: 'browser', dataDir: dir, secretStore: createSessionSecretStore(), autoSync: false, sandbox: false });
      try {
        expect(await backend.hostApi.api.saveSettings({ syncConcurrency: 3 })).toMatchObject({ ok: true });
      } finally {
        await backend.close();
      }
      // Slow answers, so that every entry the engine may send at once is in flight together.
      sandbox.setFaults({ latencyMs: 400, operations: ['SitesAPI'] });

      await queueEdits(dir, 2, 5);
      const given = await sitewalk(['sync', '--concurrency', '2', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
      expect(given.code, given.stderr).toBe(0);
      expect(JSON.parse(given.stdout)).toMatchObject({ ok: true, concurrency: 2, counts: { done: 5, pending: 0 } });
      expect(given.stderr).toMatch(/up to 2 at a time/);
      expect(proxy.most()).toBe(2);

      proxy.reset();
      await queueEdits(dir, 2, 5);
      const setting = await sitewalk(['sync', '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
      expect(setting.code, setting.stderr).toBe(0);
      expect(JSON.parse(setting.stdout)).toMatchObject({ ok: true, concurrency: 3, counts: { pending: 0 } });
      expect(proxy.most()).toBe(3);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a concurrency outside 1 to 16 with exit 2 and a sentence, before anything is sent', async () => {
    const dir = await fieldProfile();
    await queueEdits(dir, 2, 1);
    const before = (await sandboxCalls()).length;
    for (const value of ['0', '17', 'two', '2.5', '-1']) {
      const refused = await sitewalk(['sync', `--concurrency=${value}`, '--json', '--data-dir', dir], { SITEWALK_KEY: KEY });
      expect(refused.code, value).toBe(2);
      expect(refused.stderr).toContain(`--concurrency must be a whole number from 1 to 16 (how many entries are sent at once), not "${value}".`);
      expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { kind: 'invalid-input', issues: [{ field: 'concurrency' }] } });
    }
    expect((await sandboxCalls()).length).toBe(before);
    const outbox = await sitewalk(['outbox', '--json', '--data-dir', dir]);
    expect((JSON.parse(outbox.stdout) as { entries: Array<{ state: string }> }).entries.map((entry) => entry.state)).toEqual(['pending']);
  });
});
