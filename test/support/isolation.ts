// Which test files need a process of their own in a project that shares one between its files
// (`isolate: false`). Sharing saves importing the app again for every file (measured on a loaded
// machine: the unit files took 199 s of CPU in a process each, 118 s shared; eight end-to-end files
// 39 s and 25 s). But Vitest applies a fixture override written at a file's top level
// (`it.override('sandboxSeed', 'empty')`) to the shared `it` itself rather than to that file, so
// every file that runs after it in the same process would get it too. Inside a `describe` an
// override stays with its suite.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const TOP_LEVEL_OVERRIDE = /^(?:it|test)\.override\(/m;
const TEST_FILE = /\.test\.tsx?$/;

/** The test files under `folder` (relative to `root`) that override a fixture at their top level; paths relative to `root`, with forward slashes. */
export function filesOverridingAtTopLevel(root: string, folder = 'test'): string[] {
  // Files only: a failed component test leaves a folder named after its file (__screenshots__/x.test.tsx).
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((path) => TOP_LEVEL_OVERRIDE.test(readFileSync(join(root, path), 'utf8')))
    .sort();
}
