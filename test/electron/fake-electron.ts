// A small hand-written stand-in for the parts of the `electron` module the host uses, so the host's
// wiring can be checked in plain Node (no Electron binary can be had here). It records what the host
// configured (window options, handlers, menu) and lets a test play Electron's side: emit navigation,
// ask for a permission, send an IPC call from a given frame, fire app events.
import { EventEmitter } from 'node:events';
import type { ElectronMain } from '../../electron/main/app';
import { fakeUtilityProcess } from './fake-utility-process';

export interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
}

type Listener = (...args: unknown[]) => unknown;

/** A minimal Electron-style event whose preventDefault can be observed. */
export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly mainFrame: FakeFrame = { url: '', parent: null };
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }

  /** Plays a navigation the page started; returns whether the host blocked it. */
  navigate(kind: 'will-navigate' | 'will-redirect', url: string): boolean {
    const event = new FakeEvent();
    this.emit(kind, event, url);
    return event.defaultPrevented;
  }
}

export class FakeApp extends EventEmitter {
  paths = new Map<string, string>();
  locked = false;
  lockAvailable = true;
  quitCalls = 0;
  exitCode: number | null = null;
  isPackaged = false;
  aboutShown = 0;
  sandboxEnforced = false;
  private readyResolve!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => (this.readyResolve = resolve));

  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }

  getPath(name: string): string {
    return this.paths.get(name) ?? `/fake/${name}`;
  }

  requestSingleInstanceLock(): boolean {
    this.locked = this.lockAvailable;
    return this.locked;
  }

  enableSandbox(): void {
    this.sandboxEnforced = true;
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  becomeReady(): void {
    this.readyResolve();
  }

  quit(): void {
    this.quitCalls++;
    const event = new FakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.emit('will-quit', new FakeEvent());
  }

  exit(code: number): void {
    this.exitCode = code;
  }

  getVersion(): string {
    return '0.0.0-test';
  }

  setAboutPanelOptions(): void {}
  showAboutPanel(): void {
    this.aboutShown++;
  }
}

export function createFakeElectron(options: { online?: boolean; backend?: string; encryption?: boolean } = {}) {
  const app = new FakeApp();
  const windows: FakeBrowserWindow[] = [];
  const handlers = new Map<string, Listener>();
  const state = {
    online: options.online ?? true,
    backend: options.backend ?? 'gnome_libsecret',
    encryption: options.encryption ?? true,
  };
  const opened: string[] = [];
  const openedPaths: string[] = [];
  const privilegedSchemes: unknown[] = [];
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response> | Response>();
  let menuTemplate: unknown[] | null = null;
  const sessionHandlers: {
    permissionRequest?: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string }) => void;
    permissionCheck?: (contents: unknown, permission: string, origin: string, details: unknown) => boolean;
    headersReceived?: (details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders?: Record<string, string[]> }) => void) => void;
  } = {};

  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents();
    destroyed = false;
    maximized = false;
    minimized = false;
    visible = false;
    focused = 0;
    bounds: { x: number; y: number; width: number; height: number };

    constructor(readonly options: Record<string, unknown>) {
      super();
      this.bounds = {
        x: typeof options.x === 'number' ? options.x : 100,
        y: typeof options.y === 'number' ? options.y : 100,
        width: options.width as number,
        height: options.height as number,
      };
      windows.push(this);
      app.emit('web-contents-created', new FakeEvent(), this.webContents);
    }

    async loadURL(url: string): Promise<void> {
      this.webContents.mainFrame.url = url;
      this.emit('ready-to-show');
    }

    maximize(): void {
      this.maximized = true;
    }

    isMaximized(): boolean {
      return this.maximized;
    }

    isMinimized(): boolean {
      return this.minimized;
    }

    restore(): void {
      this.minimized = false;
    }

    show(): void {
      this.visible = true;
    }

    focus(): void {
      this.focused++;
    }

    isDestroyed(): boolean {
      return this.destroyed;
    }

    getNormalBounds() {
      return { ...this.bounds };
    }

    /** Plays the user closing the window. */
    close(): void {
      this.emit('close', new FakeEvent());
      this.destroyed = true;
      this.emit('closed');
      if (windows.every((window) => window.destroyed)) app.emit('window-all-closed');
    }
  }

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      // electron-store registers a sync listener for its renderer helper; the app never uses it.
      on() {},
      handle(channel: string, listener: Listener) {
        handlers.set(channel, listener);
      },
      removeHandler(channel: string) {
        handlers.delete(channel);
      },
    },
    Menu: {
      buildFromTemplate(template: unknown[]) {
        return { template };
      },
      setApplicationMenu(menu: { template: unknown[] } | null) {
        menuTemplate = menu?.template ?? null;
      },
    },
    net: {
      isOnline: () => state.online,
      fetch: (url: string, init?: RequestInit) => fetch(url, init),
    },
    protocol: {
      registerSchemesAsPrivileged(schemes: unknown[]) {
        privilegedSchemes.push(...schemes);
      },
      handle(scheme: string, handler: (request: Request) => Promise<Response> | Response) {
        protocolHandlers.set(scheme, handler);
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => state.encryption,
      getSelectedStorageBackend: () => state.backend,
      // Reversible but not plain: enough to see that the file never holds the key as typed.
      encryptString: (text: string) => Buffer.from(`enc:${Buffer.from(text, 'utf8').toString('hex').split('').reverse().join('')}`),
      decryptString: (blob: Buffer) => {
        const text = blob.toString('utf8');
        if (!text.startsWith('enc:')) throw new Error('not encrypted by this fake');
        return Buffer.from(text.slice(4).split('').reverse().join(''), 'hex').toString('utf8');
      },
    },
    screen: {
      getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler(handler: typeof sessionHandlers.permissionRequest) {
          sessionHandlers.permissionRequest = handler;
        },
        setPermissionCheckHandler(handler: typeof sessionHandlers.permissionCheck) {
          sessionHandlers.permissionCheck = handler;
        },
        webRequest: {
          onHeadersReceived(handler: typeof sessionHandlers.headersReceived) {
            sessionHandlers.headersReceived = handler;
          },
        },
      },
    },
    // Runs the bundled MBTiles reader as Electron would, on child_process.fork.
    utilityProcess: fakeUtilityProcess,
    shell: {
      async openExternal(url: string) {
        opened.push(url);
      },
      async openPath(path: string) {
        openedPaths.push(path);
        return '';
      },
    },
  };

  return {
    electron: electron as unknown as ElectronMain,
    app,
    state,
    windows,
    opened,
    openedPaths,
    privilegedSchemes,
    protocolHandlers,
    sessionHandlers,
    menu: () => menuTemplate,
    /** Plays an ipcRenderer.invoke arriving from `frame` of `sender`. */
    invoke(channel: string, sender: FakeWebContents, frame: FakeFrame | null, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) return Promise.reject(new Error(`no handler for ${channel}`));
      return Promise.resolve(handler({ sender, senderFrame: frame }, ...args));
    },
    hasHandler: (channel: string) => handlers.has(channel),
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
