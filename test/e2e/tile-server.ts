// A tile server of a test's own on loopback: every /{z}/{x}/{y}.png is a real, plain PNG (a colour
// with a border, so tile edges show in screenshots), optionally answered slowly so a test can catch
// an area download in the middle. It counts the tiles it served and can be closed mid-request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trackConnections } from '../support/net';
import { rgbPng } from '../support/png';

export interface PngTileServer {
  template: string;
  /** Tile requests answered so far. */
  readonly requests: number;
  /** Milliseconds each answer waits (0: at once); may be changed while it runs. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startPngTileServer(options: { delayMs?: number; fill?: [number, number, number] } = {}): Promise<PngTileServer> {
  const tile = rgbPng({ fill: options.fill ?? [0xdd, 0xe8, 0xd0], border: [0x9a, 0xb0, 0x8c] });
  const state = { requests: 0, delayMs: options.delayMs ?? 0 };
  const server: Server = createServer((request, response) => {
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    const answer = () => {
      state.requests++;
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': tile.length });
      response.end(tile);
    };
    if (state.delayMs > 0) setTimeout(answer, state.delayMs);
    else answer();
  });
  const connections = trackConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  return {
    template: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    get requests() {
      return state.requests;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        connections.destroyAll();
      });
      return closed;
    },
  };
}
