// Accessibility: axe-core (the dev dependency's own source, evaluated in the page) over every screen
// a technician uses — welcome, map and list, the site form showing errors, outbox, EUS, rendering
// qualities and settings — each in the light theme and then in the dark one (the 'System' theme, as
// the system's setting turns), in one walk. No serious or critical violation anywhere (colour contrast included); the
// report names each one.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { describe, expect, test as e2e } from './fixtures';
import { chooseSandbox, pinsDrawn } from './helpers';

const test = e2e
  /** axe-core's own script, read once for the file. */
  .extend('axeSource', { scope: 'file' }, () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))
  /** Serious and critical violations on the test's page as it is now, one line each. */
  .extend('scan', ({ page, axeSource }) => (screen: string) => seriousViolations(page, axeSource, screen));

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function seriousViolations(page: Page, axeSource: string, screen: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's CSP (script-src 'self') is not loosened.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

describe('accessibility', () => {
  test('has no serious or critical axe violation on any screen, in the light and the dark theme', async ({ page, session, inputFile, scan }) => {
    const found: string[] = [];
    // Each screen in both themes, as the system's setting turns (the theme is System).
    const look = async (screen: string, shot?: string) => {
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), { message: `the ${theme} theme` }).toBe(theme);
        found.push(...(await scan(`${screen} (${theme})`)));
        if (shot) await session.screenshot(theme === 'light' ? shot : `${shot}-dark`);
      }
    };

    await page.getByRole('dialog', { name: 'Welcome to Sitewalk' }).waitFor();
    await look('welcome');
    await chooseSandbox(page);
    await expect.poll(() => pinsDrawn(page), { message: 'sites drawn' }).toBeGreaterThan(0);
    await look('map and sites');
    // A site's card open (over the map in a short window such as this one).
    await page.locator('.site-row .row-main').first().click();
    await page.locator('section.site-details').waitFor();
    await look('site card', 'a11y-site-card');

    await page.getByRole('button', { name: '+ Add site' }).click();
    await page.getByRole('button', { name: 'Use map centre' }).click();
    const form = page.getByRole('region', { name: 'New site' });
    await form.getByLabel('Height (meters)').fill('tall');
    await form.getByRole('button', { name: 'Save site' }).click();
    await form.getByText(/Height must be a whole number/).waitFor();
    await look('site form with errors', 'a11y-site-form-errors');
    await form.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' }).click();

    for (const [tab, heading] of [
      ['Outbox', 'Outbox: changes to send'],
      ['EUS', 'EUS reprocess'],
      ['Qualities', 'Rendering qualities'],
      ['Settings', 'Settings'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: new RegExp(`^${tab}`) }).click();
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
      if (tab === 'Qualities') await page.getByRole('table').waitFor();
      await look(tab, `a11y-${tab.toLowerCase()}`);
    }

    // The bulk import with a checked file in it, and the EUS reprocess from a file.
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: /^Sites/ }).click();
    const csv = await inputFile('a11y-import.csv', 'name,height,lat,lon\nA11y Ridge,30,45.1,-111.1\nBroken,tall,45.2,-111.2\n');
    await page.getByRole('button', { name: 'Import file…' }).click();
    const importDialog = page.getByRole('dialog', { name: /Import sites/ });
    await importDialog.getByLabel('Sites file').setInputFiles(csv);
    await importDialog.getByText('2 rows:').waitFor();
    await importDialog.getByText('Columns and defaults').click();
    await look('import preview');
    await importDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: /^EUS/ }).click();
    await page.getByRole('button', { name: 'Reprocess many from a file…' }).click();
    const eusCsv = await inputFile('a11y-eus.csv', 'Process ID,Name\n880101,A. Alvarez\n880104,B. Fraser\n');
    const eusDialog = page.getByRole('dialog', { name: /Reprocess EUS submissions/ });
    await eusDialog.getByLabel('EUS CSV download').setInputFiles(eusCsv);
    await eusDialog.getByText(/2 submissions in the file/).waitFor();
    await look('reprocess from a file');
    await eusDialog.getByRole('button', { name: 'Cancel' }).click();

    expect(found).toEqual([]);
    expect(session.errors).toEqual([]);
  });
});
