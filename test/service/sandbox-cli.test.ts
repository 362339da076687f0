// `npm run sandbox -- …` as a trainer or a benchmark runs it: a real process that prints where it
// listens, the WSDL and the demo account, answers service calls there (and logs them unless
// --quiet), keeps its state in --data across restarts, refuses bad flags with exit 2 and a taken
// port with exit 1, and closes cleanly with exit 0 on SIGTERM.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../electron/main/build';

interface Run {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

const runs: Run[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGKILL');
      await run.exit;
    }
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function sandboxCli(args: string[]): Run {
  // As `npm run sandbox` runs it: one Node process with tsx's loader, so signals reach the sandbox itself.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron', 'sandbox', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  const run = { child, stdout: () => stdout, stderr: () => stderr, exit };
  runs.push(run);
  return run;
}

/** The base URL once the banner is out, or the process's stderr if it ends first. */
async function listening(run: Run): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.stdout());
    if (match && run.stdout().includes('Press Ctrl-C to stop.')) return match[1]!;
    if (run.child.exitCode !== null) throw new Error(`the sandbox ended (${run.child.exitCode}): ${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no banner within 60 s: ${run.stdout()} ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function createSite(base: string, name: string): Promise<Response> {
  const body = new URLSearchParams({ Account: '10001', Sitename: name, Siteid: '', height: '30', Latitude: '45.1', Longitude: '-111.2', Description: '', Group: '', Pinstyle: '', key: 'sandbox-demo-key' });
  return fetch(`${base}/towercoverage.asmx/SitesAPI`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
}

describe('npm run sandbox', () => {
  it('prints its address, WSDL and demo account, answers calls, logs them, and exits 0 on SIGTERM', async () => {
    const run = sandboxCli(['--port', '0']);
    const base = await listening(run);
    expect(run.stdout()).toContain(`WSDL:         ${base}/towercoverage.asmx?WSDL`);
    expect(run.stdout()).toMatch(/Demo account: 10001\s+API key: sandbox-demo-key/);

    const wsdl = await fetch(`${base}/towercoverage.asmx?WSDL`);
    expect(wsdl.status).toBe(200);
    expect(await wsdl.text()).toContain('TowerCoverageSoap12');
    const created = await createSite(base, 'CLI Knob');
    expect(created.status).toBe(200);
    expect(await created.text()).toMatch(/<string xmlns="http:\/\/tempuri.org\/">\d+<\/string>/);
    await expect.poll(() => run.stdout()).toMatch(/SitesAPI/);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('keeps its state in --data across restarts, and stays silent with --quiet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sitewalk-sandbox-cli-'));
    dirs.push(dir);
    const data = join(dir, 'state.json');
    const first = sandboxCli(['--port', '0', '--data', data, '--quiet']);
    const base = await listening(first);
    const id = /(\d+)<\/string>/.exec(await (await createSite(base, 'Kept Knob')).text())![1]!;
    const banner = first.stdout();
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(first.stdout().slice(banner.length)).not.toMatch(/SitesAPI/);

    const second = sandboxCli(['--port', '0', '--data', data, '--quiet']);
    const again = await listening(second);
    const sites = (await (await fetch(`${again}/_sandbox/sites`)).json()) as Array<{ id: string; name: string }>;
    expect(sites.find((site) => site.id === id)?.name).toBe('Kept Knob');
  });

  it('refuses a bad flag with exit 2 and says why, before listening', async () => {
    const run = sandboxCli(['--port', 'eighty']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(/--port must be a whole number/);
    const rate = sandboxCli(['--failure-rate', '2']);
    expect(await rate.exit).toBe(2);
    expect(rate.stderr()).toMatch(/--failure-rate must be a number from 0 to 1/);
  });

  it('says so when the port is taken, with exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const run = sandboxCli(['--port', String(port)]);
      expect(await run.exit).toBe(1);
      expect(run.stderr()).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });
});
