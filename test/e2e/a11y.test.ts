// Accessibility: axe-core (the dev dependency's own source, evaluated in the page: axe.ts) over every
// screen a technician uses — welcome, map and list, the site form showing errors, outbox, EUS,
// rendering qualities and settings — each in the light theme and then in the dark one (the 'System'
// theme, as the system's setting turns), in one walk. Then, on the same app, the screens issue 23
// changed, at 1366×768 and 1024×640, light and dark: the bulk EUS preview with submissions emailed
// in the last 24 h marked and its confirmation naming them, the top bar under a 503 with nothing
// queued and a reprocess stopped by a proxy waiting for review, and the page once Sitewalk itself
// has stopped. No serious or critical violation anywhere (colour contrast included); the report
// names each one.
// Screenshots: test-results/e2e/a11y-*.png and issue23-*.png.
import type { Page } from 'playwright';
import type { SandboxState } from '../../electron/sandbox/state';
import { seriousViolations } from './axe';
import { connection, setFaults } from './connection-status';
import { describe, expect, test } from './fixtures';
import { chooseSandbox, findSandboxUrl, inspect, pinsDrawn, type App, type Session } from './helpers';
import { escapeRegExp, step } from './steps';

/** Where the walk looks: the page, its session (for screenshots) and every violation found so far. */
interface Walk {
  page: Page;
  session: Session;
  found: string[];
}

type InputFile = (name: string, text: string) => Promise<string>;

describe('accessibility', () => {
  // The service re-checked every half second, so the top bar follows a 503 put in front of the
  // service, and its going, within the waits of the issue-23 screens. The walk over every screen
  // before them waits on what each screen shows, not on the interval.
  test.override('appArgs', ['--check-every', '0.5']);

  test('has no serious or critical axe violation on any screen, in the light and the dark theme, nor on the screens issue 23 changed at 1366×768 and 1024×640', { timeout: 360_000 }, async ({ app, page, session, inputFile }) => {
    const walk: Walk = { page, session, found: [] };
    await step('the welcome', async () => {
      await page.getByRole('dialog', { name: 'Welcome to Sitewalk' }).waitFor();
      await look(walk, 'welcome');
    });
    await step("the Sandbox's sites on the map and in the list, and a site's card", () => mapAndCard(walk));
    await step('a new site\'s form showing its errors', () => formWithErrors(walk));
    await step('the Outbox, EUS, rendering qualities and Settings panels', () => panels(walk));
    await step('the bulk import with a checked file in it, and the EUS reprocess from a file', () => fromFiles(walk, inputFile));
    expect(walk.found).toEqual([]);
    expect(session.errors).toEqual([]);

    const { base, target } = await step("the built-in Sandbox's address and a Multi Map of its to reprocess into", async () => {
      const url = await findSandboxUrl(app);
      return { base: url, target: (await inspect<SandboxState>(url, 'state')).multiMaps[1]!.id };
    });
    await step('the bulk EUS preview marking a submission emailed in the last 24 hours, and its confirmation naming it', () => bulkEusMarked(walk, target, inputFile));
    await step('the top bar under a 503 with nothing queued, and an emailing reprocess it stopped, waiting for review', () => review503(walk, base, target));
    await step('the page once Sitewalk itself has stopped', () => hostStopped(walk, app));
    expect(walk.found).toEqual([]);
  });
});

/** The screen in both themes, as the system's setting turns (the theme is System), at the window's size; a screenshot of each if named. */
async function look({ page, session, found }: Walk, screen: string, shot?: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), { message: `the ${theme} theme` }).toBe(theme);
    found.push(...(await seriousViolations(page, `${screen} (${theme})`)));
    if (shot) await session.screenshot(theme === 'light' ? shot : `${shot}-dark`);
  }
}

const SIZES = [
  [1366, 768],
  [1024, 640],
] as const;

/** An issue-23 screen at both sizes in both themes, as the system's setting turns (the theme is System). */
async function lookAtSizes({ page, session, found }: Walk, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), { message: `the ${theme} theme` }).toBe(theme);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      found.push(...(await seriousViolations(page, `${name} ${width}×${height} ${theme}`)));
      await session.screenshot(`issue23-${name}-${width}x${height}-${theme}`);
    }
  }
}

function tab(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: new RegExp(`^${name}`) });
}

async function mapAndCard(walk: Walk): Promise<void> {
  const { page } = walk;
  await chooseSandbox(page);
  await expect.poll(() => pinsDrawn(page), { message: 'sites drawn' }).toBeGreaterThan(0);
  await look(walk, 'map and sites');
  // A site's card open (over the map in a short window such as this one).
  await page.locator('.site-row .row-main').first().click();
  await page.locator('section.site-details').waitFor();
  await look(walk, 'site card', 'a11y-site-card');
}

async function formWithErrors(walk: Walk): Promise<void> {
  const { page } = walk;
  await page.getByRole('button', { name: '+ Add site' }).click();
  await page.getByRole('button', { name: 'Use map centre' }).click();
  const form = page.getByRole('region', { name: 'New site' });
  await form.getByLabel('Height (meters)').fill('tall');
  await form.getByRole('button', { name: 'Save site' }).click();
  await form.getByText(/Height must be a number of meters/).waitFor();
  await look(walk, 'site form with errors', 'a11y-site-form-errors');
  await form.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' }).click();
}

async function panels(walk: Walk): Promise<void> {
  const { page } = walk;
  for (const [name, heading] of [
    ['Outbox', 'Outbox: changes to send'],
    ['EUS', 'EUS reprocess'],
    ['Qualities', 'Rendering qualities'],
    ['Settings', 'Settings'],
  ] as const) {
    await tab(page, name).click();
    await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
    if (name === 'Qualities') await page.getByRole('table').waitFor();
    await look(walk, name, `a11y-${name.toLowerCase()}`);
  }
}

async function fromFiles(walk: Walk, inputFile: InputFile): Promise<void> {
  const { page } = walk;
  await tab(page, 'Sites').click();
  const csv = await inputFile('a11y-import.csv', 'name,height,lat,lon\nA11y Ridge,30,45.1,-111.1\nBroken,tall,45.2,-111.2\n');
  await page.getByRole('button', { name: 'Import file…' }).click();
  const importDialog = page.getByRole('dialog', { name: /Import sites/ });
  await importDialog.getByLabel('Sites file').setInputFiles(csv);
  await importDialog.getByText('2 rows:').waitFor();
  await importDialog.getByText('Columns and defaults').click();
  await look(walk, 'import preview');
  await importDialog.getByRole('button', { name: 'Cancel' }).click();
  await tab(page, 'EUS').click();
  await page.getByRole('button', { name: 'Reprocess many from a file…' }).click();
  const eusCsv = await inputFile('a11y-eus.csv', 'Process ID,Name\n880101,A. Alvarez\n880104,B. Fraser\n');
  const eusDialog = page.getByRole('dialog', { name: /Reprocess EUS submissions/ });
  await eusDialog.getByLabel('EUS CSV download').setInputFiles(eusCsv);
  await eusDialog.getByText(/2 submissions in the file/).waitFor();
  await look(walk, 'reprocess from a file');
  await eusDialog.getByRole('button', { name: 'Cancel' }).click();
}

/** An emailed submission, then the bulk preview and its confirmation. */
async function bulkEusMarked(walk: Walk, target: string, inputFile: InputFile): Promise<void> {
  const { page } = walk;
  await tab(page, 'EUS').click();
  await page.getByLabel('Process ID').fill('880101');
  await page.getByLabel('Multi Map ID').fill(target);
  await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
  await page.getByRole('button', { name: 'Queue reprocess' }).click();
  const done = `Reprocess submission 880101 into Multi Map ${target}, email resent`;
  await page.getByRole('article', { name: new RegExp(`^${escapeRegExp(done)}: done$`) }).waitFor({ timeout: 60_000 });
  const path = await inputFile('eus.csv', 'ProcessID,Name,Address\r\n880101,Ann Lee,1 Main St\r\n880104,Bo Kim,2 Main St\r\n');
  await page.getByRole('button', { name: 'Reprocess many from a file…' }).click();
  const dialog = page.getByRole('dialog', { name: /Reprocess EUS submissions from a file/ });
  await dialog.getByLabel('EUS CSV download').setInputFiles(path);
  await dialog.getByLabel('Multi Map ID').fill(target);
  await dialog.getByLabel(/^Yes: email/).check();
  await dialog.getByText(/1 left out, so nobody is emailed twice/).waitFor();
  await lookAtSizes(walk, 'bulk-eus-marked');
  await dialog.getByRole('button', { name: 'Queue 1 reprocess' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reprocess 1 submission?' });
  await confirm.getByText(/Left out, emailed/).waitFor();
  await lookAtSizes(walk, 'bulk-eus-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** A 503 in front of the service, nothing queued; then an emailing reprocess it stops. */
async function review503(walk: Walk, base: string, target: string): Promise<void> {
  const { page } = walk;
  await setFaults(base, { proxy503Rate: 1 });
  await expect.poll(() => connection(page), { timeout: 15_000 }).toMatch(/Service not answering/);
  await page.getByLabel('Process ID').fill('880107');
  await page.getByLabel('Multi Map ID').fill(target);
  await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
  await page.getByRole('button', { name: 'Queue reprocess' }).click();
  await tab(page, 'Outbox').click();
  await page.getByText(/An error page came back instead of the service's answer/).first().waitFor({ timeout: 60_000 });
  await lookAtSizes(walk, 'outbox-review-503');
  await setFaults(base, {});
  await expect.poll(() => connection(page), { timeout: 15_000 }).toMatch(/Online/);
}

/** Sitewalk itself stops (last: the page has nothing to talk to after it). */
async function hostStopped(walk: Walk, app: App): Promise<void> {
  await app.stop();
  await walk.page.getByRole('alert').filter({ hasText: 'Sitewalk has stopped.' }).waitFor({ timeout: 5_000 });
  await lookAtSizes(walk, 'host-stopped');
}
