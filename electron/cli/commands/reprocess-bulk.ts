// `sitewalk reprocess-bulk`: many EUS submissions from the service's CSV download reprocessed into
// one Multi Map, through the same outbox and the same 24-hour email guard as `sitewalk reprocess`.
// With --email, a submission emailed (or queued to be) in the last 24 h is left out and named, and
// the run exits 1, unless --force says to email it again; the dry run shows the same.
import type { Command } from 'commander';
import { heldBackMessage, runReprocess, submissionLabel } from '../../core/bulk/apply';
import { coreOutboxPort } from '../../core/bulk/core-port';
import { parseFilterSpec, planReprocess, readEusCsv, type EusFilter, type EusPlan } from '../../shared/bulk/eus';
import type { ReportRow } from '../../shared/bulk/report';
import type { InputIssue } from '../../core/service/types';
import { CliExit, issuesExit, output, type CliIo } from '../io';
import { withCommonOptions, withCore } from './context';
import { nearestSiteFinder } from '../../core/sites/nearest';
import { BULK_EXIT, EXIT_HELP, collect, finishDryRun, finishRun, inOneBatch, readOrExit, sendWithProgress, type BulkCommandOptions, type RunFlags } from './bulk-run';

interface ReprocessFlags extends RunFlags {
  multiMap: string;
  skipInvalid?: boolean;
  email?: boolean;
  force?: boolean;
  dryRun?: boolean;
  filter?: string[];
  within?: string;
}

export function registerReprocessBulkCommand(program: Command, io: CliIo, options: BulkCommandOptions = {}): void {
  withCommonOptions(
    program
      .command('reprocess-bulk')
      .description("Reprocess many EUS submissions, listed in the service's EUS CSV download, into one Multi Map.")
      .argument('<file>', 'the EUS CSV download')
      .requiredOption('--multi-map <id>', 'the Multi Map ID (digits) to reprocess into')
      .option('--email', 'send the EUS email again for each submission (and push to the EUS API); default: no email')
      .option('--force', 'with --email, also email submissions emailed (or queued to be) in the last 24 hours; default: they are left out')
      .option('--dry-run', 'show which submissions would be reprocessed; queue nothing')
      .option('--filter <column=value>', 'keep rows whose column equals value (case-insensitive, * matches any text; repeatable, all must match)', collect)
      .option('--within <km>', 'keep submissions at most this many km from their nearest site (the file needs latitude and longitude columns)')
      .option('--skip-invalid', 'queue the valid rows even when some rows are invalid (default: refuse the whole file)')
      .option('--report <file.csv>', 'write the row-by-row report as CSV')
      .option('--no-wait', 'queue and return without sending'),
  )
    .addHelpText('after', EXIT_HELP)
    .action(async (file: string, flags: ReprocessFlags) => {
      await runReprocessCommand(io, options, file, flags);
    });
}

function planReport(plan: EusPlan): ReportRow[] {
  return plan.rows.map((row) => ({
    row: row.row,
    siteId: row.processId,
    name: submissionLabel(row.values),
    action: 'reprocess',
    status: row.ready ? 'would-queue' : row.sameAsRow !== undefined || row.heldBack ? 'skipped' : 'invalid',
    message: row.ready
      ? `Would reprocess into Multi Map ${plan.multiMapId}${plan.sendEmail ? ' and send the email again' : ', no email'}${row.emailAgain ? ` (${lowerFirst(row.recentEmail ?? 'emailed')}: --force)` : ''}.`
      : row.sameAsRow !== undefined
        ? `Same process ID as row ${row.sameAsRow}; reprocessed once.`
        : row.heldBack
          ? heldBackMessage(row.recentEmail ?? '')
          : row.issues.map((issue) => issue.message).join(' '),
  }));
}

async function runReprocessCommand(io: CliIo, options: BulkCommandOptions, file: string, flags: ReprocessFlags): Promise<void> {
  const filters: EusFilter[] = [];
  const issues: InputIssue[] = [];
  for (const spec of flags.filter ?? []) {
    const parsed = parseFilterSpec(spec);
    if (parsed.ok) filters.push(parsed.filter);
    else issues.push({ field: 'filter', message: `--filter ${parsed.message}` });
  }
  let withinKm: number | undefined;
  if (flags.within !== undefined) {
    withinKm = Number(flags.within.trim().replace(',', '.'));
    if (flags.within.trim() === '' || !Number.isFinite(withinKm) || withinKm < 0) issues.push({ field: 'within', message: `--within takes a distance in kilometers, like 2 or 0.5; "${flags.within}" is not one.` });
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

  await withCore(io, flags, options, async (core) => {
    // The outbox says which submissions were emailed (or are queued to be) in the last 24 h, so the
    // dry run too shows which rows the guard leaves out.
    const recent = core.recentEmails(table.rows.map((row) => row.processId.trim()).filter((id) => id !== ''));
    const plan = planReprocess(table, {
      multiMapId: flags.multiMap,
      sendEmail: flags.email === true,
      filters,
      recentEmails: Object.fromEntries([...recent].map(([processId, email]) => [processId, email.label])),
      nearestSite: nearestSiteFinder(core.sites),
      ...(withinKm !== undefined ? { withinKm } : {}),
      ...(flags.force === true ? { emailAgain: 'all' as const } : {}),
    });
    // The file is fine; what is wrong is a choice on the command line (Multi Map ID, a filter column).
    if (plan.problems.length > 0) issuesExit(io, flags, plan.problems.map((message) => ({ field: /Multi Map/.test(message) ? 'multi-map' : /distance/.test(message) ? 'within' : 'filter', message })));
    for (const note of plan.notes) io.stderr(`sitewalk reprocess-bulk: ${note}\n`);
    const heldBack = plan.rows.filter((row) => row.heldBack);
    if (heldBack.length > 0) {
      const one = heldBack.length === 1;
      const which = heldBack.map((row) => `${row.processId} (${lowerFirst(row.recentEmail ?? 'emailed')})`).join(', ');
      io.stderr(
        `sitewalk reprocess-bulk: ${heldBack.length} submission${one ? ' was' : 's were'} emailed (or queued to be) in the last 24 hours, so ${one ? 'it is' : 'they are'} left out and nobody is emailed twice: ${which}. Add --force to email ${one ? 'it' : 'them'} again.\n`,
      );
    }
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
        `${plan.sendEmail ? ' with the email sent again' : ' without email'}${plan.summary.excluded ? ` (${plan.summary.excluded} rows left out by the filters)` : ''}` +
        `${heldBack.length > 0 ? ` (${heldBack.length} left out: emailed in the last 24 hours)` : ''}.`;
      await finishDryRun(io, flags, 'reprocess-bulk', base, inOneBatch(planReport(plan)), sentence, plan.summary.invalid === 0 && heldBack.length === 0);
      return;
    }

    const result = await sendWithProgress(io, options, 'Reprocessed', (signal, onProgress) =>
      runReprocess(coreOutboxPort(core), plan, { skipInvalid: flags.skipInvalid === true, follow: flags.wait, signal, onProgress }),
    );
    // Rows the guard left out were asked for and not done: the run did not do all it was told.
    await finishRun(io, { ...flags, appOpen: core.sync.otherSender() }, 'reprocess-bulk', base, result, heldBack.length === 0);
  });
}

function lowerFirst(text: string): string {
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}
