// A tile server on loopback standing in for OpenStreetMap (which these machines cannot reach): it
// answers /{name}/{z}/{x}/{y}.png with bytes that say which tile and which version they are, counts
// and records every request, honours If-None-Match, and can be switched to answer badly, to hang,
// or to go away entirely (connection refused, as when a laptop is offline).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trackConnections } from '../support/net';

export type TileServerMode = 'png' | 'html' | 'svg' | 'error' | 'not-found' | 'hang';

export interface FakeTileServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** A template for this server; each name is a different "tile server". */
  template(name?: string): string;
  /** Every request received, in order. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Requests for one path (/{name}/{z}/{x}/{y}.png), or all. */
  count(path?: string): number;
  mode: TileServerMode;
  /** Changes every tile's bytes and ETag. */
  version: number;
  /** Bytes per tile body (padded), for size limits. */
  tileBytes: number;
  /** Delay before answering, for concurrent requests. */
  delayMs: number;
  /** Stops listening: requests are refused, like a server out of reach. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** What the fake serves for a path at a version: enough to tell tiles and versions apart. */
export function fakeTile(path: string, version: number, size = 0): Buffer {
  const text = Buffer.from(`\x89PNG\r\n\x1a\n${path} v${version}`, 'latin1');
  return size > text.length ? Buffer.concat([text, Buffer.alloc(size - text.length, 0x2e)]) : text;
}

export async function startFakeTileServer(): Promise<FakeTileServer> {
  let port = 0;
  const fake: FakeTileServer = {
    origin: '',
    template: (name = 'osm') => `${fake.origin}/${name}/{z}/{x}/{y}.png`,
    requests: [],
    count: (path) => fake.requests.filter((request) => path === undefined || request.path === path).length,
    mode: 'png',
    version: 1,
    tileBytes: 0,
    delayMs: 0,
    down: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        connections.destroyAll();
      });
    },
    up: () => listen(port),
    close: () => fake.down(),
  };

  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    fake.requests.push({ path, headers: request.headers });
    const answer = () => {
      if (fake.mode === 'hang') return;
      if (fake.mode === 'error') {
        response.writeHead(500, { 'Content-Type': 'image/png' });
        return void response.end(fakeTile(path, fake.version));
      }
      if (fake.mode === 'not-found' || !/^\/\w+\/\d+\/\d+\/\d+\.png$/.test(path)) {
        response.writeHead(404, { 'Content-Type': 'text/plain' });
        return void response.end('no such tile');
      }
      if (fake.mode === 'html') {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return void response.end('<html><body>Please log in to the hotel Wi-Fi</body></html>');
      }
      if (fake.mode === 'svg') {
        response.writeHead(200, { 'Content-Type': 'image/svg+xml' });
        return void response.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      }
      const etag = `"v${fake.version}"`;
      if (request.headers['if-none-match'] === etag) {
        response.writeHead(304, { ETag: etag });
        return void response.end();
      }
      const body = fakeTile(path, fake.version, fake.tileBytes);
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': body.length, ETag: etag });
      response.end(body);
    };
    if (fake.delayMs > 0) setTimeout(answer, fake.delayMs);
    else answer();
  });
  const connections = trackConnections(server);

  function listen(at: number): Promise<void> {
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  await listen(0);
  port = (server.address() as AddressInfo).port;
  fake.origin = `http://127.0.0.1:${port}`;
  return fake;
}
