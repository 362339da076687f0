// `npm start` as a user runs it, in a real process: it builds what is missing, starts the browser
// host (forced with --browser, or because no Electron binary exists here), prints exactly one line
// with the address, answers there, and exits 0 on SIGTERM sent to npm (the script execs tsx, so
// npm's signal reaches the app rather than an intermediate shell). npm's own "> sitewalk start"
// banner is silenced (npm_config_loglevel) so the line count is the program's alone.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect } from 'vitest';
import { findElectronBinary, ROOT } from '../../electron/main/build';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { it } from '../support/fixtures';

const LINE = /^Sitewalk is running at (http:\/\/127\.0\.0\.1:(\d+))\/#token=([A-Za-z0-9_-]{43})$/;

interface Run {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout: () => string;
  stderr: () => string;
}

const runs: Run[] = [];
// Before the fixtures' teardown removes the data folders.
afterEach(async () => {
  for (const run of runs.splice(0)) {
    // A failed test must not leave the app running: end the whole process group we started.
    try {
      process.kill(-run.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    if (run.child.exitCode === null && run.child.signalCode === null) await once(run.child, 'exit');
  }
});

function npmStart(args: string[]): Run {
  const child = spawn('npm', ['start', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, npm_config_loglevel: 'silent', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so cleanup can reach npm's children too.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const run = { child, stdout: () => stdout, stderr: () => stderr };
  runs.push(run);
  return run;
}

/** Resolves with the first stdout line, or rejects with stderr if the process ends first. */
function firstLine(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const newline = run.stdout().indexOf('\n');
      if (newline !== -1) {
        cleanup();
        resolve(run.stdout().slice(0, newline));
      }
    };
    const ended = (code: number | null) => {
      cleanup();
      reject(new Error(`npm start ended (${code}) before printing its address:\n${run.stderr()}`));
    };
    const cleanup = () => {
      run.child.stdout.off('data', check);
      run.child.off('exit', ended);
    };
    run.child.stdout.on('data', check);
    run.child.on('exit', ended);
    check();
  });
}

async function checkRunning(line: string): Promise<void> {
  const match = LINE.exec(line);
  expect(match, line).not.toBeNull();
  const [, origin, , token] = match!;
  const page = await fetch(`${origin}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(await page.text()).toMatch(/<div id="root">/);
  // The map's tile route is wired to a cache (without one it would be 404); coordinates off the
  // grid are refused before anything asks a tile server. Without the session token: 401.
  expect((await fetch(`${origin}/tiles/23/0/0`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(400);
  expect((await fetch(`${origin}/tiles/23/0/0`)).status).toBe(401);
  const status = await fetch(`${origin}/api/getStatus`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '[]',
  });
  expect(status.status).toBe(200);
  // First run with no profile: the Sandbox profile is active.
  expect(await status.json()).toMatchObject({ value: { host: 'browser', activeProfileId: 'sandbox' } });
}

async function stop(run: Run): Promise<number | null> {
  const exit = once(run.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  run.child.kill('SIGTERM');
  const [code] = await exit;
  return code;
}

describe('npm start', () => {
  it('--browser: prints one line, answers at that address, exits 0 on SIGTERM', { timeout: 180_000 }, async ({ tempDir }) => {
    const run = npmStart(['--browser', '--no-open', '--port', '0', '--data-dir', tempDir]);
    await checkRunning(await firstLine(run));
    if (process.platform === 'linux') {
      // npm's child is the app itself (no wrapper process between them), so a signal reaches the app
      // and nothing can give up on it after a few milliseconds and SIGKILL it mid-flush.
      const children = (await readFile(`/proc/${run.child.pid}/task/${run.child.pid}/children`, 'utf8')).trim().split(/\s+/);
      const commands = await Promise.all(children.map(async (pid) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ')));
      // The app runs in that process with tsx as a loader, not under tsx's CLI wrapper.
      expect(commands.filter((command) => command.includes('--import tsx') && command.includes('electron/start.ts')), commands.join('\n')).toHaveLength(1);
    }
    expect(await stop(run)).toBe(0);
    expect(run.stdout().split('\n').filter((line) => line !== '')).toHaveLength(1);
    expect(run.stderr()).toMatch(/flushing the outbox/);
    // The core closed cleanly: the database's write-ahead log was folded into it and removed.
    expect(await readdir(tempDir)).toContain(DATABASE_FILE);
    expect((await readdir(tempDir)).includes(`${DATABASE_FILE}-wal`)).toBe(false);
  });

  it.skipIf('path' in findElectronBinary())('without --browser and no Electron binary: says why on stderr and starts the browser host', { timeout: 180_000 }, async ({ tempDir }) => {
    const run = npmStart(['--no-open', '--data-dir', tempDir]);
    await checkRunning(await firstLine(run));
    expect(run.stderr()).toMatch(/starting the browser version: .*Electron/);
    expect(await stop(run)).toBe(0);
    expect(run.stdout().split('\n').filter((line) => line !== '')).toHaveLength(1);
  });

  it('says so when the port is taken, and leaves the data folder free', { timeout: 180_000 }, async ({ tempDir }) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const run = npmStart(['--browser', '--no-open', '--port', String(port), '--data-dir', tempDir]);
      const [code] = (await once(run.child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(run.stderr()).toContain(`Port ${port} is already in use`);
      expect(run.stdout()).toBe('');
      expect((await readdir(tempDir)).includes(`${DATABASE_FILE}-wal`)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('--help explains the options and starts nothing', { timeout: 60_000 }, async () => {
    const run = npmStart(['--help']);
    const [code] = (await once(run.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    for (const option of ['--browser', '--port', '--data-dir', '--no-open']) expect(run.stdout()).toContain(option);
  });

  it('refuses an unknown option or a bad port with exit code 2', { timeout: 60_000 }, async () => {
    for (const args of [['--frobnicate'], ['--port', 'eighty']]) {
      const run = npmStart(args);
      const [code] = (await once(run.child, 'exit')) as [number | null];
      expect(code, args.join(' ')).toBe(2);
      expect(run.stderr()).toMatch(/Usage: npm start/);
      expect(run.stdout()).toBe('');
    }
  });
});
