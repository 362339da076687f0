// The outbox's vocabulary: an entry is one request the user asked for (a site create or edit, or an
// EUS reprocess), with its state and its history of problems. Entries are plain data so they can be
// journaled, listed and shown as they are; they never hold the API key.
import type { ProblemView } from '../../shared/contract/views';
import type { OutboxState } from '../../shared/domain';
import type { CallError, EusReprocess, SiteEdit } from '../service/types';

export { OUTBOX_STATES, type OutboxState } from '../../shared/domain';

/** What went wrong, in both faces (the CallError's), without anything secret. */
export interface Problem extends ProblemView {
  kind: CallError['kind'] | 'interrupted' | 'no-site-id' | 'gave-up' | 'blocked';
  /** A sentence a technician understands. */
  message: string;
  /** What support needs. */
  detail: string;
  retryable: boolean;
  quotaExhausted: boolean;
  authRejected: boolean;
  /** Whether the service may have applied the request. */
  mayHaveBeenApplied: boolean;
  /** Field issues, for invalid input and validation faults. */
  issues?: Array<{ field: string; message: string }>;
}

interface EntryBase {
  /** Stable, unique, sortable by creation: "e-" + time + counter. */
  id: string;
  /** Monotonic position in the outbox: the FIFO order within a site. */
  seq: number;
  /** The profile (account) the request belongs to; only the active profile's entries are sent. */
  profileId: string;
  state: OutboxState;
  /** Sends started (a resend after review counts too). */
  attempts: number;
  createdAt: number;
  updatedAt: number;
  /** When a pending entry may be sent again (backoff); null = now. */
  nextAttemptAt: number | null;
  /** The service's answer, once done. */
  result: string | null;
  problem: Problem | null;
}

export interface SiteEntry extends EntryBase {
  kind: 'site';
  /** The register's ID of the site (a temporary one until the service gives an ID to a new site). */
  localId: string;
  /** 'create' sends a blank site ID; 'edit' needs payload.siteId before it can be sent. */
  op: 'create' | 'edit';
  /** What will be sent. For an edit behind an unconfirmed create, siteId is filled in when the create is done. */
  payload: SiteEdit;
  /** For a create once done: the ID the service gave. */
  resultSiteId: string | null;
}

export interface ReprocessEntry extends EntryBase {
  kind: 'reprocess';
  payload: EusReprocess;
}

export type OutboxEntry = SiteEntry | ReprocessEntry;

/** Journal records. Each one sets values absolutely, so replaying one twice changes nothing. */
export type OutboxRecord =
  | { t: 'add'; entry: OutboxEntry }
  | { t: 'set'; id: string; patch: Partial<OutboxEntry> }
  | { t: 'del'; id: string }
  | { t: 'pause'; profileId: string; pause: PauseInfo | null }
  /** Written at compaction so entry IDs are never reused after old entries are dropped. */
  | { t: 'seq'; next: number };

export interface PauseInfo {
  reason: 'quota' | 'auth';
  message: string;
  /** When the pause began (ms). */
  since: number;
}

/** The FIFO lane an entry belongs to: entries of one lane go one at a time, in order. */
export function laneOf(entry: OutboxEntry): string {
  return entry.kind === 'site' ? `site:${entry.localId}` : `eus:${entry.payload.processId}`;
}

/**
 * Whether sending the entry twice is harmless. An edit of an existing site sets the same values
 * again; a create makes a second site; a reprocess with email sends the email twice. A reprocess
 * without email only reassigns the submission again.
 */
export function isIdempotent(entry: OutboxEntry): boolean {
  if (entry.kind === 'site') return entry.op === 'edit';
  return !entry.payload.sendEmail;
}

/** A one-line summary for lists, e.g. "Create site 'North Ridge' (45 m)". */
export function summarize(entry: OutboxEntry): string {
  if (entry.kind === 'reprocess') {
    const email = entry.payload.sendEmail ? ', email resent' : '';
    return `Reprocess submission ${entry.payload.processId} into Multi Map ${entry.payload.multiMapId}${email}`;
  }
  const edit = entry.payload;
  const label = edit.name ? `'${edit.name}'` : entry.op === 'create' ? 'new site' : `site ${edit.siteId ?? entry.localId}`;
  const moved = edit.latitude !== undefined && edit.longitude !== undefined ? ` at ${edit.latitude}, ${edit.longitude}` : '';
  if (entry.op === 'create') return `Create ${edit.name ? `site ${label}` : label} (${edit.height} m)${moved}`;
  const id = edit.siteId ? ` [${edit.siteId}]` : ' [awaiting its create]';
  return `Edit ${edit.name ? `site ${label}` : label}${id}: ${edit.height} m${moved}`;
}
