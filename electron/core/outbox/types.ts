// The outbox's vocabulary: an entry is one request the user asked for (a site create or edit, or an
// EUS reprocess), with its state and its history of problems. Entries are plain data so they can be
// stored, listed and shown as they are; they never hold the API key.
import { z } from 'zod';
import type { ProblemView } from '../../shared/contract/views';
import { OUTBOX_STATES, type OutboxState } from '../../shared/domain';
import type { CallError, CarriedBy, EusReprocess, SiteEdit } from '../service/types';
import { BINDING_NAMES } from '../../shared/aspnet';
import { BINDINGS } from '../../shared/domain';
import { storedSiteEditSchema as siteEditSchema } from '../../shared/validation/stored-site';

export { OUTBOX_STATES, type OutboxState };

/** What went wrong, in both faces (the CallError's), without anything secret. */
export interface Problem extends ProblemView {
  kind: CallError['kind'] | 'interrupted' | 'no-site-id' | 'gave-up' | 'blocked' | 'lost';
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
  /**
   * How many tries in a row ended with this same sentence, for an answer that may pass (a server
   * exception): policy.ts stops retrying when it keeps coming back word for word.
   */
  repeats?: number;
}

interface EntryBase {
  /** Stable, unique, sortable by creation: "e-" + time + counter. */
  id: string;
  /** Monotonic position in the outbox: the FIFO order within a site. */
  seq: number;
  /** The profile (account) the request belongs to; only the active profile's entries are sent. */
  profileId: string;
  state: OutboxState;
  /**
   * Sends started since the tries last started over (Send again, or a corrected request): what the
   * retry policy counts. A resend after review counts too.
   */
  attempts: number;
  /**
   * Sends started of this request, Send again or not (a corrected request starts it over): what the
   * user is shown beside `attempts`. Entries stored before it was kept read as their `attempts`.
   */
  totalAttempts: number;
  createdAt: number;
  updatedAt: number;
  /** When a pending entry may be sent again (backoff); null = now. */
  nextAttemptAt: number | null;
  /** The service's answer, once done. */
  result: string | null;
  problem: Problem | null;
  /**
   * The last try went over another binding than the profile's, because the service's ASP.NET front
   * would have refused it (absent or null: over the profile's binding).
   */
  carriedBy?: CarriedBy | null;
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

/**
 * What the outbox holds in memory of an unfinished site entry: everything it schedules, counts and
 * checks by, without the edit it sends (a site's notes can be kilobytes, and an import queues tens of
 * thousands): that is read from the database when the entry is sent, shown or changed.
 */
export type SiteHead = Omit<SiteEntry, 'payload'> & {
  /**
   * The service ID the request names (its edit's siteId): null for a create, and for an edit
   * queued behind a create not yet done, which cannot be sent until it has one (engine-status.ts).
   */
  siteId: string | null;
};

/** An unfinished entry as held in memory: a reprocess is small enough to be held whole. */
export type EntryHead = SiteHead | ReprocessEntry;

/** The head of an entry (outbox/unfinished.ts holds these). */
export function headOf(entry: OutboxEntry): EntryHead {
  if (entry.kind === 'reprocess') return entry;
  return {
    id: entry.id,
    seq: entry.seq,
    profileId: entry.profileId,
    state: entry.state,
    attempts: entry.attempts,
    totalAttempts: entry.totalAttempts,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    nextAttemptAt: entry.nextAttemptAt,
    result: entry.result,
    problem: entry.problem,
    ...(entry.carriedBy !== undefined ? { carriedBy: entry.carriedBy } : {}),
    kind: 'site',
    localId: entry.localId,
    op: entry.op,
    resultSiteId: entry.resultSiteId,
    siteId: entry.payload.siteId ?? null,
  };
}

/** The whole entry of `head`, with the edit it sends as stored. */
export function withPayload(head: SiteHead, payload: SiteEdit): SiteEntry {
  const { siteId: _siteId, ...fields } = head;
  return { ...fields, payload };
}

export interface PauseInfo {
  reason: 'quota' | 'auth';
  message: string;
  /** When the pause began (ms). */
  since: number;
}

/** The FIFO lane an entry belongs to: entries of one lane go one at a time, in order. */
export function laneOf(entry: OutboxEntry | EntryHead): string {
  return entry.kind === 'site' ? `site:${entry.localId}` : `eus:${entry.payload.processId}`;
}

/**
 * Whether sending the entry twice is harmless. An edit of an existing site sets the same values
 * again; a create makes a second site; a reprocess with email sends the email twice. A reprocess
 * without email only reassigns the submission again.
 */
export function isIdempotent(entry: OutboxEntry | EntryHead): boolean {
  if (entry.kind === 'site') return entry.op === 'edit';
  return !entry.payload.sendEmail;
}

/** A one-line summary for lists, e.g. "Create site 'North Ridge' (45 m)", and " · via SOAP 1.1" when another binding carried it. */
export function summarize(entry: OutboxEntry): string {
  const what = describeRequest(entry);
  return entry.carriedBy ? `${what} · via ${BINDING_NAMES[entry.carriedBy.binding]}` : what;
}

function describeRequest(entry: OutboxEntry): string {
  if (entry.kind === 'reprocess') {
    const email = entry.payload.sendEmail ? ', email resent' : '';
    return `Reprocess submission ${entry.payload.processId} into Multi Map ${entry.payload.multiMapId}${email}`;
  }
  const edit = entry.payload;
  const label = edit.name ? `'${edit.name}'` : entry.op === 'create' ? 'new site' : `site ${edit.siteId ?? entry.localId}`;
  const moved = edit.latitude !== undefined && edit.longitude !== undefined ? ` at ${edit.latitude}, ${edit.longitude}` : '';
  if (entry.op === 'create') return `Create ${edit.name ? `site ${label}` : label} (${edit.height} m)${moved}`;
  // Without a new name the label is already the service ID: say it once, not "site 100001 [100001]".
  const id = !edit.name && edit.siteId ? '' : edit.siteId ? ` [${edit.siteId}]` : ' [awaiting its create]';
  return `Edit ${edit.name ? `site ${label}` : label}${id}: ${edit.height} m${moved}`;
}

// ---------- entries as read back from the database (parsed, never trusted) ----------

const problemSchema = z.object({
  kind: z.string(),
  message: z.string(),
  detail: z.string(),
  retryable: z.boolean(),
  quotaExhausted: z.boolean(),
  authRejected: z.boolean(),
  mayHaveBeenApplied: z.boolean(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  repeats: z.number().int().positive().optional(),
});

const carriedBySchema = z.object({
  binding: z.enum(BINDINGS),
  instead: z.enum(BINDINGS),
  reason: z.enum(['request-validation', 'query-length']),
  message: z.string(),
});

const reprocessSchema = z.object({ processId: z.string(), multiMapId: z.string(), sendEmail: z.boolean() });

const baseFields = {
  id: z.string().min(1),
  seq: z.number().int().nonnegative(),
  profileId: z.string(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int().nonnegative(),
  totalAttempts: z.number().int().nonnegative().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  nextAttemptAt: z.number().nullable(),
  result: z.string().nullable(),
  problem: problemSchema.nullable(),
  carriedBy: carriedBySchema.nullable().optional(),
};
const siteFields = { localId: z.string().min(1), op: z.enum(['create', 'edit']), payload: siteEditSchema, resultSiteId: z.string().nullable() };

/** An entry as stored: the one definition every stored entry is read through. */
export const entrySchema: z.ZodType<OutboxEntry> = z
  .discriminatedUnion('kind', [
    z.object({ ...baseFields, kind: z.literal('site'), ...siteFields }),
    z.object({ ...baseFields, kind: z.literal('reprocess'), payload: reprocessSchema }),
  ])
  .transform((entry) => {
    // Written before the total was kept: every try it knows of is all it can say.
    entry.totalAttempts ??= entry.attempts;
    return entry;
  }) as unknown as z.ZodType<OutboxEntry>;

/** A patch names only what it sets; id, seq and kind never change through one. */
export const patchSchema = z
  .object({ ...baseFields, ...siteFields, payload: z.union([siteEditSchema, reprocessSchema]) })
  .omit({ id: true, seq: true })
  .partial();

export const pauseSchema = z.object({ reason: z.enum(['quota', 'auth']), message: z.string(), since: z.number() });
