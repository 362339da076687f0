// Gathers the site and outbox changes the core tells, and its status, into few events for the page.
// A committed transaction tells every row's entry and site at once (an import's ~25 ms transaction,
// thousands of rows): the page hears one 'changes' event for it, not two per row. A sync tells a
// change or two and a status for every site it sends, a few hundred a second: each one written to the
// page's event stream (or Electron's IPC) and parsed there cost more than sending the site (a 10,000-row
// run wrote ~40,000 frames, 4 CPU-seconds of socket writes in the host alone). So after a batch has
// gone, the next waits until BATCH_EVERY_MS have passed, gathering what is told meanwhile: a lone
// change still goes at once, a burst at most ten times a second. Only the newest view of an object
// and the newest status travel (the page keeps the newest by revision anyway). Any other event first
// sends what was gathered, so the page hears everything in the order the core told it.
import type { ApiEvent, ChangeSet, OutboxEntryView, SiteView, StatusView } from '../shared/contract/index';

/** The shortest time between two batches (the page applies what it hears at most 5 times a second). */
export const BATCH_EVERY_MS = 100;

export interface ChangeGatherer {
  site(site: SiteView): void;
  siteRemoved(localId: string, revision: number): void;
  entry(entry: OutboxEntryView): void;
  entryRemoved(entryId: string, revision: number): void;
  status(status: StatusView): void;
  /** Any other event: sent at once, after what was gathered. */
  other(event: ApiEvent): void;
  /** Drops what was gathered and not sent (the listener is going away). */
  close(): void;
}

type Gathered<T> = Map<string, { view: T | null; revision: number }>;

export function gatherChanges(listener: (event: ApiEvent) => void, now: () => number = () => performance.now()): ChangeGatherer {
  const sites: Gathered<SiteView> = new Map();
  const entries: Gathered<OutboxEntryView> = new Map();
  let status: StatusView | null = null;
  let owed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastBatch = -Infinity;
  let closed = false;

  function owe(): void {
    if (owed) return;
    owed = true;
    const wait = lastBatch + BATCH_EVERY_MS - now();
    // Everything one transaction tells is told synchronously: the batch goes once the telling is over.
    if (wait <= 0) queueMicrotask(send);
    else timer = setTimeout(send, wait);
  }

  function keep<T>(gathered: Gathered<T>, id: string, view: T | null, revision: number): void {
    if (closed) return;
    // Told twice before the batch went: only the newer view travels.
    const held = gathered.get(id);
    if (!held || revision >= held.revision) gathered.set(id, { view, revision });
    owe();
  }

  function send(): void {
    owed = false;
    if (timer) clearTimeout(timer);
    timer = null;
    if (closed || (status === null && sites.size === 0 && entries.size === 0)) return;
    lastBatch = now();
    const told = status;
    status = null;
    if (sites.size > 0 || entries.size > 0) {
      const changes: ChangeSet = { entries: [], entriesRemoved: [], sites: [], sitesRemoved: [] };
      for (const [entryId, { view, revision }] of entries) {
        if (view) changes.entries.push(view);
        else changes.entriesRemoved.push({ entryId, revision });
      }
      for (const [localId, { view, revision }] of sites) {
        if (view) changes.sites.push(view);
        else changes.sitesRemoved.push({ localId, revision });
      }
      entries.clear();
      sites.clear();
      listener({ type: 'changes', changes });
    }
    if (told) listener({ type: 'status', status: told });
  }

  return {
    site: (site) => keep(sites, site.localId, site, site.revision),
    siteRemoved: (localId, revision) => keep(sites, localId, null, revision),
    entry: (entry) => keep(entries, entry.id, entry, entry.revision),
    entryRemoved: (entryId, revision) => keep(entries, entryId, null, revision),
    status(view) {
      if (closed) return;
      if (!status || view.revision >= status.revision) status = view;
      owe();
    },
    other(event) {
      if (closed) return;
      send();
      listener(event);
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      sites.clear();
      entries.clear();
      status = null;
    },
  };
}
