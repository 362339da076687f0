// The SQLite store (issue 20), each figure beside a baseline measured in the same run:
// - 10,000 sites queued durably in ONE transaction (core.sites.saveMany), beside the same 10,000
//   saved one at a time (a transaction each: what a store without batches would pay). Target < 0.5 s.
// - a page of 50 out of 100,000 finished entries (the first page and one deep in the history), an
//   indexed query, beside reading every finished entry and sorting them (what a store that keeps
//   no index must do). Target < 20 ms.
// - `sitewalk outbox --json` answering while the app has the folder open (it used to be refused),
//   beside the same command with the folder closed.
// - the page's outbox listing with those 10,000 queued (the first LISTED_PENDING waiting edits),
//   beside every unfinished entry, which the page was sent before. Target < 50 ms.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createManualClock } from '../../electron/core/clock';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { LISTED_PENDING } from '../../electron/shared/contract/index';
import { OutboxStore, type Draft } from '../../electron/core/outbox/store';
import { markSending, recordSuccess } from '../../electron/core/outbox/transitions';
import { testCoreOptions } from '../support/core';
import type { BenchFigure } from './figures';

const QUEUED = 10_000;
const HISTORY = 100_000;
const PAGE = 50;
const TARGET = { enqueueMs: 500, pageMs: 20, listingMs: 50 } as const;
const SITEWALK = fileURLToPath(new URL('../../electron/cli/sitewalk.mjs', import.meta.url));

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const met = (ok: boolean) => (ok ? ' — met' : ' — NOT met');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function site(n: number) {
  return { name: `Bench ${n}`, height: 20 + (n % 80), latitude: 45 + (n % 100) / 100, longitude: -110 - (n % 97) / 100, description: 'Imported' };
}

async function enqueueFigures(): Promise<BenchFigure[]> {
  const dirs = [await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-store-')), await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-store-'))];
  try {
    const batch = await openCore(testCoreOptions({ dataDir: dirs[0]!, sandbox: false, autoSync: false }));
    const started = performance.now();
    const saved = await batch.sites.saveMany(Array.from({ length: QUEUED }, (_, n) => site(n)));
    const oneMs = performance.now() - started;
    if (!saved.ok) throw new Error(saved.issues[0]!.message);
    const listing = listingFigure(batch);
    await batch.close();
    const single = await openCore(testCoreOptions({ dataDir: dirs[1]!, sandbox: false, autoSync: false }));
    const alone = performance.now();
    for (let n = 0; n < QUEUED; n++) await single.sites.save(site(n));
    const eachMs = performance.now() - alone;
    await single.close();
    return [{
      name: `store: ${QUEUED.toLocaleString('en')} sites queued durably in one transaction`,
      value: round(oneMs, 0),
      unit: 'ms',
      baseline: round(eachMs, 0),
      ratio: round(eachMs / oneMs, 1),
      note: `baseline: the same sites saved one at a time (a transaction each); ratio = baseline ÷ ours; target < ${TARGET.enqueueMs} ms${met(oneMs < TARGET.enqueueMs)}`,
    }, listing];
  } finally {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

/** The page's outbox listing of `core`'s queue (medians of 5), beside every unfinished entry as views. */
function listingFigure(core: SitewalkCore): BenchFigure {
  const timed = <T>(read: () => T) => {
    const runs = Array.from({ length: 5 }, () => {
      const started = performance.now();
      const value = read();
      return { ms: performance.now() - started, value };
    });
    return { ms: median(runs.map((run) => run.ms)), bytes: JSON.stringify(runs[0]!.value).length };
  };
  const page = timed(() => core.outbox.unfinishedPage(LISTED_PENDING));
  const every = timed(() => core.outbox.unfinished());
  return {
    name: `store: the page's outbox listing with ${QUEUED.toLocaleString('en')} queued`,
    value: round(page.ms),
    unit: 'ms',
    baseline: round(every.ms),
    ratio: round(every.ms / page.ms, 1),
    note: `${round(page.bytes / 1024, 0)} KiB of JSON (the first ${LISTED_PENDING} waiting); baseline: every unfinished entry, ${round(every.bytes / 1024, 0)} KiB, what the page was sent before; ratio = baseline ÷ ours; target < ${TARGET.listingMs} ms${met(page.ms < TARGET.listingMs)}`,
  };
}

async function historyFigures(): Promise<BenchFigure[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-history-'));
  const clock = createManualClock();
  const { store } = await OutboxStore.open({ dataDir, clock });
  try {
    for (let start = 0; start < HISTORY; start += 10_000) {
      const drafts: Draft[] = Array.from({ length: 10_000 }, (_, k) => ({ kind: 'site', profileId: 'p1', localId: `local-${start + k}`, op: 'edit', payload: { siteId: String(start + k), height: 30 } }));
      const queued = await store.enqueue(drafts);
      await clock.advance(1000);
      await store.update(queued.map(({ entry }) => markSending(entry, clock.now())));
      await store.update(queued.flatMap(({ entry }) => recordSuccess(store.get(entry.id)!, 'ok', clock.now())));
    }
    const first: number[] = [];
    const deep: number[] = [];
    const scan: number[] = [];
    let cursor = store.history('p1', PAGE).entries.at(-1)!;
    for (let i = 0; i < 200; i++) cursor = store.history('p1', PAGE, cursor).entries.at(-1) ?? cursor;
    for (let run = 0; run < 7; run++) {
      let at = performance.now();
      const page = store.history('p1', PAGE);
      first.push(performance.now() - at);
      if (page.entries.length !== PAGE) throw new Error('the first page is short');
      at = performance.now();
      store.history('p1', PAGE, cursor);
      deep.push(performance.now() - at);
      if (run < 3) {
        at = performance.now();
        store
          .list()
          .filter((entry) => entry.state === 'done' && entry.profileId === 'p1')
          .sort((a, b) => b.updatedAt - a.updatedAt || b.seq - a.seq)
          .slice(0, PAGE);
        scan.push(performance.now() - at);
      }
    }
    const page = median(first);
    const far = median(deep);
    const baseline = median(scan);
    return [
      {
        name: `store: history page of ${PAGE} out of ${HISTORY.toLocaleString('en')} finished entries, the newest`,
        value: round(page, 2),
        unit: 'ms',
        baseline: round(baseline, 0),
        ratio: round(baseline / page, 0),
        note: `baseline: every finished entry read and sorted; median of 7; target < ${TARGET.pageMs} ms${met(page < TARGET.pageMs)}`,
      },
      {
        name: `store: history page of ${PAGE} out of ${HISTORY.toLocaleString('en')}, 200 pages deep`,
        value: round(far, 2),
        unit: 'ms',
        baseline: round(baseline, 0),
        ratio: round(baseline / far, 0),
        note: `by its cursor (updatedAt, seq); target < ${TARGET.pageMs} ms${met(far < TARGET.pageMs)}`,
      },
    ];
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function outboxWhileOpen(): Promise<BenchFigure> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-cli-'));
  const home = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-bench-home-'));
  const run = async (): Promise<number> => {
    const started = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, [SITEWALK, 'outbox', '--json', '--data-dir', dataDir], {
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), SITEWALK_KEY: '', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent-sitewalk-bench' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const listed = JSON.parse(stdout) as { entries: unknown[] };
    if (listed.entries.length !== 1000) throw new Error(`outbox --json listed ${listed.entries.length} entries, not 1000`);
    return performance.now() - started;
  };
  try {
    const setup = await openCore(testCoreOptions({ dataDir, sandbox: false, autoSync: false }));
    const saved = await setup.sites.saveMany(Array.from({ length: 1000 }, (_, n) => site(n)));
    if (!saved.ok) throw new Error(saved.issues[0]!.message);
    await setup.close();
    const closed = median([await run(), await run(), await run()]);
    const app = await openCore(testCoreOptions({ dataDir, sandbox: false }));
    try {
      const open = median([await run(), await run(), await run()]);
      return {
        name: 'store: `sitewalk outbox --json` (1,000 entries) while the app has the folder open',
        value: round(open, 0),
        unit: 'ms',
        baseline: round(closed, 0),
        ratio: round(open / closed, 2),
        note: 'baseline: the same command with the folder closed; the journals refused it while the app ran; process start included; median of 3',
      };
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

export async function benchStore(): Promise<BenchFigure[]> {
  return [...(await enqueueFigures()), ...(await historyFigures()), await outboxWhileOpen()];
}

// `npx tsx test/bench/store.ts` prints the figures on their own.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const f of await benchStore()) console.log(`${f.name}: ${f.value} ${f.unit} (baseline ${f.baseline}, ratio ${f.ratio}) — ${f.note}`);
}
