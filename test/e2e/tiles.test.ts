// Tiles seen while online show offline: with a tile server on loopback (real PNGs) the map shows its
// tiles; with the server gone, a fresh browser (nothing in its own cache) shows the same tiles, from
// the copies Sitewalk kept on disk, and no coordinate grid.
import type { Page } from 'playwright';
import { describe, expect, test as e2e, vi } from './fixtures';
import { chooseSandbox, pinsDrawn } from './helpers';
import { startPngTileServer } from './tile-server';

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
    await expect.poll(() => pinsDrawn(page), { message: 'the demo sites drawn' }).toBeGreaterThan(5);
    // The welcome was answered in this data folder: a new browser, drawn and ready, does not ask again.
    expect(await page.getByRole('button', { name: /Try it with the Sandbox/ }).count()).toBe(0);
    await expect.poll(() => loadedTiles(page), { message: 'the tiles seen online' }).toEqual(expect.arrayContaining(online));
    await expect.poll(() => page.getByTestId('map').getAttribute('data-tiles'), { message: 'no grid' }).toBe('tiles');
    expect(await page.getByText(/Map tiles cannot load here/).count()).toBe(0);
    await session.screenshot('tiles-offline-from-disk');

    // The tile server is gone: the tile comes from disk. Outside the page, only the token opens /tiles/.
    expect((await fetch(new URL(online[0]!, `${app.origin}/`))).status).toBe(401);
    const answer = await fetch(new URL(online[0]!, `${app.origin}/`), { headers: { authorization: `Bearer ${app.token}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-sitewalk-tile')).toBeNull();
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
