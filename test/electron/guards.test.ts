// The Electron window's guards, driven through the fake electron module: nothing may navigate away
// from the app or open a window, only https links reach the system browser, only the app's page may
// ask for geolocation and nothing else, and every response carries the CSP.
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../../electron/browser-host/content-security-policy';
import { createTileCache, type TileCache } from '../../electron/core/tiles';
import { registerAppScheme, serveAppRequest } from '../../electron/main/protocol';
import { grantsPermission, hardenSession, hardenWebContents, isSafeExternalUrl } from '../../electron/main/security';
import { createFakeElectron, FakeWebContents } from './fake-electron';
import { fakeTile, startFakeTileServer, type FakeTileServer } from '../tiles/fake-tile-server';

const CSP = CONTENT_SECURITY_POLICY;

function guardedContents() {
  const fake = createFakeElectron();
  const contents = new FakeWebContents();
  const logged: string[] = [];
  hardenWebContents(contents as unknown as WebContents, fake.electron.shell, (line) => logged.push(line));
  return { fake, contents, logged };
}

describe('navigation and new windows', () => {
  it('blocks navigation to any other site and opens https ones in the system browser instead', async () => {
    const { fake, contents } = guardedContents();
    expect(contents.navigate('will-navigate', 'https://evil.example/phish')).toBe(true);
    await Promise.resolve();
    expect(fake.opened).toEqual(['https://evil.example/phish']);
  });

  it('never opens non-https links outside the app', async () => {
    const { fake, contents } = guardedContents();
    for (const url of ['http://plain.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://share/x', 'https://user:pw@host.example/']) {
      expect(contents.navigate('will-navigate', url)).toBe(true);
      expect(contents.windowOpenHandler!({ url }).action).toBe('deny');
    }
    await Promise.resolve();
    expect(fake.opened).toEqual([]);
  });

  it('lets the app move between its own pages', () => {
    const { contents } = guardedContents();
    expect(contents.navigate('will-navigate', 'app://sitewalk/index.html#settings')).toBe(false);
  });

  it('denies every window.open, handing https links to the system browser', async () => {
    const { fake, contents } = guardedContents();
    expect(contents.windowOpenHandler!({ url: 'https://www.openstreetmap.org/copyright' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'app://sitewalk/index.html' })).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(fake.opened).toEqual(['https://www.openstreetmap.org/copyright']);
  });

  it('blocks redirects away from the app and <webview> tags', () => {
    const { contents } = guardedContents();
    expect(contents.navigate('will-redirect', 'https://elsewhere.example/')).toBe(true);
    expect(contents.navigate('will-redirect', 'app://sitewalk/index.html')).toBe(false);
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    contents.emit('will-attach-webview', event);
    expect(event.defaultPrevented).toBe(true);
  });

  it('treats only https without credentials as safe to open', () => {
    expect(isSafeExternalUrl('https://example.org/a?b#c')).toBe(true);
    expect(isSafeExternalUrl('HTTPS://EXAMPLE.ORG/')).toBe(true);
    expect(isSafeExternalUrl('http://example.org/')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });
});

describe('permissions and headers', () => {
  function hardened() {
    const fake = createFakeElectron();
    hardenSession(fake.electron.session.defaultSession as unknown as Session);
    return fake.sessionHandlers;
  }

  it('grants geolocation to the app page and refuses every other permission or page', async () => {
    const handlers = hardened();
    const ask = (permission: string, requestingUrl: string) =>
      new Promise<boolean>((resolve) => handlers.permissionRequest!(null, permission, resolve, { requestingUrl }));
    expect(await ask('geolocation', 'app://sitewalk/index.html')).toBe(true);
    for (const permission of ['media', 'notifications', 'clipboard-read', 'openExternal', 'hid', 'usb', 'serial', 'fullscreen']) {
      expect(await ask(permission, 'app://sitewalk/index.html')).toBe(false);
    }
    expect(await ask('geolocation', 'https://evil.example/')).toBe(false);
  });

  it('answers permission checks the same way', () => {
    const handlers = hardened();
    expect(handlers.permissionCheck!(null, 'geolocation', 'app://sitewalk', {})).toBe(true);
    expect(handlers.permissionCheck!(null, 'notifications', 'app://sitewalk', {})).toBe(false);
    expect(handlers.permissionCheck!(null, 'geolocation', 'https://tile.example.org', {})).toBe(false);
    expect(grantsPermission('geolocation', 'not a url')).toBe(false);
  });

  it('puts the CSP on every response, replacing any policy the server sent', async () => {
    const handlers = hardened();
    const headers = await new Promise<Record<string, string[]>>((resolve) =>
      handlers.headersReceived!(
        { responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['image/png'] } },
        (response) => resolve(response.responseHeaders ?? {}),
      ),
    );
    expect(headers['Content-Security-Policy']).toEqual([CSP]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['Content-Type']).toEqual(['image/png']);
    expect(headers['X-Content-Type-Options']).toEqual(['nosniff']);
  });

  it('allows scripts and styles from the app only, and images from the app only (tiles come through it)', () => {
    expect(CSP).toContain("default-src 'none'");
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval)/);
    expect(CSP).toContain("style-src 'self';");
    expect(CSP).not.toContain('unsafe');
    expect(CSP).toContain("img-src 'self' data:;");
    expect(CSP).not.toContain('tile.example.org');
    expect(CSP).toContain("connect-src 'self'");
    expect(CSP).toContain("frame-ancestors 'none'");
  });
});

describe('app:// protocol', () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sitewalk-app-protocol-'));
    outside = await mkdtemp(join(tmpdir(), 'sitewalk-outside-'));
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>Sitewalk</title>');
    await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(outside, 'secret.txt'), 'outside the renderer');
    await symlink(join(outside, 'secret.txt'), join(root, 'assets', 'link.txt'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const get = (url: string) => serveAppRequest(new Request(url), { rendererDir: root });

  it('registers app:// as a standard, secure scheme', () => {
    const fake = createFakeElectron();
    registerAppScheme(fake.electron.protocol);
    expect(fake.privilegedSchemes).toEqual([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
  });

  it('serves the page with its content type and the CSP', async () => {
    const response = await get('app://sitewalk/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(await response.text()).toContain('<title>Sitewalk</title>');
    expect((await get('app://sitewalk/assets/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('refuses paths that leave the renderer folder, however they are spelled', async () => {
    for (const path of ['/%2e%2e/%2e%2e/etc/passwd', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/assets/link.txt', '/..%5c..%5cwindows']) {
      const response = await get(`app://sitewalk${path}`);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(await response.text()).not.toContain('outside the renderer');
    }
  });

  it('answers nothing for another host of the scheme', async () => {
    expect((await get('app://elsewhere/index.html')).status).toBe(404);
  });
});

describe('app:// map tiles', () => {
  let dataDir: string;
  let server: FakeTileServer;
  let tiles: TileCache;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-app-tiles-'));
    server = await startFakeTileServer();
    tiles = createTileCache({ dataDir, template: () => server.template(), retryAfterMs: 0 });
  });
  afterAll(async () => {
    await tiles.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, method = 'GET') => serveAppRequest(new Request(url, { method }), { rendererDir: dataDir, tiles });

  it('serves a tile from the cache with its content type and the CSP, then offline from disk', async () => {
    const response = await get('app://sitewalk/tiles/5/10/12?v=abc');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeTile('/osm/5/10/12.png', 1));

    await server.down();
    try {
      const offline = await get('app://sitewalk/tiles/5/10/12');
      expect(offline.status).toBe(200);
      expect(Buffer.from(await offline.arrayBuffer())).toEqual(fakeTile('/osm/5/10/12.png', 1));
      expect((await get('app://sitewalk/tiles/5/10/13')).status).toBe(504);
      const head = await get('app://sitewalk/tiles/5/10/12', 'HEAD');
      expect(head.status).toBe(200);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    } finally {
      await server.up();
    }
    expect(server.count('/osm/5/10/12.png')).toBe(1);
  });

  it('refuses coordinates off the grid and writes, and has no tiles without a cache', async () => {
    for (const path of ['/tiles/23/0/0', '/tiles/1/2/0', '/tiles/a/b/c', '/tiles']) {
      expect((await get(`app://sitewalk${path}`)).status, path).toBe(400);
    }
    expect((await get('app://sitewalk/tiles/1/0/0', 'POST')).status).toBe(405);
    const bare = await serveAppRequest(new Request('app://sitewalk/tiles/1/0/0'), { rendererDir: dataDir });
    expect(bare.status).toBe(404);
    expect(server.count()).toBe(1);
  });
});
