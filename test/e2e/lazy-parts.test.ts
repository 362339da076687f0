// The parts of the page loaded when first opened (the site form, a tab's panel, the dialogs) fetch
// their code from Sitewalk then. When that fetch fails (the connection dropped for that request) the
// part says so where it would have been, the rest of the page carries on, and "Try again" loads it.
import type { Page, Route } from 'playwright';
import type { SandboxSite } from '../../electron/sandbox/state';
import { describe, expect, testOnDemoSites as test } from './fixtures';
import { step } from './steps';

/** Refuses the page's requests for the chunk named `name` until the returned function is called. */
async function refuseChunk(page: Page, name: string): Promise<() => void> {
  let refusing = true;
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), (route: Route) => (refusing ? route.abort('connectionrefused') : route.continue()));
  return () => {
    refusing = false;
  };
}

describe('parts loaded when opened', () => {
  test("the site form and a tab's panel that cannot be fetched say so where they would be, the page carries on, and Try again loads them", async ({ page, demo }) => {
    await step('the site form that cannot be fetched says so, the map keeps its sites, and Try again opens it', () => siteFormAgain(page, demo));
    await step("a tab's panel that cannot be fetched says so in the panel, and Try again shows it", () => panelAgain(page));
  });
});

async function siteFormAgain(page: Page, demo: SandboxSite[]): Promise<void> {
  const site = demo[0]!;
  const corner = page.locator('.map-stack-right');
  // boundingBox() does not wait, and the controls are drawn again as the map moves to the site: each
  // measure waits for them to be shown (they were not, once at start and once after the failure).
  const cornerRight = async () => {
    await corner.waitFor();
    const box = await corner.boundingBox();
    if (!box) throw new Error("the map's bottom-right controls are not shown");
    return box.x + box.width;
  };
  const mapRight = await cornerRight();
  const allow = await refuseChunk(page, 'site-form');
  await page.getByRole('button', { name: `Edit ${site.name}` }).click();

  const failed = page.getByRole('alert').filter({ hasText: 'Sitewalk could not load the site form.' });
  await failed.waitFor();
  // The page carries on: every site is still on the map (the form's opening zoomed it to the site).
  expect(await page.getByTestId('map').getAttribute('data-pins-on-map')).toBe(String(demo.length));
  // No form is docked, so the map's bottom-right controls (My location) stay in their corner; they
  // moved left by the form's width as if it were open.
  expect(await page.locator('.app.form-open').count()).toBe(0);
  expect(await cornerRight()).toBe(mapRight);

  allow();
  await failed.getByRole('button', { name: 'Try again' }).click();
  const form = page.getByRole('region', { name: `Edit ${site.name}` });
  await form.waitFor();
  await expect.poll(() => failed.count()).toBe(0);
  // With the form there, they move beside it.
  await expect.poll(cornerRight).toBeLessThan(mapRight - 300);
  await form.getByRole('button', { name: 'Close', exact: true }).click();
  await form.waitFor({ state: 'detached' });
}

async function panelAgain(page: Page): Promise<void> {
  const allow = await refuseChunk(page, 'outbox-panel');
  await page.getByRole('button', { name: /^Outbox/ }).click();
  const panel = page.getByRole('region', { name: 'Outbox: changes to send' });
  const failed = panel.getByRole('alert').filter({ hasText: 'Sitewalk could not load this panel.' });
  await failed.waitFor();

  allow();
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect.poll(() => failed.count()).toBe(0);
  await panel.getByText('Nothing needs your attention.').waitFor();
}
