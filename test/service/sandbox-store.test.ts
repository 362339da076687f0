// The sandbox's data file and its operation log, over real HTTP: every answered call is on disk
// before the answer (a second sandbox started on the same files while the first never closed — as
// after a crash — holds it), a torn last log line is ignored, a damaged one stops the start and
// leaves the files alone, a write that fails answers 500 and changes nothing, and a clean close
// leaves one data file with nothing to replay.
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, StateError, type RunningSandbox } from '../../electron/sandbox/index';

const running: RunningSandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sitewalk-sandbox-store-'));
  dirs.push(dir);
  return join(dir, 'state.json');
}

async function start(file: string): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, dataFile: file, seed: 'empty' });
  running.push(sandbox);
  return sandbox;
}

async function createSite(sandbox: RunningSandbox, name: string): Promise<{ status: number; text: string }> {
  const body = new URLSearchParams({ Account: '10001', Sitename: name, Siteid: '', height: '30', Latitude: '45.1', Longitude: '-111.2', Description: '', Group: '', Pinstyle: '', key: 'sandbox-demo-key' });
  const response = await fetch(`${sandbox.url}/towercoverage.asmx/SitesAPI`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { status: response.status, text: await response.text() };
}

const names = (sandbox: RunningSandbox) => sandbox.snapshot().sites.map((site) => site.name).sort();

describe('the sandbox data file', () => {
  it('holds every answered call even when the sandbox never closed', async () => {
    const file = await dataFile();
    const first = await start(file);
    const answers = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => createSite(first, name)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const callsLeft = first.snapshot().accounts.find((account) => account.id === '10001')!.callsLeft;

    // As after a crash: the first one is still running, nothing was closed or rewritten.
    const second = await start(file);
    expect(names(second)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(second.snapshot().sites.map((site) => site.id).sort()).toEqual(first.snapshot().sites.map((site) => site.id).sort());
    expect(second.snapshot().accounts.find((account) => account.id === '10001')!.callsLeft).toBe(callsLeft);
  });

  it('ignores a torn last line of the log, which was never answered', async () => {
    const file = await dataFile();
    const first = await start(file);
    await createSite(first, 'Kept');
    await appendFile(`${file}.log`, '{"operation":"SitesAPI","params":{"Account":"10');
    const second = await start(file);
    expect(names(second)).toEqual(['Kept']);
  });

  it('refuses to start on a damaged log line and leaves both files as they are', async () => {
    const file = await dataFile();
    const first = await start(file);
    await createSite(first, 'One');
    await createSite(first, 'Two');
    const log = await readFile(`${file}.log`, 'utf8');
    const damaged = log.replace(/^\{/, '{{');
    await writeFile(`${file}.log`, damaged);
    const data = await readFile(file, 'utf8');
    await expect(startSandbox({ port: 0, dataFile: file })).rejects.toBeInstanceOf(StateError);
    expect(await readFile(`${file}.log`, 'utf8')).toBe(damaged);
    expect(await readFile(file, 'utf8')).toBe(data);
  });

  it('answers 500 and changes nothing when the call cannot be saved, and goes on once it can', async () => {
    const file = await dataFile();
    const first = await start(file);
    await createSite(first, 'Before');
    await running.splice(0, 1)[0]!.close();
    const sandbox = await start(file);
    // The log is a link into a folder that does not exist: appending fails, as on a lost disk.
    await symlink(join(file, '..', 'gone', 'state.json.log'), `${file}.log`);
    const refused = await createSite(sandbox, 'Lost');
    expect(refused.status).toBe(500);
    expect(refused.text).toMatch(/could not save its data/);
    expect(names(sandbox)).toEqual(['Before']);

    await rm(`${file}.log`);
    expect((await createSite(sandbox, 'After')).status).toBe(200);
    expect(names(sandbox)).toEqual(['After', 'Before']);
  });

  it('leaves one data file and no log after a clean close, and starts from it', async () => {
    const file = await dataFile();
    const first = await start(file);
    await createSite(first, 'Closed');
    expect(existsSync(`${file}.log`)).toBe(true);
    await running.splice(0, 1)[0]!.close();
    expect(existsSync(`${file}.log`)).toBe(false);
    expect(names(await start(file))).toEqual(['Closed']);
  });
});
