// Gathers the site and outbox changes the core tells in one go into one 'changes' event for the page.
// A committed transaction tells every row's entry and site at once (an import's ~25 ms transaction,
// thousands of rows): the page then hears one event per transaction, not two per row, and applies it
// in one store update. Any other event first sends what was gathered, so the page hears everything
// in the order the core told it; revisions (not order) decide which view of one object wins.
import type { ApiEvent, ChangeSet, OutboxEntryView, SiteView } from '../shared/contract/index';

export interface ChangeGatherer {
  site(site: SiteView): void;
  siteRemoved(localId: string, revision: number): void;
  entry(entry: OutboxEntryView): void;
  entryRemoved(entryId: string, revision: number): void;
  /** Any other event: sent at once, after what was gathered. */
  other(event: ApiEvent): void;
  /** Drops what was gathered and not sent (the listener is going away). */
  close(): void;
}

type Gathered<T> = Map<string, { view: T | null; revision: number }>;

export function gatherChanges(listener: (event: ApiEvent) => void): ChangeGatherer {
  const sites: Gathered<SiteView> = new Map();
  const entries: Gathered<OutboxEntryView> = new Map();
  let owed = false;
  let closed = false;

  function keep<T>(gathered: Gathered<T>, id: string, view: T | null, revision: number): void {
    if (closed) return;
    // Told twice before the batch went (a row changed twice in one tick): only the newer view travels.
    const held = gathered.get(id);
    if (!held || revision >= held.revision) gathered.set(id, { view, revision });
    if (owed) return;
    owed = true;
    // Everything one transaction tells is told synchronously: the batch goes once the telling is over.
    queueMicrotask(send);
  }

  function send(): void {
    owed = false;
    if (closed || (sites.size === 0 && entries.size === 0)) return;
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

  return {
    site: (site) => keep(sites, site.localId, site, site.revision),
    siteRemoved: (localId, revision) => keep(sites, localId, null, revision),
    entry: (entry) => keep(entries, entry.id, entry, entry.revision),
    entryRemoved: (entryId, revision) => keep(entries, entryId, null, revision),
    other(event) {
      if (closed) return;
      send();
      listener(event);
    },
    close() {
      closed = true;
      sites.clear();
      entries.clear();
    },
  };
}
