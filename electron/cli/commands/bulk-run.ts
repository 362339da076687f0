// What `sitewalk import` and `sitewalk reprocess-bulk` share: the exit codes, reading the input
// file, repeatable options, the progress line with Ctrl-C to cancel, and how a dry run or a run
// ends (report file, counts sentence, the JSON document, the exit code).
import type { BulkProgress, RunResult } from '../../core/bulk/apply';
import { checkInputFile, readInputFile, writeTextFile } from '../../core/bulk/files';
import type { PreviewRow } from '../../shared/bulk/preview';
import { addRunWarnings, dryRunReportRow, reportCsvHeader, reportCsvLines, runSucceeded, type ReportRow, type RowStatus, type RunCounts } from '../../shared/bulk/report';
import { terminalProgress } from '../bulk/progress';
import { CliExit, fail, printJsonWithRows, table, whoSends, type CliIo, type CommonFlags } from '../io';
import { againWords, onFirstStopSignal } from '../signals';
import type { CoreCommandOptions } from './context';

export const BULK_EXIT = { ok: 0, rows: 1, usage: 2, file: 3 } as const;

export const EXIT_HELP = [
  '',
  'Exit codes: 0 everything done; 1 some rows invalid, failed, held, waiting or cancelled (nothing is',
  'queued when invalid rows are refused); 2 usage error; 3 the file cannot be read or understood, or the',
  'report (--report) cannot be written (then the JSON document has reportError); 130 or 143 stopped by',
  'Ctrl-C or SIGTERM before anything was queued, or by a second one (quit at once).',
].join('\n');

export interface BulkCommandOptions extends CoreCommandOptions {
  /** Arms cancelling (default: the first Ctrl-C); returns the disarm function. */
  interrupt?: (cancel: () => void) => () => void;
}

/** The flags every bulk run has. */
export interface RunFlags extends CommonFlags {
  report?: string;
  skipInvalid?: boolean;
  wait: boolean;
  /** Set by the command once it has run: the app (which sends by itself) has the data folder open. */
  appOpen?: boolean;
}

/** A queued row's sentence from the run (apply.ts), true only of a run that waited and was stopped by an unreachable service. */
const WAITING_FOR_SERVICE = 'Waiting in the outbox; it will be sent when the service is reachable.';

/** Commander's reader for a repeatable option (--mapping, --default, --filter): every value, in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Ctrl-C or SIGTERM once: stop — no further batch is queued while an import queues its rows, and
 * once they are queued the rows not yet sent are taken out of the outbox. Twice: quit now, 130 or 143
 * (signals.ts; nothing is half-saved: every batch is one transaction).
 */
export function onFirstSigint(io: CliIo): (cancel: () => void) => () => void {
  return (cancel) =>
    onFirstStopSignal((signal) => {
      io.stderr(
        `\nCancelling (${signal}): rows not yet queued will not be; once every row is queued, those not yet sent are taken out of the outbox (${againWords(signal)} again to quit at once)…\n`,
      );
      cancel();
    });
}

export async function readOrExit(io: CliIo, flags: CommonFlags, file: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  const read = await readInputFile(file);
  if (!read.ok) fail(io, flags, read.message, { kind: 'file', file }, BULK_EXIT.file);
  return read;
}

/** The file's name once it is known to be readable (the import's worker reads it), or exit 3 with why not. */
export async function checkOrExit(io: CliIo, flags: CommonFlags, file: string): Promise<{ fileName: string }> {
  const checked = await checkInputFile(file);
  if (!checked.ok) fail(io, flags, checked.message, { kind: 'file', file }, BULK_EXIT.file);
  return checked;
}

/** Rows shown in the human table at most; the report file (--report) and --json have every row. */
const SHOWN_ROWS = 1000;

/** 0: did not go through (invalid, failed, waiting…); 1: went with a warning; 2: left alone (unchanged, skipped). */
type Tier = 0 | 1 | 2;

/** A row's tier by its status alone, or null when it went (or would go) as written. */
function tierOf(status: RowStatus): Tier | null {
  if (status === 'created' || status === 'updated' || status === 'reprocessed' || status === 'would-queue') return null;
  return status === 'unchanged' || status === 'skipped' ? 2 : 0;
}

/**
 * The rows a person should look at, for the human table: the most pressing first (what did not go
 * through, then what went with a warning — a height rounded, a DMS reading, a site already at the
 * position —, then what was left alone), each in file order, SHOWN_ROWS at most.
 */
class AttentionRows {
  private readonly tiers: ReportRow[][] = [[], [], []];
  private total = 0;

  add(row: ReportRow, tier: Tier): void {
    this.total++;
    if (this.tiers[tier]!.length < SHOWN_ROWS) this.tiers[tier]!.push(row);
  }

  /** Adds the row unless its status says it went as written. */
  addByStatus(row: ReportRow): void {
    const tier = tierOf(row.status);
    if (tier !== null) this.add(row, tier);
  }

  table(): string {
    const shown = this.tiers.flat().slice(0, SHOWN_ROWS);
    if (shown.length === 0) return '';
    const more = this.total - shown.length;
    const text = table([['row', 'status', 'site', 'message'], ...shown.map((row) => [String(row.row), row.status, row.siteId || row.name, row.message.replace(/\s+/g, ' ')])]);
    return more > 0 ? `${text}\n… and ${more} more row${more === 1 ? '' : 's'} (the report file, --report, has every row)` : text;
  }
}

/** The preview's rows with warnings (an import's), to go with their report rows: `sitewalk import` gives them. */
export type WarnedRows = () => AsyncIterable<PreviewRow[]>;

/** Report rows given a batch at a time: a stored preview's, or rows in memory as one batch. */
export type ReportRows = () => AsyncIterable<ReportRow[]>;

/** Rows in memory, handed on a few thousand at a time (a JSON document of a million rows is never one string). */
function inPieces(rows: readonly ReportRow[]): AsyncIterable<ReportRow[]> {
  return (async function* () {
    for (let start = 0; start < rows.length; start += 5000) yield rows.slice(start, start + 5000);
  })();
}

export function inOneBatch(rows: ReportRow[]): ReportRows {
  return async function* () {
    yield rows;
  };
}

/** The counts in words; the rows of a refused run were not queued, not cancelled. */
function countsSentence(c: RunCounts, refused = false): string {
  const parts = [
    c.created && `${c.created} created`,
    c.updated && `${c.updated} updated`,
    c.reprocessed && `${c.reprocessed} reprocessed`,
    c.unchanged && `${c.unchanged} unchanged`,
    c.invalid && `${c.invalid} invalid`,
    c.skipped && `${c.skipped} skipped`,
    c.failed && `${c.failed} failed`,
    c.needsReview && `${c.needsReview} need review`,
    c.paused && `${c.paused} held`,
    c.queued && `${c.queued} queued`,
    c.wouldQueue && `${c.wouldQueue} would be queued`,
    c.cancelled && `${c.cancelled} ${refused ? 'not queued' : 'cancelled'}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'nothing to do';
}

/** Writes the --report file; returns why it could not be written, or null (written, or none asked for). */
async function writeReport(io: CliIo, command: string, path: string | undefined, rows: ReportRows): Promise<string | null> {
  if (!path) return null;
  const pieces = async function* () {
    yield reportCsvHeader({ bom: true });
    // In file order already (the preview's order), so each batch is written as it comes.
    for await (const batch of rows()) yield reportCsvLines([...batch].sort((a, b) => a.row - b.row));
  };
  const written = await writeTextFile(path, pieces());
  if (written.ok) return null;
  io.stderr(`sitewalk ${command}: the report was not written: ${written.message}\n`);
  return written.message;
}

/** The report asked for could not be written: exit 3 (the output file), whatever the rows did; else 1 when not ok. */
function exitFor(ok: boolean, reportError: string | null): void {
  if (reportError !== null) throw new CliExit(BULK_EXIT.file);
  if (!ok) throw new CliExit(BULK_EXIT.rows);
}

/** The document's report fields: the file asked for, and why it was not written. */
function reportFields(flags: RunFlags, reportError: string | null): Record<string, unknown> {
  return { ...(flags.report ? { report: flags.report } : {}), ...(reportError !== null ? { reportError } : {}) };
}

/**
 * Runs a send with the progress line drawn (redrawn in place when stderr is a terminal) and
 * cancelling armed: the first Ctrl-C unless the options say otherwise.
 */
export async function sendWithProgress(
  io: CliIo,
  options: BulkCommandOptions,
  verb: string,
  send: (signal: AbortSignal, onProgress: (progress: BulkProgress) => void) => Promise<RunResult>,
): Promise<RunResult> {
  const printer = terminalProgress(io.stderr, io.stderrIsTty === true, verb);
  const controller = new AbortController();
  const interrupt = options.interrupt ?? onFirstSigint(io);
  const release = interrupt(() => controller.abort());
  try {
    return await send(controller.signal, (progress) => printer.update(progress));
  } finally {
    release();
    printer.done();
  }
}

/**
 * Ends a dry run: the report file, the summary sentence, the document (its rows written a batch at a
 * time); exit 1 when some rows are invalid, 3 when the report cannot be written. The human table
 * shows the rows that need a look, those with warnings (`warned`) among them.
 */
export async function finishDryRun(io: CliIo, flags: RunFlags, command: string, base: Record<string, unknown>, rows: ReportRows, sentence: string, ok: boolean, warned?: WarnedRows): Promise<void> {
  const reportError = await writeReport(io, command, flags.report, rows);
  io.stderr(`sitewalk ${command}: ${sentence}\n`);
  const document = { ok: ok && reportError === null, ...base, dryRun: true, ...reportFields(flags, reportError) };
  if (flags.json) await printJsonWithRows(io, document, rows());
  else {
    const attention = new AttentionRows();
    for await (const batch of rows()) for (const row of batch) attention.addByStatus(row);
    if (warned) {
      for await (const batch of warned()) for (const row of batch) if (row.ready && row.warnings.length > 0) attention.add(dryRunReportRow(row), 1);
    }
    const text = attention.table();
    if (text !== '') io.stdout(`${text}\n`);
  }
  exitFor(ok, reportError);
}

/**
 * Ends a run: the report file, the blockers, the counts sentence, the document; exit 1 unless every
 * row was done, 3 when the report cannot be written. `complete` false: rows were asked for that the
 * run left out on purpose. `warned`: the preview's rows with warnings, said in their rows as the dry
 * run says them.
 */
export async function finishRun(io: CliIo, flags: RunFlags, command: string, base: Record<string, unknown>, ran: RunResult, complete = true, warned?: WarnedRows): Promise<void> {
  // With --no-wait the rows are queued on purpose and the service was not asked: say who sends them.
  const queuedRow = flags.appOpen ? 'Queued; the app sends it (it has this data folder open), or "sitewalk sync".' : 'Queued; "sitewalk sync" sends it.';
  const result = flags.wait ? ran : { ...ran, rows: ran.rows.map((row) => (row.status === 'queued' && row.message === WAITING_FOR_SERVICE ? { ...row, message: queuedRow } : row)) };
  const withWarnings = new Set<number>();
  if (warned && result.rows.length > 0) {
    for await (const batch of warned()) for (const row of addRunWarnings(result.rows, batch)) withWarnings.add(row);
  }
  const reportError = await writeReport(io, command, flags.report, () => inPieces(result.rows));
  const blockers = result.blockers.map(inCliWords);
  for (const blocker of blockers) io.stderr(`sitewalk ${command}: ${blocker}\n`);
  // Said once: "Stopped while queueing: …" already says it stopped.
  if (result.stoppedBecause) io.stderr(`sitewalk ${command}: ${/^stopped\b/i.test(result.stoppedBecause) ? '' : 'stopped waiting: '}${result.stoppedBecause}\n`);
  if (result.outcome === 'queued') io.stderr(`sitewalk ${command}: queued. ${whoSends(flags.appOpen === true)}\n`);
  const refused = result.outcome === 'refused';
  io.stderr(`sitewalk ${command}: ${countsSentence(result.counts, refused)}.\n`);
  // With --no-wait, rows left queued are the outcome asked for.
  const counts = flags.wait ? result.counts : { ...result.counts, queued: 0 };
  const ok = !refused && runSucceeded(counts) && reportError === null && complete;
  const document = {
    ok,
    ...base,
    dryRun: false,
    outcome: result.outcome,
    ...(blockers.length > 0 ? { blockers } : {}),
    ...(result.stoppedBecause ? { stoppedBecause: result.stoppedBecause } : {}),
    counts: result.counts,
    enqueueMs: Math.round(result.enqueueMs),
    elapsedMs: Math.round(result.elapsedMs),
    ...reportFields(flags, reportError),
  };
  if (flags.json) await printJsonWithRows(io, document, inPieces(result.rows));
  else {
    // A refused file's valid rows are one line under the rows that made it refused, not a thousand.
    const notQueued = refused ? result.counts.cancelled : 0;
    const attention = new AttentionRows();
    for (const row of result.rows) {
      if (notQueued > 0 && row.status === 'cancelled') continue;
      const tier = tierOf(row.status);
      if (tier !== null) attention.add(row, tier);
      else if (withWarnings.has(row.row)) attention.add(row, 1);
    }
    const lines = [attention.table()];
    if (notQueued > 0) {
      const fix = result.counts.invalid > 0 && flags.skipInvalid !== true ? '; fix the invalid rows above or add --skip-invalid' : '';
      lines.push(`${notQueued.toLocaleString('en')} valid row${notQueued === 1 ? '' : 's'} not queued: the file was refused as a whole${fix}.`);
    }
    const text = lines.filter((line) => line !== '').join('\n');
    if (text !== '') io.stdout(`${text}\n`);
  }
  exitFor(ok, reportError);
}

/** A blocker as the command line says it: the app's "choose to skip invalid rows" is --skip-invalid here. */
function inCliWords(blocker: string): string {
  return blocker.replace('choose to skip invalid rows', 'add --skip-invalid');
}
