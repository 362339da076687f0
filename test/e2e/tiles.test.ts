// Tiles seen while online show offline: with a tile server on loopback (real PNGs) the map shows its
// tiles; with the server gone, a fresh browser (nothing in its own cache) shows the same tiles, from
// the copies Sitewalk kept on disk, and no coordinate grid.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deflateSync, crc32 } from 'node:zlib';
import type { Page } from 'playwright';
import { describe, expect, test as e2e, vi } from './fixtures';
import { chooseSandbox, pinsDrawn } from './helpers';

/** A tile server on loopback, and the app set to fetch its map tiles there. */
const test = e2e.extend('tileServer', async ({ app }, { onCleanup }) => {
  const server = await startPngTileServer();
  onCleanup(() => server.close());
  await app.call('saveSettings', { tileUrl: server.template });
  return server;
});

describe('map tiles', () => {
  test('shows the tiles seen online again, from disk, once the tile server is out of reach', async ({ app, tileServer, newSession }) => {
    let session = await newSession();
    await chooseSandbox(session.page);
    await expect.poll(() => pinsDrawn(session.page), { message: 'the demo sites drawn' }).toBeGreaterThan(5);
    const online = await settledTiles(session.page);
    expect(online.length).toBeGreaterThan(0);
    expect(await session.page.getByTestId('map').getAttribute('data-tiles')).toBe('tiles');
    await session.screenshot('tiles-online');
    expect(tileServer.requests).toBeGreaterThan(0);
    expect(session.refused).toEqual([]);
    await session.close();

    await tileServer.close();
    // A new browser context: nothing in the browser's own cache, so every tile comes from the host.
    session = await newSession();
    const { page } = session;
    // This browser has not seen the welcome yet.
    await chooseSandbox(page);
    await expect.poll(() => pinsDrawn(page), { message: 'the demo sites drawn' }).toBeGreaterThan(5);
    await expect.poll(() => loadedTiles(page), { message: 'the tiles seen online' }).toEqual(expect.arrayContaining(online));
    await expect.poll(() => page.getByTestId('map').getAttribute('data-tiles'), { message: 'no grid' }).toBe('tiles');
    expect(await page.getByText(/Map tiles cannot load here/).count()).toBe(0);
    await session.screenshot('tiles-offline-from-disk');

    const answer = await fetch(new URL(online[0]!, `${app.origin}/`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-sitewalk-tile')).toBe('cache');
    expect(session.errors).toEqual([]);
    expect(await session.cspViolations()).toEqual([]);
    expect(session.refused).toEqual([]);
  });
});

/** The src of every tile image Leaflet has loaded (relative: tiles/{basemap}/z/x/y?v=…). */
async function loadedTiles(page: Page): Promise<string[]> {
  return page.locator('.leaflet-tile-pane img.leaflet-tile-loaded').evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? '').filter((src) => src.startsWith('tiles/')));
}

/** The loaded tiles of the deepest zoom shown, once the map has stopped moving and loading (the same in two looks a second apart). */
async function settledTiles(page: Page): Promise<string[]> {
  let last = '';
  return vi.waitFor(
    async () => {
      if ((await page.getByTestId('map').getAttribute('data-moving')) === '1') throw new Error('the map is still moving');
      const tiles = await loadedTiles(page);
      const zooms = tiles.map((src) => Number(/(\d+)\/\d+\/\d+(?:\?|$)/.exec(src)?.[1]));
      const deepest = tiles.filter((_src, index) => zooms[index] === Math.max(...zooms)).sort();
      const key = deepest.join(' ');
      const settled = deepest.length > 0 && key === last;
      last = key;
      if (!settled) throw new Error(`the map is still loading its tiles (${deepest.length} at its deepest zoom)`);
      return deepest;
    },
    { timeout: 60_000, interval: 1_000 },
  );
}

interface PngTileServer {
  template: string;
  requests: number;
  close(): Promise<void>;
}

/** A tile server on loopback answering every /{z}/{x}/{y}.png with a real, plain PNG. */
async function startPngTileServer(): Promise<PngTileServer> {
  const tile = solidPng(256, 256, [0xdd, 0xe8, 0xd0], [0x9a, 0xb0, 0x8c]);
  const sockets = new Set<Socket>();
  const state = { requests: 0 };
  const server: Server = createServer((request, response) => {
    state.requests++;
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': tile.length });
    response.end(tile);
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
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

/** An RGB PNG of one colour with a 2-pixel border in another, so tile edges show in screenshots. */
function solidPng(width: number, height: number, fill: [number, number, number], border: [number, number, number]): Buffer {
  const row = width * 3 + 1;
  const pixels = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = x < 2 || y < 2 ? border : fill;
      pixels.set(colour, y * row + 1 + x * 3);
    }
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
