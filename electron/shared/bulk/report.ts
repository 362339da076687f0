// The row-by-row result of a bulk run, as data and as CSV (row, site ID, status, message): what
// office staff keep next to the spreadsheet they imported. Every row of the file appears exactly
// once, including invalid, skipped and unchanged ones. Pure and browser-safe.
import Papa from 'papaparse';
import { guardFormula } from './export';
import type { ImportPreview, PreviewRow } from './preview';

/**
 * created / updated: the service accepted it (siteId is the service's ID, new for a create);
 * reprocessed: an EUS submission was reprocessed;
 * unchanged: the register already held these values, nothing was sent;
 * invalid / skipped: never queued (message says why);
 * failed: the service refused it; needs-review: it may or may not have been applied, a person must check;
 * paused: queued but held (quota used up or key rejected); queued: waiting in the outbox (offline, or not followed);
 * would-queue: a dry run's row that a real run would queue (a dry run queues nothing, so never 'queued');
 * cancelled: removed from the outbox before it was sent.
 */
export type RowStatus =
  | 'created'
  | 'updated'
  | 'reprocessed'
  | 'unchanged'
  | 'invalid'
  | 'skipped'
  | 'failed'
  | 'needs-review'
  | 'paused'
  | 'queued'
  | 'would-queue'
  | 'cancelled';

export interface ReportRow {
  row: number;
  /** The service's site ID (for EUS runs: the process ID); '' when there is none (yet). */
  siteId: string;
  /** The site's name, or for EUS runs the submission's name/address, to recognise the row. */
  name: string;
  action: string;
  status: RowStatus;
  message: string;
  /** The outbox entry that carried the row, when it was queued. */
  entryId?: string;
  /** The register's local ID of the site (import runs). */
  localId?: string;
}

export interface RunCounts {
  total: number;
  created: number;
  updated: number;
  reprocessed: number;
  unchanged: number;
  invalid: number;
  skipped: number;
  failed: number;
  needsReview: number;
  paused: number;
  queued: number;
  wouldQueue: number;
  cancelled: number;
}

export function countStatuses(rows: readonly ReportRow[]): RunCounts {
  const counts: RunCounts = { total: rows.length, created: 0, updated: 0, reprocessed: 0, unchanged: 0, invalid: 0, skipped: 0, failed: 0, needsReview: 0, paused: 0, queued: 0, wouldQueue: 0, cancelled: 0 };
  for (const row of rows) {
    if (row.status === 'needs-review') counts.needsReview++;
    else if (row.status === 'would-queue') counts.wouldQueue++;
    else counts[row.status]++;
  }
  return counts;
}

/** Whether a run counts as fully successful: nothing invalid, failed, held, waiting or cancelled. */
export function runSucceeded(counts: RunCounts): boolean {
  return counts.invalid + counts.failed + counts.needsReview + counts.paused + counts.queued + counts.cancelled === 0;
}

/** Report rows for rows that were never queued (invalid, skipped, unchanged), from the preview. */
export function unqueuedReportRow(row: PreviewRow): ReportRow {
  const name = row.edit?.name ?? row.input.name ?? row.label ?? '';
  const siteId = row.edit?.siteId ?? row.input.siteId ?? '';
  if (row.action === 'skip') return { row: row.row, siteId, name, action: 'skip', status: 'skipped', message: row.skipReason ?? 'Not a site.' };
  if (row.issues.length > 0) {
    return { row: row.row, siteId, name, action: row.action, status: 'invalid', message: row.issues.map((issue) => issue.message).join(' ') };
  }
  return { row: row.row, siteId, name, action: 'unchanged', status: 'unchanged', message: 'The register already has these values; nothing was sent.' };
}

/** The dry-run report: what would happen to each row. */
export function dryRunReport(preview: ImportPreview): ReportRow[] {
  return preview.rows.map(dryRunReportRow);
}

/** One row of a dry run's report: what a run would do with it. */
export function dryRunReportRow(row: PreviewRow): ReportRow {
  if (!row.ready) return unqueuedReportRow(row);
  return {
    row: row.row,
    siteId: row.edit?.siteId ?? '',
    name: row.edit?.name ?? '',
    action: row.action,
    status: 'would-queue',
    message: withWarnings(row.action === 'create' ? 'Would create a new site.' : `Would change ${row.changes ? row.changes.join(', ') : 'the site'}.`, row.warnings),
  };
}

/** A row's message followed by what the preview warned about its values (a height rounded, a DMS reading, a site already there). */
function withWarnings(message: string, warnings: readonly string[]): string {
  return warnings.length > 0 ? `${message} ${warnings.join(' ')}` : message;
}

/**
 * Gives a run's report lines the preview's warnings, as the dry run's lines have them: a run said
 * only "Site 100003 updated." where its 40 ft were sent as 12 m. `rows` is a run's report (sorted
 * by row), changed in place; `previewRows` any of the preview's rows. Returns the rows given warnings.
 */
export function addRunWarnings(rows: ReportRow[], previewRows: readonly PreviewRow[]): number[] {
  const given: number[] = [];
  for (const previewRow of previewRows) {
    if (!previewRow.ready || previewRow.warnings.length === 0) continue;
    const index = indexOfRow(rows, previewRow.row);
    if (index < 0) continue;
    rows[index] = { ...rows[index]!, message: withWarnings(rows[index]!.message, previewRow.warnings) };
    given.push(previewRow.row);
  }
  return given;
}

/** Where row `row` is in report lines sorted by row, or -1. */
function indexOfRow(rows: readonly ReportRow[], row: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = rows[middle]!.row;
    if (at === row) return middle;
    if (at < row) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

export const REPORT_HEADERS = ['row', 'siteId', 'name', 'action', 'status', 'message'] as const;

/** The report as CSV (CRLF, formula-guarded text), sorted by row. */
export function reportCsv(rows: readonly ReportRow[], options: { bom?: boolean } = {}): string {
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  return `${reportCsvHeader(options)}${reportCsvLines(sorted)}`;
}

/** The report CSV's first line (after a byte-order mark when asked for): the start of a report written a piece at a time. */
export function reportCsvHeader(options: { bom?: boolean } = {}): string {
  return `${options.bom ? '\uFEFF' : ''}${Papa.unparse([[...REPORT_HEADERS]], { newline: '\r\n' })}\r\n`;
}

/** Report rows as CSV lines, each ending in CRLF, in the order given. */
export function reportCsvLines(rows: readonly ReportRow[]): string {
  if (rows.length === 0) return '';
  const data = rows.map((row) => [String(row.row), guardFormula(row.siteId), guardFormula(row.name), row.action, row.status, guardFormula(row.message)]);
  return `${Papa.unparse(data, { newline: '\r\n' })}\r\n`;
}

/** Counts and time left of a bulk run while its batch is sent. */
export interface BulkProgress {
  /** Entries in the batch. */
  total: number;
  done: number;
  failed: number;
  needsReview: number;
  paused: number;
  pending: number;
  sending: number;
  cancelled: number;
  elapsedMs: number;
  /** Estimated time until every entry has ended, from the pace so far; null until one has. */
  etaMs: number | null;
  cancelling: boolean;
}

/** How a bulk run ended. */
export interface RunResult {
  /** refused: nothing was queued (see `blockers`). */
  outcome: 'completed' | 'refused' | 'cancelled' | 'stopped' | 'queued';
  blockers: string[];
  /** Why the run stopped following a queue that cannot move. */
  stoppedBecause?: string;
  rows: ReportRow[];
  counts: RunCounts;
  /** Milliseconds spent on the durable enqueue of the batch. */
  enqueueMs: number;
  elapsedMs: number;
}
