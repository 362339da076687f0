// A tile server's redirect is followed only within its own origin: a tile is never taken from a
// host the user did not name (a captive portal, another server). Two real loopback servers.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect } from 'vitest';
import { createTileCache, type TileCache } from '../../electron/core/tiles';
import { it } from '../support/fixtures';
import { fakeTile } from './fake-tile-server';

const servers: Server[] = [];
const caches: TileCache[] = [];
afterEach(async () => {
  for (const cache of caches.splice(0)) await cache.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function serve(handler: (path: string) => { status: number; location?: string; body?: Buffer }): Promise<string> {
  const server = createServer((request, response) => {
    const answer = handler(request.url ?? '/');
    response.writeHead(answer.status, { 'content-type': 'image/png', ...(answer.location ? { location: answer.location } : {}) });
    response.end(answer.body ?? '');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('tile redirects', () => {
  it('follows a redirect within the tile server and refuses one to another host', async ({ tempDir }) => {
    const elsewhere = await serve((path) => ({ status: 200, body: fakeTile(path, 1) }));
    const origin = await serve((path) =>
      path.startsWith('/moved/') ? { status: 301, location: path.replace('/moved/', '/tiles/') } : path.startsWith('/away/') ? { status: 302, location: `${elsewhere}${path}` } : { status: 200, body: fakeTile(path, 1) },
    );
    const logs: string[] = [];
    const open = (template: string) => {
      const cache = createTileCache({ dataDir: tempDir, template: () => template, log: (line) => void logs.push(line), retryAfterMs: 0 });
      caches.push(cache);
      return cache;
    };
    const same = await open(`${origin}/moved/{z}/{x}/{y}.png`).get({ z: 2, x: 1, y: 1 });
    expect(same.ok && Buffer.from(same.bytes)).toEqual(fakeTile('/tiles/2/1/1.png', 1));
    const other = await open(`${origin}/away/{z}/{x}/{y}.png`).get({ z: 2, x: 1, y: 2 });
    expect(other.ok).toBe(false);
    expect(!other.ok && other.detail).toMatch(/redirected to another host/);
  });
});
