// Offline basemaps in Chromium against the browser host, as one journey, with no tile server
// reachable at first (the street map points at a closed loopback port and the browser reaches nothing
// but loopback): MBTiles and PMTiles files made here, added through Settings and chosen with the map's
// switcher, draw their own tiles with their own credit line; the map says when it is outside a file
// and "Go there" brings it back. Then, back on the street map and the demo sites, "Download this
// area" against a tile server of the test's own, marked as allowing it: the plan, progress, cancel
// and resume to done. The public OpenStreetMap servers are refused, with why.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { BasemapView } from '../../electron/shared/contract/index';
import { writeMbtiles, writePmtiles } from '../support/basemap-files';
import { describe, expect, test as e2e } from './fixtures';
import { chooseSandbox, type App, type Session } from './helpers';
import { mapSettled } from './seeded-register';
import { step } from './steps';
import { startPngTileServer, type PngTileServer } from './tile-server';

/** The demo sites are around Bozeman, Montana: the files cover a patch of it. */
const AREA: [number, number, number, number] = [-111.2, 45.55, -110.9, 45.75];

/** A tile server of the test's own on loopback, answering slowly enough to catch a download mid-way. */
const test = e2e.extend('tileServer', async ({ task: _task }, { onCleanup }) => {
  const server = await startPngTileServer({ delayMs: 120, fill: [0xcf, 0xdc, 0xf0] });
  onCleanup(() => server.close());
  return server;
});

/** The tiles drawn from a basemap's route: loaded images with pixels, from tiles/<id>/… . */
function drawnTiles(page: Page, basemapId: string): Promise<string[]> {
  return page.locator('.leaflet-tile-pane img.leaflet-tile').evaluateAll(
    (images, prefix) => images.filter((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0 && (image.getAttribute('src') ?? '').startsWith(prefix)).map((image) => image.getAttribute('src')!),
    `tiles/${encodeURIComponent(basemapId)}/`,
  );
}

function attribution(page: Page): Promise<string> {
  return page.locator('.leaflet-control-attribution').innerText();
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.locator('#basemaps-title').scrollIntoViewIfNeeded();
}

/** Adds a basemap file through Settings, as a user does with a path; returns its view. */
async function addFileInSettings(page: Page, app: App, path: string): Promise<BasemapView> {
  await openSettings(page);
  await page.getByRole('button', { name: 'Add a basemap file…' }).click();
  await page.getByLabel('Path of the file').fill(path);
  await page.getByRole('button', { name: 'Add basemap', exact: true }).click();
  const added = await expect
    .poll(async () => (await app.call<BasemapView[]>('listBasemaps')).find((b) => b.fileName !== null && path.endsWith(b.fileName)) ?? null, { message: `${path} listed` })
    .not.toBeNull()
    .then(async () => (await app.call<BasemapView[]>('listBasemaps')).find((b) => b.fileName !== null && path.endsWith(b.fileName))!);
  await page.getByRole('article', { name: `Basemap ${added.name}` }).waitFor();
  return added;
}

/** Opens the map's switcher and picks a basemap by name. */
async function switchTo(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Basemap:/ }).click();
  await page.getByRole('radio', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).check();
  await page.getByRole('button', { name: `Basemap: ${name}`, exact: true }).waitFor();
  await page.keyboard.press('Escape');
}

describe('offline basemaps', () => {
  test(
    'draws MBTiles and PMTiles files added in Settings with no tile server reachable and says when the map is outside them; downloads an area from a server whose terms allow it, and refuses the public OpenStreetMap servers',
    { timeout: 360_000 },
    async ({ app, session, page, tempDir, tileServer }) => {
      const files = await step('adds an MBTiles and a PMTiles file in Settings, refusing a file that is not one beside its path', () => addsFiles(app, page, session, tempDir));
      await step('draws each file with its own credit line, with no tile server reachable', () => drawsFiles(page, session, files));
      await step('says when the map is outside the file, zoomed out or panned away, and "Go there" brings it back', () => outsideAndBack(page, session, files.pmtiles));
      await step('goes back to the street map and its own credit line, without a page error, a CSP violation or a request beyond loopback', async () => {
        // Back on the street map: its own credit line, and no download offered for a file.
        await switchTo(page, 'Street');
        await expect.poll(() => attribution(page)).not.toContain('Hills survey test');
        expect(session.errors).toEqual([]);
        expect(await session.cspViolations()).toEqual([]);
        expect(session.refused).toEqual([]);
      });
      await step('downloads an area from a server whose terms allow it: plan, progress, cancel and resume to done', () => downloadsAnArea(page, session, tileServer));
      await step('refuses to download from the public OpenStreetMap servers and says why', () => refusesOpenStreetMap(page, session));
      expect(session.errors).toEqual([]);
      expect(session.refused).toEqual([]);
    },
  );
});

async function addsFiles(app: App, page: Page, session: Session, tempDir: string): Promise<{ mbtiles: BasemapView; pmtiles: BasemapView }> {
  await chooseSandbox(page);
  const mbtilesPath = join(tempDir, 'bozeman-valley.mbtiles');
  const pmtilesPath = join(tempDir, 'bozeman-hills.pmtiles');
  await writeMbtiles(mbtilesPath, { name: 'Bozeman valley', attribution: '&copy; Valley GIS test', bounds: AREA, minZoom: 8, maxZoom: 12 });
  await writePmtiles(pmtilesPath, { name: 'Bozeman hills', attribution: '&copy; Hills survey test', bounds: AREA, minZoom: 8, maxZoom: 12 });

  // Not a basemap file: the host's sentence shows beside the field.
  const notAFile = join(tempDir, 'notes.txt');
  await writeFile(notAFile, 'not tiles');
  await openSettings(page);
  await page.getByRole('button', { name: 'Add a basemap file…' }).click();
  await page.getByLabel('Path of the file').fill(notAFile);
  await page.getByRole('button', { name: 'Add basemap', exact: true }).click();
  await expect.poll(() => page.locator('.field.has-error .field-error').count(), { message: 'the refusal beside the path' }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel' }).click();

  const mbtiles = await addFileInSettings(page, app, mbtilesPath);
  const pmtiles = await addFileInSettings(page, app, pmtilesPath);
  expect(mbtiles.kind).toBe('mbtiles');
  expect(pmtiles.kind).toBe('pmtiles');
  // Settings lists what each covers.
  await expect.poll(() => page.getByRole('article', { name: `Basemap ${mbtiles.name}` }).innerText()).toMatch(/zoom 8–12/);
  await session.screenshot('basemaps-settings');
  return { mbtiles, pmtiles };
}

async function drawsFiles(page: Page, session: Session, files: { mbtiles: BasemapView; pmtiles: BasemapView }): Promise<void> {
  for (const file of [files.mbtiles, files.pmtiles]) {
    await switchTo(page, file.name);
    await expect.poll(() => drawnTiles(page, file.id).then((t) => t.length), { message: `tiles drawn from ${file.name}` }).toBeGreaterThan(0);
    await expect.poll(() => attribution(page)).toContain(file.kind === 'mbtiles' ? '© Valley GIS test' : '© Hills survey test');
    expect(await attribution(page)).not.toContain('OpenStreetMap');
  }
  await session.screenshot('basemaps-file-drawn');
}

async function outsideAndBack(page: Page, session: Session, pmtiles: BasemapView): Promise<void> {
  // Zoomed out past what the file has: the map says so, and Go there brings the file back.
  const outside = page.getByTestId('basemap-outside');
  for (let i = 0; i < 4 && (await outside.count()) === 0; i++) {
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await mapSettled(page);
  }
  await expect(outside.innerText()).resolves.toMatch(new RegExp(`You are outside ${pmtiles.name}: it covers zoom 8–12 around 45\\.65° N, 111\\.05° W`));
  await session.screenshot('basemaps-outside');
  await outside.getByRole('button', { name: 'Go there' }).click();
  await mapSettled(page);
  await expect.poll(() => outside.count(), { message: 'the notice gone' }).toBe(0);
  await expect.poll(() => drawnTiles(page, pmtiles.id).then((t) => t.length), { message: 'the file drawn again' }).toBeGreaterThan(0);

  // Panned away from its area.
  const box = (await page.getByTestId('map').boundingBox())!;
  for (let i = 0; i < 3 && (await outside.count()) === 0; i++) {
    await page.mouse.move(box.x + box.width - 60, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await mapSettled(page);
  }
  await expect.poll(() => outside.count(), { message: 'outside the area' }).toBe(1);
  await outside.getByRole('button', { name: 'Go there' }).click();
  await mapSettled(page);
  await expect.poll(() => outside.count()).toBe(0);
}

async function downloadsAnArea(page: Page, session: Session, tileServer: PngTileServer): Promise<void> {
  // The map back on the demo sites, as the welcome left it (the files' part zoomed and panned it): the
  // area planned is the one around them.
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await mapSettled(page);
  await openSettings(page);
  await page.getByRole('button', { name: 'Add a tile server' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Own tiles');
  await page.getByLabel('Tile address', { exact: true }).fill(tileServer.template);
  await page.getByLabel('Credit shown on the map').fill('&copy; Own tiles test');
  await page.getByLabel("This server's terms allow downloading areas").check();
  await page.getByRole('button', { name: 'Save tile server' }).click();
  await page.getByRole('article', { name: 'Basemap Own tiles' }).waitFor();

  // The street map (not marked) refuses, with the reason where the download would be.
  await page.getByRole('button', { name: /^Basemap:/ }).click();
  await expect.poll(() => page.getByTestId('download-refusal').innerText()).toMatch(/not marked as allowing downloads/);
  expect(await page.getByRole('button', { name: 'Download this area…' }).count()).toBe(0);
  await page.keyboard.press('Escape');

  await switchTo(page, 'Own tiles');
  await expect.poll(() => attribution(page)).toContain('© Own tiles test');
  await page.getByRole('button', { name: /^Basemap:/ }).click();
  await page.getByRole('button', { name: 'Download this area…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download this area' });
  await expect.poll(() => dialog.getByTestId('plan-tiles').count(), { message: 'the plan' }).toBe(1);
  const zoom = dialog.getByLabel('Zoom levels');
  const levels = await zoom.locator('option').count();
  expect(levels).toBeGreaterThan(2);
  const tilesPlanned = async () => Number((await dialog.getByTestId('plan-tiles').innerText()).replace(/,/g, ''));
  await zoom.selectOption({ index: 0 });
  await expect.poll(tilesPlanned, { message: 'the plan of one zoom level' }).toBeLessThan(60);
  const firstCount = await tilesPlanned();
  await zoom.selectOption({ index: 2 });
  await expect.poll(tilesPlanned, { message: 'the plan follows the zoom range' }).toBeGreaterThan(firstCount);
  const planned = await tilesPlanned();
  expect(await dialog.getByTestId('plan-size').innerText()).toMatch(/about [\d.]+ (kB|MB)/);
  await session.screenshot('basemaps-download-plan');

  await dialog.getByRole('button', { name: 'Start download' }).click();
  const progress = dialog.getByTestId('download-progress');
  await expect.poll(() => progress.getAttribute('data-state')).toBe('running');
  await expect.poll(async () => Number(/^([\d,]+) of/.exec(await dialog.getByTestId('download-numbers').innerText())?.[1]?.replace(/,/g, '') ?? 0), { message: 'some tiles done' }).toBeGreaterThan(3);
  await session.screenshot('basemaps-download-progress');
  await dialog.getByRole('button', { name: 'Cancel download' }).click();
  await expect.poll(() => progress.getAttribute('data-state')).toBe('cancelled');
  const servedBeforeResume = tileServer.requests;
  expect(servedBeforeResume).toBeLessThan(planned);

  tileServer.delayMs = 0;
  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => progress.getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
  expect(await dialog.getByTestId('download-numbers').innerText()).toMatch(new RegExp(`^${planned.toLocaleString('en-US')} of ${planned.toLocaleString('en-US')} tiles`));
  // Tiles fetched before the cancel were not fetched again.
  expect(tileServer.requests).toBeLessThan(servedBeforeResume + planned);
  await session.screenshot('basemaps-download-done');
  await dialog.getByRole('button', { name: 'Close' }).click();
}

async function refusesOpenStreetMap(page: Page, session: Session): Promise<void> {
  await openSettings(page);
  await page.getByRole('button', { name: 'Add a tile server' }).click();
  await page.getByLabel('Name', { exact: true }).fill('OSM again');
  await page.getByLabel('Tile address', { exact: true }).fill('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
  await page.getByLabel('Credit shown on the map').fill('&copy; OpenStreetMap contributors');
  await page.getByLabel("This server's terms allow downloading areas").check();
  await page.getByRole('button', { name: 'Save tile server' }).click();
  // Saved (its card says it is refused) or refused outright (beside the field): either way, with the reason.
  await expect.poll(() => page.getByText(/Tile Usage Policy/).count(), { message: 'the OpenStreetMap refusal' }).toBeGreaterThan(0);
  expect(await page.getByText(/Tile Usage Policy/).first().innerText()).toMatch(/forbids bulk downloading/);
  await page.getByText(/Tile Usage Policy/).first().scrollIntoViewIfNeeded();
  await session.screenshot('basemaps-osm-refused');
}
