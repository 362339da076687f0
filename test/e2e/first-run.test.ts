// A technician's first run, as one journey: the welcome offers the Sandbox, the demo sites appear on
// the map (fitted to them), and with no tile server reachable (and no tile seen before) the map shows
// a coordinate grid instead of grey nothing — all under the hosts' CSP, without a single page error.
// The page asks its own host for tiles, never the tile server. Then Settings → Basemaps → Downloaded
// areas, as a user meets it: the size downloaded tiles take on disk against the one limit for all of
// them, a new limit saved (and a wrong one refused beside the field), and "Clear downloaded tiles"
// after a confirmation. Then tiles seen while online show offline: with a tile server on loopback
// (real PNGs) the map shows its tiles; with the server gone, a fresh browser (nothing in its own
// cache) shows the same tiles, from the copies Sitewalk kept on disk, and no coordinate grid. Last, in
// that browser, the parts of the page loaded when first opened (the site form, a tab's panel) fetch
// their code from Sitewalk then: when that fetch fails (the connection dropped for that request) the
// part says so where it would have been, the rest of the page carries on, and "Try again" loads it.
// The grid and the empty tile store come first: the tile server is only set once they have been seen.
import type { Page, Route } from 'playwright';
import type { SandboxSite } from '../../electron/sandbox/state';
import { describe, expect, test as e2e, vi } from './fixtures';
import { chooseSandbox, findSandboxUrl, inspect, pinsDrawn, type App, type Session } from './helpers';
import { escapeRegExp, step } from './steps';
import { startPngTileServer, type PngTileServer } from './tile-server';

/** A tile server of the test's own on loopback (the app is pointed at it only after the grid was seen). */
const test = e2e.extend('tileServer', async ({ task: _task }, { onCleanup }) => {
  const server = await startPngTileServer();
  onCleanup(() => server.close());
  return server;
});

describe('first run', () => {
  test(
    'offers the Sandbox and shows its demo sites over a coordinate grid, limits and clears the downloaded tiles, shows tiles seen online again from disk, and loads parts that could not be fetched on Try again',
    { timeout: 540_000 },
    async ({ app, page, session, tileServer, newSession }) => {
      const demo = await step('offers the Sandbox, then shows its demo sites on the map over a coordinate grid', () => firstMinute(app, page, session));
      await step('shows what downloaded tiles take, saves the limit for all of them, and clears them', () => downloadedTiles(app, page, session));
      await step('does all that without a page error, a CSP violation or a request beyond loopback', async () => {
        expect(session.errors).toEqual([]);
        expect(await session.cspViolations()).toEqual([]);
        // Tiles come through the host: the page itself tried to reach nothing beyond loopback.
        expect(session.refused).toEqual([]);
      });
      const online = await step('shows the tiles of a tile server it can reach', async () => {
        // This browser saw the grid; the tiles are looked at in one of their own, as the app's first
        // view with a tile server.
        await session.close();
        await app.call('saveSettings', { tileUrl: tileServer.template });
        return tilesOnline(tileServer, newSession);
      });
      const offline = await step('shows the tiles seen online again, from disk, once the tile server is out of reach', () => tilesFromDisk(app, tileServer, newSession, online));
      await step('the site form that cannot be fetched says so, the map keeps its sites, and Try again opens it', () => siteFormAgain(offline.page, demo));
      await step("a tab's panel that cannot be fetched says so in the panel, and Try again shows it", () => panelAgain(offline.page));
    },
  );
});

async function firstMinute(app: App, page: Page, session: Session): Promise<SandboxSite[]> {
  const welcome = page.getByRole('dialog', { name: 'Welcome to Sitewalk' });
  await welcome.waitFor();
  await session.screenshot('first-run-welcome');
  await chooseSandbox(page);

  const base = await findSandboxUrl(app);
  const demo = await inspect<SandboxSite[]>(base, 'sites');
  expect(demo.length).toBeGreaterThan(5);

  // Every demo site is listed and drawn: the map was fitted to them.
  await page.getByText(`${demo.length} sites`, { exact: true }).waitFor();
  await expect.poll(() => pinsDrawn(page), { message: 'every demo site drawn' }).toBe(demo.length);
  const first = [...demo].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))[0]!;
  await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(first.name)}\\b`) }).first().waitFor();

  // No tiles here: the host could not get them, the grid stands in, and says why.
  await expect.poll(() => page.getByTestId('map').getAttribute('data-tiles'), { message: 'the coordinate grid' }).toBe('grid');
  await page.getByText(/Map tiles cannot load here/).waitFor();
  expect(await page.locator('.leaflet-tile-pane canvas').count()).toBeGreaterThan(0);
  // Each grid line is labelled once for the view, not once per tile.
  const labels = await page.locator('.grid-label').allTextContents();
  expect(labels.some((text) => /°[NS]$/.test(text)) && labels.some((text) => /°[EW]$/.test(text))).toBe(true);
  expect(new Set(labels).size).toBe(labels.length);
  const tileRequests = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.includes('/tiles/')));
  expect(tileRequests.length).toBeGreaterThan(0);
  for (const url of tileRequests) expect(url).toMatch(new RegExp(`^${escapeRegExp(app.origin)}/tiles/(?:[a-z0-9-]+/)?\\d+/\\d+/\\d+\\?v=[0-9a-z]+$`));

  await session.screenshot('first-run-sandbox-sites');
  return demo;
}

async function downloadedTiles(app: App, page: Page, session: Session): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const group = page.getByRole('group', { name: 'Downloaded areas' });
  await group.scrollIntoViewIfNeeded();
  await expect.poll(() => group.innerText()).toMatch(/Downloaded tiles take 0 bytes on disk of the 2(\.0)? GB allowed for all of them/);

  const limit = group.getByLabel('Limit for all downloaded tiles (MB)');
  await limit.fill('0.5');
  await group.getByRole('button', { name: 'Save limit' }).click();
  await expect.poll(() => group.innerText()).toMatch(/between 1 MB and 64 GB/);
  await limit.fill('300');
  await group.getByRole('button', { name: 'Save limit' }).click();
  await expect.poll(async () => (await app.call<{ limitBytes: number }>('getOfflineTiles')).limitBytes).toBe(300 * 1024 * 1024);
  await expect.poll(() => group.innerText()).toMatch(/of the 300 MB allowed/);

  for (const [width, height] of [[1366, 768], [1024, 640]] as const) {
    await page.setViewportSize({ width, height });
    await group.scrollIntoViewIfNeeded();
    await session.screenshot(`downloaded-tiles-${width}x${height}`);
  }

  await group.getByRole('button', { name: 'Clear downloaded tiles' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clear downloaded tiles' }).click();
  await expect.poll(() => page.getByText('Downloaded tiles cleared.').count()).toBeGreaterThan(0);
}

/** With the app set to the tile server: a new browser shows its tiles (the src of those loaded, at the deepest zoom shown). */
async function tilesOnline(tileServer: PngTileServer, newSession: () => Promise<Session>): Promise<string[]> {
  const session = await newSession();
  // The welcome was answered in this data folder: the map opens on the Sandbox's sites.
  await expect.poll(() => pinsDrawn(session.page), { message: 'the demo sites drawn' }).toBeGreaterThan(5);
  const online = await settledTiles(session.page);
  expect(online.length).toBeGreaterThan(0);
  expect(await session.page.getByTestId('map').getAttribute('data-tiles')).toBe('tiles');
  await session.screenshot('tiles-online');
  expect(tileServer.requests).toBeGreaterThan(0);
  expect(session.refused).toEqual([]);
  await session.close();
  return online;
}

/** The tile server closed, a new browser shows the tiles seen online from disk: that browser's session. */
async function tilesFromDisk(app: App, tileServer: PngTileServer, newSession: () => Promise<Session>, online: string[]): Promise<Session> {
  await tileServer.close();
  // A new browser context: nothing in the browser's own cache, so every tile comes from the host.
  const session = await newSession();
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
  return session;
}

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

/** Refuses the page's requests for the chunk named `name` until the returned function is called. */
async function refuseChunk(page: Page, name: string): Promise<() => void> {
  let refusing = true;
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), (route: Route) => (refusing ? route.abort('connectionrefused') : route.continue()));
  return () => {
    refusing = false;
  };
}

async function siteFormAgain(page: Page, demo: SandboxSite[]): Promise<void> {
  // Every demo site drawn in this browser too, as on a first look at the Sandbox.
  await expect.poll(() => pinsDrawn(page), { message: 'the demo sites drawn' }).toBe(demo.length);
  const site = demo[0]!;
  const corner = page.locator('.map-stack-right');
  // boundingBox() does not wait, and the controls are drawn again as the map moves to the site: each
  // measure waits for them to be shown (they were not, once at start and once after the failure).
  const cornerRight = async () => {
    await corner.waitFor();
    const box = await corner.boundingBox();
    if (!box) throw new Error("the map's bottom-right controls are not shown");
    return box.x + box.width;
  };
  const mapRight = await cornerRight();
  const allow = await refuseChunk(page, 'site-form');
  await page.getByRole('button', { name: `Edit ${site.name}` }).click();

  const failed = page.getByRole('alert').filter({ hasText: 'Sitewalk could not load the site form.' });
  await failed.waitFor();
  // The page carries on: every site is still on the map (the form's opening zoomed it to the site).
  expect(await page.getByTestId('map').getAttribute('data-pins-on-map')).toBe(String(demo.length));
  // No form is docked, so the map's bottom-right controls (My location) stay in their corner; they
  // moved left by the form's width as if it were open.
  expect(await page.locator('.app.form-open').count()).toBe(0);
  expect(await cornerRight()).toBe(mapRight);

  allow();
  await failed.getByRole('button', { name: 'Try again' }).click();
  const form = page.getByRole('region', { name: `Edit ${site.name}` });
  await form.waitFor();
  await expect.poll(() => failed.count()).toBe(0);
  // With the form there, they move beside it.
  await expect.poll(cornerRight).toBeLessThan(mapRight - 300);
  await form.getByRole('button', { name: 'Close', exact: true }).click();
  await form.waitFor({ state: 'detached' });
}

async function panelAgain(page: Page): Promise<void> {
  const allow = await refuseChunk(page, 'outbox-panel');
  await page.getByRole('button', { name: /^Outbox/ }).click();
  const panel = page.getByRole('region', { name: 'Outbox: changes to send' });
  const failed = panel.getByRole('alert').filter({ hasText: 'Sitewalk could not load this panel.' });
  await failed.waitFor();

  allow();
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect.poll(() => failed.count()).toBe(0);
  await panel.getByText('Nothing needs your attention.').waitFor();
}
