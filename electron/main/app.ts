// The Electron host, kept thin: it wires Electron to the core through host-api and adds nothing of
// its own but window care. The electron namespace is passed in (createMainApp(electron, options)),
// so tests drive it with a small fake while the real entry passes the real module and the compiler
// checks every use against the types the electron package ships.
import { dirname, join } from 'node:path';
import type { BrowserWindow, WebContents } from 'electron';
import type { ApiEvent } from '../shared/contract/index';
import type { HostBackend } from '../core/host-backend';
import type { HostTileOptions } from '../core/host-api';
import type { FetchLike } from '../core/service/types';
import { tileUserAgent } from '../core/tiles';
import { EVENT_CHANNEL } from '../preload/channels';
import { registerInvokeHandler } from './ipc';
import { buildMenuTemplate } from './menu';
import { handleAppProtocol, registerAppScheme } from './protocol';
import { createSafeStorageSecretStore, safeStorageAvailability } from './safe-storage';
import { APP_ENTRY_URL, hardenSession, hardenWebContents, isAppUrl } from './security';
import { MIN_HEIGHT, MIN_WIDTH, readWindowState, type WindowState } from './window-state';
import { utilityReaderProcess } from './mbtiles-utility-process';
import type { KeyValueStore } from '../core/profiles/kv';
import type { SecretStore, SecretStoreChoice } from '../core/profiles/secrets';

export type ElectronMain = Pick<
  typeof import('electron'),
  'app' | 'BrowserWindow' | 'ipcMain' | 'Menu' | 'net' | 'protocol' | 'safeStorage' | 'screen' | 'session' | 'shell' | 'utilityProcess'
>;

/** What the host hands the core: everything Electron-specific is decided here. */
export interface BackendDeps {
  dataDir: string;
  secretStore: SecretStore;
  fetch: FetchLike;
  /** Map tiles: fetched with net.fetch too, with the app's User-Agent. */
  tiles: HostTileOptions;
  log: (line: string) => void;
}

export interface MainOptions {
  dataDir: string;
  /** The built renderer, served as app://sitewalk/. */
  rendererDir: string;
  /** The bundled preload (CommonJS). */
  preloadPath: string;
  /** The bundled MBTiles reader, run as a utility process (default: mbtiles-child.cjs beside the preload). */
  mbtilesChildPath?: string;
  /** Opens the core and its adapter (host-backend's openHostBackend with electron-store in the app). */
  openBackend(deps: BackendDeps): Promise<HostBackend>;
  /** The fallback when safeStorage cannot really encrypt: os-keyring, else session-only (core's chooseSecretStore). */
  fallbackSecretStore(): Promise<SecretStoreChoice>;
  /** Window bounds between runs (electron-store in the app, the core's memory store in tests). */
  windowStore: KeyValueStore;
  platform?: NodeJS.Platform;
  /** How often net.isOnline() is asked; 0 = never (tests). */
  onlinePollMs?: number;
  log?: (line: string) => void;
}

export interface MainApp {
  /** False when another instance holds the lock (this one quits and focuses that one). */
  readonly primary: boolean;
  /** Resolves once the window is created and loading; rejects if start-up failed. */
  readonly ready: Promise<void>;
  window(): BrowserWindow | null;
  backend(): HostBackend | null;
  /** Which kind of secret store this run uses. */
  secretStoreKind(): SecretStore['kind'] | null;
}

export const WINDOW_STATE_KEY = 'window';

export function createMainApp(electron: ElectronMain, options: MainOptions): MainApp {
  const { app, BrowserWindow, ipcMain, Menu, net, protocol, safeStorage, screen, session, shell, utilityProcess } = electron;
  const log = options.log ?? ((line: string) => console.error(`sitewalk: ${line}`));
  const platform = options.platform ?? process.platform;

  let win: BrowserWindow | null = null;
  let backend: HostBackend | null = null;
  let storeKind: SecretStore['kind'] | null = null;
  let shuttingDown = false;
  let shutDown = false;

  // Chromium's own files (cache, local storage) go beside ours, and the single-instance lock is per
  // data dir: two data dirs may run side by side, one data dir only once.
  app.setPath('userData', join(options.dataDir, 'electron'));
  const primary = app.requestSingleInstanceLock();
  if (!primary) {
    log('Sitewalk is already running with this data folder; focusing that window.');
    app.quit();
    return { primary, ready: Promise.resolve(), window: () => null, backend: () => null, secretStoreKind: () => null };
  }

  // Every renderer the app ever creates is sandboxed, not only the one window configured below.
  app.enableSandbox();
  registerAppScheme(protocol);

  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents: WebContents) => hardenWebContents(contents, shell, log));
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (shutDown || !backend) return;
    // Hold the quit until the outbox is flushed and the sandbox stopped.
    event.preventDefault();
    if (shuttingDown) return;
    shuttingDown = true;
    const closing = backend;
    // The backend closes the basemaps' tile cache and any area download with it.
    Promise.resolve()
      .then(() => closing.close())
      .catch((error: unknown) => log(`closing the core failed: ${String(error)}`))
      .finally(() => {
        shutDown = true;
        app.quit();
      });
  });

  async function chooseSecretStore(): Promise<SecretStore> {
    const availability = safeStorageAvailability(safeStorage, platform);
    if (availability.available) return createSafeStorageSecretStore(safeStorage, options.dataDir);
    const fallback = await options.fallbackSecretStore();
    log(`Electron safeStorage is not usable: ${availability.reason}.`);
    log(fallback.fallbackReason ?? 'API keys are kept in the OS keyring instead.');
    return fallback.store;
  }

  function createWindow(state: WindowState): BrowserWindow {
    const window = new BrowserWindow({
      width: state.width,
      height: state.height,
      ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
      minWidth: MIN_WIDTH,
      minHeight: MIN_HEIGHT,
      show: false,
      title: 'Sitewalk',
      backgroundColor: '#ffffff',
      // The Electron security checklist, spelled out here where a reviewer (or a linter) reads it.
      webPreferences: {
        preload: options.preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        safeDialogs: true,
        // A middle click must not open links in new windows behind the window-open handler's back.
        disableBlinkFeatures: 'Auxclick',
      },
    });
    if (state.maximized) window.maximize();
    window.once('ready-to-show', () => window.show());
    window.on('close', () => {
      const bounds = window.getNormalBounds();
      options.windowStore.set(WINDOW_STATE_KEY, { ...bounds, maximized: window.isMaximized() });
    });
    window.on('closed', () => {
      if (win === window) win = null;
    });
    return window;
  }

  function sendEvent(event: ApiEvent): void {
    if (!win || win.isDestroyed()) return;
    // Never hand data to a page that is not ours (the navigation guards should make this moot).
    if (!isAppUrl(win.webContents.getURL())) return;
    win.webContents.send(EVENT_CHANNEL, event);
  }

  function watchConnectivity(current: HostBackend): void {
    let online = net.isOnline();
    current.setOnline(online);
    if (!options.onlinePollMs) return;
    const timer = setInterval(() => {
      const now = net.isOnline();
      if (now === online) return;
      online = now;
      current.setOnline(now);
    }, options.onlinePollMs);
    timer.unref();
    app.on('will-quit', () => clearInterval(timer));
  }

  async function start(): Promise<void> {
    await app.whenReady();
    const secretStore = await chooseSecretStore();
    storeKind = secretStore.kind;
    const opened = await options.openBackend({
      dataDir: options.dataDir,
      secretStore,
      fetch: (url, init) => net.fetch(url, init),
      tiles: {
        fetch: (url, init) => net.fetch(url, init),
        userAgent: tileUserAgent(app.getVersion()),
        // Electron's fuses forbid child_process.fork here: MBTiles reads go to a utility process.
        mbtilesProcess: utilityReaderProcess(utilityProcess, options.mbtilesChildPath ?? join(dirname(options.preloadPath), 'mbtiles-child.cjs')),
      },
      log,
    });
    backend = opened;

    opened.hostApi.onEvent(sendEvent);
    hardenSession(session.defaultSession);
    // Map tiles through app:// (every basemap: servers fetched with net.fetch and kept for offline use, files read in place).
    handleAppProtocol(protocol, { rendererDir: options.rendererDir, tiles: opened.tiles });
    registerInvokeHandler(ipcMain, { hostApi: opened.hostApi, appContents: () => (win && !win.isDestroyed() ? win.webContents : null), log });
    watchConnectivity(opened);

    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildMenuTemplate({
          isMac: platform === 'darwin',
          isDev: !app.isPackaged,
          appName: 'Sitewalk',
          syncNow: () => void opened.syncNow().catch((error: unknown) => log(`sync failed: ${String(error)}`)),
          openDataFolder: () => void shell.openPath(options.dataDir),
          showAbout: () => {
            app.setAboutPanelOptions({ applicationName: 'Sitewalk', applicationVersion: app.getVersion() });
            app.showAboutPanel();
          },
        }),
      ),
    );

    const workAreas = screen.getAllDisplays().map((display) => display.workArea);
    win = createWindow(readWindowState(options.windowStore.get(WINDOW_STATE_KEY), workAreas));
    // A page that fails to load is shown as such in the window; the app itself keeps running.
    await win.loadURL(APP_ENTRY_URL).catch((error: unknown) => log(`the window could not load the interface: ${String(error)}`));
  }

  const ready = start();
  ready.catch((error: unknown) => {
    log(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
    app.exit(1);
  });

  return {
    primary,
    ready,
    window: () => win,
    backend: () => backend,
    secretStoreKind: () => storeKind,
  };
}
