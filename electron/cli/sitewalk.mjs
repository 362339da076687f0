#!/usr/bin/env node
// The `sitewalk` executable of a checkout. It runs the command as one CommonJS bundle built with the
// app's esbuild settings (bundle.ts, into out/cli/): a command starts in ~0.2 s and ~90 MB instead of
// ~0.7 s and ~150 MB compiling some 600 TypeScript modules through tsx at every start. The first run
// builds the bundle (about a second), and so does the first run after any file it was made from
// changed (an edit, a checkout, an upgraded package) or under another Node. Where it cannot be built
// (a checkout that cannot be written), the TypeScript runs through tsx as it always did.
// SITEWALK_CLI_BUNDLE_DIR names another folder for it, under the checkout (the tests' own).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.env.SITEWALK_CLI_BUNDLE_DIR || join(root, 'out', 'cli');
const bundle = join(dir, 'sitewalk.cjs');

/** Whether the bundle was built by this Node from every file as it is now (bundle.ts writes inputs.json). */
function fresh() {
  try {
    const { node, inputs } = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8'));
    if (node !== process.versions.node.split('.')[0] || !existsSync(bundle)) return false;
    return inputs.every(([path, mtimeMs, size]) => {
      const now = statSync(join(root, path));
      return now.mtimeMs === mtimeMs && now.size === size;
    });
  } catch {
    return false;
  }
}

let ready = fresh();
if (!ready) {
  const { register } = await import('tsx/esm/api');
  register();
  try {
    await (await import('./bundle.ts')).buildCliBundle(root, dir);
    ready = existsSync(bundle);
  } catch {
    // Not writable, or esbuild missing: the sources run through tsx below.
  }
  if (!ready) await import('./run.ts');
}
if (ready) createRequire(import.meta.url)(bundle);
