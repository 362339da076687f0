// Acting on many sites at once, in Chromium on the built-in Sandbox's demo sites, at 1366×768 and
// 1024×640, light and dark: a Shift-drag box on the map selects the pins it covers; Shift- and
// Ctrl-click in the list build a selection; "Edit together" previews per site and queues one batch,
// whose entries reach the service site by site. axe-core finds nothing serious on the way.
// Screenshots: test-results/e2e/many-*.png.
import type { Page } from 'playwright';
import type { OutboxListing, SiteView } from '../../electron/shared/contract/index';
import { seriousViolations } from './axe';
import { describe, expect, testOnDemoSites as test } from './fixtures';

const toggle = (page: Page) => page.getByTestId('theme-toggle');

async function chooseTheme(page: Page, word: 'Light' | 'Dark'): Promise<void> {
  for (let i = 0; i < 3 && (await toggle(page).textContent())?.trim() !== `Theme: ${word}`; i++) await toggle(page).click();
  await expect.poll(() => toggle(page).textContent()).toBe(`Theme: ${word}`);
}

// Read without waiting: the bar is absent when nothing is selected, and `textContent()` would wait the
// whole action timeout (30 s) for it on every poll before saying so.
const selectedCount = async (page: Page) => (await page.locator('.selection-bar strong').allTextContents())[0] ?? null;

describe('acting on many sites at once', () => {
  // One walk at each window size and in each theme, one after the other in one app and page.
  test('at 1366×768 and 1024×640, in light and dark: box and list selection, a previewed batch edit queued once, a cell edited in the table', async ({ page, session, app, demo }) => {
    for (const [width, height] of [
      [1366, 768],
      [1024, 640],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ['Light', 'Dark'] as const) {
        await chooseTheme(page, theme);
        // Messages (the Sandbox's welcome, over the list's foot) go first: a press on one is the message's.
        for (const close of await page.getByRole('button', { name: 'Dismiss message' }).all()) await close.click();
        await expect.poll(() => page.locator('.toast').count()).toBe(0);
        await page.getByRole('button', { name: 'Show all sites' }).click();
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

        // The attribute table of the shown sites: sorted by height from its header, one cell edited in place.
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
    }
    expect(demo.length).toBeGreaterThanOrEqual(10);
    expect(session.errors).toEqual([]);
  });
});
