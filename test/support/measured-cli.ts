// The CLI in a process of its own — the run's bundle of it (process-bundles.ts) or the shipped
// executable, a clean environment, no keyring — with its peak RSS reported on request: for the tests
// that hold imports of large and hostile files to a memory bound, and the ones that signal or kill it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Children } from './children';
import { ROOT } from './cli';
import { bundledProcess } from './process-bundles';

/** What no import may take the process past. */
export const PEAK_RSS = 400 * 1024 * 1024;
const HOOK = fileURLToPath(new URL('./report-peak-rss.mjs', import.meta.url));

/** The environment that makes a run print `peak-rss N` lines on stderr (report-peak-rss.mjs). */
export const MEASURE_PEAK: Record<string, string> = { NODE_OPTIONS: `--import ${HOOK}` };

/** The process's peak RSS: the largest reported (the hook reports from the preview's worker thread too, as it ends). */
export function peakOf(stderr: string): number {
  const peaks = [...stderr.matchAll(/^peak-rss (\d+)$/gm)].map((match) => Number(match[1]));
  if (peaks.length === 0) throw new Error(`no peak-rss line in: ${stderr.slice(-500)}`);
  return Math.max(...peaks);
}

/** The environment of a `sitewalk` process with `home` as its home folder: nothing of this machine's, no OS keyring. */
function sitewalkEnv(home: string, env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent-sitewalk-test', ...env };
}

/**
 * Which `sitewalk` runs: the run's bundle, or the shipped executable (sitewalk.mjs through its
 * shebang, which runs a bundle of its own, building it first when it is missing or stale: then tsx
 * is loaded too, which holds memory of its own — the 40 MB KML peaked at 292 MB through tsx and
 * 187 MB bundled): the same program, so a bound users meet is checked on the shipped one too.
 */
export type SitewalkBuild = 'bundle' | 'shipped';
const SHIPPED = join(ROOT, 'electron/cli/sitewalk.mjs');

/** `sitewalk ARGS` in a process of its own, stderr piped, stdin and stdout ignored. */
export function spawnSitewalk(children: Children, home: string, args: string[], env: Record<string, string> = {}, build: SitewalkBuild = 'bundle') {
  const [command, argv] = build === 'shipped' ? [SHIPPED, args] : [process.execPath, [bundledProcess('sitewalk'), ...args]];
  return children.spawn(command, argv, { cwd: ROOT, env: sitewalkEnv(home, env), stdio: ['ignore', 'ignore', 'pipe'] });
}

/** `sitewalk ARGS` with `home` as its home folder: the child, and its exit code (or the signal that ended it) and stderr once it ends. */
export function startSitewalk(children: Children, home: string, args: string[], env: Record<string, string> = {}, build: SitewalkBuild = 'bundle') {
  const child = spawnSitewalk(children, home, args, env, build);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
  return { child, done };
}

/** The scratch preview files an import keeps in `dataDir`'s uploads/ while it checks a file. */
export function scratchPreviews(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'uploads')).filter((name) => name.endsWith('-preview.upload'));
  } catch {
    return [];
  }
}
