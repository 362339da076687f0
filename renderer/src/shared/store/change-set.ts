// The page's store applies every site and outbox change as a change set: the hosts send them so (one
// 'changes' event per transaction), and a single-change event is a change set of one.
import type { ApiEvent, ChangeSet } from '../../../../electron/shared/contract/index';

type ChangeEvent = Extract<ApiEvent, { type: 'changes' | 'site' | 'site-removed' | 'outbox' | 'outbox-removed' }>;

export function changeSetOf(event: ChangeEvent): ChangeSet {
  const changes: ChangeSet = { entries: [], entriesRemoved: [], sites: [], sitesRemoved: [] };
  switch (event.type) {
    case 'changes':
      return event.changes;
    case 'site':
      changes.sites.push(event.site);
      break;
    case 'site-removed':
      changes.sitesRemoved.push({ localId: event.localId, revision: event.revision });
      break;
    case 'outbox':
      changes.entries.push(event.entry);
      break;
    case 'outbox-removed':
      changes.entriesRemoved.push({ entryId: event.entryId, revision: event.revision });
      break;
  }
  return changes;
}
