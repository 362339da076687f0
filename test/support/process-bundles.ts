// The processes the heavy tests start, as bundles built once a run (process-bundles-setup.ts, the
// `heavy` project's global setup): `node <bundledProcess(name)> ARGS`. The shipped `sitewalk`
// executable (sitewalk.mjs through its shebang, which builds and runs a bundle of its own: electron/cli/bundle.ts)
// keeps its own tests (test/cli/executable.test.ts).
import { join } from 'node:path';
import { inject } from 'vitest';
import type { BundledProcess } from './process-bundles-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the run's process bundles. */
    processBundles: string;
  }
}

/** The bundle of `name`, to start with process.execPath. */
export function bundledProcess(name: BundledProcess): string {
  const dir = inject('processBundles');
  if (!dir) throw new Error(`No process bundles in this run: ${name}.cjs is built by test/support/process-bundles-setup.ts, the global setup of the heavy project (vitest.config.ts).`);
  return join(dir, `${name}.cjs`);
}
