// The waiting site edits the page holds. The host lists the first LISTED_PENDING (listOutbox); of the
// edits events bring afterwards (an import of 20,000 rows made while the page is open, the CLI's), the
// store keeps as many as that in the order they come, and none once some were left out before them:
// the status counts the rest (AppState.outboxLeftOut says some were), each comes again as it is sent,
// and the outbox panel asks for the next ones when it holds few (features/outbox/outbox-waiting.ts).
// An action's own answer (a save from the page) is always kept: only events pass through here.
// From the contract's own files, not its index (which brings the input schemas: app-store.ts says why).
import type { ApiEvent } from '../../../../electron/shared/contract/events';
import { isWaitingEdit, LISTED_PENDING, type OutboxEntryView } from '../../../../electron/shared/contract/views';
import type { Pending } from './merge-changes';

/**
 * `event` without the waiting edits that are neither held nor gathered and have no room (`leftOut`:
 * how many the store already left out), and how many those were.
 */
export function withinWaitingWindow(
  event: ApiEvent,
  held: ReadonlyMap<string, OutboxEntryView>,
  gathered: Pending<OutboxEntryView>,
  leftOut: number,
): { event: ApiEvent; dropped: number } {
  if (event.type !== 'changes' && event.type !== 'outbox') return { event, dropped: 0 };
  const entries = event.type === 'changes' ? event.changes.entries : [event.entry];
  const fresh = entries.filter((entry) => isWaitingEdit(entry) && !held.has(entry.id) && !gathered.has(entry.id));
  if (fresh.length === 0) return { event, dropped: 0 };
  let room = 0;
  if (leftOut === 0) {
    let holding = 0;
    for (const entry of held.values()) if (isWaitingEdit(entry)) holding++;
    for (const { value } of gathered.values()) if (value && isWaitingEdit(value) && !held.has(value.id)) holding++;
    room = Math.max(0, LISTED_PENDING - holding);
  }
  if (fresh.length <= room) return { event, dropped: 0 };
  const dropped = new Set(fresh.slice(room).map((entry) => entry.id));
  const kept = entries.filter((entry) => !dropped.has(entry.id));
  const changes = event.type === 'changes' ? { ...event.changes, entries: kept } : { entries: kept, entriesRemoved: [], sites: [], sitesRemoved: [] };
  return { event: { type: 'changes', changes }, dropped: dropped.size };
}
