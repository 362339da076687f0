// EUS submissions on the map (issue 23 item 12), in Chromium on the built-in Sandbox at 1366×768 and
// 1024×640, light and dark: an EUS CSV with latitude and longitude columns shows its submissions on a
// map beside the towers, each with its distance to the nearest site; a distance filter keeps the
// near ones, a Shift-drag box on that map picks them, and the reprocess keeps the 24-hour email
// guard: the one emailed a moment ago is named and left out. The sandbox's mail log is the judge.
// Screenshots: test-results/e2e/eus-map-*.png.
import type { Locator, Page } from 'playwright';
import type { MailMessage, SandboxState } from '../../electron/sandbox/state';
import type { SettingsView } from '../../electron/shared/contract/index';
import { seriousViolations } from './axe';
import { describe, expect, testOnDemoSites as test } from './fixtures';
import { inspect } from './helpers';
import { escapeRegExp, step } from './steps';

function tab(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: new RegExp(`^${name}`) });
}

/** Great-circle distance in km (the same formula the app's index uses). */
function km(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

describe('EUS submissions on the map', () => {
  test('at 1366×768 and then 1024×640: distances, a distance filter, a box pick on the map and a reprocess that emails nobody twice', async ({ page, session, app, sandboxUrl: base, demo, inputFile }) => {
    // One walk at each size, each on eight submissions of its own (the guard remembers the emails).
    await step('at 1366×768', () => walk(1366, 768, 0));
    await step('at 1024×640', () => walk(1024, 640, 8));
    expect(session.errors).toEqual([]);

    async function walk(width: number, height: number, from: number): Promise<void> {
      await page.setViewportSize({ width, height });
      const state = await inspect<SandboxState>(base, 'state');
      const submissions = state.submissions.slice(from, from + 8);
      const target = state.multiMaps.find((map) => map.id !== submissions[0]!.multiMapId)!.id;
      const nearest = submissions.map((s) => Math.min(...demo.map((site) => km(s.latitude, s.longitude, site.latitude, site.longitude))));
      // A distance that keeps some and leaves some out (the submissions' own spread decides it).
      const sorted = [...nearest].sort((a, b) => a - b);
      const within = Math.ceil(sorted[Math.floor(sorted.length / 2)]! * 10) / 10 + 0.05;
      const kept = submissions.filter((_, i) => nearest[i]! <= within);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(submissions.length);
      const first = kept[0]!;

      // One of the near ones was reprocessed with email a moment ago, in the EUS panel.
      await tab(page, 'EUS').click();
      await page.getByLabel('Process ID').fill(first.processId);
      await page.getByLabel('Multi Map ID').fill(target);
      await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
      await page.getByRole('button', { name: 'Queue reprocess' }).click();
      await page.getByRole('article', { name: new RegExp(`^${escapeRegExp(`Reprocess submission ${first.processId} into Multi Map ${target}, email resent`)}: done$`) }).waitFor({ timeout: 60_000 });
      const mailOnce = (await inspect<MailMessage[]>(base, 'mail')).filter((m) => m.processId === first.processId).length;

      const csv = await inputFile('eus-positions.csv', `Process ID,Name,Latitude,Longitude\r\n${submissions.map((s) => `${s.processId},${s.name},${s.latitude},${s.longitude}`).join('\r\n')}\r\n`);
      await page.getByRole('button', { name: 'Reprocess many from a file…' }).click();
      const dialog = page.getByRole('dialog', { name: /Reprocess EUS submissions from a file/ });
      await dialog.getByLabel('EUS CSV download').setInputFiles(csv);
      await dialog.getByText(`${submissions.length} submissions in the file`, { exact: false }).waitFor();
      await dialog.getByText(`${submissions.length} of ${submissions.length} submissions have a position`).waitFor();
      // Each row says how far its nearest site is.
      const rowOf = (id: string) => dialog.getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
      expect(await rowOf(submissions[0]!.processId).textContent()).toMatch(/\d+(\.\d)? (m|km) · /);

      await dialog.getByLabel('Only within this many km of a site').fill(String(within));
      await dialog.getByRole('button', { name: 'Apply distance' }).click();
      await dialog.getByText(new RegExp(`${kept.length} submissions? match the filters \\(within ${within} km of a site; ${submissions.length - kept.length} left out\\)`)).waitFor();

      // Picked on the map: none first, then a Shift-drag box over the whole map picks every one shown.
      await dialog.getByLabel(/^Pick all/).uncheck();
      await dialog.getByText(/0 picked/).waitFor();
      await dialog.locator('.eus-map-canvas').scrollIntoViewIfNeeded();
      const map = (await dialog.locator('.eus-map-canvas').boundingBox())!;
      await page.keyboard.down('Shift');
      await page.mouse.move(map.x + 4, map.y + 4);
      await page.mouse.down();
      await page.mouse.move(map.x + map.width / 2, map.y + map.height / 2, { steps: 4 });
      await page.mouse.move(map.x + map.width - 4, map.y + map.height - 4, { steps: 4 });
      await page.mouse.up();
      await page.keyboard.up('Shift');
      await dialog.getByText(new RegExp(`${kept.length} picked`)).waitFor();

      for (const theme of ['light', 'dark'] as const) {
        await app.call<SettingsView>('saveSettings', { theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
        await session.screenshot(`eus-map-${width}x${height}-${theme}`);
        expect(await seriousViolations(page, `EUS map ${width}×${height} ${theme}`)).toEqual([]);
      }

      // With the email: the one emailed a moment ago is named, left out, and not emailed again.
      await dialog.getByLabel('Multi Map ID').fill(target);
      await dialog.getByLabel(/^Yes: email/).check();
      await dialog.getByRole('button', { name: `Queue ${kept.length - 1} reprocess${kept.length - 1 === 1 ? '' : 'es'}` }).click();
      const confirm = page.getByRole('dialog', { name: /^Reprocess \d+ submissions?\?$/ });
      await confirm.getByText(new RegExp(`Left out, emailed \\(or queued to be\\) in the last 24 hours: ${first.processId} \\(`)).waitFor();
      await confirm.getByRole('button', { name: 'Queue the reprocesses' }).click();
      await dialog.getByText(new RegExp(`^Done\\. ${kept.length - 1} reprocessed`)).waitFor({ timeout: 60_000 });
      const mail = await inspect<MailMessage[]>(base, 'mail');
      expect(mail.filter((m) => m.processId === first.processId)).toHaveLength(mailOnce);
      for (const s of kept.slice(1)) expect(mail.filter((m) => m.processId === s.processId).length, `mail for ${s.processId}`).toBe(mailOnce);
      for (const s of submissions.filter((x) => !kept.includes(x))) expect(mail.filter((m) => m.processId === s.processId), `no mail for the far ${s.processId}`).toHaveLength(0);
      await dialog.getByRole('button', { name: /^Close/ }).first().click();
      await dialog.waitFor({ state: 'hidden' });
    }
  });
});
