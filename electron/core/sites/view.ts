// A site as the user sees it: what the service is known to hold, overlaid with the edits still in
// the outbox (oldest first, later fields win), and a sync state derived from those entries, so the
// register never has to be rewritten when an entry changes state.
import type { OutboxEntry, Problem, SiteEntry } from '../outbox/types';
import type { SiteView as ContractSiteView } from '../../shared/contract/views';
import { assignDefined, SITE_FIELDS, type SiteEdit, type SyncState } from '../../shared/domain';
import { movesPosition } from '../../shared/validation/measurement';
import type { SiteFields, SiteRecord } from './site-record';

export type { SyncState } from '../../shared/domain';

/** The contract's site view, with the core's typed problem. */
export interface SiteView extends ContractSiteView {
  lastError: Problem | null;
}

/** What the service holds; for a site whose request was lost, what the user typed under it. */
export function baseFields(record: SiteRecord): SiteFields {
  return record.lost ? { ...record.draft, ...record.known } : { ...record.known };
}

/** `record` overlaid with its unfinished outbox entries (`lane`, FIFO order). */
export function siteView(record: SiteRecord, lane: readonly OutboxEntry[], revision: number): SiteView {
  // Most sites have nothing queued: their known fields are read as they are, without a copy.
  const fields = lane.length === 0 && !record.lost ? record.known : baseFields(record);
  // A site whose request the outbox lost is never shown as synced (see storage/damage.ts).
  let state: SyncState = record.lost ? 'needs-review' : 'synced';
  let lastError: Problem | null = record.lost ? lostProblem(record.lost) : null;
  let updatedAt = record.updatedAt;
  for (const entry of lane) {
    if (entry.kind !== 'site') continue;
    overlay(fields, entry);
    updatedAt = Math.max(updatedAt, entry.updatedAt);
    if (entry.state === 'needs-review') {
      state = 'needs-review';
      lastError = entry.problem;
    } else if (entry.state === 'failed') {
      if (state !== 'needs-review') {
        state = 'failed';
        lastError = entry.problem;
      }
    } else if (state === 'synced') {
      state = 'pending';
      lastError = entry.problem;
    }
  }
  return {
    localId: record.localId,
    siteId: record.siteId,
    profileId: record.profileId,
    origin: record.origin,
    name: fields.name ?? '',
    height: fields.height ?? null,
    latitude: fields.latitude ?? null,
    longitude: fields.longitude ?? null,
    description: fields.description ?? '',
    group: fields.group ?? '',
    pinStyle: fields.pinStyle ?? 1,
    measurement: fields.measurement ?? null,
    syncState: state,
    lastError,
    queued: lane.length,
    createdAt: createdText(record.createdAt),
    updatedAt: updatedText(updatedAt),
    revision,
  };
}

/**
 * A time as ISO text, remembering the last one: sites saved together (an import's batch, a sync's
 * group commit) share their times, so listing 50,000 sites formats a few hundred dates, not 100,000.
 */
function isoText(): (ms: number) => string {
  let lastMs = NaN;
  let lastText = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastText = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastText;
  };
}
const createdText = isoText();
const updatedText = isoText();

function lostProblem(message: string): Problem {
  return {
    kind: 'lost',
    message,
    detail: 'The site list records a site created here with no service ID, and the outbox holds no request for it.',
    retryable: false,
    quotaExhausted: false,
    authRejected: false,
    mayHaveBeenApplied: true,
  };
}

/** Copies the fields an edit sets (blank = unchanged) onto `fields`. */
export function overlay(fields: SiteFields, entry: SiteEntry): void {
  applyEdit(fields, entry.payload);
}

/**
 * Applies an edit's fields to `fields`. The measurement goes with the position it measured: an edit
 * carrying one sets it, an edit that moves the site without one drops it (the position was typed or
 * dragged, not measured), and an edit that leaves the position where it is keeps it.
 */
export function applyEdit(fields: SiteFields, edit: SiteEdit | SiteFields): void {
  const moved = movesPosition(fields, edit);
  assignDefined(fields, edit, SITE_FIELDS);
  if (edit.measurement) fields.measurement = edit.measurement;
  else if (moved) delete fields.measurement;
}
