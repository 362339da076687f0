// The field case: the service goes away (here: the test's own sandbox is stopped, so connections are
// refused), the technician edits two sites and creates one; each shows as waiting on the map and in
// the list, nothing is lost, and when the service is back "Sync now" applies each change exactly once.
// The account is connected the way a user does it: the welcome's "Connect my account", then sites
// brought in by their service IDs.
import type { CallLogEntry, SandboxSite } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';
import { addById, connectAccount, editHeight, siteRow } from './steps';

const row = siteRow;

describe('offline', () => {
  test('keeps two edits and a new site made offline, marks them waiting, and applies each exactly once back online', async ({ page, session, service }) => {
    const [a, b] = service.sites;
    expect(a && b).toBeTruthy();

    // Connect "my account" (the test's sandbox) from the welcome.
    await connectAccount(page, service.url);

    await addById(page, a!);
    await addById(page, b!);

    // The service goes away.
    await service.stop();

    await editHeight(page, a!.name, a!.height + 3);
    await editHeight(page, b!.name, b!.height + 4);
    await page.getByRole('button', { name: '+ Add site' }).click();
    await page.getByRole('button', { name: 'Use map centre' }).click();
    const form = page.getByRole('region', { name: 'New site' });
    await form.getByLabel('Name', { exact: true }).fill('Offline Knob');
    await form.getByLabel('Height (meters)').fill('27');
    await form.getByRole('button', { name: 'Save site' }).click();
    await form.waitFor({ state: 'detached' });

    // Everything waits, visibly: list, map badges, status bar.
    await page.getByTestId('connection').getByText('Offline', { exact: true }).waitFor({ timeout: 60_000 });
    for (const name of [a!.name, b!.name, 'Offline Knob']) await row(page, name, 'Waiting to send').waitFor();
    await page.getByTestId('pending-count').getByText('3 waiting').waitFor();
    await expect.poll(async () => Number(await page.getByTestId('map').getAttribute('data-pins-pending')), { message: 'three pending pins on the map' }).toBe(3);
    await session.screenshot('offline-pending');

    // The service is back, on the same address with the same data.
    await service.restart();
    await page.getByRole('button', { name: 'Sync now' }).first().click();
    for (const name of [a!.name, b!.name, 'Offline Knob']) await row(page, name, 'On the service').waitFor({ timeout: 90_000 });
    await page.getByTestId('pending-count').getByText('0 waiting').waitFor();
    await session.screenshot('offline-synced');

    const sites = await inspect<SandboxSite[]>(service.url, 'sites');
    expect(sites.find((s) => s.id === a!.id)!.height).toBe(a!.height + 3);
    expect(sites.find((s) => s.id === b!.id)!.height).toBe(b!.height + 4);
    expect(sites.filter((s) => s.name === 'Offline Knob')).toHaveLength(1);
    // Exactly once: the restarted sandbox logged one accepted call per change, and nothing else.
    const calls = (await inspect<CallLogEntry[]>(service.url, 'calls')).filter((c) => c.operation === 'SitesAPI');
    expect(calls.filter((c) => c.params['Siteid'] === a!.id).map((c) => c.outcome)).toEqual(['ok']);
    expect(calls.filter((c) => c.params['Siteid'] === b!.id).map((c) => c.outcome)).toEqual(['ok']);
    expect(calls.filter((c) => c.params['Sitename'] === 'Offline Knob').map((c) => c.outcome)).toEqual(['ok']);
    expect(session.errors).toEqual([]);
  });
});
