// The browser host in a process of its own, as `npm start --browser` wires it (sandbox service,
// session keychain, basemaps), for tests that measure what a file does to the whole process (its
// peak RSS, whether its API still answers) and what the next start finds. Prints one JSON line,
// {"port":…,"token":…}; SIGTERM closes it as the app closes.
//   node --import tsx test/support/host-process.ts DATA_DIR   (or the bundle process-bundles.ts builds)
import { join } from 'node:path';
import { startBrowserHost } from '../../electron/browser-host/server';
import { openHostBackend } from '../../electron/core/host-backend';
import { testCoreOptions } from './core';

// No top-level await: the tests start this file as a CommonJS bundle (process-bundles.ts).
async function run(dataDir: string): Promise<void> {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const backend = await openHostBackend({ host: 'browser', ...testCoreOptions({ dataDir }), tiles: {}, log });
  const host = await startBrowserHost({ hostApi: backend.hostApi, staticDir: join(dataDir, 'no-renderer'), port: 0, tiles: backend.tiles, log });
  process.on('SIGTERM', () => {
    void host
      .close()
      .then(() => backend.close())
      .then(() => process.exit(0));
  });
  process.stdout.write(`${JSON.stringify({ port: host.port, token: host.token })}\n`);
}

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: host-process.ts DATA_DIR');
void run(dataDir);
