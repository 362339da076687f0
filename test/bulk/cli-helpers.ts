// Runs `sitewalk` as users do (node electron/cli/sitewalk.mjs …) in a child process, with a temp
// data folder per test that is always removed. Generous time limits: a loaded 2-core machine
// starts tsx slowly, and the tests must not be flaky there.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, type TempDir } from '../support/temp';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'electron', 'cli', 'sitewalk.mjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed document, checked field by field in the tests
  json: Record<string, any> | null;
}

export interface CliOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  onStderr?: (text: string) => void;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return startCli(args, options).done;
}

/** Starts `sitewalk`; `child` is the sitewalk process itself (node runs the script directly), for signals. */
export function startCli(args: string[], options: CliOptions = {}): { child: ChildProcess; done: Promise<CliRun> } {
  let child!: ChildProcess;
  const done = new Promise<CliRun>((resolve, reject) => {
    child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      options.onStderr?.(chunk);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sitewalk ${args.join(' ')} did not finish within ${options.timeoutMs ?? 90_000} ms\n${stderr}`));
    }, options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let json: CliRun['json'] = null;
      if (stdout.trim().startsWith('{')) {
        try {
          json = JSON.parse(stdout) as CliRun['json'];
        } catch {
          json = null;
        }
      }
      resolve({ code, stdout, stderr, json });
    });
  });
  return { child, done };
}

/** A data folder for one test; `remove` is called by the test's afterEach. (New tests take the tempDir fixture of test/support/fixtures.ts.) */
export function tempDataDir(): Promise<TempDir> {
  return makeTempDir('sitewalk-bulk-cli-');
}
