// The office's screens at two window sizes, in Chromium against the built-in Sandbox's demo sites, as
// one journey in one page. At 1366×768 and then 1024×640 the layout holds (layout-checks.ts): a
// site's card open leaves at least eight whole rows of the site list on screen, with nothing wider
// than the window and the card clear of the list and the map's buttons; the top bar and "Sync now"
// stay on one line and Move stays inside the card, its details open or not; a search's count, the
// import dialog, "Edit together", the map's bottom-left corner (tile notice, coordinates) and a grid
// label under Measure keep their layout. Then the top bar's Theme button cycles System → Light → Dark
// and is saved, and 'System' follows the system's dark setting. Then, acting on many sites at once at
// both sizes, light and dark: a Shift-drag box on the map (and the Select tool's) selects the pins it
// covers; Shift- and Ctrl-click in the list build a selection; "Edit together" previews per site and
// queues one batch, whose entries reach the service site by site; a cell of the attribute table is
// edited in place. axe-core finds nothing serious on the way. The sites are edited last, so the
// layout checks (a search's count among them) see the demo sites as the Sandbox has them.
// Screenshots: test-results/e2e/layout-*.png and many-*.png.
import type { Page } from 'playwright';
import type { OutboxListing, SiteView } from '../../electron/shared/contract/index';
import { seriousViolations } from './axe';
import { describe, expect, testOnDemoSites as test } from './fixtures';
import { pinsDrawn, type App } from './helpers';
import {
  batchEditKeepsGap,
  chooseTheme,
  gridLabelMovesBelowMeasure,
  importDialogShowsWhy,
  mapCornerOneLineEach,
  searchCountLeavesCheckBox,
  siteCardLeavesRows,
  themeCycles,
  type AtSize,
} from './layout-checks';
import { step } from './steps';

const SIZES = [
  [1366, 768],
  [1024, 640],
] as const;

describe("the office's screens at two window sizes", () => {
  // One walk through the screens a crew meets at each window size, one size after the other in one
  // app and page (each step leaves the page as it found it, its own message naming the step and the
  // size), then the Theme button, then many sites acted on at each size and in each theme.
  test(
    'at 1366×768 and 1024×640 a site\'s card leaves 8 list rows, a search\'s count, the import dialog, "Edit together", the map\'s corner and a grid label under Measure keep their layout; the Theme button cycles System, Light and Dark, is saved, and System follows the system setting; in light and dark, sites are selected by a box and in the list, edited together in one previewed batch, and in the table',
    { timeout: 360_000 },
    async ({ page, session, app, demo, inputFile }) => {
      expect(demo.length).toBeGreaterThanOrEqual(10);
      for (const [width, height] of SIZES) {
        await page.setViewportSize({ width, height });
        if (width !== 1366) {
          await step(`a new window at ${width}×${height} shows the tile notice again and every site`, async () => {
            // As a new window: the tile notice hidden at the last size shows again (it is hidden for the
            // window's session), and every site is in view again after the last size's drag.
            await page.evaluate(() => window.sessionStorage.removeItem('sitewalk.tileNoticeDismissed'));
            await page.reload();
            await page.getByRole('button', { name: 'Zoom to all sites' }).click();
            await expect.poll(() => pinsDrawn(page), { message: 'the sites drawn again' }).toBe(demo.length);
          });
        }
        const at: AtSize = { page, session, width, height };
        const size = `at ${width}×${height}`;
        await step(`${size}, a site's card open leaves at least eight whole rows of the list, in light and dark, with nothing cut off or covered`, () => siteCardLeavesRows(at));
        await step(`${size}, a search's count leaves "Show only these sites on the map" its words on two lines at most`, () => searchCountLeavesCheckBox(at, demo));
        await step(`${size}, the import dialog shows why an invalid row holds the file back, without scrolling`, () => importDialogShowsWhy(at, inputFile));
        await step(`${size}, "Edit together" keeps a gap between "Preview changes" and "Cancel"`, () => batchEditKeepsGap(at));
        await step(`${size}, the tile notice and the coordinates take one line each in the map's corner`, () => mapCornerOneLineEach(at));
        // Last: it drags the map.
        await step(`${size}, a longitude label under Measure moves below it`, () => gridLabelMovesBelowMeasure(at));
      }
      await step('the Theme button cycles System, Light and Dark, is saved, and System follows the system setting', () => themeCycles(page, app));

      // The Theme step ends in Settings: the sites' list again, for the walk on many sites.
      await step('back to the list of sites', async () => {
        await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: /^Sites/ }).click();
        await page.locator('.site-row .row-main').first().waitFor();
      });
      for (const [width, height] of SIZES) {
        await page.setViewportSize({ width, height });
        const at: AtSize = { page, session, width, height };
        for (const theme of ['Light', 'Dark'] as const) {
          const where = `at ${width}×${height} in ${theme.toLowerCase()}`;
          await step(`${where}, a Shift-drag box on the map, and a box of the Select tool, select the sites they cover`, () => boxSelects(at, theme));
          await step(`${where}, Shift- and Ctrl-clicks in the list select four sites, and "Edit together" previews each and queues one change per site, each sent on its own`, () => editedTogether(at, theme, app));
          await step(`${where}, the attribute table sorts by height and a description is edited in its cell`, () => editedInTable(at, theme));
        }
      }
      expect(session.errors).toEqual([]);
    },
  );
});

// Read without waiting: the bar is absent when nothing is selected, and `textContent()` would wait the
// whole action timeout (30 s) for it on every poll before saying so.
const selectedCount = async (page: Page) => (await page.locator('.selection-bar strong').allTextContents())[0] ?? null;

/** In `theme`, a Shift-drag box over the middle of the map, and the same with the map's Select tool, select the sites they cover. */
async function boxSelects(at: AtSize, theme: 'Light' | 'Dark'): Promise<void> {
  const { page, session, width, height } = at;
  await chooseTheme(page, theme);
  // Messages (the Sandbox's welcome, over the list's foot) go first: a press on one is the message's.
  for (const close of await page.getByRole('button', { name: 'Dismiss message' }).all()) await close.click();
  await expect.poll(() => page.locator('.toast').count()).toBe(0);
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await expect.poll(() => page.getByTestId('map').getAttribute('data-moving'), { timeout: 10_000 }).not.toBe('1');

  // A Shift-drag box over the middle of the map selects the sites it covers (started clear of
  // the map's own buttons: a press on a button is the button's).
  const map = (await page.getByTestId('map').boundingBox())!;
  await page.keyboard.down('Shift');
  await page.mouse.move(map.x + map.width * 0.35, map.y + map.height * 0.45);
  await page.mouse.down();
  await page.mouse.move(map.x + map.width * 0.6, map.y + map.height * 0.65, { steps: 5 });
  await page.mouse.move(map.x + map.width * 0.85, map.y + map.height * 0.85, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect.poll(async () => Number.parseInt((await selectedCount(page)) ?? '0', 10), { message: 'sites selected by the box' }).toBeGreaterThanOrEqual(2);
  await session.screenshot(`many-${width}x${height}-${theme.toLowerCase()}-box`);
  await page.getByRole('button', { name: 'Deselect all' }).click();
  await expect.poll(() => selectedCount(page)).toBeNull();

  // The same with the map's Select tool, without a key held: a plain drag draws the box; Esc leaves the tool.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Drag a box over sites' }).waitFor();
  await page.mouse.move(map.x + map.width * 0.35, map.y + map.height * 0.45);
  await page.mouse.down();
  await page.mouse.move(map.x + map.width * 0.6, map.y + map.height * 0.65, { steps: 5 });
  await page.mouse.move(map.x + map.width * 0.85, map.y + map.height * 0.85, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Number.parseInt((await selectedCount(page)) ?? '0', 10), { message: 'sites selected by the select tool' }).toBeGreaterThanOrEqual(2);
  await page.getByTestId('map').focus();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('button', { name: 'Select', exact: true }).getAttribute('aria-pressed')).toBe('false');
  await page.getByRole('button', { name: 'Deselect all' }).click();
  await expect.poll(() => selectedCount(page)).toBeNull();
}

/** In `theme`, four sites chosen in the list, edited together: a preview per site, one batch queued, each entry sent to the service on its own. */
async function editedTogether(at: AtSize, theme: 'Light' | 'Dark', app: App): Promise<void> {
  const { page, session, width, height } = at;
  // In the list: a row, Shift-click two further down, Ctrl-click one more.
  const rows = page.locator('.site-row .row-main');
  await rows.nth(0).click();
  await rows.nth(2).click({ modifiers: ['Shift'] });
  await rows.nth(4).click({ modifiers: ['Control'] });
  await expect.poll(() => selectedCount(page)).toBe('4 selected');
  const chosen = await page.locator('.site-row[aria-selected="true"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-local-id')!));
  expect(chosen).toHaveLength(4);
  await session.screenshot(`many-${width}x${height}-${theme.toLowerCase()}-list`);
  expect(await seriousViolations(page, `selection bar ${width}×${height} ${theme}`)).toEqual([]);

  // Its own group at each size and theme, so each batch's four entries are told from the others'.
  const group = `Audit ${theme} ${width}`;
  await page.getByRole('button', { name: 'Edit together…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Group').fill(group);
  await dialog.getByLabel('Pin colour').selectOption({ label: 'Orange' });
  await dialog.getByRole('button', { name: 'Preview changes' }).click();
  const previewRows = dialog.locator('.batch-preview-rows tbody tr');
  await expect.poll(() => previewRows.count()).toBe(4);
  expect(await previewRows.first().textContent()).toMatch(new RegExp(`Group: .* → “${group}”`));
  await session.screenshot(`many-${width}x${height}-${theme.toLowerCase()}-preview`);
  expect(await seriousViolations(page, `batch preview ${width}×${height} ${theme}`)).toEqual([]);
  await dialog.getByRole('button', { name: 'Queue 4 changes' }).click();
  await page.getByText(/Queued 4 changes, one per site/).waitFor();

  // One entry per site, each sent to the service on its own.
  await expect
    .poll(async () => (await app.call<SiteView[]>('listSites')).filter((site) => chosen.includes(site.localId) && site.group === group && site.pinStyle === 3).length, { message: 'the four sites changed' })
    .toBe(4);
  await expect
    .poll(async () => {
      const listing = await app.call<OutboxListing>('listOutbox');
      return [...listing.active, ...listing.history.entries].filter((entry) => entry.kind === 'site' && (entry.payload as { group?: string }).group === group && entry.state === 'done').length;
    }, { message: 'four entries sent', timeout: 30_000 })
    .toBe(4);
  await page.getByRole('button', { name: 'Deselect all' }).click();
}

/** In `theme`, the attribute table of the shown sites: sorted by height from its header, one cell edited in place. */
async function editedInTable({ page, session, width, height }: AtSize, theme: 'Light' | 'Dark'): Promise<void> {
  await page.getByRole('button', { name: 'Table…' }).click();
  const table = page.getByRole('dialog');
  await table.getByRole('columnheader', { name: /^Height/ }).click();
  await expect.poll(() => table.getByRole('columnheader', { name: /^Height/ }).getAttribute('aria-sort')).toBe('ascending');
  const firstDescription = table.locator('[data-cell="1:5"]');
  await firstDescription.dblclick();
  await table.getByRole('textbox', { name: /^Description of/ }).fill(`Checked in ${theme.toLowerCase()}`);
  await page.keyboard.press('Enter');
  await table.getByRole('status').filter({ hasText: `is now Checked in ${theme.toLowerCase()}` }).waitFor();
  await session.screenshot(`many-${width}x${height}-${theme.toLowerCase()}-table`);
  expect(await seriousViolations(page, `attribute table ${width}×${height} ${theme}`)).toEqual([]);
  await table.getByRole('button', { name: 'Close table' }).click();
}
