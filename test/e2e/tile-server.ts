// A tile server of a test's own on loopback: every /{z}/{x}/{y}.png is a real, plain PNG (a colour
// with a border, so tile edges show in screenshots), optionally answered slowly so a test can catch
// an area download in the middle. It counts the tiles it served and can be closed mid-request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

export interface PngTileServer {
  template: string;
  /** Tile requests answered so far. */
  readonly requests: number;
  /** Milliseconds each answer waits (0: at once); may be changed while it runs. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startPngTileServer(options: { delayMs?: number; fill?: [number, number, number] } = {}): Promise<PngTileServer> {
  const tile = solidPng(256, 256, options.fill ?? [0xdd, 0xe8, 0xd0], [0x9a, 0xb0, 0x8c]);
  const sockets = new Set<Socket>();
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
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
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
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

/** An RGB PNG of one colour with a 2-pixel border in another. */
export function solidPng(width: number, height: number, fill: [number, number, number], border: [number, number, number]): Buffer {
  const row = width * 3 + 1;
  const pixels = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(x < 2 || y < 2 ? border : fill, y * row + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
