// A technician's first minute: the welcome offers the Sandbox, the demo sites appear on the map
// (fitted to them), and with no tile server reachable (and no tile seen before) the map shows a
// coordinate grid instead of grey nothing — all under the hosts' CSP, without a single page error.
// The page asks its own host for tiles, never the tile server.
import type { SandboxSite } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { chooseSandbox, findSandboxUrl, inspect, pinsDrawn } from './helpers';

describe('first run', () => {
  test('offers the Sandbox, then shows its demo sites on the map over a coordinate grid', async ({ app, page, session }) => {
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
    expect(session.errors).toEqual([]);
    expect(await session.cspViolations()).toEqual([]);
    // Tiles come through the host: the page itself tried to reach nothing beyond loopback.
    expect(session.refused).toEqual([]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
