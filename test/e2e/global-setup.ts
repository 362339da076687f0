// Builds the renderer once for the whole e2e run, so every test serves the code under test (and
// `npm start` finds dist/renderer up to date instead of building it inside a test's time limit).
// Without Chromium the tests skip themselves and say why; under CI that is a failure instead, so a
// missing install step can never pass as green.
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { E2E_SKIP_REASON } from './helpers';

export default async function setup(): Promise<void> {
  if (E2E_SKIP_REASON !== null) {
    if (process.env.CI) throw new Error(`CI=true but the end-to-end tests cannot run: ${E2E_SKIP_REASON}.`);
    process.stderr.write(`test/e2e SKIPPED: ${E2E_SKIP_REASON}\n`);
    return;
  }
  await build({
    configFile: fileURLToPath(new URL('../../renderer/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
