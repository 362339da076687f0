// The first paint of many sites draws them from their positions, asked of the host before the (much
// larger) site list, clustered in a worker; the list is asked once those pins are on screen, and they
// learn their sites from it. When the CLI moves a site between the two answers, the pins drawn are no
// longer the list's: the map must replace them with the list's and show the moved site where it is
// now, counted as pending, never keep the positions' picture. When the positions cannot be read (an
// answer of another format), the index is asked from the list as before.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SiteView } from '../../electron/shared/contract/index';
import { runSitewalk } from '../support/cli';
import { describe, expect } from './fixtures';
import { chooseSandbox, findSandboxUrl, pinsDrawn } from './helpers';
import { mapData, mapSettled, reloadWithEverySite, testOnSeededRegister } from './seeded-register';
import { step } from './steps';
import type { Page } from 'playwright';

// Enough to be clustered off the page's thread (OFF_THREAD_FROM), all in one region.
const SITES = 6_000;

const test = testOnSeededRegister(SITES, 700_000, (k) => ({
  name: `Mast ${k + 1}`,
  height: 30,
  latitude: 45 + ((k * 7919) % 1000) / 1000,
  longitude: -112 + ((k * 104729) % 1000) / 700,
  group: '',
  description: '',
}));

describe('the first pins, drawn from the positions before the list arrives', () => {
  test('learn their sites from the list: a pin drawn first opens its site; with the positions unreadable, the index is asked from the list and every site is still clustered', { timeout: 180_000 }, async ({ page, session }) => {
    await step('learn their sites from the list: a pin drawn first opens its site', () => learnTheirSites(page));
    await step('is asked from the list as before when the positions cannot be read, and every site is still clustered', () => fromTheList(page));
    expect(session.errors).toEqual([]);
  });

  test('are replaced when the CLI moves a site between the two answers, and the map clusters the sites as the list has them', { timeout: 120_000 }, async ({ app, page, session, tempDir }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await chooseSandbox(page);
    await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(SITES);
    const total = await mapData(page, 'pins-on-map');
    expect(await mapData(page, 'pins-pending')).toBe(0);
    // The CLI's edit is never answered, so the site stays pending and nothing after the load changes its pin.
    const sandbox = await findSandboxUrl(app);
    const faults = await fetch(`${sandbox}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ hangRate: 1, operations: ['SitesAPI'] }) });
    expect(faults.ok).toBe(true);
    const moved = (await app.call<SiteView[]>('listSites')).find((site) => site.name === 'Mast 1')!;
    const home = join(tempDir, 'home');
    await mkdir(home);

    // The page opened again; its site list is held until the host has answered the positions and the CLI has moved a site.
    const positionsAnswered = page.waitForResponse((response) => response.url().endsWith('/api/sitePositions'));
    let edited: Awaited<ReturnType<typeof runSitewalk>> | null = null;
    await page.route('**/api/listSitesPacked', async (route) => {
      try {
        await (await positionsAnswered).finished();
        edited = await runSitewalk(home, ['site', 'edit', moved.localId, '--lat', '30.5', '--lon=-90.25', '--data-dir', app.dataDir]);
        // The app has read the CLI's change before it answers the list.
        await expect.poll(async () => (await app.call<SiteView[]>('listSites')).find((site) => site.localId === moved.localId)?.latitude, { message: 'the app to see the move' }).toBe(30.5);
      } finally {
        await route.continue();
      }
    });
    // What the first frame drew, before anything the page hears afterwards (the sync's changes) redraws it.
    await page.addInitScript(() => {
      const seen = new MutationObserver(() => {
        const map = document.querySelector<HTMLElement>('[data-testid="map"]');
        if (Number(map?.dataset['pinsDrawn'] ?? 0) === 0) return;
        (window as unknown as { firstDraw: object }).firstDraw = { drawn: Number(map!.dataset['pinsDrawn']), pending: Number(map!.dataset['pinsPending']) };
        seen.disconnect();
      });
      seen.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-pins-drawn'] });
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:sites-reset').length), { message: 'the first load done', timeout: 60_000 }).toBe(1);
    expect(edited).toMatchObject({ code: 0 });

    // The first pins were the positions before the move (the site synced); the list's, with the move, replaced them.
    const timeline = await page.evaluate(() => ({
      positions: performance.getEntriesByName('sitewalk:positions-received').length,
      askedEarly: performance.getEntriesByName('sitewalk:clusters-asked-early').length,
      fromPositions: performance.getEntriesByName('sitewalk:pins-from-positions').length,
      fromList: performance.getEntriesByName('sitewalk:pins-from-columns').length,
    }));
    expect(timeline).toEqual({ positions: 1, askedEarly: 1, fromPositions: 1, fromList: 1 });
    const firstDraw = await page.evaluate(() => (window as unknown as { firstDraw?: { drawn: number; pending: number } }).firstDraw);
    expect(firstDraw?.pending).toBe(0);
    expect(firstDraw?.drawn).toBeGreaterThan(0);

    // Every site drawn, the moved one counted once, as pending.
    await page.getByRole('button', { name: 'Show all sites' }).click();
    await mapSettled(page);
    await expect.poll(() => mapData(page, 'pins-on-map')).toBe(total);
    await expect.poll(() => pinsDrawn(page), { message: 'every site drawn, as pins or in clusters' }).toBe(total);
    await expect.poll(() => mapData(page, 'pins-pending'), { message: 'the moved site drawn as pending' }).toBe(1);
    await session.screenshot('early-clusters-refused');
    expect(session.errors).toEqual([]);
  });
});

async function learnTheirSites(page: Page): Promise<void> {
  const total = await reloadWithEverySite(page, SITES);
  const timeline = await page.evaluate(() => {
    const at = (name: string) => performance.getEntriesByName(`sitewalk:${name}`).map((entry) => entry.startTime);
    return { fromPositions: at('pins-from-positions').length, identified: at('pins-identified').length, fromList: at('pins-from-columns').length, refused: at('clusters-early-refused').length };
  });
  // Drawn from the positions with the worker's index; the list's sites then named those very pins.
  expect(timeline).toEqual({ fromPositions: 1, identified: 1, fromList: 0, refused: 0 });
  await expect.poll(() => pinsDrawn(page), { message: 'every site drawn, as pins or in clusters' }).toBe(total);
  // A pin drawn first knows its site now: chosen from the list (the map goes to it), its menu names it.
  await page.getByLabel('Search sites').fill('Mast 1');
  await page.getByRole('button', { name: /^Mast 1\b/ }).first().click();
  await page.locator('#site-details-title', { hasText: 'Mast 1' }).waitFor();
  await mapSettled(page);
  const box = (await page.getByTestId('map').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 28, { button: 'right' });
  await page.getByRole('menu', { name: /^Actions for Mast \d+$/ }).waitFor();
}

async function fromTheList(page: Page): Promise<void> {
  // Every site listed again (the step before searched), then the page opened again with the positions' answer unreadable.
  await page.keyboard.press('Escape');
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(SITES);
  const total = await mapData(page, 'pins-on-map');
  // An answer of another format (a host of another version): the page must not take it for positions.
  await page.route('**/api/sitePositions', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('not positions at all') }));
  await page.reload();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:sites-reset').length), { message: 'the first load done', timeout: 60_000 }).toBe(1);
  const timeline = await page.evaluate(() => {
    const received = performance.getEntriesByName('sitewalk:sites-received')[0]!.startTime;
    const asked = performance.getEntriesByName('sitewalk:clusters-asked-early');
    return { positions: performance.getEntriesByName('sitewalk:positions-received').length, askedEarly: asked.length, fromTheList: asked.every((entry) => entry.startTime >= received), refused: performance.getEntriesByName('sitewalk:clusters-early-refused').length };
  });
  expect(timeline).toEqual({ positions: 1, askedEarly: 1, fromTheList: true, refused: 0 });
  await page.getByRole('button', { name: 'Show all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => pinsDrawn(page), { message: 'every site drawn, as pins or in clusters' }).toBe(total);
  expect(await mapData(page, 'clusters-drawn')).toBeGreaterThan(0);
}
