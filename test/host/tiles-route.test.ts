// The browser host's /tiles/{z}/{x}/{y} route, with a real core, the real tile cache wired the way
// `npm start` wires it (following the settings' tileUrl) and a tile server on loopback: our page gets
// tiles with the cookie its API calls were given (or the token), online and offline; another local
// user without either gets 401; another site cannot use the host as a tile proxy.
import { describe, expect } from 'vitest';
import { startBrowserHost } from '../../electron/browser-host/server';
import { it as base } from '../support/fixtures';
import { call, raw, startTestHost } from '../support/host';
import { fakeTile, startFakeTileServer } from '../tiles/fake-tile-server';

const auth = (host: { token: string }) => ({ authorization: `Bearer ${host.token}` });

const it = base
  // eslint-disable-next-line no-empty-pattern
  .extend('tileServer', { scope: 'file' }, async ({}, { onCleanup }) => {
    const server = await startFakeTileServer();
    onCleanup(() => server.close());
    return server;
  })
  // This file's host serves /tiles/ from a cache that follows the settings' tile server.
  .extend('host', { scope: 'file' }, async ({ tileServer }, { onCleanup }) => {
    const host = await startTestHost({ withStatic: false, tiles: { tileUrl: tileServer.template('osm'), retryAfterMs: 0 } });
    onCleanup(() => host.close());
    return host;
  });

it.beforeEach(({ tileServer }) => {
  tileServer.mode = 'png';
});

describe('GET /tiles/{z}/{x}/{y}', () => {
  it('serves our page a tile, with the security headers', async ({ tileServer, host }) => {
    const response = await fetch(`${host.origin}/tiles/5/10/12?v=abc`, { headers: { 'Sec-Fetch-Site': 'same-origin', ...auth(host) } });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeTile('/osm/5/10/12.png', 1));
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    // Nothing says whether the tile was fetched or came from disk (that would tell which tiles were viewed).
    expect(response.headers.get('x-sitewalk-tile')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(Object.keys(Object.fromEntries(response.headers)).filter((name) => name.startsWith('access-control-'))).toEqual([]);

    const again = await fetch(`${host.origin}/tiles/5/10/12`, { headers: auth(host) });
    expect(again.status).toBe(200);
    expect(tileServer.count('/osm/5/10/12.png')).toBe(1);

    const head = await raw(host.port, { method: 'HEAD', path: '/tiles/5/10/12', headers: auth(host) });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(fakeTile('/osm/5/10/12.png', 1).length));
    expect(head.body).toBe('');
  });

  it('serves tiles seen before while the tile server is out of reach, and 504 for the others', async ({ tileServer, host }) => {
    expect((await fetch(`${host.origin}/tiles/3/1/1`, { headers: auth(host) })).status).toBe(200);
    await tileServer.down();
    try {
      const cached = await fetch(`${host.origin}/tiles/3/1/1`, { headers: auth(host) });
      expect(cached.status).toBe(200);
      expect(Buffer.from(await cached.arrayBuffer())).toEqual(fakeTile('/osm/3/1/1.png', 1));
      const never = await raw(host.port, { path: '/tiles/3/2/1', headers: auth(host) });
      expect(never.status).toBe(504);
      expect(never.headers['cache-control']).toBe('no-store');
      expect(never.json<{ error: { code: string; message: string } }>().error.code).toBe('unreachable');
    } finally {
      await tileServer.up();
    }
  });

  it('follows a change of tile server made in the settings', async ({ tileServer, host }) => {
    const saved = await call(host, 'saveSettings', [{ tileUrl: tileServer.template('other') }]);
    expect(saved.status).toBe(200);
    try {
      const before = tileServer.count('/other/5/10/12.png');
      const response = await fetch(`${host.origin}/tiles/5/10/12`, { headers: auth(host) });
      expect(tileServer.count('/other/5/10/12.png')).toBe(before + 1);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeTile('/other/5/10/12.png', 1));
    } finally {
      await call(host, 'saveSettings', [{ tileUrl: tileServer.template('osm') }]);
    }
  });

  it('answers 502 when the tile server sends no tile, 400 for a path that is no tile, 405 for a write', async ({ tileServer, host }) => {
    tileServer.mode = 'html';
    expect((await raw(host.port, { path: '/tiles/6/1/1', headers: auth(host) })).status).toBe(502);
    for (const path of ['/tiles/23/0/0', '/tiles/2/4/0', '/tiles/1/0', '/tiles/../index.html', '/tiles/1/0/0.png', '/tiles']) {
      expect((await raw(host.port, { path, headers: auth(host) })).status, path).toBe(400);
    }
    expect((await raw(host.port, { method: 'POST', path: '/tiles/1/0/0', body: 'x', headers: auth(host) })).status).toBe(405);
  });
});

describe('who may load a tile', () => {
  it('gives the page a tile cookie with its API answers, and answers 401 to a request with neither it nor the token', async ({ tileServer, host }) => {
    const answer = await call(host, 'getStatus', []);
    const cookie = String(answer.headers['set-cookie'] ?? '');
    expect(cookie).toMatch(new RegExp(`^sitewalk-tiles-${host.port}=[A-Za-z0-9_-]+; Path=/tiles; HttpOnly; SameSite=Strict$`));
    const pair = cookie.split(';')[0]!;
    expect((await raw(host.port, { path: '/tiles/4/1/3', headers: { cookie: pair } })).status).toBe(200);
    const before = tileServer.count();
    // Another local user: no token, no cookie, a guessed cookie, another port's cookie name, the token as a cookie.
    for (const headers of [{} as Record<string, string>, { cookie: `sitewalk-tiles-${host.port}=guess` }, { cookie: pair.replace(String(host.port), String(host.port + 1)) }, { cookie: `sitewalk-tiles-${host.port}=${host.token}` }]) {
      const response = await raw(host.port, { path: '/tiles/4/1/2', headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.json<{ error: { message: string } }>().error.message).toMatch(/served to the Sitewalk page only/);
    }
    expect(tileServer.count()).toBe(before);
    // The cookie opens the tiles only, never the API.
    expect((await raw(host.port, { method: 'POST', path: '/api/getStatus', headers: { cookie: pair, 'content-type': 'application/json' }, body: '[]' })).status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding), a foreign Origin and a browser that says cross-site', async ({ tileServer, host }) => {
    const before = tileServer.count();
    const refused: Record<string, string>[] = [
      { host: `evil.example:${host.port}` },
      { host: `127.0.0.1:${host.port + 1}` },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of refused) {
      const response = await raw(host.port, { path: '/tiles/4/2/2', headers: { ...headers, ...auth(host) } });
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(tileServer.count()).toBe(before);
  });

  it('accepts its own origin under either name', async ({ host }) => {
    const accepted: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin' }, { origin: host.origin }, { host: `localhost:${host.port}`, origin: `http://localhost:${host.port}` }];
    for (const headers of accepted) {
      expect((await raw(host.port, { path: '/tiles/4/2/3', headers: { ...headers, ...auth(host) } })).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('answers 404 when the host was started without a tile cache', async ({ host }) => {
    const bare = await startBrowserHost({ hostApi: host.backend.hostApi, staticDir: host.staticDir });
    try {
      expect((await raw(bare.port, { path: '/tiles/1/0/0', headers: auth(bare) })).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
