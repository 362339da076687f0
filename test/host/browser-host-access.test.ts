// Who reaches the browser host's API, against a real started host (random loopback port) in front
// of a real core: it listens on 127.0.0.1 only, with a fresh token per run; only a request with that
// token, our Host and (when sent) our Origin gets through. The rest of its contract is in
// browser-host.test.ts.
import { connect } from 'node:net';
import { describe, expect } from 'vitest';
import { startBrowserHost } from '../../electron/browser-host/server';
import { it } from '../support/fixtures';
import { authHeaders as auth, call, raw } from '../support/host';

describe('where the host listens', () => {
  it('is bound to 127.0.0.1 only', ({ host }) => {
    expect(host.address.address).toBe('127.0.0.1');
    expect(host.address.family).toBe('IPv4');
    expect(host.pageUrl).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
  });

  it('refuses to listen on any other address', async ({ host }) => {
    for (const address of ['0.0.0.0', '::', 'localhost', '192.168.1.10']) {
      await expect(startBrowserHost({ hostApi: host.backend.hostApi, staticDir: host.staticDir, host: address })).rejects.toThrow(/127\.0\.0\.1 only/);
    }
  });

  it('hands out a fresh 32-byte token per run', async ({ host }) => {
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32);
    const other = await startBrowserHost({ hostApi: host.backend.hostApi, staticDir: host.staticDir });
    try {
      expect(other.token).not.toBe(host.token);
    } finally {
      await other.close();
    }
  });
});

describe('the session token', () => {
  it('answers 401 without a token, and nothing is run', async ({ host }) => {
    const response = await raw(host.port, { method: 'POST', path: '/api/listSites', headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(/token/);
  });

  it('answers 401 for a wrong token of any length or form', async ({ host }) => {
    const real = host.token;
    const wrong = [`${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`, 'short', `${real}x`, '', real.toLowerCase() === real ? real.toUpperCase() : real.toLowerCase()];
    for (const token of wrong) {
      const response = await raw(host.port, { method: 'POST', path: '/api/listSites', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '[]' });
      expect(response.status, token).toBe(401);
    }
    const basic = await raw(host.port, { method: 'POST', path: '/api/listSites', headers: { authorization: `Basic ${real}`, 'content-type': 'application/json' }, body: '[]' });
    expect(basic.status).toBe(401);
  });

  it('does not accept the token from the URL', async ({ host }) => {
    const response = await raw(host.port, { method: 'POST', path: `/api/listSites?token=${host.token}`, headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(response.status).toBe(401);
  });

  it('guards the event stream too', async ({ host }) => {
    expect((await raw(host.port, { path: '/api/events' })).status).toBe(401);
  });
});

describe('Host and Origin', () => {
  it('answers 403 to a foreign Host even with the right token (DNS rebinding)', async ({ host }) => {
    for (const foreign of ['evil.example', `evil.example:${host.port}`, `127.0.0.1:${host.port + 1}`, `127.0.0.2:${host.port}`, `127.0.0.1:${host.port}.evil.example`]) {
      const response = await raw(host.port, { method: 'POST', path: '/api/listSites', headers: { ...auth(host), host: foreign }, body: '[]' });
      expect(response.status, foreign).toBe(403);
    }
    const page = await raw(host.port, { path: '/', headers: { host: `rebound.example:${host.port}` } });
    expect(page.status).toBe(403);
  });

  it('answers 403 to a request without a Host header', async ({ host }) => {
    const socket = connect(host.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET / HTTP/1.0\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 403/);
  });

  it('accepts localhost as well as 127.0.0.1', async ({ host }) => {
    const response = await raw(host.port, { method: 'POST', path: '/api/listSites', headers: { ...auth(host), host: `localhost:${host.port}` }, body: '[]' });
    expect(response.status).toBe(200);
  });

  it('answers 403 to a foreign Origin even with the right token', async ({ host }) => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${host.port + 1}`, `https://127.0.0.1:${host.port}`]) {
      const response = await call(host, 'listSites', [], { origin });
      expect(response.status, origin).toBe(403);
    }
  });

  it('answers 403 when the browser says the request is cross-site', async ({ host }) => {
    expect((await call(host, 'listSites', [], { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('accepts its own origin', async ({ host }) => {
    expect((await call(host, 'listSites', [], { origin: `http://127.0.0.1:${host.port}` })).status).toBe(200);
    expect((await call(host, 'listSites', [], { origin: `http://localhost:${host.port}` })).status).toBe(200);
  });
});
