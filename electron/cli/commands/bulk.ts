// `sitewalk import`, `sitewalk export` and `sitewalk reprocess-bulk`: the office's bulk work from a
// terminal or a script, with the conventions of the other core commands (context.ts): --data-dir,
// --json for one JSON document on stdout (human text otherwise), sentences and progress on stderr.
// `export` without -o writes the exported file itself to stdout.
// Exit codes: 0 everything done; 1 some rows invalid, failed, held, waiting or cancelled (also when
// invalid rows made the run refuse the file: nothing queued), or the data folder is in use;
// 2 usage error (bad option, unknown column in --mapping: nothing queued); 3 the file cannot be read
// or understood (missing, not text, broken quotes, malformed KML/JSON, no recognisable columns:
// nothing queued), or the output file cannot be written.
import { Option, type Command } from 'commander';
import { runImport, runReprocess, submissionLabel, type BulkProgress, type RunResult } from '../../core/bulk/apply';
import { coreOutboxPort, exportSitesOf, knownSitesOf } from '../../core/bulk/core-port';
import type { Delimiter } from '../../shared/bulk/csv';
import { parseFilterSpec, planReprocess, readEusCsv, type EusFilter, type EusPlan } from '../../shared/bulk/eus';
import { exportSites, type ExportFormat } from '../../shared/bulk/export';
import { parseTarget } from '../../shared/bulk/fields';
import { readInputFile, writeTextFile } from '../../core/bulk/files';
import { formatFromFileName, type ImportOptions } from '../../shared/bulk/import';
import { previewImportOffThread } from '../../core/bulk/preview-off-thread';
import { parseMappingSpec, type ManualMapping } from '../../shared/bulk/mapping';
import { DEFAULT_FIELDS, type DefaultField, type ImportPreview } from '../../shared/bulk/preview';
import { dryRunReport, reportCsv, runSucceeded, type ReportRow, type RunCounts } from '../../shared/bulk/report';
import type { ImportFormat } from '../../shared/bulk/table';
import type { InputIssue } from '../../core/service/types';
import { terminalProgress } from '../bulk/progress';
import { CliExit, fail, issuesExit, output, table, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

export const BULK_EXIT = { ok: 0, rows: 1, usage: 2, file: 3 } as const;

const EXIT_HELP = [
  '',
  'Exit codes: 0 everything done; 1 some rows invalid, failed, held, waiting or cancelled (nothing is',
  'queued when invalid rows are refused); 2 usage error; 3 the file cannot be read or understood.',
].join('\n');

export interface BulkCommandOptions extends CoreCommandOptions {
  /** Whether stderr is a terminal (progress is drawn only then). Default: process.stderr.isTTY. */
  stderrIsTty?: () => boolean;
  /** Arms cancelling (default: the first Ctrl-C); returns the disarm function. */
  interrupt?: (cancel: () => void) => () => void;
}

interface ImportFlags extends CommonFlags {
  dryRun?: boolean;
  mapping?: string[];
  default?: string[];
  skipInvalid?: boolean;
  report?: string;
  format?: ImportFormat;
  delimiter?: 'comma' | 'semicolon' | 'tab' | 'pipe';
  wait: boolean;
}

interface ExportFlags extends CommonFlags {
  format?: ExportFormat;
  output?: string;
  bom?: boolean;
}

interface ReprocessFlags extends CommonFlags {
  multiMap: string;
  skipInvalid?: boolean;
  email?: boolean;
  dryRun?: boolean;
  filter?: string[];
  report?: string;
  wait: boolean;
}

const DELIMITERS: Record<NonNullable<ImportFlags['delimiter']>, Delimiter> = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' };

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerBulkCommands(program: Command, io: CliIo, options: BulkCommandOptions = {}): void {
  const isTty = options.stderrIsTty ?? (() => process.stderr.isTTY === true);
  const interrupt = options.interrupt ?? onFirstSigint;

  withCommonOptions(
    program
      .command('import')
      .description('Import sites from a CSV/TSV, KML, KMZ or GeoJSON file: check every row, queue the valid ones in one batch, send them and report row by row.')
      .argument('<file>', 'the file to import')
      .option('--dry-run', 'show what would happen to each row; queue nothing')
      .option('--mapping <column=field,...>', 'map columns by hand, e.g. "Tower=name,Elev ft=heightFeet,#7=ignore" (repeatable)', collect)
      .option('--default <field=value>', 'a value for blank cells, e.g. height=30 or pinStyle=blue (repeatable)', collect)
      .option('--skip-invalid', 'queue the valid rows even when some rows are invalid (default: refuse the whole file)')
      .option('--report <file.csv>', 'write the row-by-row report (row, siteId, name, action, status, message) as CSV')
      .addOption(new Option('--format <format>', 'file format (default: from the extension, else from the content)').choices(['csv', 'kml', 'kmz', 'geojson']))
      .addOption(new Option('--delimiter <name>', 'CSV separator (default: detected)').choices(['comma', 'semicolon', 'tab', 'pipe']))
      .option('--no-wait', 'queue and return without sending (rows are reported as queued; "sitewalk sync" sends them)'),
  )
    .addHelpText(
      'after',
      `\nFields for --mapping and --default: siteId, name, height, heightFeet, latitude, longitude, description, group, pinStyle, ignore.\nHeights in feet are rounded to the nearest whole meter (halves up).${EXIT_HELP}`,
    )
    .action(async (file: string, flags: ImportFlags) => {
      await runImportCommand(io, options, file, flags, isTty(), interrupt);
    });

  withCommonOptions(
    program
      .command('export')
      .description('Export every site of the register as CSV, KML or GeoJSON (to stdout unless -o is given).')
      .addOption(new Option('--format <format>', "csv, kml or geojson (default: from -o's extension, else csv)").choices(['csv', 'kml', 'geojson']))
      .option('-o, --output <file>', 'write to this file (atomically) and print a summary instead of the data')
      .option('--bom', 'start CSV with a UTF-8 byte-order mark (default: on with -o, so Excel reads accents; off on stdout)')
      .option('--no-bom', 'never write a byte-order mark'),
  )
    .addHelpText('after', '\nCSV columns: Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle (the import reads them back unchanged).\nExit codes: 0 done; 1 the data folder is in use; 3 the output file cannot be written.')
    .action(async (flags: ExportFlags, command: Command) => {
      await runExportCommand(io, options, flags, command.getOptionValueSource('bom') === 'cli');
    });

  withCommonOptions(
    program
      .command('reprocess-bulk')
      .description("Reprocess many EUS submissions, listed in the service's EUS CSV download, into one Multi Map.")
      .argument('<file>', 'the EUS CSV download')
      .requiredOption('--multi-map <id>', 'the Multi Map ID (digits) to reprocess into')
      .option('--email', 'send the EUS email again for each submission (and push to the EUS API); default: no email')
      .option('--dry-run', 'show which submissions would be reprocessed; queue nothing')
      .option('--filter <column=value>', 'keep rows whose column equals value (case-insensitive, * matches any text; repeatable, all must match)', collect)
      .option('--skip-invalid', 'queue the valid rows even when some rows are invalid (default: refuse the whole file)')
      .option('--report <file.csv>', 'write the row-by-row report as CSV')
      .option('--no-wait', 'queue and return without sending'),
  )
    .addHelpText('after', EXIT_HELP)
    .action(async (file: string, flags: ReprocessFlags) => {
      await runReprocessCommand(io, options, file, flags, isTty(), interrupt);
    });
}

/** Ctrl-C once: cancel (rows not yet sent are taken out of the outbox). Twice: Node's default, quit now. */
function onFirstSigint(cancel: () => void): () => void {
  const handler = () => {
    process.stderr.write('\nCancelling: taking the rows not yet sent out of the outbox (Ctrl-C again to quit at once)…\n');
    cancel();
  };
  process.once('SIGINT', handler);
  return () => process.removeListener('SIGINT', handler);
}

function parseImportFlags(flags: ImportFlags): { mapping: ManualMapping; defaults: Partial<Record<DefaultField, string>>; issues: InputIssue[] } {
  const issues: InputIssue[] = [];
  const mapping: ManualMapping = {};
  for (const spec of flags.mapping ?? []) {
    const parsed = parseMappingSpec(spec);
    if (parsed.ok) Object.assign(mapping, parsed.mapping);
    else issues.push({ field: 'mapping', message: `--mapping: ${parsed.message}` });
  }
  const defaults: Partial<Record<DefaultField, string>> = {};
  for (const spec of flags.default ?? []) {
    const eq = spec.indexOf('=');
    const target = eq > 0 ? parseTarget(spec.slice(0, eq)) : null;
    if (eq <= 0 || target === null || !DEFAULT_FIELDS.includes(target as DefaultField)) {
      issues.push({ field: 'default', message: `--default "${spec}" must be field=value with field one of ${DEFAULT_FIELDS.join(', ')}.` });
      continue;
    }
    defaults[target as DefaultField] = spec.slice(eq + 1);
  }
  return { mapping, defaults, issues };
}

async function readOrExit(io: CliIo, flags: CommonFlags, file: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  const read = await readInputFile(file);
  if (!read.ok) fail(io, flags, read.message, { kind: 'file', file }, BULK_EXIT.file);
  return read;
}

/** Human lines for report rows that need a look (everything but plain success), numbered by row. */
function attentionTable(rows: readonly ReportRow[]): string {
  const interesting = rows.filter((row) => !['created', 'updated', 'reprocessed'].includes(row.status));
  if (interesting.length === 0) return '';
  return table([['row', 'status', 'site', 'message'], ...interesting.map((row) => [String(row.row), row.status, row.siteId || row.name, row.message.replace(/\s+/g, ' ')])]);
}

function countsSentence(c: RunCounts): string {
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
    c.cancelled && `${c.cancelled} cancelled`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'nothing to do';
}

async function writeReport(io: CliIo, command: string, path: string | undefined, rows: ReportRow[]): Promise<boolean> {
  if (!path) return true;
  const written = await writeTextFile(path, reportCsv(rows, { bom: true }));
  if (!written.ok) io.stderr(`sitewalk ${command}: the report was not written: ${written.message}\n`);
  return written.ok;
}

/** Runs a send with the progress line drawn (on a terminal) and the first Ctrl-C armed to cancel it. */
async function sendWithProgress(
  io: CliIo,
  tty: boolean,
  interrupt: NonNullable<BulkCommandOptions['interrupt']>,
  verb: string,
  send: (signal: AbortSignal, onProgress: (progress: BulkProgress) => void) => Promise<RunResult>,
): Promise<RunResult> {
  const printer = terminalProgress(io.stderr, tty, verb);
  const controller = new AbortController();
  const release = interrupt(() => controller.abort());
  try {
    return await send(controller.signal, (progress) => printer.update(progress));
  } finally {
    release();
    printer.done();
  }
}

/** Ends a dry run: the report file, the summary sentence, the document; exit 1 when some rows are invalid. */
async function finishDryRun(io: CliIo, flags: ImportFlags | ReprocessFlags, command: string, base: Record<string, unknown>, rows: ReportRow[], sentence: string, ok: boolean): Promise<void> {
  await writeReport(io, command, flags.report, rows);
  io.stderr(`sitewalk ${command}: ${sentence}\n`);
  output(io, flags, { ok, ...base, dryRun: true, rows, ...(flags.report ? { report: flags.report } : {}) }, () => attentionTable(rows.filter((row) => row.status !== 'queued')));
  if (!ok) throw new CliExit(BULK_EXIT.rows);
}

async function runImportCommand(
  io: CliIo,
  options: BulkCommandOptions,
  file: string,
  flags: ImportFlags,
  tty: boolean,
  interrupt: NonNullable<BulkCommandOptions['interrupt']>,
): Promise<void> {
  const { mapping, defaults, issues } = parseImportFlags(flags);
  if (issues.length > 0) issuesExit(io, flags, issues);
  const { bytes, fileName } = await readOrExit(io, flags, file);

  await withCore(io, flags, options, async (core) => {
    const importOptions: ImportOptions = { fileName, mapping, defaults, known: knownSitesOf(core) };
    if (flags.format) importOptions.format = flags.format;
    if (flags.delimiter) importOptions.delimiter = DELIMITERS[flags.delimiter];
    const preview = await previewImportOffThread(bytes, importOptions);
    for (const note of preview.notes) io.stderr(`sitewalk import: ${note}\n`);
    const base = {
      command: 'import',
      file,
      format: preview.format,
      details: preview.details,
      columns: preview.columns.map((column) => ({ header: column.header, field: column.target, source: column.source, ...(column.note ? { note: column.note } : {}) })),
      summary: preview.summary,
      notes: preview.notes,
    };

    if (preview.problems.length > 0) {
      if (preview.mappingErrors.length === preview.problems.length) {
        issuesExit(io, flags, preview.mappingErrors.map((message) => ({ field: 'mapping', message })));
      }
      for (const problem of preview.problems) io.stderr(`sitewalk import: ${problem}\n`);
      output(io, flags, { ok: false, ...base, dryRun: flags.dryRun === true, problems: preview.problems, rows: dryRunReport(preview) }, () => '');
      throw new CliExit(BULK_EXIT.file);
    }

    if (flags.dryRun) {
      await finishDryRun(io, flags, 'import', base, dryRunReport(preview), describeSummary(preview), preview.summary.invalid === 0);
      return;
    }

    const result = await sendWithProgress(io, tty, interrupt, 'Sent', (signal, onProgress) =>
      runImport(coreOutboxPort(core), preview, { skipInvalid: flags.skipInvalid === true, follow: flags.wait, signal, onProgress }),
    );
    await finishRun(io, flags, 'import', base, result);
  });
}

function describeSummary(preview: ImportPreview): string {
  const s = preview.summary;
  return `${s.total} row${s.total === 1 ? '' : 's'}: ${s.creates} to create, ${s.edits} to change, ${s.unchanged} unchanged, ${s.invalid} invalid, ${s.skipped} skipped.`;
}

async function finishRun(io: CliIo, flags: ImportFlags | ReprocessFlags, command: string, base: Record<string, unknown>, result: RunResult): Promise<void> {
  const reportWritten = await writeReport(io, command, flags.report, result.rows);
  for (const blocker of result.blockers) io.stderr(`sitewalk ${command}: ${blocker}\n`);
  if (result.stoppedBecause) io.stderr(`sitewalk ${command}: stopped waiting: ${result.stoppedBecause}\n`);
  if (result.outcome === 'queued') io.stderr(`sitewalk ${command}: queued; run "sitewalk sync" to send.\n`);
  io.stderr(`sitewalk ${command}: ${countsSentence(result.counts)}.\n`);
  // With --no-wait, rows left queued are the outcome asked for.
  const counts = flags.wait ? result.counts : { ...result.counts, queued: 0 };
  const ok = result.outcome !== 'refused' && runSucceeded(counts) && reportWritten;
  const document = {
    ok,
    ...base,
    dryRun: false,
    outcome: result.outcome,
    ...(result.blockers.length > 0 ? { blockers: result.blockers } : {}),
    ...(result.stoppedBecause ? { stoppedBecause: result.stoppedBecause } : {}),
    counts: result.counts,
    enqueueMs: Math.round(result.enqueueMs),
    elapsedMs: Math.round(result.elapsedMs),
    rows: result.rows,
    ...(flags.report ? { report: flags.report } : {}),
  };
  output(io, flags, document, () => attentionTable(result.rows));
  if (!ok) throw new CliExit(BULK_EXIT.rows);
}

async function runExportCommand(io: CliIo, options: BulkCommandOptions, flags: ExportFlags, bomGiven: boolean): Promise<void> {
  const fromName = flags.output ? formatFromFileName(flags.output) : null;
  const format: ExportFormat = flags.format ?? (fromName === 'kml' || fromName === 'geojson' ? fromName : 'csv');
  await withCore(io, flags, options, async (core) => {
    const result = exportSites(exportSitesOf(core), format, { bom: bomGiven ? flags.bom === true : flags.bom !== false && Boolean(flags.output) });
    for (const omitted of result.omitted) io.stderr(`sitewalk export: left out ${omitted.siteId ?? omitted.name}: ${omitted.reason}\n`);
    if (result.withoutId > 0) {
      io.stderr(
        `sitewalk export: ${result.withoutId} site${result.withoutId === 1 ? ' has' : 's have'} no service ID yet (not synced); importing the file again would create ${result.withoutId === 1 ? 'it' : 'them'} again.\n`,
      );
    }
    const summary = { ok: true, command: 'export', format, count: result.count, omitted: result.omitted, withoutId: result.withoutId };
    if (!flags.output) {
      io.stdout(result.text);
      io.stderr(`sitewalk export: ${result.count} site${result.count === 1 ? '' : 's'} written as ${format.toUpperCase()}.\n`);
      return;
    }
    const written = await writeTextFile(flags.output, result.text);
    if (!written.ok) fail(io, flags, written.message, { kind: 'file', file: flags.output }, BULK_EXIT.file);
    io.stderr(`sitewalk export: ${result.count} site${result.count === 1 ? '' : 's'} written to ${flags.output}.\n`);
    output(io, flags, { ...summary, file: flags.output }, () => flags.output!);
  });
}

function planReport(plan: EusPlan): ReportRow[] {
  return plan.rows.map((row) => ({
    row: row.row,
    siteId: row.processId,
    name: submissionLabel(row.values),
    action: 'reprocess',
    status: row.ready ? 'queued' : row.sameAsRow !== undefined ? 'skipped' : 'invalid',
    message: row.ready
      ? `Would reprocess into Multi Map ${plan.multiMapId}${plan.sendEmail ? ' and send the email again' : ', no email'}.`
      : row.sameAsRow !== undefined
        ? `Same process ID as row ${row.sameAsRow}; reprocessed once.`
        : row.issues.map((issue) => issue.message).join(' '),
  }));
}

async function runReprocessCommand(
  io: CliIo,
  options: BulkCommandOptions,
  file: string,
  flags: ReprocessFlags,
  tty: boolean,
  interrupt: NonNullable<BulkCommandOptions['interrupt']>,
): Promise<void> {
  const filters: EusFilter[] = [];
  const issues: InputIssue[] = [];
  for (const spec of flags.filter ?? []) {
    const parsed = parseFilterSpec(spec);
    if (parsed.ok) filters.push(parsed.filter);
    else issues.push({ field: 'filter', message: `--filter ${parsed.message}` });
  }
  if (issues.length > 0) issuesExit(io, flags, issues);
  const { bytes } = await readOrExit(io, flags, file);
  const table = readEusCsv(bytes);
  for (const note of table.notes) io.stderr(`sitewalk reprocess-bulk: ${note}\n`);
  if (table.problems.length > 0) {
    for (const problem of table.problems) io.stderr(`sitewalk reprocess-bulk: ${problem}\n`);
    output(io, flags, { ok: false, command: 'reprocess-bulk', file, problems: table.problems }, () => '');
    throw new CliExit(BULK_EXIT.file);
  }
  const plan = planReprocess(table, { multiMapId: flags.multiMap, sendEmail: flags.email === true, filters });
  // The file is fine; what is wrong is a choice on the command line (Multi Map ID, a filter column).
  if (plan.problems.length > 0) issuesExit(io, flags, plan.problems.map((message) => ({ field: /Multi Map/.test(message) ? 'multi-map' : 'filter', message })));
  for (const note of plan.notes) io.stderr(`sitewalk reprocess-bulk: ${note}\n`);
  const base = {
    command: 'reprocess-bulk',
    file,
    processIdColumn: plan.processIdColumn,
    multiMapId: plan.multiMapId,
    sendEmail: plan.sendEmail,
    summary: plan.summary,
    notes: plan.notes,
  };

  if (flags.dryRun) {
    const sentence =
      `${plan.summary.ready} submission${plan.summary.ready === 1 ? '' : 's'} would be reprocessed into Multi Map ${plan.multiMapId}` +
      `${plan.sendEmail ? ' with the email sent again' : ' without email'}${plan.summary.excluded ? ` (${plan.summary.excluded} rows left out by the filters)` : ''}.`;
    await finishDryRun(io, flags, 'reprocess-bulk', base, planReport(plan), sentence, plan.summary.invalid === 0);
    return;
  }

  await withCore(io, flags, options, async (core) => {
    const result = await sendWithProgress(io, tty, interrupt, 'Reprocessed', (signal, onProgress) =>
      runReprocess(coreOutboxPort(core), plan, { skipInvalid: flags.skipInvalid === true, follow: flags.wait, signal, onProgress }),
    );
    await finishRun(io, flags, 'reprocess-bulk', base, result);
  });
}
