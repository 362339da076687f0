// An outbox entry as the renderer and the CLI see it: the contract's view with dates as ISO text,
// the summary line, and for a site entry its local ID, operation and service ID once known; when
// another binding than the profile's carried the last try, which one and why (carriedBy). The
// history (done entries) is handed out in pages, newest first, each ending with a cursor.
import type { EntryStanding, OutboxEntryView } from '../sitewalk-core';
import type { HistoryCursor } from './store';
import { summarize, type EntryHead, type OutboxEntry } from './types';

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
    totalAttempts: entry.totalAttempts,
    createdAt: isoTime(entry.createdAt),
    updatedAt: isoTime(entry.updatedAt),
    nextAttemptAt: entry.nextAttemptAt === null ? null : isoTime(entry.nextAttemptAt),
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

/** How the entry stands, from its head or its whole. */
export function standingOf(entry: EntryHead | OutboxEntry): EntryStanding {
  let siteId: string | null = null;
  if (entry.kind === 'site') siteId = entry.op === 'create' ? entry.resultSiteId : 'payload' in entry ? (entry.payload.siteId ?? null) : entry.siteId;
  return { id: entry.id, state: entry.state, siteId, message: entry.state === 'done' ? (entry.result ?? '') : (entry.problem?.message ?? '') };
}

let lastMs = Number.NaN;
let lastIso = '';

/** The instant as ISO text; the last one is kept, since a batch's entries share their times. */
function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** The history's page size when the caller names none, and the most one page may hold. */
export const HISTORY_PAGE = 50;
export const HISTORY_PAGE_MAX = 500;

/** The cursor after `entry` in the history: "<updatedAt ms>.<seq>", opaque to the page. */
export function historyCursor(entry: HistoryCursor): string {
  return `${entry.updatedAt}.${entry.seq}`;
}

/** The position a cursor names, or null when it is not one this core gave. */
export function parseHistoryCursor(text: string): HistoryCursor | null {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(text);
  if (!match) return null;
  const updatedAt = Number(match[1]);
  const seq = Number(match[2]);
  return Number.isSafeInteger(updatedAt) && Number.isSafeInteger(seq) ? { updatedAt, seq } : null;
}
