// The layout checks of the office's screens at one window size (layout.test.ts walks them at 1366×768
// and then 1024×640), and the top bar's Theme button: each check leaves the page as it found it, its
// messages naming the size. A site's card open leaves at least eight whole rows of the site list on
// screen, with nothing wider than the window and the card clear of the list and the map's buttons;
// the top bar and "Sync now" stay on one line and Move stays inside the card, its details open or
// not, and move mode's hint keeps clear of the card; a search's count leaves the map check box its words; the import dialog shows why a file is
// held back without scrolling; "Edit together" keeps its buttons apart; the map's bottom-left corner
// (tile notice, coordinates) takes one line each; a grid label under Measure moves below it.
// Screenshots: test-results/e2e/layout-*.png.
import type { Locator, Page } from 'playwright';
import type { SettingsView } from '../../electron/shared/contract/index';
import type { SandboxSite } from '../../electron/sandbox/state';
import { expect } from './fixtures';
import type { App, Session } from './helpers';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator.toString()} is not on screen`);
  return b;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The list rows wholly inside both the list's box and the window. */
function wholeRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const list = document.querySelector('.site-rows')!.getBoundingClientRect();
    return [...document.querySelectorAll('.site-row')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.height > 0 && r.top >= list.top - 0.5 && r.bottom <= list.bottom + 0.5 && r.top >= 0 && r.bottom <= window.innerHeight;
    }).length;
  });
}

/** How many lines of text an element's words take. */
function lines(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
}

/** The card's Move button is wholly inside the card, on screen. */
async function moveInCard(card: Locator, where: string): Promise<void> {
  const cardBox = await box(card);
  const move = await box(card.getByRole('button', { name: 'Move', exact: true }));
  expect(move.x, `Move inside the card ${where}`).toBeGreaterThanOrEqual(cardBox.x);
  expect(move.x + move.width, `Move inside the card ${where}`).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
  expect(move.y + move.height, `Move inside the card ${where}`).toBeLessThanOrEqual(cardBox.y + cardBox.height + 0.5);
}

/** The palette in use: the page's background colour. */
function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

const toggle = (page: Page) => page.getByTestId('theme-toggle');

/** Presses the top bar's Theme button until it says `word`. */
export async function chooseTheme(page: Page, word: 'System' | 'Light' | 'Dark'): Promise<void> {
  for (let i = 0; i < 3 && (await toggle(page).textContent())?.trim() !== `Theme: ${word}`; i++) await toggle(page).click();
  await expect.poll(() => toggle(page).textContent()).toBe(`Theme: ${word}`);
}

/** Where a layout check runs: the page, its session (for screenshots) and the window size set. */
export interface AtSize {
  page: Page;
  session: Session;
  width: number;
  height: number;
}

/** At the window size set, a site's card open leaves at least 8 whole rows of the list, in light and in dark, and nothing overflows. */
export async function siteCardLeavesRows({ page, session, width, height }: AtSize): Promise<void> {
  for (const theme of ['Light', 'Dark'] as const) {
    await chooseTheme(page, theme);
    // A site from the middle of the list, as a crew picks one.
    const row = page.locator('.site-row .row-main').nth(2);
    const name = (await row.locator('.row-name').textContent())!.split(',')[0]!.trim();
    await row.click();
    const card = page.locator('section.site-details');
    await card.locator('#site-details-title', { hasText: name }).waitFor();
    await expect.poll(() => page.getByTestId('map').getAttribute('data-moving'), { timeout: 10_000 }).not.toBe('1');

    expect(await wholeRows(page), `whole rows at ${width}×${height} in ${theme}`).toBeGreaterThanOrEqual(8);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.body.scrollWidth)).toBeLessThanOrEqual(width);
    // The sidebar's panel scrolls only down, never sideways.
    expect(await page.locator('.panel').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

    // The card: wholly in the window, clear of the list and of the map's buttons.
    const cardBox = await box(card);
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.y).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(width);
    expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(height);
    expect(overlap(cardBox, await box(page.locator('.site-rows')))).toBe(false);
    for (const control of [
      page.getByRole('button', { name: '+ Add site' }),
      page.getByRole('button', { name: 'Zoom to all sites' }),
      page.getByRole('button', { name: 'Legend' }),
      page.getByRole('button', { name: 'Zoom in' }),
      page.getByRole('button', { name: 'Measure' }),
    ]) {
      expect(overlap(cardBox, await box(control)), `the card over ${await control.textContent()}`).toBe(false);
    }
    // Every button of the card and the top bar can be reached: none is cut off by the window.
    for (const button of await page.locator('section.site-details button, .status-bar button').all()) {
      const b = await box(button);
      expect(b.x + b.width).toBeLessThanOrEqual(width);
      expect(b.height).toBeGreaterThanOrEqual(24);
    }
    // The top bar is one line: nothing in it wraps below the rest, and "Sync now" keeps its words together.
    const bar = await page.locator('.status-bar').evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>(':scope > *, :scope button')].filter((c) => c.offsetParent !== null).map((c) => ({ text: c.textContent?.trim() ?? '', top: c.getBoundingClientRect().top, height: c.getBoundingClientRect().height })),
    );
    const barTop = await page.locator('.status-bar').evaluate((el) => el.getBoundingClientRect().top);
    for (const item of bar) expect(item.top - barTop, `"${item.text}" on the top bar's first line at ${width}×${height}`).toBeLessThan(20);
    expect(await lines(page.getByRole('button', { name: 'Sync now' })), `"Sync now" on one line at ${width}×${height}`).toBe(1);
    await moveInCard(card, `at ${width}×${height}`);
    await session.screenshot(`layout-${width}x${height}-${theme.toLowerCase()}`);

    // Its secondary details open on request, still inside the window, and Move stays in the card.
    await card.getByRole('button', { name: 'More details' }).click();
    await card.getByText('Changed').waitFor();
    const opened = await box(card);
    expect(opened.y + opened.height).toBeLessThanOrEqual(height);
    await moveInCard(card, `at ${width}×${height} with more details`);
    await session.screenshot(`layout-${width}x${height}-${theme.toLowerCase()}-more`);
    // Move mode's hint ends where the card begins: it lay over the card's title at both sizes.
    await card.getByRole('button', { name: 'Move', exact: true }).click();
    const hint = page.locator('.move-hint');
    await hint.waitFor();
    expect(overlap(await box(hint), await box(card)), `move mode's hint over the card at ${width}×${height}`).toBe(false);
    await session.screenshot(`layout-${width}x${height}-${theme.toLowerCase()}-move`);
    await hint.getByRole('button', { name: 'Cancel move' }).click();
    await hint.waitFor({ state: 'hidden' });
    await card.getByRole('button', { name: 'Fewer details' }).click();
    await card.getByRole('button', { name: 'Clear selection' }).click();
  }
  await chooseTheme(page, 'System');
}

/** At the window size set, the tile notice and the coordinates take one line each in the map's corner, and presses beside them reach the map. */
export async function mapCornerOneLineEach({ page, session, width, height }: AtSize): Promise<void> {
  await expect.poll(() => page.getByTestId('map').getAttribute('data-tiles'), { message: 'the coordinate grid' }).toBe('grid');
  const notice = page.locator('.map-notice');
  const coords = page.getByTestId('cursor-coordinates');
  // The whole sentence is in the page for screen readers while only the chip shows.
  expect(await notice.textContent()).toMatch(/Map tiles cannot load here \(offline or blocked\) — showing a coordinate grid\./);
  const [chip, coordsBox] = [await box(notice), await box(coords)];
  await session.screenshot(`layout-${width}x${height}-map-corner`);
  // Together they covered about 415×150 px (62,000 px²) of pins; now each is one short line.
  expect(chip.height, `the notice one line at ${width}×${height}`).toBeLessThanOrEqual(36);
  expect(coordsBox.height, `the coordinates one line at ${width}×${height}`).toBeLessThanOrEqual(36);
  expect(chip.width * chip.height + coordsBox.width * coordsBox.height, `the corner's area at ${width}×${height}`).toBeLessThan(20_000);
  // Beside and above them is map: a press there reaches it, not a panel.
  const onMap = (x: number, y: number) => page.evaluate(([px, py]) => !!document.elementFromPoint(px!, py!)?.closest('[data-testid="map"]'), [x, y]);
  expect(await onMap(chip.x + chip.width + 12, chip.y + chip.height / 2), 'right of the notice').toBe(true);
  expect(await onMap(coordsBox.x + coordsBox.width + 12, coordsBox.y + coordsBox.height / 2), 'right of the coordinates').toBe(true);
  expect(await onMap(chip.x + 10, chip.y - 12), 'above the notice').toBe(true);

  // Pressed, the chip opens on the sentence; hidden, it stays away.
  await notice.getByRole('button', { name: /No map tiles/ }).click();
  await notice.getByText(/Map tiles cannot load here/).waitFor();
  expect((await box(page.locator('.map-notice-text'))).width).toBeGreaterThan(100);
  await session.screenshot(`layout-${width}x${height}-map-corner-open`);
  await notice.getByRole('button', { name: 'Hide until restart' }).click();
  await expect.poll(() => notice.count()).toBe(0);
  // The coordinates' DMS opens on request.
  await coords.getByRole('button', { name: 'DMS' }).click();
  await coords.getByRole('button', { name: 'Copy DMS' }).waitFor();
}

/** At the window size set, a longitude label under the Measure button moves below it, still on its line. */
export async function gridLabelMovesBelowMeasure({ page, session, width, height }: AtSize): Promise<void> {
  await expect.poll(() => page.getByTestId('map').getAttribute('data-tiles'), { message: 'the coordinate grid' }).toBe('grid');
  const measure = await box(page.getByRole('button', { name: 'Measure' }));
  const lonLabels = () => page.locator('.grid-label').filter({ hasText: /°[EW]$/ });
  await expect.poll(() => lonLabels().count()).toBeGreaterThan(0);
  const first = await box(lonLabels().first());
  // Drag the map sideways so that grid line runs under the middle of Measure.
  const map = await box(page.getByTestId('map'));
  const dx = measure.x + measure.width / 2 - (first.x - 3);
  const from = { x: map.x + map.width / 2, y: map.y + map.height * 0.8 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx, from.y, { steps: 8 });
  // Held still before it is let go: Leaflet carries a drag on by its speed over the last 50 ms (inertia),
  // which moved the map 10–20% past dx — past the label's 4 px — whenever the moves came in more than
  // one frame (on a busy machine: this step's one flake). A longer hold only makes that surer.
  await page.waitForTimeout(100);
  await page.mouse.up();
  const underMeasure = () =>
    page.evaluate(([left, right]) => [...document.querySelectorAll<HTMLElement>('.grid-label')].filter((l) => /°[EW]$/.test(l.textContent ?? '')).some((l) => Math.abs(l.getBoundingClientRect().left - 3 - (left! + right!) / 2) < 4), [measure.x, measure.x + measure.width]);
  await expect.poll(underMeasure, { message: 'a longitude line under Measure' }).toBe(true);
  const covered = await page.evaluate(() => {
    const controls = [...document.querySelectorAll('.map-measure button, .map-toolbar button, .leaflet-control-zoom, .basemap-button')].map((c) => c.getBoundingClientRect());
    return [...document.querySelectorAll('.grid-label')]
      .filter((l) => {
        const r = l.getBoundingClientRect();
        return controls.some((c) => c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom);
      })
      .map((l) => l.textContent);
  });
  expect(covered, `grid labels under the map's buttons at ${width}×${height}`).toEqual([]);
  await session.screenshot(`layout-${width}x${height}-grid-label-measure`);
}

/** At the window size set, "Edit N sites together" keeps a gap between "Preview changes" and "Cancel". */
export async function batchEditKeepsGap({ page, session, width, height }: AtSize): Promise<void> {
  const rows = page.locator('.site-row .row-main');
  await rows.nth(0).click();
  await rows.nth(1).click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Edit together…' }).click();
  const dialog = page.getByRole('dialog');
  const preview = await box(dialog.getByRole('button', { name: 'Preview changes' }));
  const cancel = await box(dialog.getByRole('button', { name: 'Cancel' }));
  // Side by side or one above the other, never touching.
  const apart = Math.max(cancel.x - (preview.x + preview.width), cancel.y - (preview.y + preview.height));
  expect(apart, `the gap between the two buttons at ${width}×${height}`).toBeGreaterThanOrEqual(6);
  await session.screenshot(`layout-${width}x${height}-batch-edit`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Deselect all' }).click();
  // The row pressed first stays chosen, its card open: closed as well.
  const card = page.locator('section.site-details');
  await card.getByRole('button', { name: 'Clear selection' }).click();
  await card.waitFor({ state: 'hidden' });
}

/** At the window size set, the import dialog shows why an invalid row holds the file back without scrolling. */
export async function importDialogShowsWhy({ page, session, width, height }: AtSize, inputFile: (name: string, text: string) => Promise<string>): Promise<void> {
  const path = await inputFile('audit.csv', ['Tower name;Height (ft);Lat;Lon', 'Audit North;100;45,61;-111,02', 'Audit Broken;tall;45,55;-111,05', ''].join('\r\n'));
  await page.getByRole('button', { name: 'Import file…' }).click();
  const dialog = page.getByRole('dialog', { name: /Import sites/ });
  await dialog.getByLabel('Sites file').setInputFiles(path);
  await dialog.getByRole('cell', { name: /Height in feet must be a number/ }).waitFor();
  const help = dialog.getByText(/^Invalid rows refuse the whole file/);
  const [line, frame] = [await box(help), await box(dialog)];
  await session.screenshot(`layout-${width}x${height}-import-invalid`);
  expect(await dialog.evaluate((el) => el.scrollTop), 'the dialog not scrolled').toBe(0);
  expect(line.y + line.height, `the line inside the dialog's view at ${width}×${height}`).toBeLessThanOrEqual(frame.y + frame.height);
  // Before a run starts, the header's button is Cancel.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** At the window size set, a search's count ("Showing 3 of 25 sites") leaves the map check box its words on two lines at most. */
export async function searchCountLeavesCheckBox({ page, session, width, height }: AtSize, demo: SandboxSite[]): Promise<void> {
  const group = demo.find((site) => site.group)!.group;
  await page.getByLabel('Search sites').fill(group);
  const count = page.locator('.result-count');
  await expect.poll(() => count.textContent()).toMatch(/^Showing \d+ of 25 sites$/);
  // Beside a long count the label was squeezed into a column one word wide: five lines at 1366×768.
  expect(await lines(page.locator('label.map-follows > span')), `"Show only these sites on the map" at ${width}×${height}`).toBeLessThanOrEqual(2);
  expect(await lines(count), `the count at ${width}×${height}`).toBe(1);
  expect(await page.locator('.panel').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await session.screenshot(`layout-${width}x${height}-search-count`);
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => count.textContent()).toBe('25 sites');
}

/** The Theme button cycles System, Light and Dark, is saved, and System follows the system setting. */
export async function themeCycles(page: Page, app: App): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  expect((await toggle(page).textContent())?.trim()).toBe('Theme: System');
  const light = await background(page);

  await toggle(page).click();
  await expect.poll(() => toggle(page).textContent()).toBe('Theme: Light');
  expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
  await expect.poll(async () => (await app.call<SettingsView>('getSettings')).theme, { message: 'Light saved' }).toBe('light');

  await toggle(page).click();
  await expect.poll(() => toggle(page).textContent()).toBe('Theme: Dark');
  expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
  await expect.poll(async () => (await app.call<SettingsView>('getSettings')).theme, { message: 'Dark saved' }).toBe('dark');
  const dark = await background(page);
  expect(dark).not.toBe(light);

  // System: light while the system is light, dark as soon as it turns dark.
  await toggle(page).click();
  await expect.poll(() => toggle(page).textContent()).toBe('Theme: System');
  await expect.poll(() => background(page)).toBe(light);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe(dark);

  // The same choice in Settings, as radio buttons.
  await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: /^Settings/ }).click();
  const choice = page.getByRole('group', { name: 'Theme' });
  expect(await choice.getByLabel(/^System/).isChecked()).toBe(true);
  await choice.getByLabel(/^Light/).check();
  await expect.poll(() => toggle(page).textContent()).toBe('Theme: Light');
  await expect.poll(() => background(page)).toBe(light);
  await expect.poll(async () => (await app.call<SettingsView>('getSettings')).theme, { message: 'Light saved from Settings' }).toBe('light');
}
