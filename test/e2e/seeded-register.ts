// A register written before the app opens it (as an import and its sync leave it), for the files that
// need thousands of sites on the map without thousands of calls to a sandbox; and how those files read
// the map's state (the pin layer records it on the map element).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { systemClock } from '../../electron/core/clock';
import { SANDBOX_PROFILE_ID } from '../../electron/core/profiles/profiles';
import { SiteRegister, type SiteRecord } from '../../electron/core/sites/register';
import { expect, test } from './fixtures';
import { chooseSandbox, startApp } from './helpers';

/** A site's fields as the register keeps what the service holds. */
export type KnownSite = SiteRecord['known'];

/**
 * The Sandbox profile's register in `dataDir` holding `count` synced sites (`site(k)` each, service
 * IDs from `firstId`), written 10,000 at a time.
 */
export async function seedRegister(dataDir: string, count: number, firstId: number, site: (k: number) => KnownSite): Promise<void> {
  const { register } = await SiteRegister.open({ dataDir, clock: systemClock });
  try {
    const now = Date.now();
    const records: SiteRecord[] = Array.from({ length: count }, (_, k) => ({
      localId: register.newLocalId(),
      profileId: SANDBOX_PROFILE_ID,
      siteId: String(firstId + k),
      origin: 'existing',
      known: site(k),
      appliedSeq: 0,
      createdAt: now,
      updatedAt: now,
    }));
    for (let start = 0; start < count; start += 10_000) await register.put(records.slice(start, start + 10_000));
  } finally {
    await register.close();
  }
}

/** `test` whose `app` starts on a data folder seeded by `seedRegister` with these arguments. */
export function testOnSeededRegister(count: number, firstId: number, site: (k: number) => KnownSite) {
  return test.extend('app', async ({ tempDir }, { onCleanup }) => {
    const dataDir = join(tempDir, 'data');
    await mkdir(dataDir);
    await seedRegister(dataDir, count, firstId, site);
    const app = await startApp(dataDir);
    onCleanup(() => app.stop());
    return app;
  });
}

/** A number the pin layer records on the map element (`data-NAME`). */
export function mapData(page: Page, name: string): Promise<number> {
  return page.getByTestId('map').getAttribute(`data-${name}`).then(Number);
}

export async function mapSettled(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('map').getAttribute('data-moving'), { message: 'the map to stop moving', timeout: 10_000 }).not.toBe('1');
}

/**
 * Opens the sandbox's sites (every one of `count` on the map), then the page again (`reloadPositionsFirst`):
 * how many sites the map holds.
 */
export async function reloadWithEverySite(page: Page, count: number): Promise<number> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await chooseSandbox(page);
  await expect.poll(() => mapData(page, 'pins-on-map'), { message: 'every site on the map', timeout: 60_000 }).toBeGreaterThanOrEqual(count);
  const total = await mapData(page, 'pins-on-map');
  await reloadPositionsFirst(page);
  return total;
}

/**
 * Opens the page again, its site list held until the map has made its pins from the host's positions
 * answer (which of the two answers a page decodes first is otherwise the machine's), until its first
 * load is done (the views made after the pins).
 */
export async function reloadPositionsFirst(page: Page): Promise<void> {
  await page.route(
    '**/api/listSitesPacked',
    async (route) => {
      try {
        await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:pins-from-positions').length), { message: 'the pins made from the positions', timeout: 60_000 }).toBe(1);
      } finally {
        await route.continue();
      }
    },
    { times: 1 },
  );
  await page.reload();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('sitewalk:sites-reset').length), { message: 'the first load done', timeout: 60_000 }).toBe(1);
}
