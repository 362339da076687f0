// Staking a tower from a receiver, as steps of the location journey (location.test.ts): an NMEA
// stream replaying the stationary fixture (test/fixtures/gps) read by the host; the accuracy gate
// holding "Add site here" and "Stake here" back while the fix is worse, with the reason and "Use it
// anyway"; "Stake here" averaging into the form; "Move site to my position" on an existing site with
// the distance to where it is now. Screenshots at 1366×768 and 1024×640, light and dark.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright';
import { distanceM } from '../../electron/shared/gps/averaging';
import { TRUE_POINT } from '../fixtures/gps/make-stationary';
import { nmeaStream, type TestServer } from '../gps/helpers';
import { expect } from './fixtures';
import type { App, Session } from './helpers';
import type { OutboxEntryView } from '../../electron/shared/contract/index';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/gps/${name}`, import.meta.url), 'latin1').split('\r\n').filter(Boolean);
/** My location's control on the map: its state, its fix, its buttons. */
export const control = (page: Page) => page.getByTestId('location-control');

/** A receiver replaying `sentences` an epoch every `epochMs`, looping, chosen in Settings. */
async function useReceiver(app: App, sentences: string[], epochMs = 300): Promise<TestServer> {
  const server = await nmeaStream({ sentences, epochMs, loop: true });
  await app.call('saveSettings', { gpsSource: 'nmea', gpsHost: '127.0.0.1', gpsPort: server.port });
  return server;
}

/** The page at both window sizes, light and dark; My location's panel covers nothing at either. */
async function shots(page: Page, session: Session, name: string): Promise<void> {
  for (const [width, height] of [[1366, 768], [1024, 640]] as const) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => coveredByLocationPanel(page), { message: `what the location panel covers at ${width}×${height}` }).toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await session.screenshot(`${name}-${width}x${height}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

export async function contradictoryFix(page: Page, app: App): Promise<void> {
  const contradictory = fixture('stationary-gst.nmea')
    .filter((l) => /^\$GN(RMC|GGA)/.test(l))
    .map((l) => (l.startsWith('$GNGGA') ? reseal(l.split(',').map((f, i) => (i === 6 ? '2' : i === 7 ? '00' : i === 8 ? '99.99' : f)).join(',')) : l));
  const server = await useReceiver(app, contradictory);
  try {
    await page.getByRole('button', { name: 'My location' }).click();
    await expect.poll(() => control(page).getAttribute('data-state'), { message: 'no fix', timeout: 30_000 }).toBe('no-fix');
    expect(await control(page).getByRole('status').textContent()).toContain('with 0 satellites used: its own figures contradict each other');
    expect(await page.getByRole('button', { name: 'Add site here' }).count()).toBe(0);
  } finally {
    await server.close();
  }
}

export async function gateHoldsBack(page: Page, session: Session, app: App): Promise<void> {
  // The bad stretch of the fixture alone: multipath, ±17 m by GST.
  const lines = fixture('stationary-bad-stretch.nmea');
  const from = lines.findIndex((l) => l.startsWith('$GNRMC,160030'));
  const to = lines.findIndex((l) => l.startsWith('$GNRMC,160045'));
  const server = await useReceiver(app, lines.slice(from, to));
  try {
    await page.getByRole('button', { name: 'My location' }).click();
    await expect.poll(() => control(page).getAttribute('data-state'), { message: 'the fix shown', timeout: 30_000 }).toBe('fix');
    await expect.poll(() => page.getByTestId('location-gate').textContent()).toMatch(/^Accuracy ±1\d m is worse than the 5 m gate set for this profile\.$/);
    expect(await page.getByRole('button', { name: 'Add site here' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Stake here' }).isDisabled()).toBe(true);
    await shots(page, session, 'staking-gate-refuses');
    await page.setViewportSize({ width: 1366, height: 768 });

    // A wider gate for this profile (Settings → Position): the same fix may place a site.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Accuracy gate (meters)').fill('25');
    await page.getByRole('button', { name: 'Save position settings' }).click();
    await page.getByText('Position settings saved.').waitFor();
    await expect.poll(() => page.getByTestId('location-gate').textContent()).toBe('Within the 25 m gate.');
    expect(await page.getByRole('button', { name: 'Add site here' }).isDisabled()).toBe(false);
    expect((await app.call<{ gpsGates: Record<string, number> }>('getSettings')).gpsGates).toEqual({ sandbox: 25 });
    // Back to 5 m: refused again, and "Use it anyway" is what places it.
    await page.getByLabel('Accuracy gate (meters)').fill('5');
    await page.getByRole('button', { name: 'Save position settings' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Add site here' }).isDisabled()).toBe(true);
    await page.getByLabel('Use it anyway (recorded with the site)').check();
    await page.getByRole('button', { name: 'Add site here' }).click();
    expect(await page.getByTestId('fix-accuracy').textContent()).toMatch(/worse than the 5 m gate: used anyway/);
  } finally {
    await server.close();
  }
}

/** "Stake here" averages the stationary fixture's fixes into a new site; "Move site to my position" moves a demo site to it. */
export async function stakeAndMove(page: Page, session: Session, app: App): Promise<void> {
  const server = await useReceiver(app, fixture('stationary-gst.nmea'));
  try {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole('button', { name: 'My location' }).click();
    await expect.poll(() => page.getByTestId('location-gate').textContent(), { timeout: 30_000 }).toBe('Within the 5 m gate.');
    await page.getByRole('button', { name: 'Stake here' }).click();
    await page.getByLabel('Fixes to average').fill('12');
    await expect.poll(() => page.getByTestId('stake-panel').getAttribute('data-done'), { message: '12 fixes kept', timeout: 60_000 }).toBe('true');
    expect(await page.getByTestId('stake-kept').textContent()).toBe('12 of 12');
    expect(await page.getByTestId('stake-skipped').textContent()).toBe('none');
    expect(await page.getByTestId('stake-spread').textContent()).toMatch(/^±\d(\.\d)? m east, ±\d(\.\d)? m north \(1 σ\)$/);
    expect(await page.getByTestId('stake-accuracy').textContent()).toBe('±3.1 m');
    const [lat, lon] = (await page.getByTestId('stake-mean').textContent())!.split(', ').map(Number);
    expect(distanceM(TRUE_POINT, { lat: lat!, lon: lon! })).toBeLessThan(2);
    await shots(page, session, 'staking-stake-here');
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole('button', { name: 'Accept' }).click();
    expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(lat!, 6);
    expect(await page.getByTestId('fix-accuracy').textContent()).toMatch(/^Measured with an NMEA receiver: 12 fixes averaged \(GPS fix\), spread .*, receiver accuracy ±3\.1 m, within the 5 m gate, /);
    // Saved, the site keeps how it was measured: in its outbox entry (as queued, never sent) and on its card.
    await page.getByLabel('Name', { exact: true }).fill('Staked Ridge');
    await page.getByLabel('Height (meters)').fill('30');
    await page.getByRole('button', { name: 'Save site' }).click();
    await expect.poll(async () => {
      const listing = await app.call<{ active: OutboxEntryView[]; history: { entries: OutboxEntryView[] } }>('listOutbox');
      return [...listing.active, ...listing.history.entries].find((e) => e.summary.includes('Staked Ridge'))?.payload['measurement'];
    }, { message: 'the measurement in the outbox entry' }).toMatchObject({ source: 'nmea', fixes: 12, skipped: 0, gateM: 5, overridden: false });
    await (await findRow(page, 'Staked Ridge')).click();
    await page.locator('[data-site-card]').getByRole('button', { name: 'More details' }).click();
    await expect.poll(() => page.getByTestId('site-measurement').textContent()).toMatch(/^Measured with an NMEA receiver: 12 fixes averaged/);
    await page.getByRole('button', { name: 'Outbox', exact: true }).click();
    await expect.poll(() => page.getByTestId('entry-measurement').first().textContent()).toMatch(/^Measured with an NMEA receiver: 12 fixes averaged/);
    await page.getByRole('button', { name: 'Sites', exact: true }).click();

    // An existing site, 5 km away: "Move site to my position" in its form, with the distance.
    await (await findRow(page, 'Sourdough Ridge')).click();
    await page.getByRole('button', { name: 'Edit site' }).click();
    const form = page.getByRole('region', { name: 'Edit Sourdough Ridge' });
    await form.getByRole('button', { name: 'Move site to my position' }).click();
    await page.getByLabel('Fixes to average').fill('5');
    await expect.poll(() => page.getByTestId('stake-panel').getAttribute('data-done'), { timeout: 60_000 }).toBe('true');
    expect(await page.getByTestId('stake-distance').textContent()).toMatch(/^(3[5-9]\d\d|4\d\d\d) m from where the site is now$/);
    await shots(page, session, 'staking-move-site');
    // Beside the docked form at 1024×640 (the map a narrow strip), all a crew needs to decide is in
    // sight without scrolling the panel, and the form leaves "Zoom to all sites" uncovered.
    await page.setViewportSize({ width: 1024, height: 640 });
    await expect.poll(() => hiddenInStakePanel(page), { message: 'the averaging figures and buttons in sight at 1024×640' }).toEqual([]);
    expect(await overlaps(page, '.site-form', page.getByRole('button', { name: 'Zoom to all sites' }))).toBe(false);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => form.getByLabel('Latitude').inputValue()).toMatch(/^45\.631/);
    expect(session.errors).toEqual([]);
  } finally {
    await server.close();
  }
}

/** What My location's panel lies over: the map's top controls, the bottom-left stack, the docked form. */
function coveredByLocationPanel(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector('.location-panel')?.getBoundingClientRect();
    if (!panel) return ['(no location panel)'];
    const others = document.querySelectorAll('.leaflet-control-zoom, .basemap-button, .map-toolbar button, .map-measure button, .basemap-notice, .legend-toggle, .map-stack-left > *, .site-form');
    return [...others]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.left < panel.right && box.right > panel.left && box.top < panel.bottom && box.bottom > panel.top;
      })
      .map((element) => element.textContent?.trim().slice(0, 30) || element.className);
  });
}

/** What of the averaging panel is cut off: outside the location panel's visible box or the window. */
function hiddenInStakePanel(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector('.location-panel')!.getBoundingClientRect();
    const needed = ['[data-testid="stake-kept"]', '[data-testid="stake-skipped"]', '[data-testid="stake-mean"]', '[data-testid="stake-spread"]', '[data-testid="stake-distance"]', '.stake-panel .location-actions button'];
    return [...document.querySelectorAll(needed.join(', '))]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.height === 0 || box.top < panel.top - 0.5 || box.bottom > panel.bottom + 0.5 || box.right > panel.right + 0.5 || box.bottom > window.innerHeight;
      })
      .map((element) => element.textContent?.trim() || element.className);
  });
}

/** Whether the element matched by `selector` lies over `target`. */
async function overlaps(page: Page, selector: string, target: ReturnType<Page['getByRole']>): Promise<boolean> {
  const a = (await page.locator(selector).boundingBox())!;
  const b = (await target.boundingBox())!;
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The list draws only the rows in view: search for the site first. */
async function findRow(page: Page, name: string) {
  await page.getByLabel('Search sites').fill(name);
  const row = page.locator('.site-row .row-main').filter({ hasText: name }).first();
  await row.waitFor();
  return row;
}

/** The sentence with its checksum made right again after a field was changed. */
function reseal(line: string): string {
  const body = line.slice(1, line.lastIndexOf('*'));
  let sum = 0;
  for (const ch of body) sum ^= ch.charCodeAt(0);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}
