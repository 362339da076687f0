// The Electron entry (bundled to dist/electron/main.cjs): reads --data-dir, then hands the real
// electron module and the app's stores to createMainApp. Everything with a decision in it lives in
// app.ts and the modules it wires; this file only chooses the real implementations.
import { join } from 'node:path';
import * as electron from 'electron';
import ElectronStore from 'electron-store';
import { openHostBackend } from '../core/host-backend';
import { builtInSandbox } from '../sandbox/builtin';
import { chooseSecretStore } from '../core/profiles/secrets';
import { dataDirArgument, resolveDataDir } from '../core/storage/data-dir';
import { createMainApp } from './app';

// The rule every host and the CLI share, with Electron's own app data folder as the default's base.
const dataDir = resolveDataDir({ flag: dataDirArgument(process.argv), env: process.env, appData: electron.app.getPath('appData') });
// The same files conf writes for the CLI and the browser host: one format, whichever host ran last.
const storeFor = (name: string) =>
  new ElectronStore<Record<string, unknown>>({ cwd: dataDir, name, accessPropertiesByDotNotation: false, configFileMode: 0o600 });

createMainApp(electron, {
  dataDir,
  rendererDir: join(__dirname, '..', 'renderer'),
  preloadPath: join(__dirname, 'preload.cjs'),
  mbtilesChildPath: join(__dirname, 'mbtiles-child.cjs'),
  openBackend: (deps) => openHostBackend({ ...deps, host: 'electron', kvStoreFactory: storeFor, sandbox: builtInSandbox }),
  fallbackSecretStore: () => chooseSecretStore(),
  windowStore: storeFor('window-state'),
  onlinePollMs: 5_000,
});

// `npm start` forwards Ctrl-C / SIGTERM: quit through before-quit, which flushes the outbox.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => electron.app.quit());
