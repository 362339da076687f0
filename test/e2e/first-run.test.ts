// A technician's first minute, as one journey: the welcome offers the Sandbox, the demo sites appear on
// the map (fitted to them), and with no tile server reachable (and no tile seen before) the map shows
// a coordinate grid instead of grey nothing — all under the hosts' CSP, without a single page error.
// The page asks its own host for tiles, never the tile server. Then Settings → Basemaps → Downloaded
// areas, as a user meets it: the size downloaded tiles take on disk against the one limit for all of
// them, a new limit saved (and a wrong one refused beside the field), and "Clear downloaded tiles"
// after a confirmation.
import type { SandboxSite } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { chooseSandbox, findSandboxUrl, inspect, pinsDrawn, type App, type Session } from './helpers';
import type { Page } from 'playwright';
import { step } from './steps';

describe('first run', () => {
  test('offers the Sandbox, then shows its demo sites on the map over a coordinate grid; the downloaded tiles can be limited and cleared', async ({ app, page, session }) => {
    await step('offers the Sandbox, then shows its demo sites on the map over a coordinate grid', () => firstMinute(app, page, session));
    await step('shows what downloaded tiles take, saves the limit for all of them, and clears them', () => downloadedTiles(app, page, session));
    expect(session.errors).toEqual([]);
    expect(await session.cspViolations()).toEqual([]);
    // Tiles come through the host: the page itself tried to reach nothing beyond loopback.
    expect(session.refused).toEqual([]);
  });
});

async function firstMinute(app: App, page: Page, session: Session): Promise<void> {
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
