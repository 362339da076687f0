// The Electron host as wired by createMainApp, with the fake electron module in front of a real core
// in a temp data dir: the window's web preferences, the guards on its contents, the IPC sender
// check, single-instance, where keys go (safeStorage, or a visible fallback when Linux offers only
// basic_text), window bounds between runs, events to the page, and a quit that closes the core.
import { once } from 'node:events';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSiteList, decodeSitePositions, sitePositionsOf, type ApiEvent, type Result, type ProfileView, type SiteListWire, type StatusView } from '../../electron/shared/contract/index';
import { openHostBackend, type HostBackend } from '../../electron/core/host-backend';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { createMainApp, type MainApp } from '../../electron/main/app';
import { memoryStoreFactory, type KeyValueStore } from '../../electron/core/profiles/kv';
import { SAFE_STORAGE_FILE } from '../../electron/main/safe-storage';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type InvokeReply } from '../../electron/preload/channels';
import { createFakeElectron, FakeWebContents, type FakeElectron } from './fake-electron';
import { TILES_FOLDER } from '../../electron/core/tiles';
import { fakeTile, startFakeTileServer } from '../tiles/fake-tile-server';
import { builtInSandbox } from '../../electron/sandbox/builtin';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const memoryStore = (): KeyValueStore => memoryStoreFactory()('window-state');

interface Started {
  fake: FakeElectron;
  main: MainApp;
  dataDir: string;
  logs: string[];
  window(): ReturnType<FakeElectron['windows']['at']> & object;
  /** An IPC call from the app window's main frame. */
  invoke<T>(method: string, ...args: unknown[]): Promise<T>;
}

async function start(options: { backend?: string; encryption?: boolean; online?: boolean; dataDir?: string; windowStore?: KeyValueStore } = {}): Promise<Started> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sitewalk-electron-main-')));
  if (!options.dataDir) cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const fake = createFakeElectron({ backend: options.backend ?? 'gnome_libsecret', encryption: options.encryption ?? true });
  fake.state.online = options.online ?? true;
  const logs: string[] = [];
  let backend: HostBackend | null = null;
  const main = createMainApp(fake.electron, {
    dataDir,
    rendererDir: join(dataDir, 'renderer'),
    preloadPath: '/app/dist/electron/preload.cjs',
    openBackend: async (deps) => {
      backend = await openHostBackend({ ...deps, host: 'electron', sandbox: builtInSandbox });
      return backend;
    },
    fallbackSecretStore: async () => ({ store: createSessionSecretStore(), fallbackReason: 'No OS keyring is available (test); keys are kept for this session only.' }),
    windowStore: options.windowStore ?? memoryStore(),
    platform: 'linux',
    onlinePollMs: 0,
    log: (line) => void logs.push(line),
  });
  cleanups.push(async () => {
    await (backend as HostBackend | null)?.close();
  });
  fake.app.becomeReady();
  await main.ready;
  const window = () => {
    const found = fake.windows[0];
    if (!found) throw new Error('no window was created');
    return found;
  };
  return {
    fake,
    main,
    dataDir,
    logs,
    window,
    async invoke<T>(method: string, ...args: unknown[]) {
      const contents = window().webContents;
      const reply = (await fake.invoke(INVOKE_CHANNEL, contents, contents.mainFrame, method, args)) as InvokeReply;
      if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
      return reply.value as T;
    },
  };
}

describe('the window', () => {
  it('is created once, isolated, sandboxed, without Node, with web security, loading the app origin', async () => {
    const app = await start();
    expect(app.fake.windows).toHaveLength(1);
    const prefs = app.window().options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
      preload: '/app/dist/electron/preload.cjs',
    });
    expect(app.window().webContents.getURL()).toBe('app://sitewalk/index.html');
    expect(app.window().visible).toBe(true);
    expect(app.fake.app.sandboxEnforced).toBe(true);
  });

  it('guards its contents: no navigation away, no new windows, https links to the system browser only', async () => {
    const app = await start();
    const contents = app.window().webContents;
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.windowOpenHandler!({ url: 'https://www.openstreetmap.org/copyright' }).action).toBe('deny');
    expect(contents.windowOpenHandler!({ url: 'http://insecure.example/' }).action).toBe('deny');
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.fake.opened).toEqual(['https://evil.example/', 'https://www.openstreetmap.org/copyright']);
  });

  it('sends the CSP (the same whatever the tile server) and grants geolocation only', async () => {
    const app = await start();
    const headers = await new Promise<Record<string, string[]>>((resolve) =>
      app.fake.sessionHandlers.headersReceived!({ responseHeaders: {} }, (response) => resolve(response.responseHeaders ?? {})),
    );
    expect(headers['Content-Security-Policy']![0]).toContain("img-src 'self' data:;");
    const granted = await new Promise((resolve) =>
      app.fake.sessionHandlers.permissionRequest!(null, 'geolocation', resolve, { requestingUrl: 'app://sitewalk/index.html' }),
    );
    const camera = await new Promise((resolve) => app.fake.sessionHandlers.permissionRequest!(null, 'media', resolve, { requestingUrl: 'app://sitewalk/index.html' }));
    expect([granted, camera]).toEqual([true, false]);

    // Tiles come through app://, so a new tile server changes nothing in the policy.
    await app.invoke('saveSettings', { tileUrl: 'https://maps.example.net/{z}/{x}/{y}.png' });
    const after = await new Promise<Record<string, string[]>>((resolve) =>
      app.fake.sessionHandlers.headersReceived!({ responseHeaders: {} }, (response) => resolve(response.responseHeaders ?? {})),
    );
    expect(after['Content-Security-Policy']).toEqual(headers['Content-Security-Policy']);
    expect(after['Content-Security-Policy']![0]).not.toContain('example.net');
  });

  it('serves the renderer through app:// with the CSP', async () => {
    const app = await start();
    const handler = app.fake.protocolHandlers.get('app')!;
    const response = await handler(new Request('app://sitewalk/index.html'));
    // The test data dir has no built renderer: the page says how to build it, under the same policy.
    expect(response.status).toBe(503);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(app.fake.privilegedSchemes).toHaveLength(1);
  });
});

describe('map tiles', () => {
  it('serves tiles through app:// from the data folder, fetched with net.fetch from the server in the settings', async () => {
    const server = await startFakeTileServer();
    cleanups.push(() => server.close());
    const app = await start();
    const fetched: string[] = [];
    (app.fake.electron.net as { fetch: (url: string, init?: RequestInit) => Promise<Response> }).fetch = (url, init) => {
      fetched.push(url);
      return fetch(url, init);
    };
    await app.invoke('saveSettings', { tileUrl: server.template('osm') });
    const handler = app.fake.protocolHandlers.get('app')!;

    const response = await handler(new Request('app://sitewalk/tiles/4/3/2?v=1'));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeTile('/osm/4/3/2.png', 1));
    // (net.fetch also carries the core's service probe; only the tile server's requests count here.)
    expect(fetched.filter((url) => url.startsWith(server.origin))).toEqual([`${server.origin}/osm/4/3/2.png`]);
    expect(server.requests[0]!.headers['user-agent']).toBe('Sitewalk/0.0.0-test (desktop field tool for wireless ISPs; tile cache)');
    expect((await readdir(join(app.dataDir, TILES_FOLDER))).length).toBe(1);

    // Offline: the same tile from disk; a new tile server's tiles are its own.
    await server.down();
    expect(Buffer.from(await (await handler(new Request('app://sitewalk/tiles/4/3/2'))).arrayBuffer())).toEqual(fakeTile('/osm/4/3/2.png', 1));
    await server.up();
    await app.invoke('saveSettings', { tileUrl: server.template('other') });
    const other = await handler(new Request('app://sitewalk/tiles/4/3/2'));
    expect(Buffer.from(await other.arrayBuffer())).toEqual(fakeTile('/other/4/3/2.png', 1));
    expect(fetched.filter((url) => url.startsWith(server.origin))).toHaveLength(2);
  });
});

describe('IPC', () => {
  it("answers the app page's main frame", async () => {
    const app = await start();
    const status = await app.invoke<StatusView>('getStatus');
    expect(status.host).toBe('electron');
  });

  it('refuses a sub-frame, a foreign page, another WebContents and a frame that is gone, running nothing', async () => {
    const app = await start();
    const contents = app.window().webContents;
    const other = new FakeWebContents();
    other.mainFrame.url = 'app://sitewalk/index.html';
    const senders: [string, FakeWebContents, { url: string; parent: unknown } | null][] = [
      ['iframe', contents, { url: 'app://sitewalk/index.html', parent: contents.mainFrame }],
      ['foreign iframe', contents, { url: 'https://evil.example/', parent: contents.mainFrame }],
      ['other contents', other, other.mainFrame],
      ['gone', contents, null],
    ];
    for (const [label, sender, frame] of senders) {
      const reply = (await app.fake.invoke(INVOKE_CHANNEL, sender, frame as never, 'saveSite', [{ name: 'Sneaky', height: 10, latitude: 1, longitude: 1 }])) as InvokeReply;
      expect(reply, label).toEqual({ ok: false, error: { code: 'forbidden', message: 'This page may not use the Sitewalk API.' } });
    }
    // The window navigated to a foreign page (should the guards ever fail): its main frame is refused too.
    contents.mainFrame.url = 'https://evil.example/';
    const foreign = (await app.fake.invoke(INVOKE_CHANNEL, contents, contents.mainFrame, 'listSites', [])) as InvokeReply;
    expect(foreign.ok).toBe(false);
    contents.mainFrame.url = 'app://sitewalk/index.html';
    expect(await app.invoke('listSites')).toEqual([]);
    expect(app.logs.filter((line) => line.startsWith('refused an API call'))).toHaveLength(5);
  });

  it("answers where the list's located sites are as bytes, which reach the page through IPC's structured clone as the list gives them", async () => {
    const app = await start();
    for (const [k, name] of ['North', 'South'].entries()) await app.invoke('saveSite', { name, height: 30, latitude: 45.25 + k, longitude: -111.1234567 });
    // What Electron's IPC does to a reply on its way to the page.
    const bytes = structuredClone(await app.invoke<Uint8Array>('sitePositions', 0));
    expect(bytes).toBeInstanceOf(Uint8Array);
    const plain = (positions: ReturnType<typeof decodeSitePositions>) => ({ count: positions.count, latitude: Array.from(positions.latitude), longitude: Array.from(positions.longitude), state: Array.from(positions.state), style: Array.from(positions.style) });
    const listed = plain(sitePositionsOf(decodeSiteList(structuredClone(await app.invoke<SiteListWire>('listSitesPacked')))));
    expect(listed.latitude).toEqual(expect.arrayContaining([45.25, 46.25]));
    expect(plain(decodeSitePositions(bytes))).toEqual(listed);
    expect(decodeSitePositions(structuredClone(await app.invoke<Uint8Array>('sitePositions', listed.count + 1))).count).toBe(0);
  });

  it('refuses unknown methods and bad arguments with a sentence', async () => {
    const app = await start();
    await expect(app.invoke('runShell', 'rm -rf /')).rejects.toThrow('unknown-method: There is no API method named "runShell".');
    await expect(app.invoke('useProfile', 42)).rejects.toThrow(/bad-arguments: useProfile: argument 1/);
  });

  it("forwards the core's events to the page", async () => {
    const app = await start();
    const saved = await app.invoke<Result<{ localId: string }>>('saveSite', { name: 'Evented', height: 12, latitude: 40, longitude: -80 });
    if (!saved.ok) throw new Error('the save was refused');
    const { localId } = saved.value;
    // The save's site and its outbox entry arrive together, as the one change set of its transaction.
    const sent = app.window().webContents.sent.filter((message) => message.channel === EVENT_CHANNEL).map((message) => message.payload as ApiEvent);
    const changes = sent.flatMap((event) => (event.type === 'changes' ? [event.changes] : []));
    expect(changes.flatMap((set) => set.sites).map((site) => site.localId)).toContain(localId);
    expect(changes.flatMap((set) => set.entries).map((entry) => entry.localId)).toContain(localId);
    expect(sent.map((event) => event.type)).toContain('status');
  });
});

describe('single instance', () => {
  it('quits a second instance of the same data dir before it opens anything', async () => {
    const fake = createFakeElectron();
    fake.app.lockAvailable = false;
    let opened = false;
    const main = createMainApp(fake.electron, {
      dataDir: '/nonexistent/sitewalk',
      rendererDir: '/nonexistent',
      preloadPath: '/nonexistent/preload.cjs',
      openBackend: async () => {
        opened = true;
        throw new Error('must not open');
      },
      fallbackSecretStore: async () => ({ store: createSessionSecretStore(), fallbackReason: null }),
      windowStore: memoryStore(),
      log: () => undefined,
    });
    expect(main.primary).toBe(false);
    expect(fake.app.quitCalls).toBe(1);
    fake.app.becomeReady();
    await main.ready;
    expect(opened).toBe(false);
    expect(fake.windows).toHaveLength(0);
    expect(fake.app.paths.get('userData')).toBe('/nonexistent/sitewalk/electron');
  });

  it('focuses the existing window when a second instance starts', async () => {
    const app = await start();
    app.window().minimized = true;
    app.fake.app.emit('second-instance');
    expect(app.window().minimized).toBe(false);
    expect(app.window().focused).toBe(1);
  });
});

describe('API keys', () => {
  it('go through safeStorage into the data dir, never as typed', async () => {
    const app = await start({ backend: 'gnome_libsecret' });
    expect(app.main.secretStoreKind()).toBe('safe-storage');
    const added = await app.invoke<Result<ProfileView>>('saveProfile', { name: 'Office', baseUrl: 'https://api.towercoverage.com', account: '12345' });
    expect(added.ok).toBe(true);
    const profile = (added as { ok: true; value: ProfileView }).value;
    expect(profile.keyStore).toBe('safe-storage');
    const withKey = await app.invoke<Result<ProfileView>>('setApiKey', profile.id, 'tc-live-key-0123456789');
    expect(withKey).toMatchObject({ ok: true, value: { hasKey: true, keyStore: 'safe-storage' } });

    const blobFile = await readFile(join(app.dataDir, SAFE_STORAGE_FILE), 'utf8');
    expect(blobFile).toContain(profile.id);
    for (const name of await readdir(app.dataDir, { recursive: true })) {
      const content = await readFile(join(app.dataDir, name)).catch(() => Buffer.alloc(0));
      expect(content.includes('tc-live-key-0123456789'), name).toBe(false);
    }
    expect(JSON.stringify(await app.invoke('listProfiles'))).not.toContain('tc-live-key');
  });

  it("fall back visibly when Linux offers only safeStorage's basic_text backend", async () => {
    const app = await start({ backend: 'basic_text' });
    expect(app.main.secretStoreKind()).toBe('session-only');
    expect(app.logs.join('\n')).toMatch(/basic_text/);
    expect(app.logs.join('\n')).toMatch(/session only/);
    const added = await app.invoke<Result<ProfileView>>('saveProfile', { name: 'Field', baseUrl: 'https://api.towercoverage.com', account: '777' });
    expect((added as { ok: true; value: ProfileView }).value.keyStore).toBe('session-only');
    await expect(readFile(join(app.dataDir, SAFE_STORAGE_FILE))).rejects.toThrow();
  });

  it('fall back when the system offers no encryption at all', async () => {
    const app = await start({ encryption: false });
    expect(app.main.secretStoreKind()).toBe('session-only');
  });
});

describe('window bounds, menu, connectivity and quit', () => {
  it('keeps size, position and maximized state between runs', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-electron-bounds-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const store = memoryStore();
    const first = await start({ dataDir, windowStore: store });
    first.window().bounds = { x: 300, y: 200, width: 1500, height: 950 };
    first.window().maximized = true;
    const quit = once(first.fake.app, 'will-quit');
    first.window().close();
    // All windows closed: the app quits, once the core has closed.
    await quit;
    expect(store.get('window')).toEqual({ x: 300, y: 200, width: 1500, height: 950, maximized: true });

    const second = await start({ dataDir, windowStore: store });
    expect(second.window().options).toMatchObject({ x: 300, y: 200, width: 1500, height: 950 });
    expect(second.window().maximized).toBe(true);
  });

  it('holds the quit until the core has closed, then quits for real', async () => {
    const app = await start();
    const quit = once(app.fake.app, 'will-quit');
    app.fake.app.quit();
    expect(app.fake.app.quitCalls).toBe(1);
    await quit;
    expect(app.fake.app.quitCalls).toBe(2);
    // The core is closed: its data-dir lock is released, so another core can open the folder.
    const again = await openHostBackend({ host: 'electron', dataDir: app.dataDir, secretStore: createSessionSecretStore(), sandbox: builtInSandbox });
    await again.close();
  });

  it('offers Sync now and the data folder in the menu', async () => {
    const app = await start();
    const template = app.fake.menu() as { label?: string; submenu?: { label?: string; click?: () => void }[] }[];
    const items = template.flatMap((menu) => menu.submenu ?? []);
    items.find((item) => item.label === 'Open data folder')!.click!();
    expect(app.fake.openedPaths).toEqual([app.dataDir]);
    expect(items.some((item) => item.label === 'Sync now')).toBe(true);
  });

  it("passes the system's connectivity to the core", async () => {
    expect((await (await start({ online: true })).invoke<StatusView>('getStatus')).online).toBe(true);
    expect((await (await start({ online: false })).invoke<StatusView>('getStatus')).online).toBe(false);
  });
});
