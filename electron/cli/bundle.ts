// The `sitewalk` command of a checkout as one CommonJS bundle, with the processes it starts beside it
// (the import preview's worker thread, the MBTiles reader: found there as beside main.cjs), built with
// the app's esbuild settings (../node/bundle.ts) into out/cli/: two levels under the root as
// electron/cli/ is, so the native modules left out of it are found in the same node_modules.
// sitewalk.mjs runs it while every file it was made from is as it was (inputs.json: each file's
// modification time and size, and the Node major it was built for), and has it built here when not.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleNodeEntry } from '../node/bundle';

/** Each file of the bundle folder (`NAME.cjs`) and its entry, relative to the root. */
const ENTRIES = {
  sitewalk: 'electron/cli/run.ts',
  'preview-thread': 'electron/core/bulk/preview-thread.ts',
  'mbtiles-child': 'electron/core/tiles/mbtiles-child.ts',
} as const;

/** The list sitewalk.mjs checks: written last, so a folder with it holds every file it vouches for. */
export const INPUTS_FILE = 'inputs.json';

export interface BundleInputs {
  /** The Node major the bundle was built for. */
  node: string;
  /** Every file it was made from (relative to the root), with its modification time (ms) and size. */
  inputs: Array<[path: string, mtimeMs: number, size: number]>;
}

/**
 * Builds the bundle into `dir` (under `root`'s folder, for node_modules): in a folder of its own, then
 * each file renamed into place, the list of inputs last. Two commands building at once each finish
 * whole; one already running keeps the files it loaded.
 */
export async function buildCliBundle(root: string, dir: string): Promise<void> {
  const node = process.versions.node.split('.')[0]!;
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  const started = Date.now();
  try {
    const made = await Promise.all(Object.entries(ENTRIES).map(([name, entry]) => bundleNodeEntry(entry, join(building, `${name}.cjs`), root, `node${node}`)));
    const inputs = await Promise.all(
      [...new Set(made.flat())].sort().map(async (path): Promise<BundleInputs['inputs'][number]> => {
        const { mtimeMs, size } = await stat(join(root, path));
        return [path, mtimeMs, size];
      }),
    );
    await mkdir(dir, { recursive: true });
    for (const name of await readdir(building)) await rename(join(building, name), join(dir, name));
    // A file changed while it was being read may be in the bundle as it was: then no list, and the
    // next command builds again (this one runs what was just built).
    if (inputs.some(([, mtimeMs]) => mtimeMs >= started - 1_000)) return;
    const list: BundleInputs = { node, inputs };
    await writeFile(join(building, INPUTS_FILE), JSON.stringify(list));
    await rename(join(building, INPUTS_FILE), join(dir, INPUTS_FILE));
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}
