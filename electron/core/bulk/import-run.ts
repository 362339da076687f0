// Applying an import through the core (main process / CLI): the preview has checked every row first
// (invalid rows refuse the whole file unless skipped; nothing is queued before that check is over),
// then the ready rows are read in file order and queued in batches of BATCH_ROWS, each batch ONE
// durable transaction (the entries and the register's records together), and the run follows them
// to the end (apply.ts). A file of up to BATCH_ROWS ready rows is all or nothing, as before; a larger
// one is read from the preview a batch at a time (what the run follows and reports is kept whole);
// more than MAX_IMPORT_ROWS ready rows are refused before any is queued. Stopped while queueing (Ctrl-C, SIGTERM, the page's Cancel), the
// run queues no further batch, keeps the whole batches already saved and says how many: the same
// import again reports them unchanged and queues the rest (rows with a site ID: a create would be
// created again, so the report marks each row queued or cancelled).
import type { PreviewRow, ImportPreview } from '../../shared/bulk/preview';
import { applyBlockers } from '../../shared/bulk/preview';
import { MAX_IMPORT_ROWS, yieldToLoop } from '../../shared/bulk/limits';
import { countStatuses, unqueuedReportRow, type ReportRow, type RunCounts, type RunResult } from '../../shared/bulk/report';
import { follow, refused, siteOutcome, unqueuedOrRefused, type ImportRunOptions, type OutboxPort, type Tracked } from './apply';

/** Ready rows per transaction (the CLI's): what the register and the outbox take at once without a long write. */
export const BATCH_ROWS = 10_000;

/**
 * Rows read from a stored preview at a time, whatever the transaction's size: a row read holds its
 * file values and its checked edit (about 8 KB with 2 KB of notes), and 10,000 read at once took
 * 80 MB of the host's heap in one step while the previous batch's garbage was still there.
 */
const READ_ROWS = 500;

/** An import's rows as a run reads them: the whole preview, or its findings and its rows in batches (a stored preview). */
export type ImportRows = ImportPreview | (Omit<ImportPreview, 'rows'> & { batches(size: number): AsyncIterable<PreviewRow[]> });

async function* batchesOf(preview: ImportRows, size: number): AsyncGenerator<PreviewRow[]> {
  if (!('rows' in preview)) {
    yield* preview.batches(Math.min(size, READ_ROWS));
    return;
  }
  for (let start = 0; start < preview.rows.length; start += size) yield preview.rows.slice(start, start + size);
}

/** Queues every ready row of an import in batches, each one transaction, and follows them. */
export interface ImportBatching {
  /** Ready rows per transaction at most (default BATCH_ROWS). */
  batchRows?: number;
  /**
   * When set, each transaction is sized to take about this long (ms), from the last one's pace: a
   * host answers its API only between two, whatever the disk and the rows' size make them cost.
   */
  batchMs?: number;
  /** Ready rows one import may queue (default MAX_IMPORT_ROWS): past it the import is refused whole. */
  maxRows?: number;
}

/** The first batch when batches are sized by time, and the fewest rows one takes. */
const FIRST_TIMED_BATCH = 200;
const FEWEST_ROWS = 20;

export async function runImport(port: OutboxPort, preview: ImportRows, options: ImportRunOptions & ImportBatching = {}): Promise<RunResult> {
  const now = options.now ?? (() => Date.now());
  const batchRows = options.batchRows ?? BATCH_ROWS;
  let nextBatch = options.batchMs === undefined ? batchRows : Math.min(batchRows, FIRST_TIMED_BATCH);
  const started = now();
  const blockers = applyBlockers(preview as ImportPreview, { skipInvalid: options.skipInvalid === true, maxRows: options.maxRows });
  // Too many rows to hold: counted from the preview, not a report row for each (that alone took
  // 570 MB for 1.23 million rows); the dry run lists them.
  if (preview.summary.ready > (options.maxRows ?? MAX_IMPORT_ROWS)) return { ...refused(blockers, [], started, now), counts: unqueuedCounts(preview.summary) };
  const cancelledFirst = options.signal?.aborted === true;
  if (blockers.length > 0 || cancelledFirst) {
    const rows: ReportRow[] = [];
    for await (const batch of batchesOf(preview, batchRows)) rows.push(...batch.map(unqueuedOrRefused));
    return blockers.length > 0 ? refused(blockers, rows, started, now) : refused(['Cancelled before anything was queued.'], rows, started, now, 'cancelled');
  }

  const unqueued: ReportRow[] = [];
  const tracked: Tracked[] = [];
  let enqueueMs = 0;
  let ready: PreviewRow[] = [];
  let stoppedAt = null as number | null;
  const left: ReportRow[] = [];
  const total = preview.summary.ready;

  const queue = async (): Promise<RunResult | null> => {
    const batch = ready;
    ready = [];
    if (batch.length === 0) return null;
    const enqueueStart = now();
    const paceStart = performance.now();
    const queued = await port.enqueueSites(batch.map((row) => row.edit!));
    const took = performance.now() - paceStart;
    enqueueMs += now() - enqueueStart;
    if (options.batchMs !== undefined) nextBatch = Math.round(Math.min(batchRows, Math.max(FEWEST_ROWS, (batch.length * options.batchMs) / Math.max(took, 1))));
    // The API, timers and a signal's handler get their turn between two transactions.
    await yieldToLoop();
    if (queued.ok) {
      batch.forEach((row, index) => {
        const entry = queued.entries[index]!;
        tracked.push({ entryId: entry.entryId, localId: entry.localId, coalesced: entry.coalesced, row: row.row, action: row.action, name: row.edit!.name ?? '', siteId: row.edit!.siteId ?? '' });
      });
      return null;
    }
    // The core checks again and refuses a batch as a whole: say which rows. With one batch nothing
    // is queued; after earlier batches, those stay queued and are said.
    const byRow = new Map<number, string[]>();
    for (const issue of queued.issues) {
      const row = batch[issue.index]?.row ?? -1;
      byRow.set(row, [...(byRow.get(row) ?? []), issue.message]);
    }
    const rows: ReportRow[] = [...unqueued, ...(await reported(port, tracked))];
    for (const row of batch) rows.push(byRow.has(row.row) ? { ...unqueuedOrRefused(row), status: 'invalid', message: byRow.get(row.row)!.join(' ') } : unqueuedOrRefused(row));
    const blocker = `The outbox refused ${byRow.size} row${byRow.size === 1 ? '' : 's'}; ${tracked.length === 0 ? 'nothing was queued' : `the ${tracked.length} rows queued before them stay queued, nothing after them was`}.`;
    return { ...refused([blocker], rows, started, now), enqueueMs };
  };

  const stop = () => {
    stoppedAt = tracked.length;
    left.push(...ready.map(notQueued));
    ready = [];
  };
  for await (const batch of batchesOf(preview, batchRows)) {
    for (const row of batch) {
      if (stoppedAt !== null) left.push(row.ready ? notQueued(row) : unqueuedReportRow(row));
      else if (row.ready) ready.push(row);
      else unqueued.push(unqueuedReportRow(row));
      if (ready.length < nextBatch) continue;
      if (options.signal?.aborted) {
        stop();
        continue;
      }
      const failed = await queue();
      if (failed) return withRest(failed, preview, row.row);
    }
    // Reading a stored preview's rows costs time too (500 rows, some 4 MB of JSON): a host answers its
    // API between two reads as between two transactions. Several reads could run back to back
    // before a large batch was full — 1.1 s without a getStatus answer on a loaded CI machine.
    if (options.batchMs !== undefined) await yieldToLoop();
  }
  if (stoppedAt === null && options.signal?.aborted) {
    if (tracked.length === 0) return refused(['Cancelled before anything was queued.'], [...unqueued, ...ready.map(notQueued), ...left].sort((a, b) => a.row - b.row), started, now, 'cancelled');
    stop();
  }
  if (stoppedAt === null) {
    const failed = await queue();
    if (failed) return failed;
  }
  if (stoppedAt !== null) {
    const rows = [...unqueued, ...(await reported(port, tracked)), ...left].sort((a, b) => a.row - b.row);
    const stoppedBecause = `Stopped while queueing: ${stoppedAt} of ${total} rows were queued (whole batches of up to ${batchRows}, each saved at once) and stay in the outbox; the other ${total - stoppedAt} were not queued. The same import again reports the queued rows that have a site ID as unchanged and queues the rest; a row without one would be created again (the report marks each row queued or cancelled).`;
    return { outcome: 'stopped', blockers: [], stoppedBecause, rows, counts: countStatuses(rows), enqueueMs, elapsedMs: now() - started };
  }
  return follow(port, tracked, unqueued, { ...options, now }, started, enqueueMs, siteOutcome);
}

/** The counts of a file refused whole, from its preview's summary: its ready rows cancelled, none queued. */
function unqueuedCounts(summary: ImportPreview['summary']): RunCounts {
  const counts = countStatuses([]);
  return { ...counts, total: summary.total, cancelled: summary.ready, invalid: summary.invalid, skipped: summary.skipped, unchanged: summary.unchanged };
}

function notQueued(row: PreviewRow): ReportRow {
  return { row: row.row, siteId: row.edit?.siteId ?? '', name: row.edit?.name ?? '', action: row.action, status: 'cancelled', message: 'Not queued: the run was stopped before this row was queued.' };
}

/** The queued rows as their entries stand now, not followed. */
async function reported(port: OutboxPort, tracked: readonly Tracked[]): Promise<ReportRow[]> {
  const result = await follow(port, [...tracked], [], { follow: false, now: () => 0 }, 0, 0, siteOutcome);
  return result.rows;
}

/** A refused batch after earlier ones: the rows after it in the file are reported too, none of them queued. */
async function withRest(result: RunResult, preview: ImportRows, lastRow: number): Promise<RunResult> {
  const rows = [...result.rows];
  for await (const batch of batchesOf(preview, BATCH_ROWS)) {
    for (const row of batch) if (row.row > lastRow) rows.push(row.ready ? notQueued(row) : unqueuedReportRow(row));
  }
  rows.sort((a, b) => a.row - b.row);
  return { ...result, rows, counts: countStatuses(rows) };
}
