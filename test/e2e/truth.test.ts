// The screen always tells the truth (issue 12), and the app asks before the irreversible and says
// what is true (issue 23), on the Sandbox's list, as one journey a field crew walks in Chromium with
// the sandbox's fault injection, each outcome read off the screen without a reload: on first run a
// true last sync; the welcome not shown again in another browser profile; an export of only the
// sites shown; an import that reads what the form reads; a search that folds case and accents; a
// change discarded under 503s that leaves the site at once; a rejected edit that stays rejected.
// The steps that count the demo sites go before the ones that add sites, and the search that counts
// the pins drawn before any site is opened (the open site's pin is drawn whatever the search). (The
// site form's m/ft toggle, which converts the height shown, is a component test:
// test/components/site-form.test.tsx.)
import { readFile } from 'node:fs/promises';
import type { Download, Locator, Page } from 'playwright';
import type { SandboxSite } from '../../electron/sandbox/state';
import { connection, setFaults } from './connection-status';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';
import { addById, editHeight, siteRow, step } from './steps';
import type { Session } from './helpers';

/** How long "at once" may take on a loaded 2-core machine: no reload, no waiting out a retry. */
const AT_ONCE = 10_000;

const row = siteRow;

async function rowText(page: Page, name: string): Promise<string> {
  return (await row(page, name).getAttribute('aria-label')) ?? (await row(page, name).textContent()) ?? '';
}

function tab(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: new RegExp(`^${name}`) });
}

function siteCard(page: Page): Locator {
  return page.locator('section.site-details');
}

async function pendingPins(page: Page): Promise<number> {
  return Number(await page.getByTestId('map').getAttribute('data-pins-pending'));
}

describe('the screen tells the truth', () => {
  test(
    "on the Sandbox's list: a true last sync, the welcome not shown again, an export of only the sites shown, an import that reads what the form reads, a search that folds case and accents, a change discarded under 503s gone at once, a rejected edit never waiting",
    { timeout: 360_000 },
    async ({ page, session, sandboxUrl: base, demo, inputFile, newSession }) => {
      await step('on first run with the Sandbox the top bar shows a true last sync beside the synced demo sites', () => trueLastSync(page, session, demo));
      await step('the welcome is not shown again in a new browser profile when the data folder already holds sites', () => welcomeNotAgain(demo, newSession));
      await step('export offers only the sites shown when the list is searched or filtered, and writes just those', () => exportsShown(page, session, demo));
      await step('the import takes DMS coordinates, quoted decimal commas and heights like "52 ft" or "15.8 m" from a comma-separated file', () => importReadsAsTheForm(page, session, base, inputFile));
      await step('search folds case and accents: "eglise" finds every "Église", in the list and on the map', () => searchFolds(page, session, inputFile));
      await step('a change discarded while the service answers 503 leaves the site at once: previous height, no waiting mark, no 503 text, 0 waiting', () => discardUnder503(page, session, base, demo[0]!));
      await setFaults(base, {});
      await page.getByRole('button', { name: 'Sync now' }).first().click();
      await expect.poll(() => connection(page), { message: 'the top bar once the 503s end' }).toMatch(/Online/);
      // The search the steps before typed is cleared, as a user does before adding a site.
      await page.getByLabel('Search sites').fill('');
      await step('a rejected edit shows as rejected and never as waiting, and discarding it shows the site as it was', () => rejectedEdit(page, session, demo[0]!));
      expect(session.errors).toEqual([]);
    },
  );
});

async function trueLastSync(page: Page, session: Session, demo: SandboxSite[]): Promise<void> {
  await expect.poll(() => connection(page), { message: 'the connection once the sandbox is reached' }).toMatch(/Online/);
  const lastSync = (await page.getByTestId('last-sync').textContent()) ?? '';
  expect(lastSync).toMatch(/^Last sync (just now|\d+ min ago)$/);
  expect(lastSync).not.toMatch(/never/);
  await page.getByLabel('Search sites').fill(demo[0]!.name);
  await row(page, demo[0]!.name, 'On the service').waitFor();
  await session.screenshot('truth-first-run-last-sync');
}

async function welcomeNotAgain(demo: SandboxSite[], newSession: () => Promise<Session>): Promise<void> {
  const other = await newSession();
  await other.page.getByText(new RegExp(`^${demo.length} sites$`)).waitFor({ timeout: 30_000 });
  expect(await other.page.getByRole('dialog', { name: 'Welcome to Sitewalk' }).count()).toBe(0);
  await other.screenshot('welcome-not-again');
  expect(other.errors).toEqual([]);
  // Closed once seen: the journey goes on in the first page, and the other would only draw its map.
  await other.close();
}

async function exportsShown(page: Page, session: Session, demo: SandboxSite[]): Promise<void> {
  const site = demo[3]!;
  await page.getByLabel('Search sites').fill(site.name);
  await page.getByText(/^Showing 1 of [\d,]+ sites$/).waitFor();
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export sites' });
  const only = dialog.getByRole('radio', { name: /Only the sites shown \(1 site\)/ });
  await only.waitFor();
  expect(await only.isChecked()).toBe(true);
  await dialog.getByRole('radio', { name: new RegExp(`Every site \\(${demo.length} sites\\)`) }).waitFor();
  await session.screenshot('export-only-shown');
  const [download] = (await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export', exact: true }).click()])) as [Download, void];
  const text = (await readFile((await download.path())!)).toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter((line) => line !== '');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(site.name);
  await dialog.getByText('1 site written.').waitFor();
  await dialog.getByRole('button', { name: /^Close/ }).first().click();
}

async function importReadsAsTheForm(page: Page, session: Session, base: string, inputFile: (name: string, text: string) => Promise<string>): Promise<void> {
  const path = await inputFile(
    'walk.csv',
    ['Sitename,Height,Latitude,Longitude', 'Walk DMS,52 ft,"45°36\'15.8""N","110°59\'38.8""W"', 'Walk Comma,15.8 m,"45,61","-111,02"', 'Walk Plain,30,45.55,-111.05', ''].join('\r\n'),
  );
  await page.getByRole('button', { name: 'Import file…' }).click();
  const dialog = page.getByRole('dialog', { name: /Import sites/ });
  await dialog.getByLabel('Sites file').setInputFiles(path);
  await expect.poll(() => dialog.getByRole('status').filter({ hasText: '3 rows:' }).textContent()).toMatch(/3 new sites, 0 changes, 0 unchanged, 0 invalid/);
  await session.screenshot('import-dms-feet-preview');
  await dialog.getByRole('button', { name: 'Queue 3 rows' }).click();
  await dialog.getByText(/^Done\./).waitFor({ timeout: 60_000 });
  const sites = await inspect<SandboxSite[]>(base, 'sites');
  const byName = (name: string) => sites.find((s) => s.name === name);
  expect(byName('Walk DMS')).toMatchObject({ height: 16, latitude: 45.6043889, longitude: -110.9941111 });
  expect(byName('Walk Comma')).toMatchObject({ height: 16, latitude: 45.61, longitude: -111.02 });
  expect(byName('Walk Plain')).toMatchObject({ height: 30 });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
}

async function searchFolds(page: Page, session: Session, inputFile: (name: string, text: string) => Promise<string>): Promise<void> {
  const path = await inputFile('eglises.csv', ['Sitename,Height,Latitude,Longitude', 'Église Saint-Rémi,30,45.61,-111.02', 'EGLISE DU PORT,30,45.62,-111.03', 'église haute,30,45.63,-111.04', ''].join('\r\n'));
  await page.getByRole('button', { name: 'Import file…' }).click();
  const dialog = page.getByRole('dialog', { name: /Import sites/ });
  await dialog.getByLabel('Sites file').setInputFiles(path);
  await dialog.getByRole('button', { name: 'Queue 3 rows' }).click();
  await dialog.getByText(/^Done\./).waitFor({ timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await page.getByLabel('Search sites').fill('eglise');
  await page.getByText(/^Showing 3 of [\d,]+ sites$/).waitFor();
  await expect.poll(async () => Number(await page.getByTestId('map').getAttribute('data-pins-drawn'))).toBe(3);
  await page.getByLabel('Search sites').fill('EGLISE remi');
  await page.getByText(/^Showing 1 of [\d,]+ sites$/).waitFor();
  await session.screenshot('search-folded');
}

async function discardUnder503(page: Page, session: Session, base: string, target: SandboxSite): Promise<void> {
  const discarded = target.height + 7;
  await setFaults(base, { proxy503Rate: 1 });

  await page.getByLabel('Search sites').fill(target.name);
  await row(page, target.name).click();
  await editHeight(page, target.name, discarded);

  // Waiting, everywhere, and the top bar says why.
  await row(page, target.name, 'Waiting to send').waitFor();
  await expect.poll(() => connection(page), { message: 'the top bar under 503s' }).toMatch(/Service not answering/);
  expect(await connection(page)).not.toMatch(/Online/);
  await expect.poll(() => siteCard(page).textContent(), { message: 'the site card: the new height, waiting, the 503' }).toMatch(new RegExp(`${discarded} m[\\s\\S]*503|503[\\s\\S]*${discarded} m`));
  expect(await siteCard(page).textContent()).toMatch(/Waiting to send/);
  await page.getByTestId('pending-count').getByText('1 waiting').waitFor();
  expect(await pendingPins(page)).toBe(1);
  await session.screenshot('truth-503-waiting');

  // Discard it in the Outbox (it backs off between 503s, so it is offered).
  await tab(page, 'Outbox').click();
  const entry = page.getByRole('article', { name: new RegExp(`site ${target.id}: ${discarded} m: pending$`) });
  await entry.getByRole('button', { name: 'Discard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard this change?' });
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('heading', { name: 'Waiting to send (0)' }).waitFor({ timeout: AT_ONCE });

  // Back on the site, without a reload: the truth at once.
  await tab(page, 'Sites').click();
  await expect.poll(() => rowText(page, target.name), { message: 'the row after the discard', timeout: AT_ONCE }).toMatch(new RegExp(`\\b${target.height} m\\b[\\s\\S]*On the service`));
  await expect.poll(() => page.getByTestId('pending-count').textContent(), { timeout: AT_ONCE }).toMatch(/^\s*0 waiting/);
  await expect.poll(() => pendingPins(page), { message: 'no waiting mark on the map', timeout: AT_ONCE }).toBe(0);
  await row(page, target.name).click();
  await expect.poll(() => siteCard(page).textContent(), { message: 'the site card after the discard', timeout: AT_ONCE }).toMatch(new RegExp(`Height${target.height} m`));
  const card = (await siteCard(page).textContent()) ?? '';
  expect(card).not.toMatch(/Waiting/);
  expect(card).not.toMatch(/503/);
  expect(card).not.toContain(`${discarded} m`);
  expect(await rowText(page, target.name)).not.toMatch(/Waiting/);
  await siteCard(page).scrollIntoViewIfNeeded();
  await session.screenshot('truth-503-discarded');

  // Nothing reached the service.
  expect((await inspect<SandboxSite[]>(base, 'sites')).find((s) => s.id === target.id)!.height).toBe(target.height);
}

async function rejectedEdit(page: Page, session: Session, near: SandboxSite): Promise<void> {
  // A site ID the service does not have: its edit is refused ("Site … was not found").
  const ghost = { id: '990001', name: 'Ghost Mast', height: 30, latitude: near.latitude + 0.01, longitude: near.longitude + 0.01 };
  await addById(page, ghost);
  await page.getByLabel('Search sites').fill(ghost.name);
  await row(page, ghost.name).click();
  await editHeight(page, ghost.name, 44);

  await row(page, ghost.name, 'Rejected').waitFor({ timeout: 60_000 });
  // It stays rejected: sampled for a few seconds, on the row, the card, the outbox entry and the counts.
  for (let i = 0; i < 12; i++) {
    expect(await rowText(page, ghost.name)).not.toMatch(/Waiting/);
    expect(await siteCard(page).textContent()).not.toMatch(/Waiting/);
    await page.waitForTimeout(250);
  }
  await page.getByTestId('pending-count').getByText('0 waiting').waitFor();
  await page.getByTestId('attention-count').getByText('1 needs attention').waitFor();
  expect(await siteCard(page).textContent()).toMatch(/not found/);
  await session.screenshot('truth-rejected-edit');

  await tab(page, 'Outbox').click();
  const entry = page.getByRole('article', { name: /site 990001: 44 m: failed$/ });
  await entry.waitFor();
  expect(await page.getByRole('heading', { name: 'Waiting to send (0)' }).count()).toBe(1);
  await entry.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('dialog', { name: 'Discard this change?' }).getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('heading', { name: 'Needs attention (0)' }).waitFor({ timeout: AT_ONCE });

  await tab(page, 'Sites').click();
  await expect.poll(() => rowText(page, ghost.name), { message: 'the row after discarding the rejected edit', timeout: AT_ONCE }).toMatch(/\b30 m\b/);
  expect(await rowText(page, ghost.name)).not.toMatch(/Rejected|Waiting/);
  await expect.poll(() => page.getByTestId('attention-count').count(), { timeout: AT_ONCE }).toBe(0);
  await row(page, ghost.name).click();
  await expect.poll(() => siteCard(page).textContent(), { timeout: AT_ONCE }).toMatch(/Height30 m/);
  expect(await siteCard(page).textContent()).not.toMatch(/not found|Rejected/);
  await siteCard(page).scrollIntoViewIfNeeded();
  await session.screenshot('truth-rejected-discarded');
}
