// The Electron entry (bundled to dist/electron/main.cjs): reads --data-dir, then hands the real
// electron module and the app's stores to createMainApp. Everything with a decision in it lives in
// app.ts and the modules it wires; this file only chooses the real implementations.
import { join } from 'node:path';
import * as electron from 'electron';
import ElectronStore from 'electron-store';
import { openHostBackend } from '../core/host-api';
import { chooseSecretStore } from '../core/profiles/secrets';
import { createMainApp } from './app';

/** `--data-dir DIR` / `--data-dir=DIR`, else SITEWALK_DATA_DIR, else the OS's app data folder. */
export function dataDirFrom(argv: string[], env: NodeJS.ProcessEnv, appData: string): string {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--data-dir' && argv[index + 1]) return argv[index + 1]!;
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
  }
  return env.SITEWALK_DATA_DIR || join(appData, 'Sitewalk');
}

const dataDir = dataDirFrom(process.argv, process.env, electron.app.getPath('appData'));
// The same files conf writes for the CLI and the browser host: one format, whichever host ran last.
const storeFor = (name: string) =>
  new ElectronStore<Record<string, unknown>>({ cwd: dataDir, name, accessPropertiesByDotNotation: false, configFileMode: 0o600 });

createMainApp(electron, {
  dataDir,
  rendererDir: join(__dirname, '..', 'renderer'),
  preloadPath: join(__dirname, 'preload.cjs'),
  openBackend: (deps) => openHostBackend({ ...deps, host: 'electron', kvStoreFactory: storeFor }),
  fallbackSecretStore: () => chooseSecretStore(),
  windowStore: storeFor('window-state'),
  onlinePollMs: 5_000,
});

// `npm start` forwards Ctrl-C / SIGTERM: quit through before-quit, which flushes the outbox.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => electron.app.quit());
