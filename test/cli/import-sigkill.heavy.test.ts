// SIGKILL during a bulk import: the real `sitewalk import` of a 10,000-row CSV is killed at seeded
// random moments — a random part of the time a whole import takes here, while the batch is being
// written (the WAL growing), or just after it said the rows were queued. After each kill the folder opens cleanly, every row is
// queued once or not at all (the outbox and the register together: one transaction), and running
// the same import again queues the rest without a duplicate; once all is queued, a further run
// says the rows are unchanged and queues nothing.
import Database from 'better-sqlite3';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { seededRandom } from '../../electron/core/clock';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { killedAfterEachTest } from '../support/children';
import { runSitewalk } from '../support/cli';
import { it } from '../support/fixtures';
import { spawnSitewalk } from '../support/measured-cli';

const ROWS = 10_000;
const ROUNDS = 6;
const SEED = 20_261_125;
const children = killedAfterEachTest();

type KillAt = { after: 'delay'; ms: number } | { after: 'wal-grows' } | { after: 'queued' };

function csv(): string {
  const lines = ['Siteid,Sitename,height,Latitude,Longitude'];
  for (let n = 0; n < ROWS; n++) lines.push(`${300_000 + n},Imported ${n},${20 + (n % 80)},${(45 + (n % 100) / 100).toFixed(4)},${(-110 - (n % 97) / 100).toFixed(4)}`);
  return `${lines.join('\n')}\n`;
}

/** Starts `sitewalk import` and SIGKILLs it at `killAt` (when it gets there before exiting); resolves when it is gone. */
function importKilled(home: string, dataDir: string, file: string, killAt: KillAt): Promise<{ killed: boolean; stderr: string }> {
  const child = spawnSitewalk(children, home, ['import', file, '--no-wait', '--data-dir', dataDir]);
  let stderr = '';
  let killed = false;
  const kill = () => {
    if (child.exitCode === null && !killed) killed = child.kill('SIGKILL');
  };
  const gone = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (killAt.after === 'queued' && /queued/.test(stderr)) kill();
  });
  if (killAt.after === 'delay') {
    const timer = setTimeout(kill, killAt.ms);
    void gone.then(() => clearTimeout(timer));
  }
  if (killAt.after === 'wal-grows') {
    // The batch is being written once the WAL holds more than opening the folder writes.
    const wal = join(dataDir, `${DATABASE_FILE}-wal`);
    const watch = setInterval(() => {
      stat(wal).then(
        (info) => info.size > 256 * 1024 && kill(),
        () => undefined,
      );
    }, 2);
    void gone.then(() => clearInterval(watch));
  }
  return gone.then(() => ({ killed, stderr }));
}

/** What the folder holds, read as `sitewalk outbox` reads it and checked with SQLite's own check. */
async function inFolder(home: string, dataDir: string): Promise<{ entries: number; siteIds: Set<string>; sites: number }> {
  const listed = await runSitewalk(home, ['outbox', '--all', '--json', '--data-dir', dataDir]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stderr).not.toMatch(/damaged|set aside|could not/i);
  const entries = listed.json.entries as Array<{ siteId: string | null; state: string }>;
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const sites = db.prepare<[], number>('SELECT count(*) FROM sites').pluck().get()!;
    return { entries: entries.length, siteIds: new Set(entries.map((entry) => entry.siteId!)), sites };
  } finally {
    db.close();
  }
}

describe('SIGKILL during a bulk import', () => {
  it(
    'leaves every row queued once or not at all, the folder opening cleanly, and a re-run queues the rest without duplicates',
    async ({ tempDir }) => {
      const random = seededRandom(SEED);
      const home = join(tempDir, 'home');
      const file = join(tempDir, 'sites.csv');
      await writeFile(file, csv());
      // How long a whole import takes here, so the random kills fall within one, on a fast machine or a loaded one.
      const started = performance.now();
      const whole = await importKilled(home, join(tempDir, 'data-whole'), file, { after: 'delay', ms: 600_000 });
      const wholeMs = performance.now() - started;
      expect(whole.killed).toBe(false);
      expect((await inFolder(home, join(tempDir, 'data-whole'))).entries).toBe(ROWS);
      const ways: KillAt[] = [{ after: 'wal-grows' }, { after: 'queued' }];
      const outcomes: Array<{ way: string; killed: boolean; queued: number }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const dataDir = join(tempDir, `data-${round}`);
        const killAt: KillAt = round < ways.length ? ways[round]! : { after: 'delay', ms: Math.floor(random() * wholeMs) };
        const run = await importKilled(home, dataDir, file, killAt);

        // Opened again: all or nothing of the batch, the register with it.
        const after = await inFolder(home, dataDir);
        expect([0, ROWS], `round ${round} (${killAt.after}): ${after.entries} entries`).toContain(after.entries);
        expect(after.sites).toBe(after.entries);
        expect(after.siteIds.size).toBe(after.entries);
        outcomes.push({ way: killAt.after, killed: run.killed, queued: after.entries });

        // The same import again: the rest queued, nothing twice.
        const again = await runSitewalk(home, ['import', file, '--no-wait', '--json', '--data-dir', dataDir]);
        expect(again.code, again.stderr).toBe(0);
        const done = await inFolder(home, dataDir);
        expect(done.entries).toBe(ROWS);
        expect(done.siteIds.size).toBe(ROWS);
        expect(done.sites).toBe(ROWS);
        expect(again.json.counts.queued + again.json.counts.unchanged, JSON.stringify(again.json.counts)).toBe(ROWS);
        if (after.entries === ROWS) expect(again.json.counts.unchanged).toBe(ROWS);
      }
      // Whether a kill lands before the process ends is the machine's timing; that some did is not.
      expect(outcomes.some((outcome) => outcome.killed), JSON.stringify(outcomes)).toBe(true);
    },
    600_000,
  );
});
