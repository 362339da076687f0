// `sitewalk reprocess`: queue an EUS reprocess (into a Multi Map, with or without resending the
// email) through the same outbox as site edits. With --email the request is never resent after an
// ambiguous failure: it waits for review instead, so the recipients never get the email twice; and
// emailing a submission emailed (or queued to be) in the last 24 h needs --force.
//
// Human output: the outbox entry ID. JSON (--json): { ok: true, entry: OutboxEntryView }.
import type { Command } from 'commander';
import { issuesExit, output, whoSends, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

interface ReprocessFlags extends CommonFlags {
  processId: string;
  multiMap: string;
  email?: boolean;
  force?: boolean;
}

export function registerReprocessCommand(program: Command, io: CliIo, options: CoreCommandOptions): void {
  withCommonOptions(
    program
      .command('reprocess')
      .description('Queue a reprocess of an EUS submission into a Multi Map; prints the outbox entry ID.')
      .requiredOption('--process-id <id>', 'the submission\'s process ID')
      .requiredOption('--multi-map <id>', 'the Multi Map ID (digits)')
      .option('--email', 'resend the email to the EUS recipients (never resent automatically after a doubtful failure)')
      .option('--force', 'queue it even though the submission was emailed (or is queued to be) in the last 24 hours'),
  ).action(async (flags: ReprocessFlags) => {
    await withCore(io, flags, options, async (core) => {
      const queued = await core.reprocess({ processId: flags.processId, multiMapId: flags.multiMap, sendEmail: flags.email === true }, { force: flags.force === true });
      if (!queued.ok) {
        // The core's sentence says why; here is how to go ahead anyway from a terminal.
        const issues = queued.issues.map((issue) => (issue.field === 'duplicateEmail' ? { ...issue, message: `${issue.message} Add --force to queue it anyway.` } : issue));
        issuesExit(io, flags, issues);
      }
      io.stderr(`Queued: ${queued.value.summary} (outbox entry ${queued.value.id}). ${whoSends(core.sync.otherSender())}\n`);
      output(io, flags, { ok: true, entry: queued.value }, () => queued.value.id);
    });
  });
}
