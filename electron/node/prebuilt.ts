// The processes and threads Sitewalk starts (the import preview's worker thread, the MBTiles reader)
// run from bundles beside the app's own (dist/electron, app.asar.unpacked) or, where the app runs from
// source, from their TypeScript through tsx, which compiles and loads them again at every start. A
// process running from source may be given a folder of them built elsewhere: SITEWALK_PROCESS_BUNDLES
// (the test run builds one for its in-process CLI, hosts and app: test/support/process-bundles-setup.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** `NAME.cjs` in the folder SITEWALK_PROCESS_BUNDLES names, when there is one; else null. */
export function prebuilt(name: 'preview-thread' | 'mbtiles-child'): string | null {
  const dir = process.env['SITEWALK_PROCESS_BUNDLES'];
  if (!dir) return null;
  const path = join(dir, `${name}.cjs`);
  return existsSync(path) ? path : null;
}
