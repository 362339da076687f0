// What `sitewalk sync` says of what it sent: a line per entry up to 25, then how many more; and
// "N sent by this run" counts what this process sent, not what the app open on the same folder sent
// meanwhile. The CLI's main() in this process (test/support/cli.ts), a sandbox on loopback, and for
// the app a second core on the same data folder, sending by itself.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';
import { it } from '../support/fixtures';
import { useService } from '../support/core';

const KEY = { SITEWALK_KEY: 'sandbox-demo-key' };
const run = sitewalkInTempHome();

/** Queues `count` new sites through `sitewalk import --no-wait` (nothing sent). */
async function queueSites(dir: string, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => `Tower ${index + 1},30,${(45 + index / 100).toFixed(2)},-93`);
  const file = join(dir, 'towers.csv');
  await writeFile(file, ['Sitename,height,Latitude,Longitude', ...rows].join('\r\n') + '\r\n');
  const queued = await run(['import', file, '--no-wait', '--data-dir', dir]);
  expect(queued.code, queued.stderr).toBe(0);
}

it('lists 25 sent entries and then says how many more', { timeout: 60_000 }, async ({ sandbox, tempDir: dir }) => {
  expect((await run(['profile', 'add', 'Field', '--base-url', sandbox.url, '--account', '10001', '--data-dir', dir])).code).toBe(0);
  expect((await run(['profile', 'use', 'Field', '--data-dir', dir])).code).toBe(0);
  await queueSites(dir, 30);
  const sync = await run(['sync', '--until-settled', '--data-dir', dir], { env: KEY });
  expect(sync.code, sync.stderr).toBe(0);
  expect(sync.stderr.match(/^ {2}o\d+ done: /gm)).toHaveLength(25);
  expect(sync.stderr).toMatch(/^ {2}… and 5 more sent$/m);
  expect(sync.stderr).toMatch(/^30 sent by this run;/m);
});

it('counts only what this run sent, not the entries the app open on the folder sent meanwhile', { timeout: 60_000 }, async ({ sandbox, openCore, tempDir: dir }) => {
  const app = await openCore({ sandbox: false });
  await useService(app, sandbox.url);
  // The app sends one at a time, slowly: it has some in hand while the CLI's run goes.
  app.sync.setConcurrency(1);
  sandbox.setFaults({ latencyMs: 150 });
  await queueSites(dir, 12);
  await expect.poll(() => app.outbox.list().some((entry) => entry.state === 'sending'), { timeout: 10_000 }).toBe(true);
  const sync = await run(['sync', '--until-settled', '--concurrency', '8', '--json', '--data-dir', dir], { env: KEY });
  expect(sync.code, sync.stderr).toBe(0);
  expect(sync.json.counts).toMatchObject({ done: 12, pending: 0, sending: 0 });
  const entries = (await run(['outbox', '--all', '--json', '--data-dir', dir])).json.entries as Array<{ id: string }>;
  const byApp = entries.filter((entry) => app.sync.answeredHere(entry.id)).length;
  expect(byApp).toBeGreaterThan(0);
  expect(sync.json.sent).toBe(12 - byApp);
  expect(sync.stderr).toMatch(new RegExp(`^${12 - byApp} sent by this run;`, 'm'));
});
