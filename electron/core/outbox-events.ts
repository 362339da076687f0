// Tells the core's listeners what the outbox changed, once it is on disk: each entry as it was at
// that change (with its revision) and each touched site as it is now. Views cost something for
// 10,000 entries, so they are built only for someone listening.
import type { TypedEvents } from './events';
import type { SyncEngine } from './outbox/engine';
import type { OutboxChange, OutboxStore } from './outbox/store';
import type { EntryHead } from './outbox/types';
import { entryView } from './outbox/views';
import type { CoreEvents } from './sitewalk-core';
import type { SiteRecord, SiteRegister } from './sites/register';
import type { SiteView } from './sites/view';

export interface RelayDeps {
  events: TypedEvents<CoreEvents>;
  store: OutboxStore;
  register: SiteRegister;
  engine: SyncEngine;
  siteView: (record: SiteRecord) => SiteView;
}

export function relayOutboxChanges({ events, store, register, engine, siteView }: RelayDeps): (changes: readonly OutboxChange[], removed: readonly EntryHead[]) => void {
  return (changes, removed) => {
    const touched = new Set<string>();
    const tellEntries = events.listenerCount('outbox') > 0;
    const tellSites = events.listenerCount('site') > 0;
    for (const { entry, revision } of changes) {
      if (tellEntries) events.emit('outbox', entryView(entry, revision));
      if (entry.kind === 'site') touched.add(entry.localId);
    }
    for (const entry of removed) {
      events.emit('outbox-removed', { entryId: entry.id, revision: store.revisionOf(entry.id) });
      if (entry.kind === 'site') touched.add(entry.localId);
    }
    if (tellSites) {
      for (const localId of touched) {
        const record = register.get(localId);
        if (record) events.emit('site', siteView(record));
      }
    }
    engine.refreshStatus();
  };
}
