// The outbox's history handed out a page at a time (newest first, each page ending with a cursor),
// read from the database by an indexed query.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../electron/core/clock';
import { OutboxStore } from '../../electron/core/outbox/store';
import { markSending, recordSuccess } from '../../electron/core/outbox/transitions';

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
