// "My location" and staking a tower, in Chromium against the real app, as one journey in one app: the
// platform's geolocation (Playwright's) with the accuracy circle and follow mode; a receiver that is
// silent; an NMEA receiver whose fix contradicts itself, then one worse than the accuracy gate ("Add
// site here" and "Stake here" held back, the reason, a wider gate, "Use it anyway"); "Stake here"
// averaging the fixes into a new site, and "Move site to my position" on a demo site
// (staking-checks.ts); last, a real gpsd (fed the recorded walk by gpsfake) chosen in Settings →
// Position, its fix shown with quality, satellites and HDOP, and "Add site here" opening the form at
// the fix. The gpsd part is left out without gpsfake, except under CI, where that is a failure. The
// journey starts on the built-in Sandbox with all its demo sites drawn (staking moves one of them).
// Between the parts My location is switched off and an open form closed, as a crew does before
// choosing another source.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { formatDecimal } from '../../renderer/src/shared/coords';
import { freePort } from '../support/net';
import { GPSFAKE_SKIP_REASON, WALK_FIRST, WALK_SENTENCES, silentServer, startGpsfake } from '../gps/helpers';
import { describe, expect, testOnDemoSites as test } from './fixtures';
import type { App, Session } from './helpers';
import { step } from './steps';
import { contradictoryFix, control, gateHoldsBack, stakeAndMove } from './staking-checks';

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
}

/** Pixels between the location dot's centre and the map's. */
async function dotOffCentre(page: Page): Promise<number> {
  const map = (await page.getByTestId('map').boundingBox())!;
  const dot = (await page.locator('path.location-dot').boundingBox())!;
  return Math.hypot(dot.x + dot.width / 2 - (map.x + map.width / 2), dot.y + dot.height / 2 - (map.y + map.height / 2));
}

/** My location switched off, and the site form a part left open closed (its typing kept as a draft). */
async function switchOff(page: Page, closeForm = false): Promise<void> {
  const myLocation = page.getByRole('button', { name: 'My location' });
  if (closeForm) {
    await page.getByRole('button', { name: 'Close the form (changes are kept as a draft)' }).click();
    await page.locator('.site-form').waitFor({ state: 'detached' });
  }
  await myLocation.click();
  await expect.poll(() => myLocation.getAttribute('aria-pressed')).toBe('false');
}

describe('My location', () => {
  test(
    'follows the device position, says when a receiver is silent or contradicts itself, holds back a fix worse than the gate, stakes a new site and moves one, and shows gpsd’s fix and adds a site there',
    // The parts' former caps: 180 s each for the two location and the two staking tests.
    { timeout: 720_000 },
    async ({ page, session, app, sandboxUrl, tempDir, annotate }) => {
      expect(sandboxUrl).toMatch(/^http:/);
      await step('follows the device position with its accuracy circle until the map is panned by hand', () => followsTheDevice(page, session, app));
      await switchOff(page);
      await step('says clearly when the receiver is silent', () => silentReceiver(page, session, app));
      await switchOff(page);
      await step('never enables "Add site here" on a fix with 0 satellites used and HDOP 99.99', () => contradictoryFix(page, app));
      await switchOff(page);
      await step('holds "Add site here" and "Stake here" back while the fix is worse than the gate, and records "Use it anyway"', () => gateHoldsBack(page, session, app));
      await switchOff(page, true);
      await step('averages fixes into a new site with "Stake here", and moves a site to the averaged position', () => stakeAndMove(page, session, app));
      await switchOff(page, true);
      // Back to the session's 1280×720 (staking left 1366×768), and the gate step's "Position settings
      // saved." gone (a toast lives 8 s), so that the gpsd part waits for its own.
      await page.setViewportSize({ width: 1280, height: 720 });
      await expect.poll(() => page.locator('.toast', { hasText: 'Position settings saved.' }).count(), { message: 'the earlier "saved" message gone', timeout: 20_000 }).toBe(0);
      // gpsd needs gpsfake: left out here without it, a failure under CI (gpsdFix throws there).
      if (GPSFAKE_SKIP_REASON === null || process.env.CI) await step('shows gpsd’s fix with its quality, satellites and HDOP, and adds a site there', () => gpsdFix(page, session, tempDir));
      else await annotate(`gpsd’s part left out: ${GPSFAKE_SKIP_REASON}`, 'skip');
      expect(session.errors).toEqual([]);
    },
  );
});

async function followsTheDevice(page: Page, session: Session, app: App): Promise<void> {
  await page.context().grantPermissions(['geolocation'], { origin: app.origin });
  await page.context().setGeolocation({ latitude: 45.6312, longitude: -111.0238, accuracy: 25 });
  await page.getByRole('button', { name: 'My location' }).click();
  await expect.poll(() => control(page).getAttribute('data-state'), { message: 'the device fix shown' }).toBe('fix');
  expect(await page.getByTestId('location-position').textContent()).toBe(`${formatDecimal(45.6312)}, ${formatDecimal(-111.0238)}`);
  expect(await page.getByTestId('location-accuracy').textContent()).toBe('±25 m');
  expect(await page.getByTestId('location-quality').textContent()).toBe('Device location service');
  const circle = (await page.locator('path.location-accuracy').boundingBox())!;
  const dot = (await page.locator('path.location-dot').boundingBox())!;
  // 25 m at street zoom is far wider than the 7-pixel dot.
  expect(circle.width).toBeGreaterThan(dot.width * 2);
  expect(await control(page).getAttribute('data-following')).toBe('true');
  await expect.poll(() => dotOffCentre(page), { message: 'the map centred on the position' }).toBeLessThan(4);
  await session.screenshot('location-device-follow');
  // The panel and the tile notice ("Map tiles cannot load here": no tile server here) share the map's
  // bottom without covering each other or the coordinates box.
  const boxes = await Promise.all(['.location-control', '.map-notice', '[data-testid="cursor-coordinates"]'].map(async (selector) => (await page.locator(selector).boundingBox())!));
  for (const [i, j] of [[0, 1], [0, 2], [1, 2]] as const) {
    const [a, b] = [boxes[i]!, boxes[j]!];
    expect(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height, `overlays ${i} and ${j} overlap`).toBe(false);
  }

  // The user drags the map: following stops, and a new position no longer moves the map.
  const map = (await page.getByTestId('map').boundingBox())!;
  await page.mouse.move(map.x + map.width / 2, map.y + map.height / 2 + 80);
  await page.mouse.down();
  await page.mouse.move(map.x + map.width / 2 - 120, map.y + map.height / 2 + 20, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => control(page).getAttribute('data-following')).toBe('false');
  await page.context().setGeolocation({ latitude: 45.6322, longitude: -111.0218, accuracy: 8 });
  await expect.poll(() => page.getByTestId('location-accuracy').textContent(), { message: 'the new fix' }).toBe('±8 m');
  expect(await dotOffCentre(page)).toBeGreaterThan(60);
  // The circle is the accuracy radius: 8 m is about a third of 25 m.
  await expect.poll(async () => (await page.locator('path.location-accuracy').boundingBox())!.width / circle.width, { message: 'the circle shrunk' }).toBeCloseTo(8 / 25, 1);

  // "Follow my position" takes it up again.
  await page.getByRole('button', { name: 'Follow my position' }).click();
  await expect.poll(() => dotOffCentre(page), { message: 'the map back on the position' }).toBeLessThan(4);
  expect(await control(page).getAttribute('data-following')).toBe('true');

  // Navigating on purpose ("Zoom to all sites", a site chosen in the list) ends following too.
  await page.getByRole('button', { name: 'Zoom to all sites' }).click();
  await expect.poll(() => control(page).getAttribute('data-following')).toBe('false');
  await page.getByRole('button', { name: 'Follow my position' }).click();
  await expect.poll(() => control(page).getAttribute('data-following')).toBe('true');
  await page.locator('.site-row .row-main').first().click();
  await expect.poll(() => control(page).getAttribute('data-following')).toBe('false');
}

async function silentReceiver(page: Page, session: Session, app: App): Promise<void> {
  // A receiver that takes the connection and never sends a byte.
  const silent = await silentServer();
  const { port } = silent;
  try {
    await app.call('saveSettings', { gpsSource: 'nmea', gpsHost: '127.0.0.1', gpsPort: port });
    await page.getByRole('button', { name: 'My location' }).click();
    await expect.poll(() => control(page).getAttribute('data-state'), { message: 'the silent state', timeout: 30_000 }).toBe('silent');
    const status = control(page).getByRole('status');
    expect(await status.textContent()).toContain('Receiver silent');
    expect(await status.textContent()).toContain(`The receiver is silent: the NMEA stream at 127.0.0.1:${port} has sent nothing for 5 seconds.`);
    expect(await page.locator('path.location-dot').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add site here' }).count()).toBe(0);
    await session.screenshot('location-receiver-silent');
  } finally {
    await silent.close();
  }
}

/** gpsd (fed the recorded walk by gpsfake) chosen in Settings → Position: its fix with quality, satellites and HDOP, and "Add site here". */
async function gpsdFix(page: Page, session: Session, tempDir: string): Promise<void> {
  if (GPSFAKE_SKIP_REASON !== null) throw new Error(`CI is set but gpsd cannot be tested: ${GPSFAKE_SKIP_REASON}`);
  // The walk's GPS stretch (its first 20 epochs), looped by gpsfake so the fix holds while the test looks.
  const gpsStretch = join(tempDir, 'walk-gps-stretch.nmea');
  const cut = WALK_SENTENCES.findIndex((line) => line.startsWith('$GPRMC,160020'));
  await writeFile(gpsStretch, `${WALK_SENTENCES.slice(0, cut).join('\r\n')}\r\n`, 'latin1');
  const port = await freePort();
  const fake = startGpsfake(port, { log: gpsStretch, cycle: 0.03 });
  try {
    await openSettings(page);
    await page.getByLabel(/^gpsd/).check();
    await page.getByLabel('Receiver port').fill(String(port));
    await page.getByRole('button', { name: 'Save position settings' }).click();
    await page.getByText('Position settings saved.').waitFor();

    await page.getByRole('button', { name: 'My location' }).click();
    await expect.poll(() => control(page).getAttribute('data-state'), { message: `gpsd's fix shown (gpsfake: ${fake.output()})`, timeout: 30_000 }).toBe('fix');
    await expect.poll(() => page.getByTestId('location-hdop').textContent(), { message: 'the HDOP shown' }).toMatch(/^(0\.95|1\.00|1\.05|1\.10)$/);
    const [lat, lon] = (await page.getByTestId('location-position').textContent())!.split(', ').map(Number);
    expect(Math.abs(lat! - WALK_FIRST.lat)).toBeLessThan(0.0005);
    expect(Math.abs(lon! - WALK_FIRST.lon)).toBeLessThan(0.0005);
    expect(await page.getByTestId('location-quality').textContent()).toBe('GPS fix');
    expect(await page.getByTestId('location-satellites').textContent()).toMatch(/^(8|9) used of 12 in view$/);
    expect(await page.getByTestId('location-accuracy').textContent()).toMatch(/^±\d+ m$/);
    await expect.poll(() => page.locator('path.location-accuracy').count()).toBe(1);
    await session.screenshot('location-gpsd-fix');

    // gpsd's ±20 m is worse than the 5 m gate: the reason, and no site without "Use it anyway".
    expect(await page.getByRole('button', { name: 'Add site here' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('location-gate').textContent()).toMatch(/^Accuracy ±\d+ m is worse than the 5 m gate set for this profile\.$/);
    await page.getByLabel('Use it anyway (recorded with the site)').check();
    await page.getByRole('button', { name: 'Add site here' }).click();
    const latitude = await page.getByLabel('Latitude').inputValue();
    expect(Math.abs(Number(latitude) - WALK_FIRST.lat)).toBeLessThan(0.0005);
    expect(Math.abs(Number(await page.getByLabel('Longitude').inputValue()) - WALK_FIRST.lon)).toBeLessThan(0.0005);
    const measured = /^Measured with gpsd: 1 fix \(GPS fix\), receiver accuracy ±\d+ m, worse than the 5 m gate: used anyway, \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/;
    expect(await page.getByTestId('fix-accuracy').textContent()).toMatch(measured);
    // Off by default: the description stays the user's until they ask.
    const noteBox = page.getByLabel(/^Note the accuracy \(±\d+ m\) in the description$/);
    expect(await noteBox.isChecked()).toBe(false);
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe('');
    await noteBox.check();
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toMatch(measured);
    await session.screenshot('location-add-site-here');
    await noteBox.uncheck();
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe('');
  } finally {
    await fake.stop();
  }
}
