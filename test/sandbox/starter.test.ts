// The built-in sandbox's starter, as the hosts hand it to the core: it listens on loopback, lists the
// demo account's sites in the register's words, and keeps its state in the data file it is given.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startBuiltInSandbox, type BuiltInSandbox } from '../../electron/sandbox/starter';
import { startSandbox } from '../../electron/sandbox/index';

const started: BuiltInSandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function start(dataFile: string): Promise<BuiltInSandbox> {
  const sandbox = await startBuiltInSandbox({ port: 0, dataFile });
  started.push(sandbox);
  return sandbox;
}

async function tempDataFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sitewalk-starter-'));
  dirs.push(dir);
  return join(dir, 'sandbox.json');
}

describe('startBuiltInSandbox', () => {
  it('starts on loopback with the demo account and lists its sites in the register\'s words', async () => {
    const file = await tempDataFile();
    const sandbox = await start(file);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox).toMatchObject({ servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', demo: { account: '10001', key: 'sandbox-demo-key' } });
    const sites = sandbox.accountSites!();
    expect(sites).toHaveLength(25);
    expect(Object.keys(sites[0]!).sort()).toEqual(['description', 'group', 'height', 'latitude', 'longitude', 'name', 'pinStyle', 'siteId']);
    expect(existsSync(file)).toBe(true);
  });

  it('keeps a site created over the wire in its data file for the next start', async () => {
    const file = await tempDataFile();
    const first = await start(file);
    const form = new URLSearchParams({ Account: '10001', Sitename: 'Starter Ridge', Siteid: '', height: '30', Latitude: '45.6770', Longitude: '-111.0429', Description: '', Group: '', Pinstyle: '', key: first.demo.key });
    const created = await fetch(`${first.url}${first.servicePath}/SitesAPI`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    expect(created.status).toBe(200);
    expect(first.accountSites!().map((site) => site.name)).toContain('Starter Ridge');
    await first.close();
    started.splice(started.indexOf(first), 1);

    const second = await start(file);
    expect(second.accountSites!().find((site) => site.name === 'Starter Ridge')).toMatchObject({ height: 30, latitude: 45.677, longitude: -111.0429, pinStyle: 1 });
  });

  it('lists only the demo account\'s sites', async () => {
    const file = await tempDataFile();
    const plain = await startSandbox({ port: 0, dataFile: file });
    const state = plain.snapshot();
    state.accounts.push({ id: '20002', key: 'other-key', name: 'Other', callsLeft: 5, recipients: [], eusApiUrl: null });
    state.sites.push({ ...state.sites[0]!, id: String(state.nextSiteId), account: '20002', name: 'Not the demo account' });
    state.nextSiteId += 1;
    const loaded = await fetch(`${plain.url}/_sandbox/load`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(state) });
    expect(loaded.status).toBe(200);
    await plain.close();

    const sandbox = await start(file);
    expect(sandbox.accountSites!().map((site) => site.name)).not.toContain('Not the demo account');
    expect(sandbox.accountSites!()).toHaveLength(25);
  });

  it('is one sandbox a data folder: a second start reaches the first, and serves once the first has closed', async () => {
    const file = await tempDataFile();
    const first = await start(file);
    const second = await start(file);
    expect(second.url).toBe(first.url);
    expect(second.accountSites).toBeUndefined();
    expect(second.served!()).toBe(true);
    // A site created through the second is the first's: one numbering of site IDs.
    const created = await createSite(second, 'Shared Ridge');
    expect(first.accountSites!().find((site) => site.name === 'Shared Ridge')?.siteId).toBe(created);

    await first.close();
    started.splice(started.indexOf(first), 1);
    // Checked at most once a second: a call within it may still meet the closed one (a connection refused, retried).
    await expect.poll(() => second.served!(), { interval: 200, timeout: 15_000 }).toBe(false);
    const third = await start(file);
    expect(third.url).not.toBe(first.url);
    expect(third.accountSites!().find((site) => site.name === 'Shared Ridge')?.siteId).toBe(created);
  });

  it("leaves an address read before the serving process wrote its own (a dead one's) within a second", async () => {
    const file = await tempDataFile();
    const serving = await start(file);
    const written = readFileSync(`${file}.address`, 'utf8');
    // As a killed process leaves it, read in the moment before the new one writes its own.
    writeFileSync(`${file}.address`, JSON.stringify({ pid: 1, url: 'http://127.0.0.1:9', servicePath: serving.servicePath, namespace: serving.namespace }));
    const reached = await start(file);
    expect(reached.url).toBe('http://127.0.0.1:9');
    writeFileSync(`${file}.address`, written);
    await expect.poll(() => reached.served!(), { interval: 200, timeout: 15_000 }).toBe(false);
    expect((await start(file)).url).toBe(serving.url);
  });

  it('takes the sandbox over when the process serving it is killed, with what that one kept', async () => {
    const file = await tempDataFile();
    const starter = fileURLToPath(new URL('../../electron/sandbox/starter.ts', import.meta.url));
    const code = `const { startBuiltInSandbox } = await import(${JSON.stringify(starter)}); const s = await startBuiltInSandbox({ port: 0, dataFile: ${JSON.stringify(file)} }); console.log(s.url); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').once('data', (text: string) => resolve(text.trim()));
        child.once('exit', (code) => reject(new Error(`the serving process ended (${code})`)));
      });
      const reached = await start(file);
      expect(reached.url).toBe(url);
      const created = await createSite(reached, 'Killed Ridge');
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      await expect.poll(() => reached.served!(), { interval: 200, timeout: 15_000 }).toBe(false);
      const serving = await start(file);
      expect(serving.accountSites).toBeDefined();
      expect(serving.accountSites!().find((site) => site.name === 'Killed Ridge')?.siteId).toBe(created);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

/** Creates a site of the demo account over the wire; its new site ID. */
async function createSite(sandbox: BuiltInSandbox, name: string): Promise<string> {
  const form = new URLSearchParams({ Account: '10001', Sitename: name, Siteid: '', height: '30', Latitude: '45.6770', Longitude: '-111.0429', Description: '', Group: '', Pinstyle: '', key: sandbox.demo.key });
  const answer = await fetch(`${sandbox.url}${sandbox.servicePath}/SitesAPI`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
  expect(answer.status).toBe(200);
  // The answer is the site's ID as an ASMX <string>.
  const id = /<string[^>]*>(\d+)<\/string>/.exec(await answer.text())?.[1];
  if (!id) throw new Error('the sandbox did not say the new site ID');
  return id;
}
