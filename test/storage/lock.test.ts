// The data-folder lock: one process at a time, even when many start together on a lock left by a
// process that died. Real processes race for real files; nothing is mocked.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataDirBusyError, LOCK_FILE, lockDataDir, type DataDirLock } from '../../electron/core/storage/lock';
import { makeTempDir as tempDir } from '../support/temp';

const CHILD = fileURLToPath(new URL('./lock-child.ts', import.meta.url));
const dirs: Array<{ path: string; remove(): Promise<void> }> = [];
const locks: DataDirLock[] = [];

async function folder(): Promise<string> {
  const dir = await tempDir('sitewalk-lock-');
  dirs.push(dir);
  return dir.path;
}

/** The PID of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

async function staleLock(dir: string, content?: string): Promise<void> {
  const body = content ?? JSON.stringify({ pid: await deadPid(), host: hostname(), since: new Date(0).toISOString() });
  await writeFile(join(dir, LOCK_FILE), body);
}

afterEach(async () => {
  for (const lock of locks.splice(0)) await lock.release();
  for (const dir of dirs.splice(0)) await dir.remove();
});

describe('the data-folder lock in one process', () => {
  it('refuses a second open of a folder this process holds, with the same message as before', async () => {
    const dir = await folder();
    locks.push(await lockDataDir(dir));
    const second = lockDataDir(dir);
    await expect(second).rejects.toBeInstanceOf(DataDirBusyError);
    await expect(second).rejects.toThrow(`The data folder ${dir} is in use by another Sitewalk (process ${process.pid}). Close it first, or use another data folder.`);
  });

  it('gives one of twenty simultaneous opens the folder and refuses the others', async () => {
    const dir = await folder();
    await staleLock(dir);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => lockDataDir(dir)));
    const held = results.filter((result) => result.status === 'fulfilled');
    expect(held).toHaveLength(1);
    locks.push((held[0] as PromiseFulfilledResult<DataDirLock>).value);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(DataDirBusyError);
  });

  it('never takes a lock whose process still runs, and names that process', async () => {
    const dir = await folder();
    // The test runner that started this worker is alive.
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), since: new Date().toISOString() }));
    await expect(lockDataDir(dir)).rejects.toMatchObject({ name: 'DataDirBusyError', pid: process.ppid });
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('never takes a lock written on another computer sharing the folder', async () => {
    const dir = await folder();
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: await deadPid(), host: `${hostname()}-elsewhere`, since: new Date().toISOString() }));
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirBusyError);
  });

  it('takes over a lock left by a dead process, and one left half-written by a crash', async () => {
    for (const content of [undefined, '', '{"pid":12']) {
      const dir = await folder();
      await staleLock(dir, content);
      const lock = await lockDataDir(dir);
      expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
      await lock.release();
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('is not blocked by the claim of a contender that died in the middle of a takeover, and clears it away', async () => {
    const dir = await folder();
    await staleLock(dir);
    // The claim's name is the lock file's identity: a digest of its inode and content (lock.ts).
    const path = join(dir, LOCK_FILE);
    const { dev, ino } = await stat(path);
    const identity = createHash('sha256').update(`${dev}:${ino}:${await readFile(path, 'utf8')}`).digest('hex').slice(0, 24);
    const claim = { pid: await deadPid(), host: hostname(), since: new Date().toISOString(), id: 'dead' };
    await writeFile(`${path}.claim-${identity}`, JSON.stringify(claim));
    await writeFile(join(dir, `${LOCK_FILE}.tmp-${claim.pid}-abcdef`), 'left by a crash');
    const lock = await lockDataDir(dir);
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE]);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('lets the folder be taken again once released; releasing twice is harmless', async () => {
    const dir = await folder();
    const first = await lockDataDir(dir);
    await first.release();
    await first.release();
    const second = await lockDataDir(dir);
    locks.push(second);
    // The first holder's late release must not remove the second holder's lock.
    await first.release();
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
  });
});

describe('the data-folder lock across processes', () => {
  const CONTENDERS = 10;
  const ROUNDS = 10;
  let children: Array<{ process: ChildProcess; next(): Promise<string>; send(line: string): void }> = [];

  beforeAll(async () => {
    children = Array.from({ length: CONTENDERS }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines: string[] = [];
      const waiting: Array<(line: string) => void> = [];
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const waiter = waiting.shift();
        if (waiter) waiter(line);
        else lines.push(line);
      });
      return {
        process: child,
        next: () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => waiting.push(resolve))),
        send: (line: string) => child.stdin!.write(`${line}\n`),
      };
    });
    expect(await Promise.all(children.map((child) => child.next()))).toEqual(Array(CONTENDERS).fill('ready'));
  }, 60_000);

  afterAll(() => {
    for (const child of children) child.process.kill();
  });

  it(`gives the folder to exactly one of ${CONTENDERS} processes that start together on a stale lock, ${ROUNDS} rounds in a row`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = await folder();
      // Every other round the dead process's lock is one a crash left unreadable.
      await staleLock(dir, round % 2 === 1 ? '' : undefined);
      for (const child of children) child.send(`lock ${dir}`);
      const answers = await Promise.all(children.map((child) => child.next()));
      const holders = answers.filter((answer) => answer.startsWith('held '));
      expect(holders, `round ${round}: ${answers.join(', ')}`).toHaveLength(1);
      const holderPid = Number(holders[0]!.slice(5));
      expect(answers.filter((answer) => answer !== holders[0])).toEqual(Array(CONTENDERS - 1).fill(`busy ${holderPid}`));
      expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: holderPid });
      const holder = children.find((child) => child.process.pid === holderPid)!;
      holder.send('release');
      expect(await holder.next()).toBe('released');
      // Nothing left behind: no lock, no claim, no temp file.
      expect(await readdir(dir)).toEqual([]);
    }
  }, 60_000);
});
