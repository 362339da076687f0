// The app and the CLI on one data folder at the same time (issue 20): with the app open in
// Chromium, `sitewalk outbox` answers, `sitewalk site add` queues a site, and the open page shows
// it without a reload — then the app, which sends by itself, sends what the CLI queued, once.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallLogEntry } from '../../electron/sandbox/state';
import { runSitewalk } from '../support/cli';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';
import { siteRow } from './steps';

describe('the CLI while the app is open', () => {
  test('answers, queues a site the open page shows without reload, and the app sends it once', async ({ app, page, session, demo, sandboxUrl, tempDir }) => {
    expect(demo.length).toBeGreaterThan(0);
    const home = join(tempDir, 'home');
    await mkdir(home);
    const sitewalk = (args: string[]) => runSitewalk(home, [...args, '--data-dir', app.dataDir]);

    const listed = await sitewalk(['outbox', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).not.toMatch(/in use by another Sitewalk/);

    const added = await sitewalk(['site', 'add', '--name', 'Queued from the CLI', '--height', '31', '--lat', '45.68', '--lon=-111.05']);
    expect(added.code, added.stderr).toBe(0);
    await page.getByLabel('Search sites').fill('Queued from the CLI');
    // No reload: the page hears of the CLI's change through the app within a second or two.
    await siteRow(page, 'Queued from the CLI').waitFor({ timeout: 15_000 });
    await siteRow(page, 'Queued from the CLI', 'On the service').waitFor({ timeout: 60_000 });
    await session.screenshot('cli-while-open');

    const calls = (await inspect<CallLogEntry[]>(sandboxUrl, 'calls')).filter((call) => call.operation === 'SitesAPI' && call.params['Sitename'] === 'Queued from the CLI');
    expect(calls.map((call) => call.outcome)).toEqual(['ok']);
    const after = await sitewalk(['outbox', '--all', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect((after.json as { entries: Array<{ state: string; payload: { name?: string } }> }).entries.find((entry) => entry.payload.name === 'Queued from the CLI')?.state).toBe('done');
    expect(session.errors).toEqual([]);
  });
});
