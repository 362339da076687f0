// Settings → Basemaps → Downloaded areas, as a user meets it: the size downloaded tiles take on disk
// against the one limit for all of them, a new limit saved (and a wrong one refused beside the
// field), and "Clear downloaded tiles" after a confirmation.
import { expect, test } from './fixtures';
import { chooseSandbox } from './helpers';

test('shows what downloaded tiles take, saves the limit for all of them, and clears them', async ({ app, session, page }) => {
  await chooseSandbox(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const group = page.getByRole('group', { name: 'Downloaded areas' });
  await group.scrollIntoViewIfNeeded();
  await expect.poll(() => group.innerText()).toMatch(/Downloaded tiles take 0 bytes on disk of the 2(\.0)? GB allowed for all of them/);

  const limit = group.getByLabel('Limit for all downloaded tiles (MB)');
  await limit.fill('0.5');
  await group.getByRole('button', { name: 'Save limit' }).click();
  await expect.poll(() => group.innerText()).toMatch(/between 1 MB and 64 GB/);
  await limit.fill('300');
  await group.getByRole('button', { name: 'Save limit' }).click();
  await expect.poll(async () => (await app.call<{ limitBytes: number }>('getOfflineTiles')).limitBytes).toBe(300 * 1024 * 1024);
  await expect.poll(() => group.innerText()).toMatch(/of the 300 MB allowed/);

  for (const [width, height] of [[1366, 768], [1024, 640]] as const) {
    await page.setViewportSize({ width, height });
    await group.scrollIntoViewIfNeeded();
    await session.screenshot(`downloaded-tiles-${width}x${height}`);
  }

  await group.getByRole('button', { name: 'Clear downloaded tiles' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clear downloaded tiles' }).click();
  await expect.poll(() => page.getByText('Downloaded tiles cleared.').count()).toBeGreaterThan(0);
  expect(session.errors).toEqual([]);
});
