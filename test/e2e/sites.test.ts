// A crew's sites through the UI against the built-in Sandbox, as one journey in one app. First the
// map, while it holds just the demo sites (its steps count them): close sites gather into numbered
// clusters that open on a click, the map follows the list's search and filters, and measures between
// two sites. Then the crew adds a site by clicking the map, changes a height, moves a pin by dragging
// it after Move (confirm, then undo); a site moves only after Move on its card or its pin's menu (by
// mouse or keyboard), and "+ Add site" takes keyboard focus into the form and gives it back; input the
// shared schema refuses is shown inline, nothing queued, and the typed text is still there after a
// reload; meanwhile the office runs the CLI on the same data folder, and the open page shows the site
// it queued. Then the scale bar and the cursor's coordinates, and the units turned to feet (nothing
// after reads a height in meters). Last, hundreds of sites a few metres apart are imported (they would
// upset every count before): a drag across the crowd pans the map and moves no site. Each outcome is
// checked where it matters: in the sandbox's own state and call log, or the app's outbox and register.
import type { Page } from 'playwright';
import type { CallLogEntry, SandboxSite } from '../../electron/sandbox/state';
import { describe, expect, testOnDemoSites as test, vi } from './fixtures';
import { inspect, pinsDrawn, type App, type Session } from './helpers';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runSitewalk } from '../support/cli';
import { activeEntries, allEntries } from './outbox-listing';
import { siteRow, step } from './steps';
import { clusters, followsTheList, mapSettled, measures, scaleAndCursor } from './map-checks';
import { addSiteFocus, denseCrowdPans, movesAfterMove } from './pin-move-checks';

/** The list draws only the rows in view: search for the site first, as a user with many sites does. */
async function findRow(page: Page, name: string) {
  await page.getByLabel('Search sites').fill(name);
  const row = siteRow(page, name);
  await row.waitFor();
  return row;
}

async function siteOnService(base: string, id: string): Promise<SandboxSite> {
  const site = (await inspect<SandboxSite[]>(base, 'sites')).find((s) => s.id === id);
  if (!site) throw new Error(`no site ${id} on the service`);
  return site;
}

async function sitesApiCalls(base: string): Promise<CallLogEntry[]> {
  return (await inspect<CallLogEntry[]>(base, 'calls')).filter((call) => call.operation === 'SitesAPI');
}

/** What the steps before queued is done before the outbox (or the service's call log) is compared. */
async function outboxSettled(app: App): Promise<void> {
  await expect.poll(async () => (await activeEntries(app.call)).length, { message: 'the outbox to settle', timeout: 60_000 }).toBe(0);
}

describe('sites', () => {
  test(
    'a crew reads the map at scale, adds a site by clicking the map, changes a height, moves a pin only after Move and undoes it, is shown what it typed wrong while the office queues one with the CLI, and pans across a crowd of pins without moving any',
    // The parts' former caps: 180 s for the sites, the map and the moves each, 400 s for the crowd.
    { timeout: 940_000 },
    async ({ app, page, session, sandboxUrl: base, demo, tempDir }) => {
      await step('gathers close sites into numbered clusters at low zoom; a click on a cluster zooms in', () => clusters(page, session, demo));
      await step('shows only the sites the list shows by default, every site when asked, and every site again after', () => followsTheList(page, session, demo));
      await step('measures the distance and bearing between two sites by clicking their pins; Esc clears, then leaves', () => measures(page, session, demo));
      // Back to the whole list and every demo site in view, as the map opens.
      await page.getByLabel('Search sites').fill('');
      await page.getByRole('button', { name: 'Zoom to all sites' }).click();
      await mapSettled(page);
      await expect.poll(() => pinsDrawn(page), { message: 'every demo site drawn' }).toBe(demo.length);

      await step('adds a site by clicking the map: saved, sent once, and on the service with the typed fields', () => addByClick(page, session, base));
      await step('changes the height of an existing site and leaves its other fields to the service', () => changeHeight(page, session, base, demo[0]!));
      await step('moves a site by dragging its pin after Move and a confirmation, and undoes the move', () => moveAndUndo(page, session, base, demo[1]!));
      await outboxSettled(app);
      await step('moves a site only after Move on its card or its pin menu, and queues it once confirmed', () => movesAfterMove(app, page, session, demo[1]!));
      await step('"+ Add site" takes keyboard focus into the form and closing the form gives it back', () => addSiteFocus(page, session));
      // The keyboard move ran in a short window: back to the session's 1280×720 for the rest.
      await page.setViewportSize({ width: 1280, height: 720 });
      await outboxSettled(app);
      await step('shows a bad height and a bad latitude inline, queues nothing, and keeps the typing after a reload', () => refusedInput(app, page, session, base));
      await step('the CLI, while the app is open, answers, queues a site the open page shows without reload, and the app sends it once', () => cliWhileOpen(app, page, session, base, tempDir));
      // The resumed draft closed (kept as a draft) and the search cleared: every site in the list and on the map again.
      await page.getByRole('button', { name: 'Close the form (changes are kept as a draft)' }).click();
      await page.getByRole('region', { name: 'New site' }).waitFor({ state: 'detached' });
      await page.getByLabel('Search sites').fill('');

      // Last of the map's: it turns the units to feet.
      await step('shows a scale bar in the chosen unit and the coordinates under the cursor, copied from the keyboard', () => scaleAndCursor(page, session, app));
      // Last: hundreds of sites more, counted in the list (the Settings the units step left open hide it).
      await page.getByRole('button', { name: 'Sites', exact: true }).click();
      await step('a drag that starts on a pin in a crowd of pins pans the map and moves no site; a still click selects', () => denseCrowdPans(app, page, session));
      expect(session.errors).toEqual([]);
      expect(await session.cspViolations()).toEqual([]);
    },
  );
});

async function addByClick(page: Page, session: Session, base: string): Promise<void> {
  // Zoom out so the demo sites gather in the middle, then click an empty spot near the top left
  // corner, under the toolbar.
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await mapSettled(page);
  await page.getByRole('button', { name: '+ Add site' }).click();
  await page.getByText('Click the map where the new site is.').waitFor();
  const box = (await page.getByTestId('map').boundingBox())!;
  await page.mouse.click(box.x + 90, box.y + 150);

  const form = page.getByRole('region', { name: 'New site' });
  await form.waitFor();
  const latitude = await form.getByLabel('Latitude').inputValue();
  const longitude = await form.getByLabel('Longitude').inputValue();
  expect(Number(latitude)).not.toBeNaN();
  expect(Number(longitude)).not.toBeNaN();
  // The place is marked where the click was (the marker's tip), before anything is saved.
  const marker = page.getByTestId('place-marker');
  const tip = async () => {
    const at = (await marker.boundingBox())!;
    return { x: at.x + at.width / 2, y: at.y + at.height };
  };
  expect(await tip()).toEqual({ x: expect.closeTo(box.x + 90, -1), y: expect.closeTo(box.y + 150, -1) });
  // A typed latitude moves it (north is up): one tenth of a degree north of the click.
  await form.getByLabel('Latitude').fill((Number(latitude) + 0.1).toFixed(6));
  await expect.poll(async () => (await tip()).y, { message: 'the marker to follow the typed latitude' }).toBeLessThan(box.y + 145);
  await form.getByLabel('Latitude').fill(latitude);

  await form.getByLabel('Name', { exact: true }).fill('E2E Ridge');
  await form.getByLabel('Height (meters)').fill('45');
  await form.getByLabel('Description').fill('Added by the end-to-end test');
  await form.getByLabel('Group', { exact: true }).fill('E2E');
  await form.getByLabel('Green').check();
  await session.screenshot('add-site-form');
  await form.getByRole('button', { name: 'Save site' }).click();

  // Waiting first (clock badge), then on the service.
  await siteRow(page, 'E2E Ridge').waitFor();
  await page.getByRole('button', { name: /^E2E Ridge\b.*On the service/ }).waitFor({ timeout: 60_000 });
  // Saved, it is a site's pin: the place's marker is gone with the form.
  await expect.poll(() => marker.count(), { message: 'the place marker gone with the form' }).toBe(0);

  const created = (await inspect<SandboxSite[]>(base, 'sites')).filter((s) => s.name === 'E2E Ridge');
  expect(created).toHaveLength(1);
  expect(created[0]).toMatchObject({
    height: 45,
    latitude: Number(latitude),
    longitude: Number(longitude),
    description: 'Added by the end-to-end test',
    group: 'E2E',
    pinStyle: 4,
  });
  const creates = (await sitesApiCalls(base)).filter((c) => c.params['Sitename'] === 'E2E Ridge');
  expect(creates.map((c) => c.outcome)).toEqual(['ok']);
  // The details say which ID the service gave it.
  await page.getByRole('region', { name: 'Sites' }).getByText(created[0]!.id, { exact: true }).waitFor();
  await session.screenshot('add-site-synced');
}

async function changeHeight(page: Page, session: Session, base: string, target: SandboxSite): Promise<void> {
  const newHeight = target.height === 61 ? 62 : 61;

  await (await findRow(page, target.name)).click();
  await page.getByRole('button', { name: 'Edit site' }).click();
  const form = page.getByRole('region', { name: `Edit ${target.name}` });
  await form.getByLabel('Height (meters)').fill(String(newHeight));
  await form.getByRole('button', { name: 'Save site' }).click();
  await page.getByRole('button', { name: new RegExp(`^${target.name}\\b.*On the service`) }).first().waitFor({ timeout: 60_000 });

  await expect.poll(async () => (await siteOnService(base, target.id)).height, { message: 'the new height on the service' }).toBe(newHeight);
  const after = (await inspect<SandboxSite[]>(base, 'sites')).find((s) => s.id === target.id)!;
  expect(after).toMatchObject({ name: target.name, latitude: target.latitude, longitude: target.longitude, group: target.group, pinStyle: target.pinStyle });
  // Only the height travelled: blank fields mean "keep" on the wire.
  const edit = (await sitesApiCalls(base)).filter((c) => c.params['Siteid'] === target.id);
  expect(edit).toHaveLength(1);
  expect(edit[0]!.params).toMatchObject({ height: String(newHeight), Sitename: '', Latitude: '', Longitude: '', Description: '', Group: '', Pinstyle: '' });
  await session.screenshot('edit-height-synced');
}

async function moveAndUndo(page: Page, session: Session, base: string, target: SandboxSite): Promise<void> {
  await (await findRow(page, target.name)).click();
  await mapSettled(page);
  // Pins are fixed until the user asks to move one (a drag elsewhere pans the map).
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  // The selected site is centred on the map; grab the pin by its head and drag it.
  const box = (await page.getByTestId('map').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy - 28);
  await page.mouse.down();
  await page.mouse.move(cx + 60, cy + 10, { steps: 8 });
  await page.mouse.move(cx + 120, cy + 50, { steps: 8 });
  await page.mouse.up();

  const dialog = page.getByRole('dialog', { name: `Move ${target.name}?` });
  await dialog.waitFor();
  await session.screenshot('move-confirm');
  await dialog.getByRole('button', { name: 'Move site' }).click();

  const moved = await vi.waitFor(
    async () => {
      const site = await siteOnService(base, target.id);
      if (site.latitude === target.latitude || site.longitude === target.longitude) throw new Error(`${target.name} is still at ${site.latitude}, ${site.longitude} on the service`);
      return site;
    },
    { timeout: 60_000, interval: 250 },
  );
  // Dragged down and right: south and east of where it was.
  expect(moved.latitude).toBeLessThan(target.latitude);
  expect(moved.longitude).toBeGreaterThan(target.longitude);
  expect(moved.height).toBe(target.height);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => siteOnService(base, target.id), { message: 'the site back in place' }).toMatchObject({ latitude: target.latitude, longitude: target.longitude });
}

async function refusedInput(app: App, page: Page, session: Session, base: string): Promise<void> {
  const outboxBefore = await allEntries(app.call);
  const callsBefore = (await sitesApiCalls(base)).length;

  // The site just moved is still selected: adding a new one closes its card (at 1024×640 the card
  // covered the add hint's Cancel).
  await expect.poll(() => page.locator('[data-site-card]').count(), { message: 'a site card open before adding' }).toBe(1);
  await page.getByRole('button', { name: '+ Add site' }).click();
  await expect.poll(() => page.locator('[data-site-card]').count(), { message: 'the card closed for the new site' }).toBe(0);
  await page.getByRole('button', { name: 'Use map centre' }).click();
  const form = page.getByRole('region', { name: 'New site' });
  await form.getByLabel('Name', { exact: true }).fill('Half Meter Hill');
  await form.getByLabel('Height (meters)').fill('thirty');
  await form.getByLabel('Latitude').fill('95');
  await form.getByRole('button', { name: 'Save site' }).click();

  await form.getByText('Height must be a number of meters, like 30, or of feet, like 98 ft.').waitFor();
  await form.getByText(/Latitude must be between -90 and 90 degrees/).waitFor();
  expect(await form.getByLabel('Height (meters)').getAttribute('aria-invalid')).toBe('true');
  expect(await form.getByLabel('Latitude').getAttribute('aria-invalid')).toBe('true');
  await form.getByText(/2 fields need fixing before the site can be saved. Nothing was queued./).waitFor();
  await session.screenshot('bad-input-inline-errors');

  expect(await allEntries(app.call)).toEqual(outboxBefore);
  expect((await sitesApiCalls(base)).length).toBe(callsBefore);

  // A reload (or a crash) loses nothing typed: the draft is offered back.
  await page.reload();
  await page.getByRole('heading', { name: /Unsaved drafts \(1\)/ }).waitFor();
  await page.getByRole('button', { name: 'Resume' }).click();
  const resumed = page.getByRole('region', { name: 'New site' });
  expect(await resumed.getByLabel('Name', { exact: true }).inputValue()).toBe('Half Meter Hill');
  expect(await resumed.getByLabel('Height (meters)').inputValue()).toBe('thirty');
  expect(await resumed.getByLabel('Latitude').inputValue()).toBe('95');
}

/**
 * The app and the CLI on one data folder at the same time (issue 20): with the app open, `sitewalk
 * outbox` answers, `sitewalk site add` queues a site, and the open page shows it without a reload —
 * then the app, which sends by itself, sends what the CLI queued, once.
 */
async function cliWhileOpen(app: App, page: Page, session: Session, base: string, tempDir: string): Promise<void> {
  const home = join(tempDir, 'home');
  await mkdir(home);
  const sitewalk = (args: string[]) => runSitewalk(home, [...args, '--data-dir', app.dataDir]);

  const listed = await sitewalk(['outbox', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stderr).not.toMatch(/in use by another Sitewalk/);

  const added = await sitewalk(['site', 'add', '--name', 'Queued from the CLI', '--height', '31', '--lat', '45.68', '--lon=-111.05']);
  expect(added.code, added.stderr).toBe(0);
  await page.getByLabel('Search sites').fill('Queued from the CLI');
  // No reload: the page hears of the CLI's change through the app within a second or two.
  await siteRow(page, 'Queued from the CLI').waitFor({ timeout: 15_000 });
  await siteRow(page, 'Queued from the CLI', 'On the service').waitFor({ timeout: 60_000 });
  await session.screenshot('cli-while-open');

  const calls = (await inspect<CallLogEntry[]>(base, 'calls')).filter((call) => call.operation === 'SitesAPI' && call.params['Sitename'] === 'Queued from the CLI');
  expect(calls.map((call) => call.outcome)).toEqual(['ok']);
  const after = await sitewalk(['outbox', '--all', '--json']);
  expect(after.code, after.stderr).toBe(0);
  expect((after.json as { entries: Array<{ state: string; payload: { name?: string } }> }).entries.find((entry) => entry.payload.name === 'Queued from the CLI')?.state).toBe('done');
}
