// Who sends what a command queued, said truthfully: `sitewalk sync`, or the app when it has the data
// folder open (it sends at once); and a row an import queued with --no-wait is "queued", not waiting
// for a service nobody asked. The CLI's main() in this process (test/support/cli.ts), a sandbox on
// loopback, and for the app a second core on the same data folder, sending by itself.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { useService } from '../support/core';
import { it } from '../support/fixtures';

const run = sitewalkInTempHome();

/** Adds a site and imports one with --no-wait: what each says of who sends them. */
async function queueBoth(dir: string): Promise<{ added: string; row: string; ended: string }> {
  const added = await run(['site', 'add', '--lat=45', '--lon=-93', '--height=30', '--name=North', '--data-dir', dir]);
  expect(added.code, added.stderr).toBe(0);
  const file = join(dir, 'towers.csv');
  await writeFile(file, 'Sitename,height,Latitude,Longitude\r\nSouth,30,46,-93\r\n');
  const imported = await run(['import', file, '--no-wait', '--json', '--data-dir', dir]);
  expect(imported.code, imported.stderr).toBe(0);
  return { added: added.stderr, row: (imported.json.rows as Array<{ message: string }>)[0]!.message, ended: imported.stderr };
}

it('says "sitewalk sync" sends it when no app has the folder open', { timeout: 60_000 }, async ({ sandbox, tempDir: dir }) => {
  expect((await run(['profile', 'add', 'Field', '--base-url', sandbox.url, '--account', '10001', '--data-dir', dir])).code).toBe(0);
  expect((await run(['profile', 'use', 'Field', '--data-dir', dir])).code).toBe(0);
  const said = await queueBoth(dir);
  expect(said.added).toMatch(/\(outbox entry o1\)\. Run "sitewalk sync" to send it\.$/m);
  expect(said.row).toBe('Queued; "sitewalk sync" sends it.');
  expect(said.row).not.toMatch(/reachable/);
  expect(said.ended).toMatch(/^sitewalk import: queued\. Run "sitewalk sync" to send it\.$/m);
});

it('says the app sends it when the app has the folder open', { timeout: 60_000 }, async ({ sandbox, openCore, tempDir: dir }) => {
  const app = await openCore({ sandbox: false });
  await useService(app, sandbox.url);
  const said = await queueBoth(dir);
  expect(said.added).toContain('The app sends it (it has this data folder open); or run "sitewalk sync".');
  expect(said.row).toBe('Queued; the app sends it (it has this data folder open), or "sitewalk sync".');
  expect(said.ended).toContain('sitewalk import: queued. The app sends it (it has this data folder open); or run "sitewalk sync".');
});
