// esbuild's settings for the app's bundles, and one Node entry bundled with them: main.cjs and the
// files beside it (../main/build.ts), the `sitewalk` command's own bundle (../cli/bundle.ts) and the
// processes tests start (test/support/process-bundles-setup.ts), which pay a bundle's start instead of
// compiling TypeScript in every process.
import { join } from 'node:path';

/** esbuild's settings for every bundle of the app. */
export const commonBundleOptions = (root: string) => ({
  bundle: true,
  format: 'cjs' as const,
  sourcemap: true,
  logLevel: 'warning' as const,
  legalComments: 'none' as const,
  absWorkingDir: root,
});

/** The Node that Electron 45 runs in main (and in the files main.cjs starts). */
export const ELECTRON_NODE = 'node22';

/** esbuild's settings for what runs as Node: main.cjs and the files beside it, for `target`. */
export function nodeBundleOptions(root: string, target = ELECTRON_NODE) {
  return {
    ...commonBundleOptions(root),
    platform: 'node' as const,
    target,
    // Native bindings (the keyring, SQLite) are loaded from node_modules at run time.
    external: ['electron', '@napi-rs/keyring', 'better-sqlite3'],
    // Bundled ESM packages ask import.meta.url for their own location.
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  };
}

/**
 * One entry (a path relative to `root`) as a CommonJS file for Node `target`, with the app's settings.
 * Returns the files it was made from (relative to `root`, node_modules' included).
 */
export async function bundleNodeEntry(entry: string, outfile: string, root: string, target = ELECTRON_NODE): Promise<string[]> {
  const esbuild = await import('esbuild');
  const built = await esbuild.build({ ...nodeBundleOptions(root, target), entryPoints: [join(root, entry)], outfile, metafile: true });
  return Object.keys(built.metafile.inputs);
}
