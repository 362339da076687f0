// `sitewalk outbox` names an entry as the app's outbox does: an edit summarised by the site's service
// ID alone says the site's name first, and a summary that names the site says it once. Run as a user
// runs it (test/support/cli.ts), on a temp data folder and a sandbox on loopback.
import { expect } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { it } from '../support/fixtures';

const KEY = 'sandbox-demo-key';
const run = sitewalkInTempHome();
const sitewalk = (args: string[], env: Record<string, string> = {}) => run(args, { env });

it("names an edit's site as the page does: its name first when the summary gives only the service ID, once when it names it", async ({ sandbox, tempDir: dir }) => {
  // A data folder with a profile "Field" on the test's sandbox, active.
  expect((await sitewalk(['profile', 'add', 'Field', '--base-url', sandbox.url, '--account', '10001', '--data-dir', dir])).code).toBe(0);
  expect((await sitewalk(['profile', 'use', 'Field', '--data-dir', dir])).code).toBe(0);
  expect((await sitewalk(['site', 'add', '--lat=45.5', '--lon=-93.25', '--height=30', '--name', 'Clyde Park', '--data-dir', dir])).code).toBe(0);
  expect((await sitewalk(['sync', '--until-settled', '--data-dir', dir], { SITEWALK_KEY: KEY })).code).toBe(0);
  const listed = JSON.parse((await sitewalk(['site', 'list', '--json', '--data-dir', dir])).stdout) as { sites: Array<{ siteId: string }> };
  const siteId = listed.sites[0]!.siteId;

  // The height alone: the summary says "Edit site 100026: 37 m", the crew knows the tower by its name.
  const edit = await sitewalk(['site', 'edit', siteId, '--height', '37', '--data-dir', dir]);
  expect(edit.stderr).toContain(`Queued: Clyde Park — Edit site ${siteId}: 37 m (outbox entry`);
  const text = await sitewalk(['outbox', '--data-dir', dir]);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toMatch(new RegExp(`pending +0 +Clyde Park — Edit site ${siteId}: 37 m`));
  const json = JSON.parse((await sitewalk(['outbox', '--json', '--data-dir', dir])).stdout) as { entries: Array<{ summary: string; siteName: string | null }> };
  expect(json.entries).toEqual([expect.objectContaining({ summary: `Edit site ${siteId}: 37 m`, siteName: 'Clyde Park' })]);

  // A new name is in the summary already: said once.
  expect((await sitewalk(['site', 'edit', siteId, '--name', 'Clyde Park North', '--data-dir', dir])).code).toBe(0);
  const renamed = await sitewalk(['outbox', '--data-dir', dir]);
  expect(renamed.stdout).toMatch(new RegExp(`pending +0 +Edit site 'Clyde Park North' \\[${siteId}\\]: 37 m`));
  expect(renamed.stdout.match(/Clyde Park North/g)).toHaveLength(1);
});
