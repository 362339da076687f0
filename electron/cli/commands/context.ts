// What every offline-core command shares: where the data folder is (--data-dir, else
// SITEWALK_DATA_DIR, else the OS's app data folder — the same one the app uses), opening the core
// on it for one run (no automatic sending: only `sync` sends), SITEWALK_KEY as a key for this run
// only, and the output conventions: human text on stdout by default, one JSON document with
// --json, sentences and progress on stderr, never the key anywhere.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { openCore, type CoreOptions, type SitewalkCore } from '../../core/app';
import { DataDirBusyError } from '../../core/storage/lock';
import type { InputIssue } from '../../core/service/types';
// main.ts imports this module (through index.ts): only use its exports inside functions, never at load.
import { CliExit, printJson, usageError, type CliIo } from '../main';

/** Exit codes of the offline-core commands (0, 1 and 2 as for every sitewalk command). */
export const EXIT = {
  ok: 0,
  /** The operation failed (the service refused, the data folder is in use or cannot be written); = EXIT_CALL_FAILED. */
  failed: 1,
  /** Bad input: nothing was queued or changed; = EXIT_USAGE. */
  usage: 2,
  /** sync: some entries failed or need review; they wait for the user. */
  attention: 3,
  /** sync: the profile is paused (quota used up, key refused) or has no key. */
  paused: 4,
  /** sync: the service could not be reached; entries are still queued. */
  offline: 5,
  /** sync (one pass): some entries wait to be sent again after a failure that may pass (a retry backoff). */
  waiting: 6,
} as const;

export const DATA_DIR_HELP = 'data folder (default: $SITEWALK_DATA_DIR, else the app\'s data folder)';

export interface CoreCommandOptions {
  /** Reads all of stdin (for --key-stdin). Default: process.stdin. */
  readStdin?: () => Promise<string>;
  /** Extra options for openCore (tests: a sandbox starter, a secret store). */
  coreOptions?: Partial<Omit<CoreOptions, 'dataDir'>>;
}

export interface CommonFlags {
  dataDir?: string;
  json?: boolean;
}

/** The OS's place for an app's data, as the app itself uses it: ~/.config/Sitewalk, %APPDATA%\Sitewalk, ~/Library/Application Support/Sitewalk. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Sitewalk');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Sitewalk');
  const config = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, 'Sitewalk');
}

export function resolveDataDir(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag && flag.trim() !== '') return flag;
  if (env.SITEWALK_DATA_DIR && env.SITEWALK_DATA_DIR.trim() !== '') return env.SITEWALK_DATA_DIR;
  return defaultDataDir(env);
}

/** Adds --data-dir and --json to a command. */
export function withCommonOptions(command: Command): Command {
  return command.option('--data-dir <dir>', DATA_DIR_HELP).option('--json', 'print one JSON document on stdout (stable for scripts)');
}

/**
 * Opens the core for one command, runs `work`, and closes it whatever happens (the data folder is
 * locked while open). SITEWALK_KEY, when set, is the active profile's key for this run only.
 */
export async function withCore<T>(io: CliIo, flags: CommonFlags, options: CoreCommandOptions, work: (core: SitewalkCore) => Promise<T>): Promise<T> {
  const dataDir = resolveDataDir(flags.dataDir, io.env);
  let core: SitewalkCore;
  try {
    core = await openCore({
      dataDir,
      autoSync: false,
      ...(io.fetch ? { fetch: io.fetch } : {}),
      log: (line) => io.stderr(`sitewalk: ${line}\n`),
      ...options.coreOptions,
    });
  } catch (error) {
    const message =
      error instanceof DataDirBusyError
        ? `${error.message}`
        : `The data folder ${dataDir} cannot be opened: ${error instanceof Error ? error.message : String(error)}`;
    fail(io, flags, message, { kind: error instanceof DataDirBusyError ? 'data-dir-busy' : 'data-dir' });
  }
  try {
    const key = io.env.SITEWALK_KEY;
    if (key !== undefined && key.trim() !== '') {
      const active = await core.profiles.active();
      if (!active.builtIn) {
        const set = await core.profiles.setKey(active.id, key, { sessionOnly: true });
        if (!set.ok) issuesExit(io, flags, set.issues.map((issue) => ({ ...issue, message: `SITEWALK_KEY: ${issue.message}` })));
      }
    }
    return await work(core);
  } finally {
    await core.close();
  }
}

/** Ends the run with the input's issues: exit 2, nothing queued. */
export function issuesExit(io: CliIo, flags: CommonFlags, issues: InputIssue[]): never {
  if (flags.json) usageError(io, issues);
  for (const issue of issues) io.stderr(`sitewalk: ${issue.message}\n`);
  throw new CliExit(EXIT.usage);
}

/** Ends the run with a failure sentence: exit 1 (or the code given). */
export function fail(io: CliIo, flags: CommonFlags, message: string, extra: Record<string, unknown> = {}, code: number = EXIT.failed): never {
  io.stderr(`sitewalk: ${message}\n`);
  if (flags.json) printJson(io, { ok: false, error: { message, ...extra } });
  throw new CliExit(code);
}

/** Prints the command's result: the JSON document with --json, else the human text. */
export function output(io: CliIo, flags: CommonFlags, document: unknown, human: () => string): void {
  if (flags.json) printJson(io, document);
  else {
    const text = human();
    if (text !== '') io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** Reads all of stdin as text. */
export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Columns padded to their widest cell, for human tables. */
export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd()).join('\n');
}
