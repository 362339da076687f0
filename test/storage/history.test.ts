// The outbox's history handed out a page at a time (newest first, each page ending with a cursor),
// read from the database by an indexed query.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createManualClock, type ManualClock } from '../../electron/core/clock';
import { openCore } from '../../electron/core/open-core';
import { HistoryExpiry } from '../../electron/core/outbox/history-expiry';
import { OutboxStore } from '../../electron/core/outbox/store';
import { markSending, recordSuccess } from '../../electron/core/outbox/transitions';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { testCoreOptions } from '../support/core';
import { waiting } from '../support/wait';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-history-'));
  dirs.push(dir);
  return dir;
}

describe('the outbox history, a page at a time', () => {
  it('pages the done entries newest first, leaves unfinished ones to the active list, and reaches the oldest', async () => {
    const clock = createManualClock();
    const { store } = await OutboxStore.open({ dataDir: await tempDir(), clock });
    const queued = await store.enqueue(Array.from({ length: 12 }, (_, n) => ({ kind: 'site' as const, profileId: 'p1', localId: `local-${n}`, op: 'edit' as const, payload: { siteId: String(n), height: 10 + n } })));
    // Finished in an order other than the queue's: entries 0..9 done, newest finishing last; 10 and 11 stay pending.
    for (const n of [3, 1, 0, 2, 4, 5, 6, 7, 8, 9]) {
      await clock.advance(1000);
      const entry = store.get(queued[n]!.entry.id)!;
      await store.update([markSending(entry, clock.now())]);
      await store.update(recordSuccess(store.get(entry.id)!, 'ok', clock.now()));
    }
    expect(store.unfinished('p1').map((e) => e.id)).toEqual([queued[10]!.entry.id, queued[11]!.entry.id]);
    const seen: string[] = [];
    let before: { updatedAt: number; seq: number } | undefined;
    for (;;) {
      const page = store.history('p1', 4, before);
      seen.push(...page.entries.map((e) => e.id));
      if (!page.more) break;
      before = page.entries[page.entries.length - 1]!;
    }
    const expected = [9, 8, 7, 6, 5, 4, 2, 0, 1, 3].map((n) => queued[n]!.entry.id);
    expect(seen).toEqual(expected);
    expect(store.history('p2', 4).entries).toEqual([]);
    await store.close();
  });
});

const DAY = 24 * 3_600_000;

/** Queues `count` edits of profile p1 and finishes them now, in one transaction each way. */
async function finish(store: OutboxStore, clock: ManualClock, count: number, from: number): Promise<string[]> {
  const queued = await store.enqueue(Array.from({ length: count }, (_, n) => ({ kind: 'site' as const, profileId: 'p1', localId: `local-${from + n}`, op: 'edit' as const, payload: { siteId: String(from + n), height: 30 } })));
  await store.update(queued.map(({ entry }) => markSending(entry, clock.now())));
  await store.update(queued.flatMap(({ entry }) => recordSuccess(store.get(entry.id)!, 'ok', clock.now())));
  return queued.map(({ entry }) => entry.id);
}

describe('history older than the days kept', () => {
  it('is dropped while the folder stays open, within the hour it falls due, keeping newer history and what is unsent', async () => {
    const clock = createManualClock();
    const dataDir = await tempDir();
    const { store } = await OutboxStore.open({ dataDir, clock });
    // More than one batch of old entries (500 a transaction), one newer, one still to send.
    await finish(store, clock, 1_200, 0);
    await clock.advance(3 * DAY);
    const [recent] = await finish(store, clock, 1, 5_000);
    const [unsent] = await store.enqueue([{ kind: 'site', profileId: 'p1', localId: 'local-unsent', op: 'edit', payload: { siteId: '9', height: 31 } }]);
    const lines: string[] = [];
    const expiry = new HistoryExpiry(store, clock, (line) => lines.push(line));
    expiry.start();
    expect(store.countsOf('p1').done).toBe(1_201);

    // Seven days after the old ones finished, the next hourly run drops them; no close is needed.
    await clock.advance(4 * DAY + 3_600_000);
    await expect.poll(() => store.countsOf('p1').done, waiting('the old history to be dropped')).toBe(1);
    expect(store.history('p1', 50).entries.map((entry) => entry.id)).toEqual([recent]);
    expect(store.get(unsent!.entry.id)?.state).toBe('pending');
    expect(lines).toEqual([]);
    expiry.stop();
    await store.close();

    const reopened = (await OutboxStore.open({ dataDir, clock })).store;
    expect(reopened.countsOf('p1').done).toBe(1);
    await reopened.close();
  });

  it('is dropped when a Sitewalk opens the folder, before anything is closed', async () => {
    const clock = createManualClock();
    const dataDir = await tempDir();
    const { store } = await OutboxStore.open({ dataDir, clock });
    await finish(store, clock, 20, 0);
    await store.close();

    await clock.advance(8 * DAY);
    const core = await openCore(testCoreOptions({ dataDir, clock, sandbox: false, autoSync: false }));
    try {
      const reader = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
      expect(reader.prepare("SELECT count(*) FROM outbox WHERE state = 'done'").pluck().get()).toBe(0);
      reader.close();
    } finally {
      await core.close();
    }
  });
});
