// Builds what the app runs from dist/: the renderer (Vite, when its output is missing or older than
// any source it is built from) and the Electron main + preload bundles (esbuild; the preload as one
// CommonJS file, since a sandboxed preload can require nothing but 'electron'). Build output goes
// to stderr: callers such as `npm start` keep stdout for their one line. Also finds the Electron
// binary, without the download that `require('electron')` would attempt.
// Run directly: `tsx electron/main/build.ts` (everything) or `--main-only`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNodeEntry, commonBundleOptions, nodeBundleOptions } from '../node/bundle';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export const paths = (root = ROOT) => ({
  rendererDir: join(root, 'dist/renderer'),
  rendererIndex: join(root, 'dist/renderer/index.html'),
  viteConfig: join(root, 'renderer/vite.config.ts'),
  mainBundle: join(root, 'dist/electron/main.cjs'),
  preloadBundle: join(root, 'dist/electron/preload.cjs'),
  /** The import preview's worker thread, beside main.cjs, where core/bulk/preview-off-thread.ts looks for it. */
  previewWorkerBundle: join(root, 'dist/electron/preview-thread.cjs'),
  /** The MBTiles reader, beside main.cjs: the app runs it as a utility process (mbtiles-utility-process.ts). */
  mbtilesChildBundle: join(root, 'dist/electron/mbtiles-child.cjs'),
});

/** Folders whose files end up in the renderer bundle (it imports the contract, validation, bulk). */
const RENDERER_SOURCES = ['renderer', 'assets', 'electron/api.ts', 'electron/core', 'package.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** Whether dist/renderer must be (re)built: missing, or older than a source. */
export function rendererIsStale(root = ROOT): boolean {
  const index = paths(root).rendererIndex;
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return RENDERER_SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

export async function buildRenderer(root = ROOT): Promise<void> {
  const { viteConfig } = paths(root);
  if (!existsSync(viteConfig)) throw new Error(`Cannot build the interface: ${viteConfig} is missing.`);
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  await new Promise<void>((resolveBuild, rejectBuild) => {
    const child = spawn(process.execPath, [vite, 'build', '--config', viteConfig, '--logLevel', 'warn'], {
      cwd: root,
      // Vite writes progress to stdout; ours is reserved, so its stdout joins our stderr.
      stdio: ['ignore', process.stderr, process.stderr],
    });
    child.on('error', rejectBuild);
    child.on('exit', (code, signal) =>
      code === 0 ? resolveBuild() : rejectBuild(new Error(`Building the interface failed (vite exited with ${signal ?? code}).`)),
    );
  });
}

/** Builds dist/renderer unless it is up to date. Returns whether it built. */
export async function ensureRenderer(root = ROOT): Promise<boolean> {
  if (!rendererIsStale(root)) return false;
  await buildRenderer(root);
  return true;
}

/** The MBTiles reader as one CommonJS file: the app's is beside main.cjs; tests build one elsewhere. */
export async function bundleMbtilesChild(outfile: string, root = ROOT): Promise<void> {
  // A process of its own for every MBTiles read (a query SQLite would run for hours is ended by killing it).
  await bundleNodeEntry('electron/core/tiles/mbtiles-child.ts', outfile, root);
}

/** Electron 45 runs Node 22 in main and Chromium 140 in the preload. */
export async function bundleElectron(root = ROOT): Promise<void> {
  const esbuild = await import('esbuild');
  const { mainBundle, preloadBundle, previewWorkerBundle, mbtilesChildBundle } = paths(root);
  const node = nodeBundleOptions(root);
  await Promise.all([
    esbuild.build({ ...node, entryPoints: [join(root, 'electron/main/index.ts')], outfile: mainBundle }),
    // A file of its own: a worker thread starts from a file, and the main bundle has no other to give it.
    esbuild.build({ ...node, entryPoints: [join(root, 'electron/core/bulk/preview-thread.ts')], outfile: previewWorkerBundle }),
    bundleMbtilesChild(mbtilesChildBundle, root),
    esbuild.build({
      ...commonBundleOptions(root),
      entryPoints: [join(root, 'electron/preload/index.ts')],
      outfile: preloadBundle,
      platform: 'browser',
      target: 'chrome140',
      external: ['electron'],
    }),
  ]);
}

/**
 * The Electron executable, or why there is none. `require('electron')` would try to download a
 * missing binary (network!), so the package's own lookup is repeated here without that step.
 */
export function findElectronBinary(root = ROOT, env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = join(override, relative || 'electron');
    return existsSync(binary) ? { path: binary } : { missing: `no Electron binary at ${binary}` };
  }
  if (!relative) return { missing: 'the Electron binary was never downloaded' };
  const binary = join(packageDir, 'dist', relative);
  return existsSync(binary) ? { path: binary } : { missing: `no Electron binary at ${binary}` };
}

async function main(argv: string[]): Promise<void> {
  if (!argv.includes('--main-only')) await buildRenderer();
  await bundleElectron();
  process.stderr.write(`Built ${argv.includes('--main-only') ? '' : 'dist/renderer and '}dist/electron.\n`);
}

// Run as a script, not imported. In a bundle that includes this module (the tests' bundle of
// start.ts) import.meta.url is the bundle's own, so the file's name is checked too.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url) && import.meta.url.endsWith('/build.ts')) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
