// The built-in sandbox's starter, as the hosts hand it to the core: it listens on loopback, lists the
// demo account's sites in the register's words, and keeps its state in the data file it is given.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const sites = sandbox.accountSites();
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
    expect(first.accountSites().map((site) => site.name)).toContain('Starter Ridge');
    await first.close();
    started.splice(started.indexOf(first), 1);

    const second = await start(file);
    expect(second.accountSites().find((site) => site.name === 'Starter Ridge')).toMatchObject({ height: 30, latitude: 45.677, longitude: -111.0429, pinStyle: 1 });
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
    expect(sandbox.accountSites().map((site) => site.name)).not.toContain('Not the demo account');
    expect(sandbox.accountSites()).toHaveLength(25);
  });
});
