// What the page hears of the core's changes (change-events.ts): a lone change at once, a sync's burst
// gathered into a few batches that still end on the newest view of everything, and other events in
// the order they were told. The clock is faked: the batches' spacing is what is checked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_EVERY_MS, gatherChanges } from '../../electron/core/change-events';
import type { ApiEvent, OutboxEntryView, SiteView, StatusView } from '../../electron/shared/contract/index';

const site = (localId: string, revision: number, name = `Site ${localId}`) => ({ localId, revision, name }) as unknown as SiteView;
const entry = (id: string, revision: number, state = 'pending') => ({ id, revision, state }) as unknown as OutboxEntryView;
const status = (revision: number, waiting: number) => ({ revision, waiting, host: 'browser' }) as unknown as StatusView;

function listen() {
  const heard: Array<{ at: number; event: ApiEvent }> = [];
  const gather = gatherChanges((event) => heard.push({ at: Date.now(), event }), () => Date.now());
  return { heard, gather };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the changes the page hears', () => {
  it('sends a lone change as soon as the telling is over, without waiting for a timer', async () => {
    const { heard, gather } = listen();
    gather.site(site('a', 1));
    gather.entry(entry('e1', 1));
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(heard.map((h) => h.event)).toEqual([{ type: 'changes', changes: { entries: [entry('e1', 1)], entriesRemoved: [], sites: [site('a', 1)], sitesRemoved: [] } }]);
  });

  it('gathers a sync’s burst into batches at least the interval apart, ending on the newest view of every site and entry and the newest status', async () => {
    const { heard, gather } = listen();
    // 1,000 sites sent 2 ms apart: each entry claimed then done, its site updated, a status each time.
    for (let k = 0; k < 1000; k++) {
      gather.entry(entry(`e${k}`, 2 * k + 1, 'sending'));
      gather.status(status(2 * k + 1, 1000 - k));
      await vi.advanceTimersByTimeAsync(1);
      gather.entry(entry(`e${k}`, 2 * k + 2, 'done'));
      gather.site(site(`s${k}`, 2 * k + 2));
      gather.status(status(2 * k + 2, 999 - k));
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(BATCH_EVERY_MS);
    const times = [...new Set(heard.map((h) => h.at))];
    // 2 s of telling: one batch at the start and one an interval apart after it, not 5,000 events.
    expect(times.length).toBeLessThanOrEqual(2000 / BATCH_EVERY_MS + 2);
    for (let k = 1; k < times.length; k++) expect(times[k]! - times[k - 1]!).toBeGreaterThanOrEqual(BATCH_EVERY_MS);
    const last = new Map<string, OutboxEntryView>();
    const sites = new Set<string>();
    for (const { event } of heard) {
      if (event.type !== 'changes') continue;
      for (const e of event.changes.entries) last.set(e.id, e);
      for (const s of event.changes.sites) sites.add(s.localId);
    }
    expect(last.size).toBe(1000);
    expect([...last.values()].every((e) => e.state === 'done')).toBe(true);
    expect(sites.size).toBe(1000);
    const statuses = heard.flatMap((h) => (h.event.type === 'status' ? [h.event.status] : []));
    expect(statuses.at(-1)).toEqual(status(2000, 0));
    // Revisions only grow from one status heard to the next.
    expect(statuses.map((s) => s.revision)).toEqual([...statuses.map((s) => s.revision)].sort((a, b) => a - b));
  });

  it('keeps the newer view when an older one is told after it', async () => {
    const { heard, gather } = listen();
    gather.status(status(5, 1));
    gather.site(site('a', 7, 'New'));
    gather.site(site('a', 6, 'Old'));
    gather.status(status(4, 2));
    gather.siteRemoved('b', 3);
    await Promise.resolve();
    expect(heard.map((h) => h.event)).toEqual([
      { type: 'changes', changes: { entries: [], entriesRemoved: [], sites: [site('a', 7, 'New')], sitesRemoved: [{ localId: 'b', revision: 3 }] } },
      { type: 'status', status: status(5, 1) },
    ]);
  });

  it('sends what it gathered before any other event, so the page hears them in the order they were told', async () => {
    const { heard, gather } = listen();
    gather.site(site('a', 1));
    await Promise.resolve();
    // Within the interval: held for the next batch, until another event comes.
    gather.entryRemoved('e1', 2);
    gather.status(status(3, 0));
    await vi.advanceTimersByTimeAsync(BATCH_EVERY_MS / 2);
    expect(heard).toHaveLength(1);
    gather.other({ type: 'problem', message: 'Disk full', detail: '' });
    expect(heard.map((h) => h.event.type)).toEqual(['changes', 'changes', 'status', 'problem']);
    expect(heard[1]!.event).toMatchObject({ changes: { entriesRemoved: [{ entryId: 'e1', revision: 2 }] } });
    await vi.advanceTimersByTimeAsync(BATCH_EVERY_MS);
    expect(heard).toHaveLength(4);
  });

  it('tells nothing more once closed, even what was waiting for its batch', async () => {
    const { heard, gather } = listen();
    gather.site(site('a', 1));
    await Promise.resolve();
    gather.site(site('b', 2));
    gather.close();
    await vi.advanceTimersByTimeAsync(BATCH_EVERY_MS * 2);
    gather.site(site('c', 3));
    gather.other({ type: 'problem', message: 'x', detail: '' });
    await vi.advanceTimersByTimeAsync(BATCH_EVERY_MS * 2);
    expect(heard).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
