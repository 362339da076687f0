// The browser host's contract, against a real started host (random loopback port) in front of a
// real core: no CORS, strict headers, no path out of the renderer folder, clear 400s for bad calls,
// a real round trip and an event delivered over the page's own event client. Who may reach the API
// at all (address, token, Host, Origin) is browser-host-access.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { decodeSiteList, decodeSitePositions, sitePositionsOf, type ApiEvent, type Result, type ProfileView, type SiteView, type StatusView } from '../../electron/shared/contract/index';
import { startBrowserHost } from '../../electron/browser-host/server';
import { ROOT } from '../../electron/main/build';
import { apiFromBridge, createHttpBridge } from '../../renderer/src/api/http-bridge';
import { it } from '../support/fixtures';
import { authHeaders as auth, call, raw } from '../support/host';
import { waiting } from '../support/wait';

// One host for the whole file (the `host` fixture is file-scoped): these tests read it, and what one
// of them changes (a setting) it puts back. Who may reach it: browser-host-access.test.ts.

describe('headers', () => {
  it('sends the CSP and the security headers with the page', async ({ host }) => {
    const response = await raw(host.port, { path: '/' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain("img-src 'self' data:;");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The page carries the same policy in a meta tag, less what a meta tag cannot hold.
    const html = readFileSync(join(ROOT, 'renderer', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(csp.replace("; frame-ancestors 'none'", ''));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('serves scripts and styles with their content types', async ({ host }) => {
    expect((await raw(host.port, { path: '/assets/app.js' })).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await raw(host.port, { path: '/assets/style.css' })).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('never sends a CORS header, not even to a preflight', async ({ host }) => {
    const responses = [
      await raw(host.port, { path: '/' }),
      await call(host, 'listSites', []),
      await call(host, 'listSites', [], { origin: 'https://evil.example' }),
      await raw(host.port, {
        method: 'OPTIONS',
        path: '/api/listSites',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      }),
      await raw(host.port, { method: 'OPTIONS', path: '/api/listSites', headers: auth(host) }),
    ];
    for (const response of responses) {
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('keeps images to its own origin whatever the tile server (tiles come through the host)', async ({ host }) => {
    const saved = await call(host, 'saveSettings', [{ tileUrl: 'https://{s}.tiles.example.net/{z}/{x}/{y}.png' }]);
    expect(saved.json<{ value: Result<unknown> }>().value.ok).toBe(true);
    try {
      const page = await raw(host.port, { path: '/' });
      expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
      expect(page.headers['content-security-policy']).not.toContain('example.net');
    } finally {
      await call(host, 'saveSettings', [{ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' }]);
    }
  });
});

describe('static files', () => {
  it.beforeAll(async ({ host }) => {
    await writeFile(join(host.dataDir, 'secret.txt'), 'data dir secret');
    await symlink(join(host.dataDir, 'secret.txt'), join(host.staticDir, 'assets', 'escape.txt'));
  });

  it('refuses every way out of the renderer folder', async ({ host }) => {
    const attempts = [
      '/../data/secret.txt',
      '/%2e%2e/data/secret.txt',
      '/assets/%2e%2e/%2e%2e/data/secret.txt',
      '/assets/..%2f..%2fdata%2fsecret.txt',
      '/assets/..%5c..%5cdata%5csecret.txt',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/assets/escape.txt',
      '/assets/app.js%00.html',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const response = await raw(host.port, { path });
      expect([400, 404], path).toContain(response.status);
      expect(response.body, path).not.toContain('data dir secret');
      expect(response.body, path).not.toContain('root:');
    }
  });

  it('serves files without the token (they hold no data) and refuses to write', async ({ host }) => {
    expect((await raw(host.port, { path: '/index.html' })).status).toBe(200);
    expect((await raw(host.port, { method: 'PUT', path: '/index.html', body: 'x' })).status).toBe(405);
  });

  it('says how to build the interface when it is missing', async ({ host }) => {
    const bare = await startBrowserHost({ hostApi: host.backend.hostApi, staticDir: join(host.dataDir, 'no-renderer-here') });
    try {
      const response = await raw(bare.port, { path: '/' });
      expect(response.status).toBe(503);
      expect(response.body).toMatch(/npm run build/);
    } finally {
      await bare.close();
    }
  });
});

describe('calls', () => {
  it('answers 400 naming an unknown method', async ({ host }) => {
    for (const method of ['deleteEverything', '__proto__', 'constructor', 'toString']) {
      const response = await call(host, method, []);
      expect(response.status, method).toBe(400);
      expect(response.json<{ error: { code: string; message: string } }>().error).toEqual({
        code: 'unknown-method',
        message: `There is no API method named "${method}".`,
      });
    }
  });

  it('answers 400 with the argument at fault for bad arguments, and queues nothing', async ({ host }) => {
    const before = (await call(host, 'listOutbox', [])).json<{ value: { active: unknown[] } }>().value.active.length;
    const cases: [string, unknown[], RegExp][] = [
      ['saveSite', [42], /saveSite: argument 1/],
      ['saveSite', [], /saveSite takes 1 argument, not 0/],
      ['setApiKey', ['sandbox', ''], /setApiKey: argument 2/],
      ['retryEntry', [''], /retryEntry: argument 1/],
      ['saveSettings', [{ syncConcurrency: 99 }], /saveSettings: argument 1 \(syncConcurrency\)/],
      ['listSites', ['extra'], /listSites takes 0 arguments, not 1/],
    ];
    for (const [method, args, message] of cases) {
      const response = await call(host, method, args);
      expect(response.status, method).toBe(400);
      const error = response.json<{ error: { code: string; message: string } }>().error;
      expect(error.code).toBe('bad-arguments');
      expect(error.message).toMatch(message);
    }
    expect((await call(host, 'listOutbox', [])).json<{ value: { active: unknown[] } }>().value.active).toHaveLength(before);
  });

  it('answers 400 for a body that is not a JSON array, 415 for another content type, 413 when too large', async ({ host }) => {
    const post = (body: string, type = 'application/json') =>
      raw(host.port, { method: 'POST', path: '/api/listSites', headers: { ...auth(host), 'content-type': type }, body });
    expect((await post('{not json')).status).toBe(400);
    expect((await post('{"a":1}')).json<{ error: { message: string } }>().error.message).toMatch(/JSON array/);
    expect((await post('[]', 'text/plain')).status).toBe(415);
    expect((await post('[]', 'application/x-www-form-urlencoded')).status).toBe(415);
    const huge = JSON.stringify([{ name: 'x'.repeat(2 * 1024 * 1024) }]);
    expect((await raw(host.port, { method: 'POST', path: '/api/saveSite', headers: auth(host), body: huge })).status).toBe(413);
  });

  it('takes a file for bulk work far larger than other calls may be, and still caps it', async ({ host }) => {
    const csv = `name,height,lat,lon\n${'Ridge,30,45.1,-111.1\n'.repeat(150_000)}`;
    const body = JSON.stringify([{ name: 'big.csv', base64: Buffer.from(csv).toString('base64') }]);
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    const opened = await raw(host.port, { method: 'POST', path: '/api/openBulkFile', headers: auth(host), body });
    expect(opened.status).toBe(200);
    expect(opened.json<{ value: Result<{ size: number }> }>().value).toMatchObject({ ok: true, value: { size: csv.length } });
    const tooBig = JSON.stringify([{ name: 'x'.repeat(100), base64: 'QUFB'.repeat(23 * 1024 * 1024) }]);
    expect((await raw(host.port, { method: 'POST', path: '/api/openBulkFile', headers: auth(host), body: tooBig })).status).toBe(413);
  });

  it('takes a file the page sends as the raw body, held on disk, and refuses one over the limit with the sentence', async ({ host }) => {
    const api = apiFromBridge(createHttpBridge({ token: host.token, baseUrl: host.origin }));
    const csv = `name,height,lat,lon\n${'Ridge,30,45.1,-111.1\n'.repeat(50_000)}`;
    const opened = await api.openBulkFile({ name: 'Türme Nord.csv', file: new Blob([csv]) });
    expect(opened).toMatchObject({ ok: true, value: { name: 'Türme Nord.csv', size: csv.length } });
    if (!opened.ok) return;
    expect(await api.previewImport(opened.value.fileId, {})).toMatchObject({ ok: true, value: { summary: { ready: 50_000 } } });
    const tooBig = await api.openBulkFile({ name: 'huge.csv', file: new Blob([new Uint8Array(65 * 1024 * 1024)]) });
    expect(tooBig).toEqual({ ok: false, issues: [{ field: 'file', message: 'huge.csv is 65 MB; the limit is 64 MB. Split the file.' }] });
    expect((await api.getStatus()).host).toBe('browser');
  });

  it('stops reading a raw upload sent without a length once it passes the limit: 413 with the sentence, nothing kept', async ({ host }) => {
    const uploads = join(host.dataDir, 'uploads');
    // Files other tests opened stay held (the host is the file's).
    const held = readdirSync(uploads).sort();
    const answer = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: host.port,
          method: 'POST',
          path: '/api/openBulkFile',
          headers: { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}`, 'content-type': 'application/octet-stream', 'x-sitewalk-file-name': 'endless.csv', 'transfer-encoding': 'chunked' },
          agent: false,
        },
        (response) => {
          answered = true;
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sent }));
        },
      );
      // Written until the host answers (or gives up on the connection), never ended by this side. A
      // connection lost before the answer came is the failure it is, not a wait until the test's timeout.
      request.on('error', (error) => {
        if (!answered) reject(new Error(`the connection ended before the host answered: ${error.message}`));
      });
      const piece = Buffer.alloc(1024 * 1024, 0x61);
      const pump = () => {
        while (sent < 200 * 1024 * 1024 && !request.destroyed) {
          sent += piece.length;
          if (!request.write(piece)) return void request.once('drain', pump);
        }
        if (sent >= 200 * 1024 * 1024) reject(new Error('the host read 200 MB without answering'));
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'too-large', message: 'endless.csv is larger than 64 MB, the limit; split the file.' } });
    expect(answer.sent).toBeLessThan(200 * 1024 * 1024);
    await vi.waitFor(() => expect(readdirSync(uploads).sort()).toEqual(held), waiting('the partial upload to be removed'));
    expect((await call(host, 'getStatus', [])).status).toBe(200);
  });

  it('runs a real call: a saved site is queued and listed', async ({ host }) => {
    const saved = await call(host, 'saveSite', [{ name: 'North Ridge', height: 45, latitude: 40.44, longitude: -79.99, pinStyle: 2 }]);
    expect(saved.status).toBe(200);
    const result = saved.json<{ value: Result<SiteView> }>().value;
    expect(result.ok).toBe(true);
    const site = (result as { ok: true; value: SiteView }).value;
    expect(site).toMatchObject({ name: 'North Ridge', height: 45, pinStyle: 2 });
    expect(['pending', 'synced']).toContain(site.syncState);

    const listed = (await call(host, 'listSites', [])).json<{ value: SiteView[] }>().value;
    expect(listed.map((entry) => entry.localId)).toContain(site.localId);
    const status = (await call(host, 'getStatus', [])).json<{ value: StatusView }>().value;
    expect(status.host).toBe('browser');
    expect(status.activeProfileId).toBe('sandbox');
  });

  it("answers where the list's located sites are as raw bytes the page's bridge reads, and none below its threshold", async ({ host }) => {
    expect((await call(host, 'saveSite', [{ name: 'Bytes Ridge', height: 45, latitude: 40.4412345, longitude: -79.99 }])).status).toBe(200);
    const response = await call(host, 'sitePositions', [0]);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    const api = apiFromBridge(createHttpBridge({ token: host.token, baseUrl: host.origin }));
    const plain = (positions: ReturnType<typeof decodeSitePositions>) => ({ count: positions.count, latitude: Array.from(positions.latitude), longitude: Array.from(positions.longitude), state: Array.from(positions.state), style: Array.from(positions.style) });
    const expected = plain(sitePositionsOf(decodeSiteList(await api.listSitesPacked())));
    expect(expected.latitude).toContain(40.4412345);
    expect(plain(decodeSitePositions(await api.sitePositions(0)))).toEqual(expected);
    expect(plain(decodeSitePositions(await api.sitePositions(expected.count + 1)))).toEqual({ count: 0, latitude: [], longitude: [], state: [], style: [] });
    // A refusal still comes as the host's sentence, not as bytes.
    await expect(api.sitePositions(-1)).rejects.toThrow(/sitePositions/);
  });

  it('returns input issues as a result, not an error', async ({ host }) => {
    const response = await call(host, 'saveSite', [{ name: 'Bad', height: 'tall', latitude: 95, longitude: 0 }]);
    expect(response.status).toBe(200);
    const result = response.json<{ value: Result<SiteView> }>().value;
    expect(result.ok).toBe(false);
    expect((result as { ok: false; issues: { field: string }[] }).issues.map((issue) => issue.field)).toEqual(expect.arrayContaining(['height', 'latitude']));
  });

  it('never returns an API key', async ({ host }) => {
    const response = await call(host, 'listProfiles', []);
    expect(response.body).not.toMatch(/sandbox-demo-key/);
    expect(response.body).not.toMatch(/"key"/);
  });
});

describe('events', () => {
  it("delivers the core's events to the page's event client", async ({ host }) => {
    const bridge = createHttpBridge({ token: host.token, baseUrl: host.origin });
    const received: ApiEvent[] = [];
    const unsubscribe = bridge.onEvent((event) => received.push(event));
    const arrival = (what: string, predicate: (event: ApiEvent) => boolean) =>
      vi.waitFor(() => received.find(predicate) ?? expect.fail(`no ${what} event arrived (got: ${received.map((event) => event.type).join(', ')})`), waiting(`the ${what} event`));
    try {
      // Every subscription starts with the current status.
      const first = await arrival('status', (event) => event.type === 'status');
      expect(first).toMatchObject({ type: 'status', status: { host: 'browser' } });

      const api = { saveSite: (input: object) => bridge.invoke('saveSite', input) };
      const saved = (await api.saveSite({ name: 'Event Tower', height: 30, latitude: 41, longitude: -80 })) as Result<SiteView>;
      expect(saved.ok).toBe(true);
      const localId = (saved as { ok: true; value: SiteView }).value.localId;
      // The site and its outbox entry, told by one transaction, arrive as one event.
      const changes = await arrival('changes', (event) => event.type === 'changes' && event.changes.sites.some((site) => site.localId === localId));
      expect(changes).toMatchObject({ type: 'changes', changes: { sites: [{ name: 'Event Tower', height: 30 }], entries: [{ localId, kind: 'site', state: 'pending' }] } });
    } finally {
      unsubscribe();
      bridge.close();
    }
  });

  it("listens to the core only while a page's event stream is open", async ({ host }) => {
    // A second host over the same backend, its subscriptions to the core counted.
    const { hostApi } = host.backend;
    let listening = 0;
    const counted = {
      ...hostApi,
      onEvent(listener: (event: ApiEvent) => void) {
        listening++;
        const unsubscribe = hostApi.onEvent(listener);
        return () => {
          listening--;
          unsubscribe();
        };
      },
    };
    const other = await startBrowserHost({ hostApi: counted, staticDir: host.staticDir });
    const bridges: Array<ReturnType<typeof createHttpBridge>> = [];
    try {
      expect((await call(other, 'saveSite', [{ name: 'Unwatched', height: 20, latitude: 41, longitude: -81 }])).status).toBe(200);
      expect(listening).toBe(0);
      for (let i = 0; i < 2; i++) {
        const bridge = createHttpBridge({ token: other.token, baseUrl: other.origin });
        bridges.push(bridge);
        const received: ApiEvent[] = [];
        bridge.onEvent((event) => received.push(event));
        await vi.waitFor(() => expect(received.map((event) => event.type)).toContain('status'), waiting('the first status event'));
        // One subscription to the core, however many pages listen.
        expect(listening).toBe(1);
      }
      for (const bridge of bridges.splice(0)) bridge.close();
      await vi.waitFor(() => expect(listening).toBe(0), waiting('the host to stop listening'));
    } finally {
      for (const bridge of bridges) bridge.close();
      await other.close();
    }
  });

  it('rejects a page call with the host sentence when the token is wrong', async ({ host }) => {
    const bridge = createHttpBridge({ token: 'x'.repeat(43), baseUrl: host.origin });
    await expect(bridge.invoke('listSites')).rejects.toThrow(/token/);
  });
});

describe('through to the service', () => {
  it('sends a saved site to the in-process sandbox and reports it synced with its new ID', { timeout: 60_000 }, async ({ host }) => {
    const bridge = createHttpBridge({ token: host.token, baseUrl: host.origin });
    const events: ApiEvent[] = [];
    const unsubscribe = bridge.onEvent((event) => events.push(event));
    try {
      const saved = (await bridge.invoke('saveSite', { name: 'Synced Ridge', height: 52, latitude: 40.61, longitude: -79.93 })) as Result<SiteView>;
      const localId = (saved as { ok: true; value: SiteView }).value.localId;
      const synced = await vi.waitFor(() => {
        const told = events.flatMap((event) => (event.type === 'changes' ? event.changes.sites.filter((site) => site.localId === localId) : []));
        const found = told.find((site) => site.syncState === 'synced');
        if (!found) throw new Error(`the site has not been reported synced (its events: ${told.map((site) => site.syncState).join(', ')})`);
        return found;
      }, waiting('the site to be reported synced', 50_000));
      expect(synced.siteId).toMatch(/\S/);
      // The sandbox (the Sandbox profile's service) now holds it, under that ID.
      const profiles = (await bridge.invoke('listProfiles')) as ProfileView[];
      const sandbox = profiles.find((profile) => profile.builtIn)!;
      const held = (await (await fetch(`${sandbox.baseUrl}/_sandbox/sites/${encodeURIComponent(synced.siteId!)}`)).json()) as Record<string, unknown>;
      expect(JSON.stringify(held)).toContain('Synced Ridge');
    } finally {
      unsubscribe();
      bridge.close();
    }
  });
});

describe('logs', () => {
  it('never contain the token', async ({ host }) => {
    // Refused requests are logged: make some, with the real token in the headers.
    await call(host, 'listSites', [], { host: 'evil.example' });
    await call(host, 'listSites', [], { origin: 'https://evil.example' });
    await raw(host.port, { method: 'POST', path: `/api/listSites?token=${encodeURIComponent('not-the-token')}`, body: '[]' });
    expect(host.logs.length).toBeGreaterThan(2);
    for (const line of host.logs) expect(line).not.toContain(host.token);
  });
});
