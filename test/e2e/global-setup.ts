// Builds the renderer once for the whole e2e run, so every test serves the code under test (and
// `npm start` finds dist/renderer up to date instead of building it inside a test's time limit).
import { build } from 'vite';
import { fileURLToPath } from 'node:url';

export default async function setup(): Promise<void> {
  await build({
    configFile: fileURLToPath(new URL('../../renderer/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
