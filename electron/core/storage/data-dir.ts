// The data folder: which one (the same rule for the Electron host, the browser host and the CLI, so
// all three see one set of profiles and one outbox) and how it is created (private to its owner).
// Rule: --data-dir, else SITEWALK_DATA_DIR, else the OS's app data folder + "Sitewalk"; a blank
// value counts as not given. The answer is absolute, so a relative --data-dir names the same folder
// whichever process later works in it.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The folder's name inside the OS's app data folder. */
export const APP_FOLDER_NAME = 'Sitewalk';
/** The environment variable that chooses the data folder when --data-dir is not given. */
export const DATA_DIR_ENV = 'SITEWALK_DATA_DIR';
/** Owner only: the folder holds profiles, queued edits and (on some hosts) encrypted keys. */
export const DATA_DIR_MODE = 0o700;

export type Env = Record<string, string | undefined>;

/**
 * The OS's folder for applications' data, as Electron's app.getPath('appData') names it:
 * %APPDATA% on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME (when absolute)
 * or ~/.config elsewhere.
 */
export function appDataFolder(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
}

/** The data folder when nothing chooses another: <app data folder>/Sitewalk. */
export function defaultDataDir(appData: string = appDataFolder()): string {
  return join(appData, APP_FOLDER_NAME);
}

export interface DataDirSources {
  /** --data-dir as the user gave it; blank = not given. */
  flag?: string | undefined;
  /** Where SITEWALK_DATA_DIR (and, for the default, APPDATA / XDG_CONFIG_HOME) is read. Default: process.env. */
  env?: Env;
  /** The OS's app data folder: the Electron host passes app.getPath('appData'). Default: appDataFolder(env). */
  appData?: string;
}

/** The data folder, absolute: --data-dir, else SITEWALK_DATA_DIR, else the default. */
export function resolveDataDir(sources: DataDirSources = {}): string {
  const env = sources.env ?? process.env;
  const chosen = nonBlank(sources.flag) ?? nonBlank(env[DATA_DIR_ENV]) ?? defaultDataDir(sources.appData ?? appDataFolder(env));
  return resolve(chosen);
}

/**
 * The value of `--data-dir DIR` or `--data-dir=DIR` in a raw argv, for a host that has no option
 * parser of its own (Electron's main, whose argv also carries the binary, the app path and
 * Chromium's switches); undefined when absent.
 */
export function dataDirArgument(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--data-dir' && argv[index + 1]) return argv[index + 1]!;
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
  }
  return undefined;
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

export interface DataDirCheck {
  /** True when this call created the folder (it is then exactly 0700, whatever the umask). */
  created: boolean;
  /** A sentence for the user when other users of the computer can list or enter the (existing) folder; POSIX only. */
  warning: string | null;
}

/**
 * Makes sure the data folder exists. A folder created here (with any missing parents) gets mode
 * 0700, chmod-ed so a permissive umask cannot widen it. An existing folder is left as it is, but
 * when its group or others can read or enter it the answer carries a warning to show the user.
 * Throws when the folder cannot be created (a file in the way, no permission).
 */
export function ensureDataDir(path: string, platform: NodeJS.Platform = process.platform): DataDirCheck {
  const target = resolve(path);
  let firstCreated: string | undefined;
  try {
    firstCreated = mkdirSync(target, { recursive: true, mode: DATA_DIR_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new Error(`The data folder ${target} cannot be created: there is a file in its place (or in the place of a folder above it). Choose another data folder.`, { cause: error });
    }
    throw error;
  }
  const posix = platform !== 'win32';
  if (firstCreated !== undefined) {
    // mkdir's mode is filtered by the umask; chmod is not. Every folder created here, not only the last.
    if (posix) {
      const top = resolve(firstCreated);
      for (let folder = target; ; folder = dirname(folder)) {
        chmodSync(folder, DATA_DIR_MODE);
        if (folder === top || dirname(folder) === folder) break;
      }
    }
    return { created: true, warning: null };
  }
  if (!posix) return { created: false, warning: null };
  const mode = statSync(target).mode & 0o777;
  if ((mode & 0o055) === 0) return { created: false, warning: null };
  const who = (mode & 0o005) !== 0 ? 'every user of this computer' : 'the other users of its group';
  return {
    created: false,
    warning:
      `The data folder ${target} can be opened by ${who} (its permissions are ${mode.toString(8).padStart(3, '0')}), ` +
      `and it holds your profiles and queued edits. To keep it to yourself, run: chmod 700 "${target}"`,
  };
}
