// The map readable at scale, as steps of the crew's sites journey (sites.test.ts), with the map
// helpers its other steps share: close sites gather into numbered clusters at low zoom (a click on one
// zooms in); the map can show only what the list's search and filters show; the distance and bearing
// between two sites measured by clicking their pins; a scale bar in the user's units and the
// coordinates under the cursor, copied from the keyboard. The cluster, list and measure steps count
// the demo sites (`demo`, the sites as the service has them, all drawn): they run before any site is
// added.
import type { Page } from 'playwright';
import { formatBearing, formatDistance, haversineDistance, initialBearing } from '../../renderer/src/map/geodesy';
import { expect } from './fixtures';
import { pinsDrawn, type App, type Session } from './helpers';
import { siteRow } from './steps';
import type { SandboxSite } from '../../electron/sandbox/state';

/** Until the map has stopped moving (a pan or zoom animates). */
export async function mapSettled(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('map').getAttribute('data-moving'), { message: 'the map to stop moving', timeout: 10_000 }).not.toBe('1');
}

function mapData(page: Page, name: string): Promise<number> {
  return page.getByTestId('map').getAttribute(`data-${name}`).then(Number);
}

async function mapCentre(page: Page): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId('map').boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Looks for a cluster near the map's centre the way a user does: by pointing at it (the tooltip says "N sites"). */
async function findCluster(page: Page): Promise<{ x: number; y: number; count: number }> {
  const c = await mapCentre(page);
  const tooltip = page.locator('.pin-tooltip strong');
  for (let ring = 0; ring <= 12; ring++) {
    for (let k = 0; k < Math.max(1, ring * 8); k++) {
      const angle = (k / Math.max(1, ring * 8)) * Math.PI * 2;
      const x = c.x + Math.cos(angle) * ring * 12;
      const y = c.y + Math.sin(angle) * ring * 12;
      await page.mouse.move(x, y);
      const text = (await tooltip.count()) > 0 ? await tooltip.textContent() : null;
      const m = /^(\d+) sites$/.exec(text ?? '');
      if (m) return { x, y, count: Number(m[1]) };
    }
  }
  throw new Error('no cluster near the centre of the map');
}

/** The list draws only the rows in view: search for the site first, as a user with many sites does; the map centres on it. */
export async function selectFromList(page: Page, name: string): Promise<void> {
  await page.getByLabel('Search sites').fill(name);
  await siteRow(page, name).click();
  await page.locator('#site-details-title', { hasText: name }).waitFor();
  await mapSettled(page);
}

function scaleText(page: Page): Promise<string> {
  return page.locator('.leaflet-control-scale-line').first().innerText();
}

/** Back to every site in view, as a user does between two things. */
async function showAll(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
}

export async function clusters(page: Page, session: Session, demo: SandboxSite[]): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await mapSettled(page);
  }
  await expect.poll(() => mapData(page, 'clusters-drawn'), { message: 'clusters drawn' }).toBeGreaterThan(0);
  // Every site is still on the map: a cluster counts its members.
  expect(await pinsDrawn(page)).toBe(demo.length);
  const cluster = await findCluster(page);
  expect(cluster.count).toBeGreaterThanOrEqual(3);
  await session.screenshot('map-scale-clusters');

  const scaleBefore = await scaleText(page);
  const clustersBefore = await mapData(page, 'clusters-drawn');
  await page.mouse.click(cluster.x, cluster.y);
  await mapSettled(page);
  await expect.poll(() => scaleText(page), { message: 'the map zoomed in' }).not.toBe(scaleBefore);
  expect(await page.locator('#site-details-title').count()).toBe(0);
  await expect
    .poll(async () => (await mapData(page, 'clusters-drawn')) < clustersBefore || (await mapData(page, 'pins-drawn')) < demo.length, { message: 'the cluster split up or the view narrowed' })
    .toBe(true);
  await session.screenshot('map-scale-cluster-zoomed');
}

export async function followsTheList(page: Page, session: Session, demo: SandboxSite[]): Promise<void> {
  await showAll(page);
  const group = demo[0]!.group;
  const inGroup = demo.filter((s) => s.group === group).length;
  expect(inGroup).toBeLessThan(demo.length);
  const follow = page.getByLabel('Show only these sites on the map');
  expect(await follow.isChecked()).toBe(true);
  await page.getByLabel('Group').selectOption(group);
  await page.getByText(`Showing ${inGroup} of ${demo.length} sites`).waitFor();
  // On by default: the map shows what the list shows.
  await expect.poll(() => pinsDrawn(page), { message: 'only the group on the map' }).toBe(inGroup);
  // Unticked, the map shows every site whatever the list shows; ticked again, the list's only.
  await follow.uncheck();
  await expect.poll(() => pinsDrawn(page), { message: 'every site on the map while the list is filtered' }).toBe(demo.length);
  await follow.check();
  await expect.poll(() => pinsDrawn(page), { message: 'only the group on the map again' }).toBe(inGroup);
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await session.screenshot('map-scale-filter-group');

  await page.getByLabel('Search sites').fill(demo[0]!.name);
  await expect.poll(() => pinsDrawn(page), { message: 'only the searched site on the map' }).toBe(1);
  await page.getByLabel('Search sites').fill('');
  await page.getByLabel('Group').selectOption('');
  // The view was fitted to the group: "Zoom to all sites" takes in every site again, once they are back.
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site back on the map' }).toBe(demo.length);
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await expect.poll(() => pinsDrawn(page), { message: 'every site back' }).toBe(demo.length);
}

export async function measures(page: Page, session: Session, demo: SandboxSite[]): Promise<void> {
  const [a, b] = [demo[0]!, demo[5]!];
  const measure = page.getByRole('button', { name: 'Measure' });
  await measure.click();
  expect(await measure.getAttribute('aria-pressed')).toBe('true');
  const result = page.getByTestId('measure-result');
  await result.getByText('Click the first point or site').waitFor();

  // Each site from the list (the map centres on it), then a click on its pin's head.
  for (const site of [a, b]) {
    await selectFromList(page, site.name);
    const c = await mapCentre(page);
    await page.mouse.click(c.x, c.y - 28);
  }
  const distance = formatDistance(haversineDistance({ lat: a.latitude, lng: a.longitude }, { lat: b.latitude, lng: b.longitude }), 'm');
  const bearing = formatBearing(initialBearing({ lat: a.latitude, lng: a.longitude }, { lat: b.latitude, lng: b.longitude }));
  await expect.poll(() => result.getByTestId('measure-distance').textContent(), { message: 'the distance shown' }).toBe(distance);
  expect(await result.getByTestId('measure-bearing').textContent()).toBe(bearing);
  expect(await result.locator('.measure-ends').textContent()).toBe(`${a.name} → ${b.name}`);
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await session.screenshot('map-scale-measure-sites');

  await page.keyboard.press('Escape');
  await result.getByText('Click the first point or site').waitFor();
  await page.keyboard.press('Escape');
  await expect.poll(() => measure.getAttribute('aria-pressed')).toBe('false');
}

export async function scaleAndCursor(page: Page, session: Session, app: App): Promise<void> {
  await showAll(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await expect.poll(() => scaleText(page), { message: 'a metric scale' }).toMatch(/^\d+ (m|km)$/);

  const c = await mapCentre(page);
  // Above the centre: the map's bottom left holds the messages, the tile notice and this box.
  await page.mouse.move(c.x - 150, c.y - 60);
  const coords = page.getByTestId('cursor-coordinates');
  await coords.getByText('Cursor').waitFor();
  const decimal = (await coords.getByTestId('coords-decimal').textContent())!;
  const [lat, lng] = decimal.split(', ').map(Number);
  expect(lat).toBeGreaterThan(44);
  expect(lat).toBeLessThan(47);
  expect(lng).toBeGreaterThan(-113);
  expect(lng).toBeLessThan(-109);
  expect(await coords.getByTestId('coords-dms').textContent()).toMatch(/^\d+°\d\d'\d\d\.\d"N \d+°\d\d'\d\d\.\d"W$/);
  await session.screenshot('map-scale-cursor-coordinates');

  // Keyboard: focus the map, then Tab on to the copy button, and Enter.
  await page.getByTestId('map').focus();
  let reached = false;
  for (let i = 0; i < 25 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.textContent === 'Copy decimal');
  }
  expect(reached).toBe(true);
  const shown = (await coords.getByTestId('coords-decimal').textContent())!;
  await page.keyboard.press('Enter');
  await coords.getByText('Copied decimal coordinates').waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  // Feet in the settings: the scale bar turns imperial.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel(/^Feet/).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect.poll(() => scaleText(page), { message: 'an imperial scale' }).toMatch(/^\d+ (ft|mi)$/);
  await session.screenshot('map-scale-imperial');
}
