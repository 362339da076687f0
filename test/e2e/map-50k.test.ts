// 50,000 sites in Chromium, as a large WISP's register holds them, as one journey: the map gathers them
// into numbered clusters, the list's group filter and search narrow the map to exactly what the list
// shows, and a click on a cluster zooms in until single pins appear; a reload draws them again from
// the positions' one answer, clustered once, in the worker. The register is written before the app
// starts (as an import and its sync leave it), so the test spends its time on the map, not on 50,000
// calls to a sandbox.
import type { Page } from 'playwright';
import { describe, expect } from './fixtures';
import { chooseSandbox, pinsDrawn, type Session } from './helpers';
import { mapData, mapSettled, testOnSeededRegister } from './seeded-register';
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

/** The app on a data folder that already holds the 50,000 sites. */
const test = testOnSeededRegister(SITES, 900_000, site);

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

describe('50,000 sites', () => {
  test('are clustered with counts, filtered exactly as the list is, split into pins as a cluster is opened, and drawn again on a reload from the one answer, clustered once in a worker', { timeout: 240_000 }, async ({ page, session }) => {
    await step('are clustered with counts, filtered exactly as the list is, and split into pins as a cluster is opened', () => clusteredAndFiltered(page, session));
    await step('a reload draws them from the one answer: clustered once, in a worker, and the list and search right at once', () => drawnAgainOnReload(page));
    expect(session.errors).toEqual([]);
  });
});

async function clusteredAndFiltered(page: Page, session: Session): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await chooseSandbox(page);
  // Every site is on the map (the sandbox's own demo sites too): a cluster counts its members.
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'the 50,000 sites on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(SITES);
  const total = await mapData(page, 'pins-on-map');
  await page.getByRole('button', { name: 'Show all sites' }).click();
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
  await page.getByRole('button', { name: 'Show all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => pinsDrawn(page), { message: 'Town 7 drawn' }).toBe(SITES / TOWNS);
  await session.screenshot('map-50k-one-town');

  // A search within the group narrows the map with the list (what the list's rule finds among Town 7's
  // sites: each word of the query somewhere in the name, site ID, group or description, case folded).
  const query = 'Tower 12';
  const words = query.toLowerCase().split(' ');
  const expected = Array.from({ length: SITES }, (_, k) => ({ ...site(k), siteId: String(900_000 + k) }))
    .filter((s) => s.group === 'Town 7' && words.every((word) => [s.name, s.siteId, s.group, s.description].join(' ').toLowerCase().includes(word))).length;
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
  await page.reload();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:sites-reset').length), { message: 'the first load done', timeout: 60_000 }).toBe(1);
  return total;
}

async function drawnAgainOnReload(page: Page): Promise<void> {
  // The page opened again on the register: the pins come from the sites' positions (usually before
  // the list is even parsed: the order of the two answers is the machine's); the list's sites then
  // name those very pins, and the views after them change none, so the layer keeps its pins and its
  // cluster index.
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
      inWorker: all('clusters-off-thread').length,
      // (the map's empty first frame, before any pin, counts one of its own)
      onPage: all('clusters').filter((entry) => pinsMade !== undefined && entry.startTime >= pinsMade.startTime).length,
      refused: all('clusters-early-refused').length,
      askedFirst: asked !== undefined && pinsMade !== undefined && asked.startTime <= pinsMade.startTime,
    };
  });
  expect(indexed).toEqual({ positions: 1, pinsSet: 1, identified: 1, inWorker: 1, onPage: 0, refused: 0, askedFirst: true });

  // The list and its search work on every site at once.
  await page.getByLabel('Search sites').fill('Tower 50000');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'the searched site only' }).toBe(1);
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site again' }).toBe(total);
}
