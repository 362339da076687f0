// Builds, once a test run, the processes the heavy tests start again and again — the `sitewalk` CLI,
// the browser host of host-process.ts, the crash test's child — as CommonJS bundles with the app's
// esbuild settings (electron/main/build.ts), the preview's worker thread and the MBTiles reader beside
// them as beside main.cjs. Started with `node --import tsx`, each process compiled and loaded some 600
// TypeScript modules through the loader, and its preview's worker thread did it again: about a
// second of CPU a start, hundreds of starts a run. A bundle starts in under half of that.
// They go to out/test-run-<pid>/ (ignored by git and the linter): two levels under the root, as
// dist/electron/ is, so what a bundle finds from its own place (node_modules for the native modules)
// is what the app's bundles find. The folder goes when the run ends; one left by a killed run goes
// at the next. Vitest loads this file once per project that lists it; they share one build.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from '../../electron/main/build';
import { bundleNodeEntry } from '../../electron/node/bundle';

/** Each bundle's name (`NAME.cjs`) and its entry, relative to the root. */
const ENTRIES = {
  sitewalk: 'electron/cli/run.ts',
  'host-process': 'test/support/host-process.ts',
  'crash-child': 'test/core/crash-child.ts',
  // The app as `npm start` runs it (many-processes kills and restarts it).
  start: 'electron/start.ts',
  // Beside the bundles that start them, where preview-off-thread.ts and mbtiles-fork.ts look.
  'preview-thread': 'electron/core/bulk/preview-thread.ts',
  'mbtiles-child': 'electron/core/tiles/mbtiles-child.ts',
} as const;

export type BundledProcess = keyof typeof ENTRIES;

const OUT = join(ROOT, 'out');
const PREFIX = 'test-run-';

interface Build {
  dir: Promise<string>;
  users: number;
}
const shared = globalThis as { sitewalkProcessBundles?: Build };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function build(): Promise<string> {
  const stale = (await readdir(OUT).catch(() => [] as string[])).filter((name) => name.startsWith(PREFIX) && !alive(Number(name.slice(PREFIX.length))));
  await Promise.all(stale.map((name) => rm(join(OUT, name), { recursive: true, force: true })));
  const dir = join(OUT, `${PREFIX}${process.pid}`);
  // The Node running the tests, not Electron's: its children run on the same.
  const target = `node${process.versions.node.split('.')[0]}`;
  await Promise.all(Object.entries(ENTRIES).map(([name, entry]) => bundleNodeEntry(entry, join(dir, `${name}.cjs`), ROOT, target)));
  return dir;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = (shared.sitewalkProcessBundles ??= { dir: build(), users: 0 });
  run.users++;
  const dir = await run.dir;
  project.provide('processBundles', dir);
  // The in-process CLI, hosts and app of the unit and end-to-end files start their import previews'
  // worker threads and MBTiles readers from these bundles too (electron/node/prebuilt.ts); the test
  // workers are started after this and inherit it.
  process.env['SITEWALK_PROCESS_BUNDLES'] = dir;
  return async () => {
    if (--run.users > 0) return;
    shared.sitewalkProcessBundles = undefined;
    await rm(await run.dir, { recursive: true, force: true });
  };
}
