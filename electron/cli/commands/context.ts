// What every offline-core command shares: where the data folder is (core/storage/data-dir.ts: the
// same rule, and so the same folder, as the app), opening the core on it for one run (no automatic
// sending: only `sync` sends), and SITEWALK_KEY as a key for this run only. The output conventions
// (human text on stdout, one JSON document with --json, sentences on stderr, never the key) are in
// ../io.ts.
import type { Command } from 'commander';
import { openCore, type CoreOptions, type SitewalkCore } from '../../core/open-core';
import { builtInSandbox } from '../../sandbox/builtin';
import { resolveDataDir } from '../../core/storage/data-dir';
import { fail, issuesExit, type CliIo, type CommonFlags } from '../io';

export const DATA_DIR_HELP = 'data folder (default: $SITEWALK_DATA_DIR, else the app\'s data folder)';

export interface CoreCommandOptions {
  /** Extra options for openCore (tests: a sandbox starter, a secret store). */
  coreOptions?: Partial<Omit<CoreOptions, 'dataDir'>>;
}

/** Adds --data-dir and --json to a command. */
export function withCommonOptions(command: Command): Command {
  return command.option('--data-dir <dir>', DATA_DIR_HELP).option('--json', 'print one JSON document on stdout (stable for scripts)');
}

/**
 * Opens the core for one command, runs `work`, and closes it whatever happens. The app (or another
 * command) may have the same folder open meanwhile: the database is shared. SITEWALK_KEY, when set,
 * is the active profile's key for this run only.
 */
export async function withCore<T>(io: CliIo, flags: CommonFlags, options: CoreCommandOptions, work: (core: SitewalkCore) => Promise<T>): Promise<T> {
  const dataDir = resolveDataDir({ flag: flags.dataDir, env: io.env });
  let core: SitewalkCore;
  try {
    core = await openCore({
      dataDir,
      autoSync: false,
      sandbox: builtInSandbox,
      ...(io.fetch ? { fetch: io.fetch } : {}),
      log: (line) => io.stderr(`sitewalk: ${line}\n`),
      ...options.coreOptions,
    });
  } catch (error) {
    fail(io, flags, `The data folder ${dataDir} cannot be opened: ${error instanceof Error ? error.message : String(error)}`, { kind: 'data-dir' });
  }
  // Trouble that belongs to no single answer (a data file that could not be written) is said too.
  const unsubscribe = core.on('problem', ({ message }) => io.stderr(`sitewalk: ${message}\n`));
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
    unsubscribe();
    await core.close();
  }
}
