// `sitewalk outbox [retry|discard|resolve]`: what is queued, what failed and what needs the user's
// decision, and the user's actions on it. A create that may have reached the service is never
// resent silently: `resolve ID --site-id S` confirms it with the ID the service gave, `retry ID`
// deliberately sends it again.
//
// Each entry is named as the page names it: an edit summarised by the site's service ID alone
// ("Edit site 100023: 26 m") says the site's name first ("Clyde Park — Edit site 100023: 26 m").
//
// JSON shapes (--json):
//   outbox          → { entries: (OutboxEntryView & { siteName? })[], status: QueueStatus }   (done entries only with --all;
//                     siteName, for a site entry, is the site's name as the site list has it, null when none is known)
// QueueStatus = { activeProfileId, pendingCount (pending, sending or paused), queuedCount (pending or
//                 sending), pausedCount, sendingCount, attentionCount (failed or needing review),
//                 paused, blocked, lastSyncAt, dataProblems }: what the data folder says. This command
//                 does not contact the service, so it says nothing of the connection (`sitewalk profile
//                 test` checks it, `sitewalk sync` sends).

//   outbox retry    → { ok: true, entry: OutboxEntryView }
//   outbox discard  → { ok: true, removed: string[] }      (a create takes its queued edits along)
//   outbox resolve  → { ok: true, entry: OutboxEntryView }
// OutboxEntryView = { id, kind, state, profileId, localId?, op?, siteId?, summary, payload, attempts,
//                     totalAttempts, createdAt, updatedAt, nextAttemptAt, result, problem, carriedBy? }
// attempts counts the tries since the last retry; totalAttempts every try of the request.
// carriedBy = { binding, instead, reason: 'request-validation' | 'query-length', message }: the last
// try went over another binding than the profile's (the summary ends " · via SOAP 1.1").
import type { Command } from 'commander';
import type { OutboxEntryView, SitewalkCore, SyncStatus } from '../../core/open-core';
import { entryLine } from '../../shared/outbox-line';
import { issuesExit, output, table, whoSends, type CliIo, type CommonFlags } from '../io';
import { withCommonOptions, withCore, type CoreCommandOptions } from './context';

interface ResolveFlags extends CommonFlags {
  siteId?: string;
}

interface ListFlags extends CommonFlags {
  all?: boolean;
}

/** One line for an entry: its ID, state, what it is (with its site's name, as the page shows it) and what happened. */
export function describeEntry(entry: OutboxEntryView, siteName: string | null = null): string {
  const detail = entry.problem ? ` — ${entry.problem.message}` : entry.result ? ` — ${entry.result}` : '';
  const carried = entry.carriedBy ? ` (${entry.carriedBy.message})` : '';
  return `${entry.id} ${entry.state}: ${entryLine(entry.summary, siteName)}${detail}${carried}`;
}

/**
 * The site's name for each site entry, from the active profile's site list (looked up once a site:
 * an import's thousand edits of one site ask once); null for a reprocess or a site no longer listed.
 */
export function siteNames(core: SitewalkCore): (entry: OutboxEntryView) => string | null {
  const known = new Map<string, string | null>();
  return (entry) => {
    if (entry.kind !== 'site' || !entry.localId) return null;
    let name = known.get(entry.localId);
    if (name === undefined) {
      name = core.sites.get(entry.localId)?.name || null;
      known.set(entry.localId, name);
    }
    return name;
  };
}

/** The outbox's counts and pause as the data folder has them; no connection state, which only a call learns. */
export function queueStatus(status: SyncStatus, unfinished: readonly OutboxEntryView[]) {
  const { online: _online, syncing: _syncing, connection: _connection, revision: _revision, ...known } = status;
  const pausedCount = unfinished.filter((entry) => entry.state === 'paused').length;
  return { ...known, queuedCount: Math.max(0, status.pendingCount - pausedCount), pausedCount };
}

/** "2 queued, 3 paused, 1 waiting for you; paused: No API calls left for this account." */
function queueLine(status: ReturnType<typeof queueStatus>): string {
  const paused = status.pausedCount > 0 ? `, ${status.pausedCount} paused` : '';
  return `${status.queuedCount} queued${paused}, ${status.attentionCount} waiting for you${status.paused ? `; paused: ${status.paused.message}` : ''}.`;
}

export function registerOutboxCommands(program: Command, io: CliIo, options: CoreCommandOptions): void {
  const outbox = withCommonOptions(
    program
      .command('outbox')
      .description('Show the outbox of the active profile (or act on one entry: retry, discard, resolve).')
      .option('--all', 'include the entries already done (the history)'),
  ).action(async (flags: ListFlags) => {
    await withCore(io, flags, options, async (core) => {
      const nameOf = siteNames(core);
      const entries = core.outbox
        .list()
        .filter((entry) => flags.all || entry.state !== 'done')
        .map((entry) => (entry.kind === 'site' ? { ...entry, siteName: nameOf(entry) } : entry));
      const status = queueStatus(core.sync.status(), core.outbox.unfinished());
      output(io, flags, { entries, status }, () =>
        entries.length === 0
          ? ''
          : table([
              ['ID', 'STATE', 'TRIES', 'WHAT', 'NOTE'],
              ...entries.map((entry) => [
                entry.id,
                entry.state,
                // Every try, and those counting toward giving up (Retry starts them over; "away" answers never count).
                entry.totalAttempts > entry.attempts ? `${entry.totalAttempts} (${entry.attempts} counted)` : String(entry.attempts),
                entryLine(entry.summary, nameOf(entry)),
                (entry.problem?.message ?? entry.result ?? (entry.nextAttemptAt ? `retry after ${entry.nextAttemptAt}` : '')) +
                (entry.carriedBy ? ` [${entry.carriedBy.message}]` : ''),
              ]),
            ]),
      );
      io.stderr(`${queueLine(status)}\n`);
    });
  });

  onEntry(
    outbox.command('retry').description('Send an entry again (failed, needs review, paused, or waiting to retry).'),
    async (core, id, flags) => {
      const retried = await core.outbox.retry(id);
      if (!retried.ok) issuesExit(io, flags, retried.issues);
      io.stderr(`${retried.value.id} is queued again. ${whoSends(core.sync.otherSender())}\n`);
      output(io, flags, { ok: true, entry: retried.value }, () => describeEntry(retried.value, siteNames(core)(retried.value)));
    },
  );

  onEntry(
    outbox.command('discard').description('Remove an entry that was not sent (a create takes its queued edits along).'),
    async (core, id, flags) => {
      const discarded = await core.outbox.discard(id);
      if (!discarded.ok) issuesExit(io, flags, discarded.issues);
      io.stderr(`Discarded ${discarded.value.removed.join(', ')}.\n`);
      output(io, flags, { ok: true, removed: discarded.value.removed }, () => discarded.value.removed.join('\n'));
    },
  );

  onEntry<ResolveFlags>(
    outbox
      .command('resolve')
      .description('Confirm an entry that needs review did happen; a create needs the site ID the service gave it.')
      .option('--site-id <id>', 'the ID the service gave the new site'),
    async (core, id, flags) => {
      const resolved = await core.outbox.resolve(id, flags.siteId);
      if (!resolved.ok) issuesExit(io, flags, resolved.issues);
      io.stderr(`${resolved.value.id} confirmed${resolved.value.siteId ? ` as site ${resolved.value.siteId}` : ''}.\n`);
      output(io, flags, { ok: true, entry: resolved.value }, () => describeEntry(resolved.value, siteNames(core)(resolved.value)));
    },
  );

  /** `outbox <action> <id>`: the core opened for the run, the flags of both levels (the parent `outbox` has --data-dir and --json too, and may have taken them). */
  function onEntry<F extends CommonFlags = CommonFlags>(command: Command, act: (core: SitewalkCore, id: string, flags: F) => Promise<void>): void {
    withCommonOptions(command.argument('<id>', 'outbox entry ID')).action(async (id: string, _flags: F, self: Command) => {
      const flags = self.optsWithGlobals<F>();
      await withCore(io, flags, options, (core) => act(core, id, flags));
    });
  }
}
