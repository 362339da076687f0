// `sitewalk sync [--until-settled] [--concurrency N]`: sends the active profile's queue. Plain `sync`
// makes one pass over what is due now (entries waiting out a retry backoff stay queued);
// `--until-settled` keeps going through the retries until nothing is pending or sending, or until the
// queue cannot move (offline, paused). Up to N entries (of different sites) are sent at once: 1 to 16,
// by default the app's "sync concurrency" setting (the same data folder's), else 4. Progress goes to
// stderr, one line per finished entry.
//
// Exit codes: 0 everything sent (nothing failed, needs review or is paused); 3 some entries failed
// or need review (see "sitewalk outbox"); 4 the profile is paused (API calls used up, key refused)
// or has no key; 5 the service could not be reached (entries stay queued); 6 some entries wait to be
// sent again after a failure that may pass, or held while the service says it is away (plain sync;
// --until-settled waits for them, and through a hold as long as it would retry one entry); 1 the data
// folder could not be used; 2 a wrong option; 130/143 stopped by Ctrl-C/SIGTERM (what was in flight
// answered and recorded first). --until-settled also waits for entries another Sitewalk process (the
// app) is sending.
// JSON (--json): { ok, blocked: { reason, message } | null, status: SyncStatus, concurrency,
//                  sent (entries this run sent, not those another Sitewalk process sent meanwhile), counts: { pending, sending, done, failed,
//                  needs-review, paused } (the outbox as it stands: done counts every entry ever done),
//                  attention: OutboxEntryView[] }   (entries that failed, need review or are paused)
import type { Command } from 'commander';
import type { OutboxEntryView, SettleSummary, SitewalkCore } from '../../core/open-core';
import { DEFAULT_SETTINGS, settingsPatchSchema } from '../../shared/contract/index';
import { CliExit, EXIT, issuesExit, output, type CliIo, type CommonFlags } from '../io';
import { againWords, onFirstStopSignal, signalExitCode } from '../signals';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';
import { describeEntry, siteNames } from './outbox';

interface SyncFlags extends CommonFlags {
  untilSettled?: boolean;
  concurrency?: string;
}

/** The app's own rule for the setting (Settings → sync concurrency): a whole number, 1 to 16. */
const CONCURRENCY = settingsPatchSchema.shape.syncConcurrency.unwrap();
const CONCURRENCY_RANGE = `${CONCURRENCY.minValue ?? 1} to ${CONCURRENCY.maxValue ?? 16}`;

/** --concurrency as a number, or null when it is not a whole number in range. */
function parseConcurrency(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  return CONCURRENCY.safeParse(Number(trimmed)).success ? Number(trimmed) : null;
}

/** The app's setting in this data folder, as the app reads it: missing or invalid reads as the default. */
function storedConcurrency(core: SitewalkCore): number {
  const stored = CONCURRENCY.safeParse(core.settings.get('syncConcurrency'));
  return stored.success ? stored.data : DEFAULT_SETTINGS.syncConcurrency;
}

/** Per-entry progress lines up to this many; after that, failures still print and done entries are counted. */
const DETAILED_LINES = 25;
const COUNT_EVERY = 500;

/** ", 4 of them being sent by another Sitewalk process" when entries of the queue are another process's to answer. */
function othersSending(core: SitewalkCore, sending: number): string {
  return sending > 0 && !core.sync.status().syncing ? `, ${sending} of them being sent by another Sitewalk process` : '';
}

export function syncExitCode(summary: SettleSummary): number {
  const reason = summary.blocked?.reason;
  if (reason === 'paused' || reason === 'no-key' || summary.counts.paused > 0) return EXIT.paused;
  if (reason === 'offline') return EXIT.offline;
  if (reason === 'write-failed' || reason === 'no-profile') return EXIT.failed;
  if (summary.counts.failed + summary.counts['needs-review'] > 0) return EXIT.attention;
  // One pass leaves entries that failed in a way that may pass waiting out their backoff, or held
  // while the service says it is away.
  if (reason === 'unavailable' || summary.counts.pending + summary.counts.sending > 0) return EXIT.waiting;
  return EXIT.ok;
}

export function registerSyncCommand(program: Command, io: CliIo, options: CoreCommandOptions): void {
  withCommonOptions(
    program
      .command('sync')
      .description('Send the outbox of the active profile.')
      .option('--until-settled', 'keep going (through retries) until nothing is pending or sending')
      .option('--concurrency <n>', `how many entries (of different sites) to send at once, ${CONCURRENCY_RANGE} (default: the app's setting, else ${DEFAULT_SETTINGS.syncConcurrency})`)
      .addHelpText(
        'after',
        '\nExit codes: 0 all sent; 3 some entries failed or need review; 4 paused (API calls used up, key refused or missing);\n5 the service could not be reached (entries stay queued); 6 some entries wait to be sent again after a passing failure\n(run sync again later, or use --until-settled); 1 the data folder could not be used; 2 a wrong option;\n130 stopped by Ctrl-C (143: SIGTERM), what was in flight answered and recorded first.',
      ),
  ).action(async (flags: SyncFlags) => {
    const given = flags.concurrency === undefined ? null : parseConcurrency(flags.concurrency);
    if (flags.concurrency !== undefined && given === null) {
      issuesExit(io, flags, [
        { field: 'concurrency', message: `--concurrency must be a whole number from ${CONCURRENCY_RANGE} (how many entries are sent at once), not "${flags.concurrency}".` },
      ]);
    }
    await withCore(io, flags, options, async (core) => {
      const concurrency = given ?? storedConcurrency(core);
      core.sync.setConcurrency(concurrency);
      const active = await core.profiles.active();
      io.stderr(`Syncing profile "${active.name}" (${core.sync.status().pendingCount} queued, up to ${concurrency} at a time)…\n`);
      const nameOf = siteNames(core);
      let lines = 0;
      let done = 0;
      /** Done entries counted but not given a line of their own. */
      let unlisted = 0;
      const unsubscribe = core.on('outbox', (entry) => {
        // What another Sitewalk process (the app) sent is its own; the summary's "done in all" has it.
        if (entry.profileId !== active.id || !core.sync.answeredHere(entry.id)) return;
        if (entry.state === 'done') done++;
        const finished = entry.state === 'done' || entry.state === 'failed' || entry.state === 'needs-review' || entry.state === 'paused';
        if (!finished) return;
        if (entry.state !== 'done' || lines < DETAILED_LINES) {
          lines++;
          io.stderr(`  ${describeEntry(entry, nameOf(entry))}\n`);
        } else {
          unlisted++;
          if (done % COUNT_EVERY === 0) io.stderr(`  … ${done} sent\n`);
        }
      });
      // Ctrl-C (or SIGTERM) stops sending, but what is in flight is answered and recorded first: a
      // create the service made must not come back as "needs review" (signals.ts: a second one quits).
      let stoppedBy: NodeJS.Signals | null = null;
      const stopListening = onFirstStopSignal((signal) => {
        stoppedBy = signal;
        io.stderr(`\nStopping (${signal}): nothing more is sent; the requests in flight are answered and recorded first (${againWords(signal)} again to quit at once)…\n`);
        void core.sync.stop();
      });
      let summary: SettleSummary;
      try {
        await core.sync.syncNow();
        summary = flags.untilSettled ? await core.sync.untilSettled() : await core.sync.untilIdle();
        if (stoppedBy) await core.sync.stop();
      } finally {
        unsubscribe();
        stopListening();
      }
      if (unlisted > 0) io.stderr(`  … and ${unlisted} more sent\n`);
      const attention: OutboxEntryView[] = core.outbox.list().filter((entry) => entry.state === 'failed' || entry.state === 'needs-review' || entry.state === 'paused');
      const signalled = stoppedBy as NodeJS.Signals | null;
      const code = signalled ? signalExitCode(signalled) : syncExitCode(summary);
      const { counts } = summary;
      // `counts` is the outbox as it stands (done: every entry ever done); what this run sent is `done`.
      io.stderr(
        `${done} sent by this run; ${counts.pending + counts.sending} still queued${othersSending(core, counts.sending)}, ${counts.failed} failed, ${counts['needs-review']} need review, ${counts.paused} paused (${counts.done} done in all).` +
        (signalled ? ` Stopped (${signalled}): the rest stays in the outbox.` : summary.blocked ? ` ${summary.blocked.message}` : '') +
        '\n',
      );
      output(io, flags, { ok: code === EXIT.ok, blocked: summary.blocked, status: summary.status, concurrency, sent: done, counts, attention }, () => attention.map((entry) => describeEntry(entry, nameOf(entry))).join('\n'));
      if (code !== EXIT.ok) throw new CliExit(code);
    });
  });
}
