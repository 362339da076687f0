// The outbox's history handed out a page at a time (newest first, each page ending with a cursor), and
// the journals compacted by size once bulk work settles: an import then its sync writes every site
// twice, which the count rule alone never compacted.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../electron/core/clock';
import { OutboxStore } from '../../electron/core/outbox/store';
import { markSending, recordSuccess } from '../../electron/core/outbox/transitions';
import { SiteRegister, type SiteRecord } from '../../electron/core/sites/register';
import { CHUNK_SITES } from '../../electron/core/sites/snapshot';

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

describe('compaction once bulk work settles', () => {
  it('rewrites a register an import and its sync left at two records per site, and loads the same sites after', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const { register } = await SiteRegister.open({ dataDir, clock });
    const sites: SiteRecord[] = Array.from({ length: 6000 }, (_, k) => ({
      localId: `local-${k}`,
      profileId: 'p1',
      siteId: null,
      origin: 'created',
      known: {},
      appliedSeq: 0,
      createdAt: 1,
      updatedAt: 1,
      draft: { name: `Tower ${k}`, height: 30, latitude: 40, longitude: -80, description: 'Imported from a long file name' },
    }));
    await register.put(sites);
    await register.put(sites.map((site, k) => ({ ...site, siteId: String(k), known: site.draft!, draft: undefined, appliedSeq: k + 1 })));
    const file = path.join(dataDir, 'sites.journal');
    const bloated = (await stat(file)).size;
    expect(register.journalStats.records).toBe(12_000);
    await register.compactIfBloated();
    // Six records of a thousand sites each (sites/snapshot.ts).
    expect(register.journalStats.records).toBe(Math.ceil(6000 / CHUNK_SITES));
    expect((await stat(file)).size).toBeLessThan(bloated * 0.6);
    // Nothing more to gain: a second check leaves the file alone.
    const written = register.journalStats.bytesWritten;
    await register.compactIfBloated();
    expect(register.journalStats.bytesWritten).toBe(written);
    await register.close();

    const { register: again } = await SiteRegister.open({ dataDir, clock });
    expect(again.size).toBe(6000);
    expect(again.findBySiteId('p1', '5999')?.known.name).toBe('Tower 5999');
    expect(again.list()[0]!.localId).toBe('local-0');
    await again.close();
  });
});
