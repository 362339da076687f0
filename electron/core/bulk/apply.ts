// Applying bulk work through the core (main process / CLI): every ready row of an EUS plan goes
// into the outbox in ONE durable batch (an import's rows go in batches: import-run.ts); then the run follows
// the batch's entries to the end, with progress (counts, time left), cancel, and a report row for
// every row of the file. Invariants: nothing is queued when the preview may not be applied (invalid
// rows without skipInvalid, file problems); cancel discards only entries that were not sent and
// reports the rest as they ended; a run never waits on a queue that cannot move (offline, paused).
import type { EusReprocess, SiteEdit } from '../service/types';
import type { EusPlan } from '../../shared/bulk/eus';
import { yieldToLoop } from '../../shared/bulk/limits';
import type { ImportPreview } from '../../shared/bulk/preview';
import { countStatuses, unqueuedReportRow, type BulkProgress, type ReportRow, type RowStatus, type RunResult } from '../../shared/bulk/report';

export type { BulkProgress, RunResult } from '../../shared/bulk/report';

export type EntryState = 'pending' | 'sending' | 'done' | 'failed' | 'needs-review' | 'paused' | 'discarded';

/** What the run needs to know about one outbox entry. */
export interface EntrySnapshot {
  id: string;
  state: EntryState;
  /** For a site entry: the service's site ID once known (a create's new ID). */
  siteId: string | null;
  /** The service's answer, or the problem's sentence. */
  message: string;
  /** Pending behind an earlier entry of its site or submission that a person must act on (failed, needs review): its ID. */
  waitsBehind?: string;
}

/** A batch the core refused as a whole (all or nothing): the issues say which inputs, by position. */
export interface BatchRefusal {
  issues: Array<{ index: number; field: string; message: string }>;
}

/**
 * The slice of the core a bulk run uses. `coreOutboxPort` (./core-port) builds it from the real
 * core; keeping it this small makes the run's rules readable on their own.
 */
export interface OutboxPort {
  /**
   * One durable append for all edits (all or nothing); resolves after they are on disk, in input
   * order. `coalesced`: the edit was merged into an edit of the same site that was already queued.
   */
  enqueueSites(edits: readonly SiteEdit[]): Promise<{ ok: true; entries: Array<{ entryId: string; localId: string; coalesced: boolean }> } | ({ ok: false } & BatchRefusal)>;
  /** One durable append for all requests (all or nothing), in input order. */
  /** `emailAgain`: the process IDs a person chose to email again although emailed in the last 24 h; the core's guard stops any other. */
  enqueueReprocesses(requests: readonly EusReprocess[], emailAgain: readonly string[]): Promise<{ ok: true; entries: Array<{ entryId: string }> } | ({ ok: false } & BatchRefusal)>;
  /** The entry now, or null when it no longer exists. */
  entry(entryId: string): EntrySnapshot | null;
  /** Removes an entry that has not been sent; false when it is being sent or already ended. */
  discard(entryId: string): Promise<boolean>;
  /** Called with the entry's ID on every change of an entry, and with null on a status change. Returns the unsubscribe. */
  subscribe(listener: (entryId: string | null) => void): () => void;
  /** Asks the sync engine to send what is due now. */
  requestSync(): void;
  /** Why queued entries cannot move now (offline, quota used up, key rejected), or null. */
  blockedReason(): string | null;
}

export interface RunOptions {
  /** Follow the batch until it settles (default true). False: queue and return, rows reported 'queued'. */
  follow?: boolean;
  onProgress?: (progress: BulkProgress) => void;
  /** Aborting cancels: unsent entries of the batch are discarded. */
  signal?: AbortSignal;
  /**
   * Aborting stops following without cancelling (the app is closing): what is queued stays queued
   * and is reported as it stands, with the reason.
   */
  detach?: AbortSignal;
  now?: () => number;
  /** How often the run re-checks the entries besides the change events (ms, default 1000). */
  pollMs?: number;
}

export interface ImportRunOptions extends RunOptions {
  skipInvalid?: boolean;
}

export interface Tracked {
  entryId: string;
  row: number;
  action: string;
  name: string;
  siteId: string;
  localId?: string;
  /** Merged into an edit queued before the run: not the run's to cancel. */
  coalesced?: boolean;
  /** Discarded by this run's cancel. */
  cancelled?: boolean;
  /** The last snapshot seen, kept so an entry that ended and later left the outbox's history is still reported. */
  last?: EntrySnapshot;
}

/** Queues every ready row of an EUS plan in one batch and follows it (refused when rows are invalid, unless skipInvalid). */
export async function runReprocess(port: OutboxPort, plan: EusPlan, options: ImportRunOptions = {}): Promise<RunResult> {
  const now = options.now ?? (() => Date.now());
  const started = now();
  const unqueued: ReportRow[] = plan.rows
    .filter((row) => !row.ready)
    .map((row) => ({
      row: row.row,
      siteId: row.processId,
      name: submissionLabel(row.values),
      action: 'reprocess',
      status: row.sameAsRow !== undefined || row.heldBack ? 'skipped' : 'invalid',
      message:
        row.sameAsRow !== undefined
          ? `Same process ID as row ${row.sameAsRow}; reprocessed once.`
          : row.heldBack
            ? heldBackMessage(row.recentEmail ?? '')
            : row.issues.map((issue) => issue.message).join(' ') || plan.problems.join(' '),
    }));
  const ready = plan.rows.filter((row) => row.ready);
  const notQueued = (): ReportRow[] => [
    ...unqueued,
    ...ready.map((row) => ({ row: row.row, siteId: row.processId, name: submissionLabel(row.values), action: 'reprocess', status: 'cancelled' as const, message: 'Not queued: the plan was refused as a whole.' })),
  ];
  if (plan.problems.length > 0) return refused(plan.problems, notQueued(), started, now);
  if (plan.summary.invalid > 0 && options.skipInvalid !== true) {
    const count = plan.summary.invalid;
    return refused([`${count} row${count === 1 ? ' is' : 's are'} invalid; fix ${count === 1 ? 'it' : 'them'} or choose to skip invalid rows. Nothing was queued.`], notQueued(), started, now);
  }
  if (options.signal?.aborted) return refused(['Cancelled before anything was queued.'], notQueued(), started, now, 'cancelled');
  const enqueueStart = now();
  const emailAgain = ready.filter((row) => row.emailAgain).map((row) => row.request!.processId);
  const queued = ready.length > 0 ? await port.enqueueReprocesses(ready.map((row) => row.request!), emailAgain) : { ok: true as const, entries: [] };
  const enqueueMs = now() - enqueueStart;
  if (!queued.ok) {
    const blockers = queued.issues.map((issue) => `Row ${ready[issue.index]?.row ?? '?'}: ${issue.message}`);
    return refused(blockers, notQueued(), started, now);
  }
  const tracked: Tracked[] = ready.map((row, index) => ({
    entryId: queued.entries[index]!.entryId,
    row: row.row,
    action: 'reprocess',
    name: submissionLabel(row.values),
    siteId: row.processId,
  }));
  return follow(port, tracked, unqueued, { ...options, now }, started, enqueueMs, reprocessOutcome);
}

/** Why a row was left out of an emailing run: its recipients were emailed (or are about to be) within 24 h. */
export function heldBackMessage(recentEmail: string): string {
  const standing = recentEmail ? `${recentEmail.charAt(0).toLowerCase()}${recentEmail.slice(1)}` : 'emailed';
  return `Left out: ${standing}, within the last 24 hours; reprocessing it with email would email its recipients again.`;
}

/** What identifies a submission to a person: its name, else its address. */
export function submissionLabel(values: Record<string, string>): string {
  for (const [key, value] of Object.entries(values)) {
    if (/^(name|customer|customer name|full name)$/i.test(key.trim()) && value) return value;
  }
  for (const [key, value] of Object.entries(values)) {
    if (/address/i.test(key) && value) return value;
  }
  return '';
}

export function unqueuedOrRefused(row: ImportPreview['rows'][number]): ReportRow {
  if (!row.ready) return unqueuedReportRow(row);
  return { row: row.row, siteId: row.edit?.siteId ?? '', name: row.edit?.name ?? '', action: row.action, status: 'cancelled', message: 'Not queued: the file was refused as a whole.' };
}

export function refused(blockers: string[], rows: ReportRow[], started: number, now: () => number, outcome: 'refused' | 'cancelled' = 'refused'): RunResult {
  return { outcome, blockers, rows, counts: countStatuses(rows), enqueueMs: 0, elapsedMs: now() - started };
}

export type Outcome = (tracked: Tracked, entry: EntrySnapshot) => { status: RowStatus; message: string; siteId: string };

export function siteOutcome(tracked: Tracked, entry: EntrySnapshot): { status: RowStatus; message: string; siteId: string } {
  const siteId = entry.siteId ?? tracked.siteId;
  if (entry.state === 'done') {
    return tracked.action === 'create'
      ? { status: 'created', siteId, message: siteId ? `Created as site ${siteId}.` : `Created (${entry.message}).` }
      : { status: 'updated', siteId, message: entry.message || `Site ${siteId} updated.` };
  }
  return commonOutcome(tracked, entry, siteId);
}

function reprocessOutcome(tracked: Tracked, entry: EntrySnapshot): { status: RowStatus; message: string; siteId: string } {
  if (entry.state === 'done') return { status: 'reprocessed', siteId: tracked.siteId, message: entry.message || 'Reprocessed.' };
  return commonOutcome(tracked, entry, tracked.siteId);
}

function commonOutcome(tracked: Tracked, entry: EntrySnapshot, siteId: string): { status: RowStatus; message: string; siteId: string } {
  switch (entry.state) {
    case 'failed':
      return { status: 'failed', siteId, message: entry.message };
    case 'needs-review':
      return { status: 'needs-review', siteId, message: `${entry.message} It may or may not have been applied: check the service, then resolve or resend it in the outbox.` };
    case 'paused':
      return { status: 'paused', siteId, message: `Held in the outbox: ${entry.message}` };
    case 'discarded':
      return tracked.cancelled
        ? { status: 'cancelled', siteId, message: 'Removed from the outbox before it was sent.' }
        : { status: 'cancelled', siteId, message: 'Removed from the outbox (discarded) before it was sent.' };
    default:
      return {
        status: 'queued',
        siteId,
        message: tracked.coalesced
          ? 'Merged into an edit of this site that was already waiting in the outbox; it goes with that edit.'
          : 'Waiting in the outbox; it will be sent when the service is reachable.',
      };
  }
}

/** Entries discarded together when a run is cancelled, before the event loop gets a turn. */
const DISCARD_AT_ONCE = 200;

const ENDED: ReadonlySet<EntryState> = new Set(['done', 'failed', 'needs-review', 'discarded']);
const DISCARDED = (id: string): EntrySnapshot => ({ id, state: 'discarded', siteId: null, message: '' });

export async function follow(
  port: OutboxPort,
  tracked: Tracked[],
  unqueued: ReportRow[],
  options: RunOptions & { now: () => number },
  started: number,
  enqueueMs: number,
  outcome: Outcome,
): Promise<RunResult> {
  const { now } = options;
  const followStart = now();
  const byEntry = new Map<string, Tracked[]>();
  for (const item of tracked) byEntry.set(item.entryId, [...(byEntry.get(item.entryId) ?? []), item]);

  const refresh = (item: Tracked): EntrySnapshot => {
    if (item.cancelled) return DISCARDED(item.entryId);
    // An entry that ended stays as it ended, even if the outbox later drops it from its history.
    if (item.last && ENDED.has(item.last.state)) return item.last;
    item.last = port.entry(item.entryId) ?? DISCARDED(item.entryId);
    return item.last;
  };
  for (const item of tracked) refresh(item);

  let cancelling = false;
  const progress = (): BulkProgress => {
    const p: BulkProgress = { total: tracked.length, done: 0, failed: 0, needsReview: 0, paused: 0, pending: 0, sending: 0, cancelled: 0, elapsedMs: now() - followStart, etaMs: null, cancelling };
    for (const item of tracked) {
      const state = item.cancelled ? 'discarded' : item.last!.state;
      if (state === 'done') p.done++;
      else if (state === 'failed') p.failed++;
      else if (state === 'needs-review') p.needsReview++;
      else if (state === 'paused') p.paused++;
      else if (state === 'sending') p.sending++;
      else if (state === 'discarded') p.cancelled++;
      else p.pending++;
    }
    const ended = p.done + p.failed + p.needsReview;
    const remaining = p.pending + p.sending;
    if (remaining === 0) p.etaMs = 0;
    else if (ended > 0 && !cancelling) p.etaMs = Math.round((p.elapsedMs / ended) * remaining);
    return p;
  };

  let stoppedBecause: string | undefined;
  let outcomeKind: RunResult['outcome'];
  if (tracked.length === 0) outcomeKind = 'completed';
  else if (options.follow === false) {
    outcomeKind = 'queued';
    options.onProgress?.(progress());
  } else {
    outcomeKind = await new Promise<RunResult['outcome']>((resolve) => {
      let finished = false;
      let lastReported = '';
      let scheduled: ReturnType<typeof setTimeout> | null = null;
      let discarding = false;

      const finish = (kind: RunResult['outcome']) => {
        if (finished) return;
        finished = true;
        unsubscribe();
        clearInterval(timer);
        if (scheduled) clearTimeout(scheduled);
        options.signal?.removeEventListener('abort', onAbort);
        options.detach?.removeEventListener('abort', onDetach);
        resolve(kind);
      };
      const check = () => {
        scheduled = null;
        if (finished) return;
        const p = progress();
        const key = `${p.done}/${p.failed}/${p.needsReview}/${p.paused}/${p.pending}/${p.sending}/${p.cancelled}/${p.cancelling}`;
        if (key !== lastReported) {
          lastReported = key;
          options.onProgress?.(p);
        }
        const open = tracked.filter((item) => !item.cancelled && !ENDED.has(item.last!.state));
        if (open.length === 0) return finish(cancelling ? 'cancelled' : 'completed');
        if (cancelling) {
          // What is left is in flight, merged into an earlier edit, or refused by the core's discard.
          if (!discarding && open.every((item) => item.coalesced || item.last!.state !== 'sending')) return finish('cancelled');
          return;
        }
        if (p.sending === 0) {
          const blocked = port.blockedReason();
          if (blocked !== null || (p.pending === 0 && p.paused > 0)) {
            stoppedBecause = blocked ?? 'The outbox is paused.';
            return finish('stopped');
          }
          // Every row left waits behind an entry a person must act on first: waiting longer changes nothing.
          const behind = open.find((item) => item.last!.waitsBehind !== undefined)?.last!.waitsBehind;
          if (behind !== undefined && open.every((item) => item.last!.waitsBehind !== undefined)) {
            const rows = open.length === 1 ? 'The row left waits' : `The ${open.length} rows left wait`;
            stoppedBecause = `${rows} behind an earlier entry of the same site or submission that failed or needs review (${behind}): retry, correct or discard that entry in the outbox ("sitewalk outbox" on the command line) and what waits behind it goes.`;
            return finish('stopped');
          }
        }
      };
      // Changes arrive one entry at a time (20,000 for a 10,000-row run): update that entry now,
      // look at the whole batch at most every 50 ms.
      const schedule = () => {
        if (!scheduled && !finished) scheduled = setTimeout(check, 50);
      };
      const discardUnsent = async () => {
        if (discarding) return;
        discarding = true;
        // A few hundred at once (the core takes each entry out of the queue before its write and
        // commits concurrent writes together), the event loop turning between: the API answers
        // while 10,000 are taken out.
        const unsent = tracked.filter((item) => !item.coalesced && !item.cancelled && ['pending', 'paused'].includes(refresh(item).state));
        for (let start = 0; start < unsent.length; start += DISCARD_AT_ONCE) {
          await Promise.all(
            unsent.slice(start, start + DISCARD_AT_ONCE).map(async (item) => {
              if (await port.discard(item.entryId)) item.cancelled = true;
              else refresh(item);
            }),
          );
          await yieldToLoop();
        }
        discarding = false;
        schedule();
      };
      const onAbort = () => {
        cancelling = true;
        void discardUnsent();
      };
      const unsubscribe = port.subscribe((entryId) => {
        if (entryId !== null) for (const item of byEntry.get(entryId) ?? []) refresh(item);
        schedule();
      });
      // A safety net for a change without an event, and for the blocked check (a status that only changes with time).
      const timer = setInterval(() => {
        for (const item of tracked) refresh(item);
        schedule();
      }, options.pollMs ?? 1000);
      // Not unref'd: in the CLI this run may be all that keeps the process alive (the core's own timers
      // are unref'd so an app can quit); without it Node exited 0 mid-run, no summary, no report.
      const onDetach = () => {
        stoppedBecause = 'Sitewalk stopped following the run; the rest waits in the outbox and is sent from there.';
        finish('stopped');
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.detach?.aborted) return onDetach();
      options.detach?.addEventListener('abort', onDetach, { once: true });
      port.requestSync();
      schedule();
    });
  }

  const rows: ReportRow[] = [...unqueued];
  for (const item of tracked) {
    const entry = refresh(item);
    const result = outcome(item, entry);
    const reportRow: ReportRow = { row: item.row, siteId: result.siteId, name: item.name, action: item.action, status: result.status, message: result.message, entryId: item.entryId };
    if (item.localId !== undefined) reportRow.localId = item.localId;
    if (result.status === 'queued' && stoppedBecause && !item.coalesced) reportRow.message = `Waiting in the outbox: ${stoppedBecause}`;
    rows.push(reportRow);
  }
  rows.sort((a, b) => a.row - b.row);
  const result: RunResult = { outcome: outcomeKind, blockers: [], rows, counts: countStatuses(rows), enqueueMs, elapsedMs: now() - started };
  if (stoppedBecause !== undefined) result.stoppedBecause = stoppedBecause;
  return result;
}
