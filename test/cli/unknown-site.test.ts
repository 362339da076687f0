// A site ID the list does not know: `sitewalk site edit` refuses it (a typo would cost an API call
// and come back "not found") and points at `site add --site-id`, which adds a site the service has
// without sending anything; an import's edit of an unknown ID that fails and is discarded leaves no
// site behind; and a site known by its ID alone exports and imports back unchanged. Run as a user
// runs it (test/support/cli.ts), on a temp data folder and a sandbox on loopback.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { it } from '../support/fixtures';

const env = { SITEWALK_KEY: 'sandbox-demo-key' };
const run = sitewalkInTempHome();
const sitewalk = (args: string[]) => run(args, { env });

async function fieldProfile(url: string, dir: string): Promise<void> {
  expect((await sitewalk(['profile', 'add', 'Field', '--base-url', url, '--account', '10001', '--data-dir', dir])).code).toBe(0);
  expect((await sitewalk(['profile', 'use', 'Field', '--data-dir', dir])).code).toBe(0);
}

async function siteIds(dir: string): Promise<Array<string | null>> {
  return ((await sitewalk(['site', 'list', '--json', '--data-dir', dir])).json as { sites: Array<{ siteId: string | null }> }).sites.map((site) => site.siteId);
}

it('refuses `site edit` of a site ID the list does not know, queueing nothing, and edits it once added by its ID', { timeout: 60_000 }, async ({ sandbox, tempDir: dir }) => {
  await fieldProfile(sandbox.url, dir);
  const refused = await sitewalk(['site', 'edit', '999999', '--height', '30', '--data-dir', dir]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("There is no site 999999 in this profile's list");
  expect(refused.stderr).toContain('sitewalk site add --site-id 999999');
  expect((await sitewalk(['outbox', '--json', '--data-dir', dir])).json.entries).toEqual([]);
  expect(await siteIds(dir)).toEqual([]);

  const added = await sitewalk(['site', 'add', '--site-id', '100001', '--name', 'North Ridge', '--json', '--data-dir', dir]);
  expect(added.code, added.stderr).toBe(0);
  expect(added.json).toMatchObject({ ok: true, site: { siteId: '100001', name: 'North Ridge', height: null, origin: 'existing' } });
  expect(added.json.entry).toBeUndefined();
  expect((await sitewalk(['outbox', '--json', '--data-dir', dir])).json.entries).toEqual([]);

  // Known by its ID alone (no height): its export reads back unchanged.
  const file = join(dir, 'sites.csv');
  expect((await sitewalk(['export', '-o', file, '--data-dir', dir])).code).toBe(0);
  const again = await sitewalk(['import', file, '--dry-run', '--json', '--data-dir', dir]);
  expect(again.code, again.stderr).toBe(0);
  expect(again.json).toMatchObject({ summary: { unchanged: 1, invalid: 0, ready: 0 } });

  const edit = await sitewalk(['site', 'edit', '100001', '--height', '30', '--data-dir', dir]);
  expect(edit.code, edit.stderr).toBe(0);
  expect(edit.stderr).toContain('North Ridge — Edit site 100001');
});

it('leaves no site behind when an imported edit of an unknown ID fails and is discarded', { timeout: 60_000 }, async ({ sandbox, tempDir: dir }) => {
  await fieldProfile(sandbox.url, dir);
  const file = join(dir, 'ghost.csv');
  await writeFile(file, 'Siteid,Sitename,height\r\n999999,Ghost,30\r\n');
  const imported = await sitewalk(['import', file, '--data-dir', dir]);
  expect(imported.code).toBe(1);
  const entries = (await sitewalk(['outbox', '--json', '--data-dir', dir])).json.entries as Array<{ id: string; state: string; problem: { message: string } | null }>;
  expect(entries).toEqual([expect.objectContaining({ state: 'failed', problem: expect.objectContaining({ message: expect.stringMatching(/999999 was not found/) }) })]);
  expect(await siteIds(dir)).toEqual(['999999']);

  expect((await sitewalk(['outbox', 'discard', entries[0]!.id, '--data-dir', dir])).code).toBe(0);
  expect(await siteIds(dir)).toEqual([]);
  const exported = join(dir, 'sites.csv');
  expect((await sitewalk(['export', '-o', exported, '--data-dir', dir])).code).toBe(0);
  expect((await readFile(exported, 'utf8')).trim()).toBe('Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle');
});
