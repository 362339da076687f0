// The one way tests run `sitewalk`. Most tests call the CLI's main() in this process (`runSitewalk`):
// the same program, the same argv parsing and exit codes, without paying a Node and tsx start per
// command. A few tests start the real executable (`startSitewalk`, `sitewalk.mjs` through its
// shebang) for what only a process shows: its exit status, a signal, the shebang itself.
// Either way the CLI is cut off from the machine it runs on: HOME and XDG_CONFIG_HOME in a folder of
// the test's (a slip to the default data folder lands there, never in the real home), no
// SITEWALK_DATA_DIR or SITEWALK_KEY from the outside, no colours, and no OS keyring (keys given to
// the CLI are kept for the run only, as on most CI machines).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { main, type CliIo } from '../../electron/cli/main';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { makeTempDir, type TempDir } from './temp';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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
  /** Set in the CLI's environment over the isolated one (SITEWALK_KEY, for one). */
  env?: Record<string, string>;
  /** What the CLI reads on stdin (default: nothing). */
  stdin?: string;
  /** The folder a started process runs in (default: the project's root). */
  cwd?: string;
}

/** The environment a user's shell gives the CLI, minus anything of this machine's (SITEWALK_DATA_DIR, SITEWALK_KEY…). */
function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent-sitewalk-test',
    ...extra,
  };
}

/** Runs `sitewalk …args` in this process with `home` as its HOME, and returns what a shell would see. */
export async function runSitewalk(home: string, args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: isolatedEnv(home, options.env),
    stdin: async () => options.stdin ?? '',
    stderrIsTty: false,
  };
  const code = await main(args, io, {
    // The keyring is the machine's, shared by every process of the user: a run keeps keys in memory,
    // as the executable does where no keyring answers.
    coreOptions: { secretStore: createSessionSecretStore() },
    // Ctrl-C belongs to the process running the tests, not to this run (startSitewalk has a real one).
    interrupt: () => () => undefined,
  });
  return { code, stdout, stderr, json: parseJson(stdout) };
}

/**
 * Starts the real executable (`electron/cli/sitewalk.mjs`, run through its shebang) with `home` as its
 * HOME; `child` is the sitewalk process itself, for signals. A run that hangs is killed after 90 s.
 */
export function startSitewalk(home: string, args: string[], options: CliRunOptions = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(SITEWALK, args, { cwd: options.cwd ?? ROOT, env: isolatedEnv(home, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const done = new Promise<CliRun>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, json: parseJson(stdout) });
    });
  });
  child.stdin!.end(options.stdin ?? '');
  return { child, done };
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
