// Ask before the irreversible, and say what is true (issue 23), as three journeys. On the EUS
// submissions: a crew reprocesses submissions with email one by one in the EUS panel, then the office
// reprocesses a CSV download holding the same submissions with email; the preview marks the ones
// emailed in the last 24 hours, the confirmation names them, and they are left out unless ticked (the
// sandbox's mail log is the judge); then an emailing reprocess stopped by a proxy says an error page
// came back. On the Sandbox's list: the welcome not shown again, an export of only the sites shown,
// an import that reads what the form reads, a search that folds case and accents. On an account of
// its own: a connection test's result goes when the key changes. (The site form's m/ft toggle, which
// converts the height shown, is a component test: test/components/site-form.test.tsx.)
import { readFile } from 'node:fs/promises';
import type { Download, Locator, Page } from 'playwright';
import type { MailMessage, SandboxSite, SandboxState } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';
import { connectAccount, escapeRegExp, step } from './steps';
import type { Session } from './helpers';

function tab(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: new RegExp(`^${name}`) });
}

async function reprocessOne(page: Page, processId: string, multiMapId: string): Promise<void> {
  await page.getByLabel('Process ID').fill(processId);
  await page.getByLabel('Multi Map ID').fill(multiMapId);
  await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
  await page.getByRole('button', { name: 'Queue reprocess' }).click();
  const what = `Reprocess submission ${processId} into Multi Map ${multiMapId}, email resent`;
  await page.getByRole('article', { name: new RegExp(`^${escapeRegExp(what)}: done$`) }).waitFor({ timeout: 60_000 });
}

async function mailCounts(base: string, processIds: readonly string[]): Promise<number[]> {
  const mail = await inspect<MailMessage[]>(base, 'mail');
  return processIds.map((id) => mail.filter((m) => m.processId === id).length);
}

describe('asking before the irreversible', () => {
  test('on EUS submissions: a bulk reprocess with email leaves out, and names, the ones emailed in the last 24 hours; one stopped by a proxy says an error page came back', async ({ page, session, sandboxUrl: base, inputFile }) => {
    await step('a bulk reprocess with email leaves out, and names, the submissions emailed in the last 24 hours unless each is ticked', () => bulkLeavesOut(page, session, base, inputFile));
    await step('an emailing reprocess stopped by a proxy says an error page came back, not that no answer came back, and was not sent again', () => stoppedByProxy(page, session, base));
    expect(session.errors).toEqual([]);
  });

  test("on the Sandbox's list: the welcome is not shown again, an export writes only the sites shown, an import reads what the form reads, a search folds case and accents", async ({ page, session, sandboxUrl: base, demo, inputFile, newSession }) => {
    await step('the welcome is not shown again in a new browser profile when the data folder already holds sites', () => welcomeNotAgain(demo, newSession));
    await step('export offers only the sites shown when the list is searched or filtered, and writes just those', () => exportsShown(page, session, demo));
    await step('the import takes DMS coordinates, quoted decimal commas and heights like "52 ft" or "15.8 m" from a comma-separated file', () => importReadsAsTheForm(page, session, base, inputFile));
    await step('search folds case and accents: "eglise" finds every "Église", in the list and on the map', () => searchFolds(page, session, inputFile));
    expect(session.errors).toEqual([]);
  });
});

describe('a connection test result', () => {
  test('goes when the key is changed after it, instead of still saying the connection works', async ({ page, session, service }) => {
    await connectAccount(page, service.url);
    await tab(page, 'Settings').click();
    const card = page.getByRole('article').filter({ hasText: 'Field account' }).first();
    await card.getByRole('button', { name: 'Test connection…' }).click();
    await card.getByRole('button', { name: 'Test connection', exact: true }).click();
    await card.getByText('The connection works.').waitFor({ timeout: 30_000 });

    await card.getByRole('button', { name: 'Change API key' }).click();
    await card.getByLabel(/New API key/).fill('a-wrong-key-0000000000');
    await card.getByRole('button', { name: 'Save key' }).click();
    await card.getByText(/The key or the service address changed since the last test/).waitFor();
    expect(await card.getByText('The connection works.').count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await session.screenshot('connection-test-stale');

    await card.getByRole('button', { name: 'Test connection', exact: true }).click();
    await card.getByText('The connection does not work yet.').waitFor({ timeout: 30_000 });
    expect(session.errors).toEqual([]);
  });
});

async function bulkLeavesOut(page: Page, session: Session, base: string, inputFile: (name: string, text: string) => Promise<string>): Promise<void> {
  const state = await inspect<SandboxState>(base, 'state');
  const target = state.multiMaps[1]!.id;
  const ids = ['880101', '880104', '880107'];
  await tab(page, 'EUS').click();
  await reprocessOne(page, '880101', target);
  await reprocessOne(page, '880104', target);
  const once = (await mailCounts(base, ['880101']))[0]!;
  expect(once).toBeGreaterThan(0);
  expect(await mailCounts(base, ids)).toEqual([once, once, 0]);

  const path = await inputFile('eus.csv', `ProcessID,Name,Address\r\n${ids.map((id, i) => `${id},Customer ${i + 1},${i + 1} Main St`).join('\r\n')}\r\n`);
  const openFile = async () => {
    await page.getByRole('button', { name: 'Reprocess many from a file…' }).click();
    const dialog = page.getByRole('dialog', { name: /Reprocess EUS submissions from a file/ });
    await dialog.getByLabel('EUS CSV download').setInputFiles(path);
    await dialog.getByText(/3 submissions in the file/).waitFor();
    return dialog;
  };
  const dialog = await openFile();
  // Marked before any email choice, so nobody has to guess.
  const rowOf = (id: string) => dialog.getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
  await expect.poll(() => rowOf('880101').textContent()).toMatch(/Emailed (just now|\d+ minutes? ago)/);
  await expect.poll(() => rowOf('880104').textContent()).toMatch(/Emailed (just now|\d+ minutes? ago)/);
  expect(await rowOf('880107').textContent()).not.toMatch(/Emailed/);

  await dialog.getByLabel('Multi Map ID').fill(target);
  await dialog.getByLabel(/^Yes: email/).check();
  await dialog.getByText(/2 picked submissions were emailed \(or are queued to be\) in the last 24 hours: 2 left out/).waitFor();
  await session.screenshot('ask-first-bulk-email-marked');
  await dialog.getByRole('button', { name: 'Queue 1 reprocess' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reprocess 1 submission?' });
  await confirm.getByText(/Left out, emailed \(or queued to be\) in the last 24 hours: 880101 \(Emailed [^)]+\), 880104 \(Emailed [^)]+\)\./).waitFor();
  await session.screenshot('ask-first-bulk-email-confirm');
  await confirm.getByRole('button', { name: 'Queue the reprocesses' }).click();
  await dialog.getByText(/^Done\. 1 reprocessed/).waitFor({ timeout: 60_000 });
  expect(await mailCounts(base, ids)).toEqual([once, once, once]);
  await dialog.getByRole('button', { name: /^Close/ }).first().click();
  await dialog.waitFor({ state: 'hidden' });

  // Ticked: only that one is emailed again, and the confirmation says so before it happens.
  const again = await openFile();
  await again.getByLabel('Multi Map ID').fill(target);
  await again.getByLabel(/^Yes: email/).check();
  await again.getByLabel(/^Email submission 880101 again/).check();
  await again.getByRole('button', { name: 'Queue 1 reprocess' }).click();
  const confirmAgain = page.getByRole('dialog', { name: 'Reprocess 1 submission?' });
  await confirmAgain.getByText(/Emailed again although emailed \(or queued to be\) in the last 24 hours: 880101/).waitFor();
  await confirmAgain.getByText(/Left out[^:]*: 880104 \([^)]+\), 880107 \([^)]+\)\./).waitFor();
  await confirmAgain.getByRole('button', { name: 'Queue the reprocesses' }).click();
  await again.getByText(/^Done\. 1 reprocessed/).waitFor({ timeout: 60_000 });
  expect(await mailCounts(base, ids)).toEqual([2 * once, once, once]);
  await again.getByRole('button', { name: /^Close/ }).first().click();
}

async function stoppedByProxy(page: Page, session: Session, base: string): Promise<void> {
  const state = await inspect<SandboxState>(base, 'state');
  const submission = state.submissions[5]!;
  const target = state.multiMaps.find((m) => m.id !== submission.multiMapId)!.id;
  const response = await fetch(`${base}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ proxy503Rate: 1, operations: ['EusReprocessAPI'] }) });
  expect(response.ok).toBe(true);
  await tab(page, 'EUS').click();
  await page.getByLabel('Process ID').fill(submission.processId);
  await page.getByLabel('Multi Map ID').fill(target);
  await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
  await page.getByRole('button', { name: 'Queue reprocess' }).click();
  await tab(page, 'Outbox').click();
  const what = `Reprocess submission ${submission.processId} into Multi Map ${target}, email resent`;
  const entry = page.getByRole('article', { name: new RegExp(`^${escapeRegExp(what)}: needs-review$`) });
  await entry.waitFor({ timeout: 60_000 });
  await entry.getByText(/An error page came back instead of the service's answer/).waitFor();
  expect(await entry.textContent()).not.toMatch(/no answer came back/i);
  await entry.scrollIntoViewIfNeeded();
  await session.screenshot('review-after-proxy-503');
  expect((await inspect<MailMessage[]>(base, 'mail')).filter((m) => m.processId === submission.processId)).toHaveLength(0);
}

async function welcomeNotAgain(demo: SandboxSite[], newSession: () => Promise<Session>): Promise<void> {
  const other = await newSession();
  await other.page.getByText(new RegExp(`^${demo.length} sites$`)).waitFor({ timeout: 30_000 });
  expect(await other.page.getByRole('dialog', { name: 'Welcome to Sitewalk' }).count()).toBe(0);
  await other.screenshot('welcome-not-again');
  expect(other.errors).toEqual([]);
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
