// `sitewalk import`, `sitewalk export` and `sitewalk reprocess-bulk`: the office's bulk work from a
// terminal or a script, with the conventions of the other core commands (context.ts): --data-dir,
// --json for one JSON document on stdout (human text otherwise), sentences and progress on stderr.
// `export` without -o writes the exported file itself to stdout; with --json, the document
// { ok, command, format, count, omitted, withoutId, text } has the file's text (with -o: file instead).
// Exit codes: 0 everything done; 1 some rows invalid, failed, held, waiting or cancelled (also when
// invalid rows made the run refuse the file: nothing queued), or the data folder is in use;
// 2 usage error (bad option, unknown column in --mapping: nothing queued); 3 the file cannot be read
// or understood (missing, not text, broken quotes, malformed KML/JSON, no recognisable columns:
// nothing queued), or the output file (-o, --report) cannot be written; 130/143 stopped by Ctrl-C or
// SIGTERM before anything was queued, or by a second one.
import { Option, type Command } from 'commander';
import { runImport } from '../../core/bulk/import-run';
import { coreOutboxPort, exportSitesOf, knownSitesOf } from '../../core/bulk/core-port';
import type { Delimiter } from '../../shared/bulk/csv';
import { exportSites, type ExportFormat } from '../../shared/bulk/export';
import { parseTarget } from '../../shared/bulk/fields';
import { writeTextFile } from '../../core/bulk/files';
import { formatFromFileName, type ImportOptions } from '../../shared/bulk/import';
import { previewImportStored } from '../../core/bulk/preview-off-thread';
import { HeldFiles } from '../../core/bulk/held-files';
import type { StoredPreview } from '../../core/bulk/preview-store';
import type { SitewalkCore } from '../../core/open-core';
import { parseMappingSpec, type ManualMapping } from '../../shared/bulk/mapping';
import { DEFAULT_FIELDS, type DefaultField, type PreviewSummary } from '../../shared/bulk/preview';
import { MAX_IMPORT_ROWS, tooManyRowsSentence } from '../../shared/bulk/limits';
import type { ImportFormat } from '../../shared/bulk/table';
import type { InputIssue } from '../../core/service/types';
import { CliExit, fail, issuesExit, output, printJson, printJsonWithRows, type CliIo, type CommonFlags } from '../io';
import { signalExitCode } from '../signals';
import { withCommonOptions, withCore } from './context';
import { BULK_EXIT, EXIT_HELP, checkOrExit, collect, finishDryRun, finishRun, sendWithProgress, type BulkCommandOptions, type RunFlags } from './bulk-run';
import { registerReprocessBulkCommand } from './reprocess-bulk';

export { BULK_EXIT, type BulkCommandOptions } from './bulk-run';

interface ImportFlags extends RunFlags {
  dryRun?: boolean;
  mapping?: string[];
  default?: string[];
  skipInvalid?: boolean;
  format?: ImportFormat;
  delimiter?: 'comma' | 'semicolon' | 'tab' | 'pipe';
}

interface ExportFlags extends CommonFlags {
  format?: ExportFormat;
  output?: string;
  bom?: boolean;
}

const DELIMITERS: Record<NonNullable<ImportFlags['delimiter']>, Delimiter> = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' };

export function registerBulkCommands(program: Command, io: CliIo, options: BulkCommandOptions = {}): void {
  withCommonOptions(
    program
      .command('import')
      .description(
        'Import sites from a CSV/TSV, KML, KMZ or GeoJSON file: check every row, then queue the rows (10,000 to a transaction), send them and report row by row. A file with invalid rows is refused whole unless --skip-invalid.',
      )
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
      await runImportCommand(io, options, file, flags);
    });

  withCommonOptions(
    program
      .command('export')
      .description('Export every site of the register as CSV, KML or GeoJSON (to stdout unless -o is given; with --json, in the JSON document\'s "text").')
      .addOption(new Option('--format <format>', "csv, kml or geojson (default: from -o's extension, else csv)").choices(['csv', 'kml', 'geojson']))
      .option('-o, --output <file>', 'write to this file (atomically) and print a summary instead of the data')
      .option('--bom', 'start CSV with a UTF-8 byte-order mark (default: on with -o, so Excel reads accents; off on stdout)')
      .option('--no-bom', 'never write a byte-order mark'),
  )
    .addHelpText('after', '\nCSV columns: Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle (the import reads them back unchanged).\nExit codes: 0 done; 1 the data folder is in use; 3 the output file cannot be written.')
    .action(async (flags: ExportFlags, command: Command) => {
      await runExportCommand(io, options, flags, command.getOptionValueSource('bom') === 'cli');
    });

  registerReprocessBulkCommand(program, io, options);
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

async function runImportCommand(io: CliIo, options: BulkCommandOptions, file: string, flags: ImportFlags): Promise<void> {
  const { mapping, defaults, issues } = parseImportFlags(flags);
  if (issues.length > 0) issuesExit(io, flags, issues);
  // Read by the preview's worker, never whole in this thread (a CSV streams, its lines bounded).
  const { fileName } = await checkOrExit(io, flags, file);

  await withCore(io, flags, options, async (core) => {
    const importOptions: ImportOptions = { fileName, mapping, defaults, known: knownSitesOf(core) };
    if (flags.format) importOptions.format = flags.format;
    if (flags.delimiter) importOptions.delimiter = DELIMITERS[flags.delimiter];
    // The rows wait on disk in the data folder (removed below, or at a later start if this process is killed).
    const scratch = new HeldFiles(core.dataDir).scratchPath('preview');
    const preview = await whileChecking(io, options, (signal) => previewImportStored({ path: file }, importOptions, scratch, signal));
    try {
      await importPreviewed(io, options, flags, file, core, preview);
    } finally {
      preview.drop();
    }
  });
}

/**
 * Ctrl-C or SIGTERM while the file is being checked ends the command at once (nothing is queued
 * yet): the check is aborted — its worker thread ended and the rows checked so far removed — and
 * only then does the process exit. (Exiting with the worker still inside SQLite or the parser is the
 * likeliest cause of a rare death by a signal, rather than exit 130, that fresh-clone runs found.)
 * Tests running the CLI in their own process pass `interrupt` and are left alone.
 */
async function whileChecking<T>(io: CliIo, options: BulkCommandOptions, check: (signal?: AbortSignal) => Promise<T>): Promise<T> {
  if (options.interrupt) return check();
  const stopping = new AbortController();
  const stop = (signal: NodeJS.Signals) => stopping.abort(signal);
  // Listening until the check has ended: a second Ctrl-C while the worker ends changes nothing.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    return await check(stopping.signal);
  } catch (error) {
    if (!stopping.signal.aborted) throw error;
    const signal = stopping.signal.reason as NodeJS.Signals;
    io.stderr(`\nsitewalk import: stopped (${signal}) while checking the file; nothing was queued.\n`);
    process.exit(signalExitCode(signal));
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}

async function importPreviewed(io: CliIo, options: BulkCommandOptions, flags: ImportFlags, file: string, core: SitewalkCore, preview: StoredPreview): Promise<void> {
  const { head } = preview;
  for (const note of head.notes) io.stderr(`sitewalk import: ${note}\n`);
  const base = {
    command: 'import',
    file,
    format: head.format,
    details: head.details,
    columns: head.columns.map((column) => ({ header: column.header, field: column.target, source: column.source, ...(column.note ? { note: column.note } : {}) })),
    summary: head.summary,
    notes: head.notes,
  };
  const reportRows = async function* () {
    yield* preview.reportBatches();
  };
  // The rows the preview has warnings about (and no issues): said with their rows, in the dry run and the run.
  const warnedRows = () => preview.batches(undefined, 'notes');

  if (head.problems.length > 0) {
    if (head.mappingErrors.length === head.problems.length) {
      issuesExit(io, flags, head.mappingErrors.map((message) => ({ field: 'mapping', message })));
    }
    for (const problem of head.problems) io.stderr(`sitewalk import: ${problem}\n`);
    if (flags.json) await printJsonWithRows(io, { ok: false, ...base, dryRun: flags.dryRun === true, problems: head.problems }, reportRows());
    throw new CliExit(BULK_EXIT.file);
  }

  if (flags.dryRun) {
    // The import itself would be refused whole past the limit: the dry run says so rather than promise it.
    const tooMany = head.summary.ready > MAX_IMPORT_ROWS;
    if (tooMany) io.stderr(`sitewalk import: ${tooManyRowsSentence(head.summary.ready)}\n`);
    await finishDryRun(io, flags, 'import', base, reportRows, describeSummary(head.summary), head.summary.invalid === 0 && !tooMany, warnedRows);
    return;
  }

  const rows = { ...head, batches: (size: number) => preview.batches(size) };
  const result = await sendWithProgress(io, options, 'Sent', (signal, onProgress) =>
    runImport(coreOutboxPort(core), rows, { skipInvalid: flags.skipInvalid === true, follow: flags.wait, signal, onProgress }),
  );
  await finishRun(io, { ...flags, appOpen: core.sync.otherSender() }, 'import', base, result, true, warnedRows);
}

function describeSummary(s: PreviewSummary): string {
  const warned = s.warnings > 0 ? ` (${s.warnings} with a warning, listed)` : '';
  return `${s.total} row${s.total === 1 ? '' : 's'}: ${s.creates} to create, ${s.edits} to change, ${s.unchanged} unchanged, ${s.invalid} invalid, ${s.skipped} skipped${warned}.`;
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
      // --json promises one JSON document on stdout: the exported text goes in it, as `text`.
      if (flags.json) printJson(io, { ...summary, text: result.text });
      else io.stdout(result.text);
      io.stderr(`sitewalk export: ${result.count} site${result.count === 1 ? '' : 's'} written as ${format.toUpperCase()}.\n`);
      return;
    }
    const written = await writeTextFile(flags.output, result.text);
    if (!written.ok) fail(io, flags, written.message, { kind: 'file', file: flags.output }, BULK_EXIT.file);
    io.stderr(`sitewalk export: ${result.count} site${result.count === 1 ? '' : 's'} written to ${flags.output}.\n`);
    output(io, flags, { ...summary, file: flags.output }, () => flags.output!);
  });
}
