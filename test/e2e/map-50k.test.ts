// The map at 50,000 sites, as one journey. 50,000 in Chromium, as a large WISP's register holds them:
// the map gathers them into numbered clusters, the list's group filter and search narrow the map to
// exactly what the list shows, and a click on a cluster zooms in until single pins appear; a reload
// draws them again from the positions' one answer, clustered once, in the worker. Then the first paint
// of many sites, on a register of 6,000: it draws them from their positions, asked of the host before
// the (much larger) site list, clustered in a worker; the list is asked once those pins are on screen,
// and they learn their sites from it. When the positions cannot be read (an answer of another
// format), the index is asked from the list as before. When the CLI moves a site between the two
// answers, the pins drawn are no longer the list's: the map must replace them with the list's and show
// the moved site where it is now, counted as pending, never keep the positions' picture. The registers
// are written before their apps start (as an import and its sync leave them), so the test spends its
// time on the map, not on thousands of calls to a sandbox.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import type { SiteView } from '../../electron/shared/contract/index';
import { siteMatcher } from '../../renderer/src/shared/site-filter';
import { runSitewalk } from '../support/cli';
import { setFaults } from './connection-status';
import { describe, expect } from './fixtures';
import { chooseSandbox, findSandboxUrl, openSession, pinsDrawn, startApp, type App, type Session } from './helpers';
import { mapData, mapSettled, reloadPositionsFirst, reloadWithEverySite, seedRegister, testOnSeededRegister } from './seeded-register';
import { step } from './steps';

const SITES = 50_000;
const TOWNS = 25;

/** Site k of the register: 25 towns (groups) of 2,000 towers each, spread over a region. */
function site(k: number) {
  const town = k % TOWNS;
  return {
    name: `Tower ${k + 1}`,
    height: 20 + (k % 80),
    latitude: 45 + (town % 5) * 0.5 + ((k * 7919) % 1000) / 2500 - 0.2,
    longitude: -112 + Math.floor(town / 5) * 0.7 + ((k * 104729) % 1000) / 1800 - 0.28,
    group: `Town ${town + 1}`,
    description: 'Imported',
  };
}

// Enough to be clustered off the page's thread (OFF_THREAD_FROM), all in one region.
const MASTS = 6_000;

/**
 * The app on a data folder that already holds the 6,000 masts. (The 50,000 towers get a folder and
 * an app of their own in the journey: in one register, a stack of towers would stand 175 m from the
 * pin of "Mast 1" that the journey right-clicks, and every reload of the masts' parts would carry
 * 50,000 more sites.)
 */
const test = testOnSeededRegister(MASTS, 700_000, (k) => ({
  name: `Mast ${k + 1}`,
  height: 30,
  latitude: 45 + ((k * 7919) % 1000) / 1000,
  longitude: -112 + ((k * 104729) % 1000) / 700,
  group: '',
  description: '',
}));

/** A cluster near the map's centre, found the way a user finds one: by pointing (the tooltip says "N sites"). */
async function findCluster(page: Page): Promise<{ x: number; y: number; count: number }> {
  const box = (await page.getByTestId('map').boundingBox())!;
  const c = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const tooltip = page.locator('.pin-tooltip strong');
  for (let ring = 0; ring <= 14; ring++) {
    for (let k = 0; k < Math.max(1, ring * 8); k++) {
      const angle = (k / Math.max(1, ring * 8)) * Math.PI * 2;
      await page.mouse.move(c.x + Math.cos(angle) * ring * 14, c.y + Math.sin(angle) * ring * 14);
      const text = (await tooltip.count()) > 0 ? await tooltip.textContent() : null;
      const m = /^([\d,]+) sites$/.exec(text ?? '');
      if (m) return { x: c.x + Math.cos(angle) * ring * 14, y: c.y + Math.sin(angle) * ring * 14, count: Number(m[1]!.replace(/,/g, '')) };
    }
  }
  throw new Error('no cluster near the centre of the map');
}

/**
 * The 50,000 sites' part of the journey, on an app of their own: a data folder seeded with them, the
 * app started on it and a browser on that app, all gone after `walk` (its page photographed first if
 * it failed: the fixtures photograph only their own browsers).
 */
async function onFiftyThousandSites(browser: Browser, tempDir: string, walk: (page: Page, session: Session) => Promise<void>): Promise<void> {
  const dataDir = join(tempDir, 'data-50k');
  await mkdir(dataDir);
  await seedRegister(dataDir, SITES, 900_000, site);
  const app = await startApp(dataDir);
  let session: Session | null = null;
  try {
    session = await openSession(browser, app);
    await walk(session.page, session);
  } catch (error) {
    await session?.screenshot('FAILED-map-50k').catch(() => undefined);
    throw error;
  } finally {
    await session?.close();
    await app.stop();
  }
}

describe('the map at 50,000 sites', () => {
  test(
    'clusters 50,000 sites with counts, filters them exactly as the list does, splits a cluster into pins as it is opened and draws them again on a reload from the one answer; on 6,000, the first pins learn their sites from the list, the list stands in for unreadable positions, and a site the CLI moves between the two answers replaces them',
    { timeout: 540_000 },
    async ({ app, browser, newSession, tempDir }) => {
      // The 50,000 sites first: the masts' last part leaves a call the service never answers, which
      // their app's close waits for (up to its few seconds) before cancelling it, so that part ends
      // the journey and the wait falls in the fixture's teardown, not in the middle of the journey.
      await onFiftyThousandSites(browser, tempDir, async (page, session) => {
        await step('50,000 sites are clustered with counts, filtered exactly as the list is, and split into pins as a cluster is opened', () => clusteredAndFiltered(page, session));
        await step('a reload draws the 50,000 from the one answer: clustered once, in a worker, and the list and search right at once', async () => {
          await drawnAgainOnReload(page);
          expect(session.errors).toEqual([]);
        });
      });
      const session = await newSession();
      const { page } = session;
      await step('the first pins, drawn from the positions before the list arrives, learn their sites from the list: a pin drawn first opens its site', () => learnTheirSites(page));
      await step('the cluster index is asked from the list as before when the positions cannot be read, and every site is still clustered', async () => {
        await fromTheList(page);
        expect(session.errors).toEqual([]);
      });
      await step('the first pins are replaced when the CLI moves a site between the two answers, and the map clusters the sites as the list has them', () => movedBetweenAnswers(app, page, session, tempDir));
    },
  );
});

async function clusteredAndFiltered(page: Page, session: Session): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await chooseSandbox(page);
  // Every site is on the map (the sandbox's own demo sites too): a cluster counts its members.
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'the 50,000 sites on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(SITES);
  const total = await mapData(page, 'pins-on-map');
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => pinsDrawn(page), { message: 'every site drawn, as pins or in clusters' }).toBe(total);
  const clusters = await mapData(page, 'clusters-drawn');
  expect(clusters).toBeGreaterThan(0);
  expect(clusters).toBeLessThan(2_000);
  await session.screenshot('map-50k-clusters');

  // The group filter: the map shows that town's 2,000 sites and nothing else.
  await page.getByLabel('Group').selectOption('Town 7');
  await page.getByText(`Showing ${(SITES / TOWNS).toLocaleString('en')} of ${total.toLocaleString('en')} sites`).waitFor();
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'only Town 7 on the map' }).toBe(SITES / TOWNS);
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => pinsDrawn(page), { message: 'Town 7 drawn' }).toBe(SITES / TOWNS);
  await session.screenshot('map-50k-one-town');

  // A search within the group narrows the map with the list (what the list's own rule, site-filter.ts,
  // finds among Town 7's sites: each word of the query starting a word of the name, site ID, group or description).
  const query = 'Tower 12';
  const matches = siteMatcher({ query, group: 'Town 7', state: 'all' });
  const expected = Array.from({ length: SITES }, (_, k) => ({ ...site(k), siteId: String(900_000 + k), syncState: 'synced' }) as unknown as SiteView).filter(matches).length;
  expect(expected).toBeGreaterThan(1);
  await page.getByLabel('Search sites').fill(query);
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'the searched sites only' }).toBe(expected);
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'Town 7 again' }).toBe(SITES / TOWNS);

  // Opening clusters zooms in (at least a level a click) until, past the last cluster zoom, only single pins show.
  for (let opened = 0; opened < 8 && (await mapData(page, 'clusters-drawn')) > 0; opened++) {
    const cluster = await findCluster(page);
    expect(cluster.count).toBeGreaterThanOrEqual(2);
    await page.mouse.click(cluster.x, cluster.y);
    await mapSettled(page);
  }
  await expect.poll(() => mapData(page, 'clusters-drawn'), { message: 'no clusters left after opening them' }).toBe(0);
  expect(await pinsDrawn(page)).toBeGreaterThan(0);
  await session.screenshot('map-50k-opened');
}

/** The page opened again on every site (the group filter the step before chose cleared first): how many are on the map. */
async function reopened(page: Page): Promise<number> {
  await page.getByLabel('Group').selectOption('');
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map' }).toBeGreaterThanOrEqual(SITES);
  const total = await mapData(page, 'pins-on-map');
  await reloadPositionsFirst(page);
  return total;
}

async function drawnAgainOnReload(page: Page): Promise<void> {
  // The page opened again on the register, its list held until the pins were made from the sites'
  // positions; the list's sites then name those very pins, and the views after them change none, so
  // the layer keeps its pins and its cluster index.
  const total = await reopened(page);
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map again' }).toBe(total);
  // Their cluster index was built once, in the worker (its script allowed by the page's policy, as
  // session.errors would say otherwise), asked for before the pins were made, taken, and not built on
  // the page's thread; the pins were set once, and the list gave them their sites in place.
  const indexed = await page.evaluate(() => {
    const all = (name: string) => performance.getEntriesByName(`sitewalk:${name}`);
    const [asked] = all('clusters-asked-early');
    const [pinsMade] = all('pins-from-positions');
    return {
      positions: all('positions-received').length,
      pinsSet: all('set-pins').length,
      identified: all('pins-identified').length,
      fromList: all('pins-from-columns').length,
      inWorker: all('clusters-off-thread').length,
      // (the map's empty first frame, before any pin, counts one of its own)
      onPage: all('clusters').filter((entry) => pinsMade !== undefined && entry.startTime >= pinsMade.startTime).length,
      refused: all('clusters-early-refused').length,
      askedFirst: asked !== undefined && pinsMade !== undefined && asked.startTime <= pinsMade.startTime,
    };
  });
  expect(indexed).toEqual({ positions: 1, pinsSet: 1, identified: 1, fromList: 0, inWorker: 1, onPage: 0, refused: 0, askedFirst: true });

  // The list and its search work on every site at once.
  await page.getByLabel('Search sites').fill('Tower 50000');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'the searched site only' }).toBe(1);
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site again' }).toBe(total);
}

async function movedBetweenAnswers(app: App, page: Page, session: Session, tempDir: string): Promise<void> {
  // The positions answered as they are again (the step before made them unreadable).
  // (The welcome was answered, and the window made 1366×768, by the first of the masts' steps.)
  await page.unroute('**/api/sitePositions');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(MASTS);
  const total = await mapData(page, 'pins-on-map');
  expect(await mapData(page, 'pins-pending')).toBe(0);
  // The CLI's edit is never answered, so the site stays pending and nothing after the load changes its pin.
  const sandbox = await findSandboxUrl(app);
  await setFaults(sandbox, { hangRate: 1, operations: ['SitesAPI'] });
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
      // …and the page has drawn its first pins from the positions it had before the move.
      await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:pins-from-positions').length), { message: 'the pins made from the positions' }).toBe(1);
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
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => mapData(page, 'pins-on-map')).toBe(total);
  await expect.poll(() => pinsDrawn(page), { message: 'every site drawn, as pins or in clusters' }).toBe(total);
  await expect.poll(() => mapData(page, 'pins-pending'), { message: 'the moved site drawn as pending' }).toBe(1);
  await session.screenshot('early-clusters-refused');
  expect(session.errors).toEqual([]);
}

async function learnTheirSites(page: Page): Promise<void> {
  const total = await reloadWithEverySite(page, MASTS);
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
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(MASTS);
  const total = await mapData(page, 'pins-on-map');
  // An answer of another format (a host of another version): the page must not take it for positions.
  await page.route('**/api/sitePositions', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('not positions at all') }));
  await page.reload();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:sites-reset').length), { message: 'the first load done', timeout: 60_000 }).toBe(1);
  // (the unreadable answer may be heard after the list: either way the index is the list's)
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:positions-received').length), { message: 'the positions answered' }).toBe(1);
  const timeline = await page.evaluate(() => {
    const received = performance.getEntriesByName('sitewalk:sites-received')[0]!.startTime;
    const asked = performance.getEntriesByName('sitewalk:clusters-asked-early');
    return { positions: performance.getEntriesByName('sitewalk:positions-received').length, askedEarly: asked.length, fromTheList: asked.every((entry) => entry.startTime >= received), refused: performance.getEntriesByName('sitewalk:clusters-early-refused').length };
  });
  expect(timeline).toEqual({ positions: 1, askedEarly: 1, fromTheList: true, refused: 0 });
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => pinsDrawn(page), { message: 'every site drawn, as pins or in clusters' }).toBe(total);
  expect(await mapData(page, 'clusters-drawn')).toBeGreaterThan(0);
}
