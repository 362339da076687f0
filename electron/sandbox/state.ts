// The sandbox's whole state as plain JSON-able data: accounts, sites, Multi Maps, EUS submissions,
// the rendering quality list, and the outbound effects (mail outbox, XML pushes). The zod schema is
// the one gate for anything loaded from disk or posted to /_sandbox/load, so the operations can
// trust the shape. The call log is a record of this run, not state: it is never persisted.
import { z } from 'zod';
import { PIN_STYLES, type Binding, type PinStyle, type RenderingQuality } from '../shared/domain';

export interface SandboxAccount {
  id: string;
  key: string;
  name: string;
  callsLeft: number;
  /** Addresses that get the EUS email when a reprocess asks for it. */
  recipients: string[];
  /** Where EUS submissions are pushed as XML; null = not set up. */
  eusApiUrl: string | null;
}

export interface SandboxSite {
  id: string;
  account: string;
  name: string;
  /** Whole meters. */
  height: number;
  latitude: number;
  longitude: number;
  description: string;
  group: string;
  pinStyle: PinStyle;
  createdAt: string;
  updatedAt: string;
}

export interface SandboxMultiMap {
  id: string;
  account: string;
  name: string;
}

export interface ReprocessRecord {
  at: string;
  fromMultiMapId: string;
  toMultiMapId: string;
  sendEmail: boolean;
}

export interface SandboxSubmission {
  processId: string;
  account: string;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  multiMapId: string;
  submittedAt: string;
  processedAt: string;
  reprocessHistory: ReprocessRecord[];
}

/** A rendering quality as the list serves it: an `error` of '' is sent as an empty <Error />, null leaves the element out. */
export type RenderingQualityEntry = RenderingQuality;

export interface MailMessage {
  id: number;
  at: string;
  account: string;
  to: string;
  subject: string;
  body: string;
  processId: string;
}

export interface PushAttempt {
  id: number;
  at: string;
  account: string;
  processId: string;
  url: string;
  /** HTTP status of the receiver's answer; null while pending or when the request failed. */
  status: number | null;
  /** Why the delivery failed (network error, timeout); null when it was answered or is pending. */
  error: string | null;
  pending: boolean;
  durationMs: number | null;
}

export interface CallLogEntry {
  id: number;
  at: string;
  binding: Binding;
  operation: string;
  /** Parameters as received, the API key replaced by a mark. */
  params: Record<string, string | null>;
  /** ok: answered with a result; fault: answered with an error; the rest are injected faults. */
  outcome: 'ok' | 'fault' | 'injected-failure' | 'proxy-503' | 'hang' | 'dropped-after-apply';
  /** The result text or the error message. */
  message: string;
  status: number | null;
}

export interface SandboxState {
  version: 1;
  accounts: SandboxAccount[];
  sites: SandboxSite[];
  multiMaps: SandboxMultiMap[];
  submissions: SandboxSubmission[];
  renderingQualities: RenderingQualityEntry[];
  mail: MailMessage[];
  pushes: PushAttempt[];
  /** Next site ID handed out by a create (numeric, kept as a number so IDs never repeat). */
  nextSiteId: number;
  /** This run's service calls (newest last, capped); not written to the data file. */
  calls: CallLogEntry[];
}

/** How many call-log entries are kept in memory. */
export const CALL_LOG_LIMIT = 2000;

const isoTime = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'must be an ISO date-time');
const digits = z.string().regex(/^\d{1,18}$/, 'must be digits only');
const text = (max: number) => z.string().max(max);
const coordinate = (limit: number) => z.number().finite().min(-limit).max(limit);

export const httpUrl = z
  .string()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

export const accountSchema = z.object({
  id: z.string().min(1).max(100),
  key: z.string().min(1).max(200),
  name: text(200).default(''),
  callsLeft: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  recipients: z.array(z.string().min(3).max(320)).max(100),
  eusApiUrl: httpUrl.nullable().default(null),
});

const siteSchema = z.object({
  id: digits,
  account: z.string().min(1),
  name: text(200),
  height: z.number().int().min(0).max(10_000),
  latitude: coordinate(90),
  longitude: coordinate(180),
  description: text(2000),
  group: text(100),
  pinStyle: z.literal(PIN_STYLES),
  createdAt: isoTime,
  updatedAt: isoTime,
});

const multiMapSchema = z.object({ id: digits, account: z.string().min(1), name: text(200) });

const submissionSchema = z.object({
  processId: z.string().min(1).max(200),
  account: z.string().min(1),
  name: text(200),
  address: text(500),
  latitude: coordinate(90),
  longitude: coordinate(180),
  multiMapId: digits,
  submittedAt: isoTime,
  processedAt: isoTime,
  reprocessHistory: z.array(z.object({ at: isoTime, fromMultiMapId: digits, toMultiMapId: digits, sendEmail: z.boolean() })),
});

const qualitySchema = z.object({ id: z.number().int(), name: z.string().max(200), error: z.string().max(2000).nullable() });

/** What every record of something the sandbox sent out (an email, an EUS API push) starts with. */
const sentFields = { id: z.number().int(), at: isoTime, account: z.string() };

const mailSchema = z.object({
  ...sentFields,
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  processId: z.string(),
});

const pushSchema = z.object({
  ...sentFields,
  processId: z.string(),
  url: z.string(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  pending: z.boolean(),
  durationMs: z.number().nullable(),
});

export const stateSchema = z
  .object({
    version: z.literal(1),
    accounts: z.array(accountSchema),
    sites: z.array(siteSchema),
    multiMaps: z.array(multiMapSchema),
    submissions: z.array(submissionSchema),
    renderingQualities: z.array(qualitySchema),
    mail: z.array(mailSchema).default([]),
    pushes: z.array(pushSchema).default([]),
    nextSiteId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    // Accepted (and dropped) so a saved /_sandbox/state answer can be posted back to /_sandbox/load.
    calls: z.array(z.unknown()).optional(),
  })
  .superRefine((state, ctx) => {
    const unique = (label: string, path: string, ids: string[]): void => {
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [path], message: `${label} ${id} appears more than once` });
        seen.add(id);
      }
    };
    unique('account', 'accounts', state.accounts.map((a) => a.id));
    unique('site', 'sites', state.sites.map((s) => s.id));
    unique('Multi Map', 'multiMaps', state.multiMaps.map((m) => m.id));
    unique('submission', 'submissions', state.submissions.map((s) => s.processId));
    unique('rendering quality', 'renderingQualities', state.renderingQualities.map((q) => String(q.id)));
    const accounts = new Set(state.accounts.map((a) => a.id));
    const maps = new Set(state.multiMaps.map((m) => m.id));
    state.sites.forEach((site, i) => {
      if (!accounts.has(site.account)) ctx.addIssue({ code: 'custom', path: ['sites', i, 'account'], message: `site ${site.id} belongs to unknown account ${site.account}` });
      if (Number(site.id) >= state.nextSiteId) ctx.addIssue({ code: 'custom', path: ['nextSiteId'], message: `nextSiteId must be above every site ID (site ${site.id})` });
    });
    state.multiMaps.forEach((map, i) => {
      if (!accounts.has(map.account)) ctx.addIssue({ code: 'custom', path: ['multiMaps', i, 'account'], message: `Multi Map ${map.id} belongs to unknown account ${map.account}` });
    });
    state.submissions.forEach((submission, i) => {
      if (!accounts.has(submission.account)) ctx.addIssue({ code: 'custom', path: ['submissions', i, 'account'], message: `submission ${submission.processId} belongs to unknown account ${submission.account}` });
      if (!maps.has(submission.multiMapId)) ctx.addIssue({ code: 'custom', path: ['submissions', i, 'multiMapId'], message: `submission ${submission.processId} is on unknown Multi Map ${submission.multiMapId}` });
    });
  });

/** Checks a state from outside (a file, a POST); throws StateError with every problem listed. */
export function parseState(input: unknown): SandboxState {
  const parsed = stateSchema.safeParse(input);
  if (!parsed.success) throw new StateError(describeIssues(parsed.error.issues));
  return { ...parsed.data, calls: [] } as SandboxState;
}

export class StateError extends Error {
  override name = 'StateError';
}

/** "sites.3.height: Too big…; accounts: account 1 appears more than once" — at most 10 issues. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const shown = issues.slice(0, 10).map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message));
  const more = issues.length > 10 ? `; and ${issues.length - 10} more` : '';
  return shown.join('; ') + more;
}

/** The part of the state that goes to the data file (everything but this run's call log). */
export function persistentView(state: SandboxState): Omit<SandboxState, 'calls'> {
  const { calls: _calls, ...rest } = state;
  return rest;
}

export function cloneState(state: SandboxState): SandboxState {
  return structuredClone(state);
}
