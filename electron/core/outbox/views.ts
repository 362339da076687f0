// An outbox entry as the renderer and the CLI see it: the contract's view with dates as ISO text,
// the summary line, and for a site entry its local ID, operation and service ID once known; when
// another binding than the profile's carried the last try, which one and why (carriedBy).
import type { OutboxEntryView } from '../sitewalk-core';
import { summarize, type OutboxEntry } from './types';

/** The entry as shown, at `revision` (the change's, or the newest for a listing). */
export function entryView(entry: OutboxEntry, revision: number): OutboxEntryView {
  const view: OutboxEntryView = {
    id: entry.id,
    kind: entry.kind,
    state: entry.state,
    profileId: entry.profileId,
    summary: summarize(entry),
    payload: { ...entry.payload } as Record<string, unknown>,
    attempts: entry.attempts,
    createdAt: new Date(entry.createdAt).toISOString(),
    updatedAt: new Date(entry.updatedAt).toISOString(),
    nextAttemptAt: entry.nextAttemptAt === null ? null : new Date(entry.nextAttemptAt).toISOString(),
    result: entry.result,
    problem: entry.problem,
    revision,
  };
  if (entry.carriedBy) view.carriedBy = { ...entry.carriedBy };
  if (entry.kind === 'site') {
    view.localId = entry.localId;
    view.op = entry.op;
    view.siteId = entry.op === 'create' ? entry.resultSiteId : (entry.payload.siteId ?? null);
  }
  return view;
}
