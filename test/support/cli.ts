// The `sitewalk` CLI as a user runs it: the real executable (node electron/cli/sitewalk.mjs) in a child
// process, from the repository's root, cut off from the machine it runs on — HOME and XDG_CONFIG_HOME in
// a folder of the test's (a slip to the default data folder lands there, never in the real home), no
// SITEWALK_DATA_DIR or SITEWALK_KEY from the outside, no colours, and no keyring (keys given to the CLI
// are kept for the run only, as on most CI machines). A run that hangs is killed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { makeTempDir, type TempDir } from './temp';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITEWALK = join(ROOT, 'electron/cli/sitewalk.mjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON; null when it is not one JSON document. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed document, checked field by field
  json: any;
}

export interface CliRunOptions {
  /** Set in the child's environment over the isolated one (SITEWALK_KEY, for one). */
  env?: Record<string, string>;
  /** Written to the child's stdin, which is then closed (default: nothing). */
  stdin?: string;
}

/** Runs `sitewalk …args` with `home` as its HOME; never leaves a process behind (killed after 90 s). */
export function runSitewalk(home: string, args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SITEWALK, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        SITEWALK_DATA_DIR: '',
        SITEWALK_KEY: '',
        NO_COLOR: '1',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent-sitewalk-test',
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, json: parseJson(stdout) });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/**
 * For the tests of a file (or of the describe block it is called in): a HOME folder made before the
 * first and removed after the last, and `runSitewalk` with that HOME.
 */
export function sitewalkInTempHome(): (args: string[], options?: CliRunOptions) => Promise<CliRun> {
  let home: TempDir | undefined;
  beforeAll(async () => {
    home = await makeTempDir('sitewalk-cli-home-');
  });
  afterAll(async () => {
    await home?.remove();
  });
  return (args, options) => {
    if (!home) throw new Error('sitewalkInTempHome: the CLI was run outside the tests it was set up for');
    return runSitewalk(home.path, args, options);
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
