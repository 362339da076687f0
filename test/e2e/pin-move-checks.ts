// No accidental edits, as steps of the crew's sites journey (sites.test.ts), in Chromium against the
// built-in Sandbox: dragging across a crowd of pins pans the map and moves no site; a site moves only
// after Move on its card (or its pin's menu), dragged and confirmed; and "+ Add site" takes keyboard
// focus into the form and gives it back when the form closes; the same move from the keyboard (arrow
// keys, Enter). Outcomes are read from the app's own outbox and register. Move mode's own rules (Esc,
// the confirmation's focus on Cancel so Enter moves nothing, Undo) are
// test/components/move-mode.test.tsx.
import type { Page } from 'playwright';
import type { BulkFileView, BulkRunView, OutboxEntryView, SiteView } from '../../electron/shared/contract/index';
import type { Result } from '../../electron/shared/result';
import { expect } from './fixtures';
import { pinsDrawn, type App, type Session } from './helpers';
import type { SandboxSite } from '../../electron/sandbox/state';
import { activeEntries, allEntries } from './outbox-listing';
import { mapSettled, selectFromList } from './map-checks';

/** Where the sites are, by local ID, as the app's register has them. */
async function positions(app: App): Promise<Record<string, [number | null, number | null]>> {
  const sites = await app.call<SiteView[]>('listSites');
  return Object.fromEntries(sites.map((s) => [s.localId, [s.latitude, s.longitude]]));
}

/** Entries not yet sent (or not sendable): what "the outbox is empty" means to a user. */
async function waiting(app: App): Promise<OutboxEntryView[]> {
  return activeEntries(app.call);
}

/** The map's pane offset: it changes when, and only when, the map pans. */
function paneOffset(page: Page): Promise<string> {
  return page.locator('.leaflet-map-pane').evaluate((el) => (el as HTMLElement).style.transform);
}

/** What has keyboard focus: its text, its accessible hooks, and whether it is in an open dialog. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? null,
      text: el?.textContent?.trim() ?? null,
      inDialog: !!el?.closest('dialog[open]'),
      moveSite: el?.getAttribute('data-move-site') ?? null,
      siteCard: el?.getAttribute('data-site-card') ?? null,
    };
  });
}

/** Imports `rows × cols` sites a few metres apart through the app's bulk import, and waits until all are on the service. */
async function seedDenseSites(app: App, rows: number, cols: number): Promise<string[]> {
  const lines = ['name,height,latitude,longitude,group'];
  const names: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = `Dense ${r}-${c}`;
      names.push(name);
      lines.push(`${name},30,${(45.95 + r * 0.0012).toFixed(5)},${(-111.4 + c * 0.0012).toFixed(5)},Dense`);
    }
  }
  const file = await app.call<Result<BulkFileView>>('openBulkFile', { name: 'dense.csv', base64: Buffer.from(`${lines.join('\n')}\n`).toString('base64') });
  if (!file.ok) throw new Error(`openBulkFile: ${JSON.stringify(file.issues)}`);
  const run = await app.call<Result<BulkRunView>>('startImport', file.value.fileId, {});
  if (!run.ok) throw new Error(`startImport: ${JSON.stringify(run.issues)}`);
  await expect.poll(async () => (await app.call<BulkRunView | null>('getBulkRun', run.value.id))?.state, { message: 'the import to end', timeout: 150_000 }).toBe('ended');
  await expect.poll(async () => (await waiting(app)).length, { message: 'every imported site sent', timeout: 150_000 }).toBe(0);
  return names;
}

/**
 * Hundreds of sites a few metres apart (imported, then all sent): a drag that starts on a pin in the
 * crowd pans the map and moves no site; a still click selects.
 */
export async function denseCrowdPans(app: App, page: Page, session: Session): Promise<void> {
  // The sites the journey has by now (the demo's and those it added), with the crowd on top.
  const listed = (await app.call<SiteView[]>('listSites')).length;
  const names = await seedDenseSites(app, 15, 20);
  await expect.poll(() => page.getByText(/^\d+ sites$/).textContent(), { message: 'the imported sites listed' }).toMatch(new RegExp(`^${listed + names.length} sites$`));
  const centre = 'Dense 7-10';
  await selectFromList(page, centre);
  // The map follows the list's search (the default): clear it to have the whole crowd on the map.
  await page.getByLabel('Search sites').fill('');
  await expect.poll(() => pinsDrawn(page), { message: 'the crowd drawn' }).toBeGreaterThan(200);
  await mapSettled(page);

  const before = await positions(app);
  const outboxBefore = await allEntries(app.call);
  const paneBefore = await paneOffset(page);

  // Press on the selected pin's head, in the middle of the crowd (the tooltip says a pin is there),
  // and drag across the crowd.
  const box = (await page.getByTestId('map').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy - 28);
  await page.locator('.pin-tooltip').waitFor();
  await page.mouse.down();
  await page.mouse.move(cx + 80, cy, { steps: 8 });
  await page.mouse.move(cx + 180, cy + 40, { steps: 8 });
  await page.mouse.move(cx + 260, cy + 90, { steps: 8 });
  await page.mouse.up();
  await mapSettled(page);

  expect(await paneOffset(page)).not.toBe(paneBefore);
  // A (wrong) confirmation would be rendered by the pointer's release: drawn by the frames after it.
  await framesAfter(page);
  expect(await page.getByRole('dialog', { name: /^Move / }).count()).toBe(0);
  await session.screenshot('pin-moves-dense-pan');
  expect(await allEntries(app.call)).toEqual(outboxBefore);
  expect(await waiting(app)).toEqual([]);
  expect(await positions(app)).toEqual(before);
  // A drag is not a click: the selection is what it was.
  expect((await page.locator('#site-details-title').textContent())?.trim()).toBe(centre);

  // A click without movement, on another pin of the crowd (now moved with the map), selects it.
  await page.mouse.move(cx + 260 - 60, cy + 90 - 28 + 40);
  const tooltip = page.locator('.pin-tooltip strong');
  await tooltip.waitFor();
  const other = (await tooltip.textContent())!;
  expect(other).toMatch(/^Dense \d+-\d+$/);
  expect(other).not.toBe(centre);
  await page.mouse.down();
  await page.mouse.up();
  await expect.poll(async () => (await page.locator('#site-details-title').textContent())?.trim(), { message: 'the clicked site selected' }).toBe(other);
  expect(await page.getByRole('dialog', { name: /^Move / }).count()).toBe(0);
  expect(await positions(app)).toEqual(before);
}

export async function movesAfterMove(app: App, page: Page, session: Session, target: SandboxSite): Promise<void> {
  const local = (await app.call<SiteView[]>('listSites')).find((s) => s.siteId === target.id)!;
  const outboxBefore = await allEntries(app.call);
  await selectFromList(page, target.name);

  const box = (await page.getByTestId('map').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const dragPin = async () => {
    await page.mouse.move(cx, cy - 28);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy + 10, { steps: 8 });
    await page.mouse.move(cx + 120, cy + 50, { steps: 8 });
    await page.mouse.up();
  };

  const move = page.locator(`[data-move-site="${local.localId}"]`);
  const hint = page.getByRole('status').filter({ hasText: 'Drag the pin to its new place — Esc to cancel' });
  expect(await move.getAttribute('aria-pressed')).toBe('false');

  // Without Move, the same drag on the selected pin pans the map: no confirmation, nothing queued.
  const paneBefore = await paneOffset(page);
  await dragPin();
  await mapSettled(page);
  expect(await paneOffset(page)).not.toBe(paneBefore);
  await framesAfter(page);
  expect(await page.getByRole('dialog', { name: /^Move / }).count()).toBe(0);
  expect(await allEntries(app.call)).toEqual(outboxBefore);
  await page.getByRole('button', { name: 'Show on map' }).click();
  await mapSettled(page);

  // The pin's own menu (right click) offers the move too; focus goes to Cancel move, and Esc ends it.
  await page.mouse.click(cx, cy - 28, { button: 'right' });
  const menu = page.getByRole('menu', { name: `Actions for ${target.name}` });
  await menu.waitFor();
  await session.screenshot('pin-moves-pin-menu');
  await menu.getByRole('menuitem', { name: 'Move this site' }).click();
  await hint.waitFor();
  expect(await page.getByTestId('map').getAttribute('data-movable')).toBe(local.localId);
  await expect.poll(() => focused(page), { message: 'focus on Cancel move' }).toMatchObject({ text: 'Cancel move' });
  await page.keyboard.press('Escape');
  await hint.waitFor({ state: 'hidden' });

  await page.getByRole('region', { name: target.name }).getByRole('button', { name: 'Move', exact: true }).click();
  await hint.waitFor();
  expect(await move.getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByTestId('map').getAttribute('data-movable')).toBe(local.localId);
  await session.screenshot('pin-moves-move-mode');

  // The dragged pin asks first (Esc, Cancel move, the focus on Cancel and Enter moving nothing are
  // move mode's component tests: test/components/move-mode.test.tsx); confirmed, the move is queued
  // as an edit of that site.
  await dragPin();
  const dialog = page.getByRole('dialog', { name: `Move ${target.name}?` });
  await dialog.waitFor();
  await session.screenshot('pin-moves-confirm');
  await dialog.getByRole('button', { name: 'Move site' }).click();
  await expect
    .poll(async () => (await allEntries(app.call)).filter((e) => e.localId === local.localId && !outboxBefore.some((b) => b.id === e.id)).length, { message: 'the move in the outbox' })
    .toBe(1);
  const moved = (await positions(app))[local.localId]!;
  // Dragged down and right: south and east of where it was.
  expect(moved[0]).toBeLessThan(target.latitude);
  expect(moved[1]).toBeGreaterThan(target.longitude);
  await page.getByRole('button', { name: 'Undo' }).waitFor();
  // Move mode has ended, and focus is back on the Move button it started from.
  await hint.waitFor({ state: 'hidden' });
  expect(await move.getAttribute('aria-pressed')).toBe('false');
  expect(await page.getByTestId('map').getAttribute('data-movable')).toBe('');
  await expect.poll(() => focused(page), { message: 'focus back on Move' }).toMatchObject({ moveSite: local.localId });
  await session.screenshot('pin-moves-moved');

  // Without a mouse, in a short window: Enter on the focused Move button, the arrow keys nudge the
  // pin (Shift: further), Enter asks the same confirmation, and the move is queued like the drag.
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.keyboard.press('Enter');
  await hint.waitFor();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.getByRole('status').filter({ hasText: /\d+ m from the site — Enter to confirm/ }).waitFor();
  await session.screenshot('pin-moves-keyboard-nudged');
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Move site' }).click();
  await expect.poll(async () => (await positions(app))[local.localId]![1], { message: 'the site moved west' }).toBeLessThan(moved[1]!);
  expect((await positions(app))[local.localId]![0]).toBeGreaterThan(moved[0]!);
  await hint.waitFor({ state: 'hidden' });
}

export async function addSiteFocus(page: Page, session: Session): Promise<void> {
  const addSite = page.getByRole('button', { name: '+ Add site' });
  const isFocused = (locator: ReturnType<Page['getByRole']>) => locator.evaluate((el) => el === document.activeElement);

  // From the keyboard: "+ Add site", then "Use map centre" (which has focus), lands in the form's first field.
  await addSite.focus();
  await page.keyboard.press('Enter');
  const useCentre = page.getByRole('button', { name: 'Use map centre' });
  await expect.poll(() => isFocused(useCentre), { message: 'focus on Use map centre' }).toBe(true);
  // Esc leaves add mode, and focus goes back to "+ Add site".
  await page.keyboard.press('Escape');
  await expect.poll(() => isFocused(addSite), { message: 'focus back on + Add site' }).toBe(true);

  await page.keyboard.press('Enter');
  await expect.poll(() => isFocused(useCentre), { message: 'focus on Use map centre' }).toBe(true);
  await page.keyboard.press('Enter');
  const form = page.getByRole('region', { name: 'New site' });
  await form.waitFor();
  await expect.poll(() => isFocused(form.getByLabel('Name', { exact: true })), { message: 'focus in the form’s first field' }).toBe(true);
  await session.screenshot('pin-moves-add-site-focus');

  // Escape closes the form; focus goes back to the control that opened it.
  await page.keyboard.press('Escape');
  await form.waitFor({ state: 'hidden' });
  await expect.poll(() => isFocused(addSite), { message: 'focus back on + Add site' }).toBe(true);

  // Saved: focus goes to the new site's card.
  await page.keyboard.press('Enter');
  await expect.poll(() => isFocused(useCentre)).toBe(true);
  await page.keyboard.press('Enter');
  await expect.poll(() => isFocused(form.getByLabel('Name', { exact: true }))).toBe(true);
  await page.keyboard.type('Focus Ridge');
  await form.getByLabel('Height (meters)').fill('40');
  await page.keyboard.press('Enter');
  await form.waitFor({ state: 'hidden' });
  await expect.poll(() => focused(page), { message: 'focus on the saved site’s card' }).toMatchObject({ tag: 'section' });
  expect((await page.locator('#site-details-title').textContent())?.trim()).toBe('Focus Ridge');
  expect((await focused(page)).siteCard).not.toBeNull();
  await session.screenshot('pin-moves-saved-focus-card');
}

/** Resolves once the page has drawn two frames from now: what the events before it changed is on screen. */
async function framesAfter(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}
