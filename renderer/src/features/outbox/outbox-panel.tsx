// The outbox: everything queued, grouped by what the user must do about it — "needs attention"
// (rejected, check needed, paused), "waiting" (pending, sending) and the history of done work. Each
// problem is a plain sentence with the technical detail one click away, and each entry offers only
// the actions that make sense in its state (retry, edit, discard, or confirm a create by its site ID).
// The history is not all loaded at start (an import leaves tens of thousands of done entries): the
// newest page comes with the outbox, older pages when the user asks for them ("Show older").
import { useEffect, useMemo, useState } from 'react';
import { LISTED_PENDING, type OutboxEntryView } from '../../../../electron/shared/contract/index';
import { siteNameToAdd } from '../../../../electron/shared/outbox-line';
import { describeError, useAppState } from '../../shared/store/app-store';
import { relativeTime, untilTime } from '../../shared/format';
import { OutboxBadge } from '../../shared/ui/badge';
import { Problem } from '../../shared/ui/problem';
import { countdownTick, syncNow, useNow, useUi } from '../../shared/ui/ui-context';
import { ValueForm } from '../../shared/ui/field';
import { issueText } from '../../shared/issues';
import { measurementText } from '../location';
import { entryMeasurement } from './entry-measurement';
import { reviewText } from './review';
import { loadOlderHistory } from './outbox-history';
import { refillWaiting, shouldRefill } from './outbox-waiting';
import { attemptsText } from './attempts';

/** Done entries shown at first, and how many more each "Show older" adds. */
const HISTORY_STEP = 50;

export function OutboxPanel() {
  const ui = useUi();
  const outbox = useAppState(ui.store, (s) => s.outbox);
  const status = useAppState(ui.store, (s) => s.status);
  const history = useAppState(ui.store, (s) => s.outboxHistory);
  const [historyShown, setHistoryShown] = useState(HISTORY_STEP);
  useNow(countdownTick(status?.connection.nextTryAt, 10_000));

  const { attention, waiting, done } = useMemo(() => {
    const entries = [...outbox.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return {
      attention: entries.filter((e) => e.state === 'failed' || e.state === 'needs-review' || e.state === 'paused'),
      // Oldest first, by a stable sort of the held order: rows queued in one batch share their time, and
      // the listing and the events hold them in the order they are sent.
      waiting: [...outbox.values()].filter((e) => e.state === 'pending' || e.state === 'sending').sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
      done: entries.filter((e) => e.state === 'done').sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)),
    };
  }, [outbox]);
  // After a big import the host lists the first LISTED_PENDING edits waiting, not all; the status
  // counts every one waiting, sending or paused (pendingCount), the rest among them.
  const leftOut = useAppState(ui.store, (s) => s.outboxLeftOut);
  const paused = attention.filter((e) => e.state === 'paused').length;
  const waitingCount = leftOut > 0 ? Math.max(waiting.length, (status?.pendingCount ?? 0) - paused) : waiting.length;
  const waitingShown = waiting.slice(0, LISTED_PENDING);
  useEffect(() => {
    const now = Date.now();
    // A refill that fails loses nothing: the entries still arrive as they are sent.
    if (shouldRefill(ui.store, waiting.length, waitingCount, now)) void refillWaiting(ui.store, now).catch(() => undefined);
  }, [ui.store, waiting.length, waitingCount]);

  /** Shows the next older done entries, asking the host for a page when fewer are loaded. */
  async function showOlder() {
    if (done.length < historyShown + HISTORY_STEP && history.next !== null) {
      try {
        await loadOlderHistory(ui.store, HISTORY_STEP);
      } catch (error) {
        ui.toast(`Older entries could not be loaded: ${describeError(error)}`, { tone: 'error' });
        return;
      }
    }
    setHistoryShown((shown) => shown + HISTORY_STEP);
  }

  return (
    <div className="outbox-panel">
      <div className="panel-actions">
        <button
          type="button"
          className="primary"
          disabled={status?.syncing}
          onClick={() => void syncNow(ui)}
        >
          {status?.syncing ? 'Syncing…' : 'Sync now'}
        </button>
      </div>

      <section aria-labelledby="attention-title">
        <h3 id="attention-title">Needs attention ({attention.length})</h3>
        {attention.length === 0 ? <p className="empty">Nothing needs your attention.</p> : <EntryList entries={attention} />}
      </section>

      <section aria-labelledby="waiting-title">
        <h3 id="waiting-title">Waiting to send ({waitingCount.toLocaleString()})</h3>
        {waitingCount === 0 ? <p className="empty">Nothing is waiting.</p> : <EntryList entries={waitingShown} />}
        {waitingCount > waitingShown.length && <p className="empty">…and {(waitingCount - waitingShown.length).toLocaleString()} more, sent in order.</p>}
      </section>

      <details className="history">
        <summary>
          <h3>Done ({Math.max(history.total, done.length).toLocaleString()})</h3>
        </summary>
        {done.length === 0 ? <p className="empty">Nothing sent yet.</p> : <EntryList entries={done.slice(0, historyShown)} />}
        {(done.length > historyShown || history.next !== null) && (
          <p className="history-more">
            <span className="empty">
              Showing the latest {Math.min(historyShown, done.length).toLocaleString()} of {Math.max(history.total, done.length).toLocaleString()}.
            </span>{' '}
            <button type="button" disabled={history.loading} onClick={() => void showOlder()}>
              {history.loading ? 'Loading…' : 'Show older'}
            </button>
          </p>
        )}
      </details>
    </div>
  );
}

function EntryList({ entries }: { entries: OutboxEntryView[] }) {
  return (
    <ul className="entries">
      {entries.map((entry) => (
        <li key={entry.id}>
          <OutboxEntry entry={entry} />
        </li>
      ))}
    </ul>
  );
}

export function OutboxEntry({ entry }: { entry: OutboxEntryView }) {
  const ui = useUi();
  const [resolving, setResolving] = useState(false);
  const isCreate = entry.kind === 'site' && !entry.payload['siteId'];
  // While the service says it is away the whole queue waits for the hold's end, whatever the entry's own time.
  const heldUntil = useAppState(ui.store, (s) => (s.status?.blocked?.reason === 'unavailable' ? s.status.connection.nextTryAt : null));
  const next = untilTime(entry.state === 'pending' ? laterTime(entry.nextAttemptAt, heldUntil) : entry.nextAttemptAt);
  const measurement = useMemo(() => entryMeasurement(entry), [entry]);
  const unit = useAppState(ui.store, (s) => s.settings.heightUnit);
  // An edit that keeps the name is summarised by the site's service ID ("Edit site 100023: 26 m"):
  // the name a crew knows the site by comes from the list (`sitewalk outbox` says it the same way).
  const siteName = useAppState(ui.store, (s) => (entry.kind === 'site' && entry.localId ? (s.sites.get(entry.localId)?.name ?? '') : ''));
  const nameShown = siteNameToAdd(entry.summary, siteName);

  async function retry() {
    if (entry.state === 'needs-review') {
      const ok = await ui.confirm({
        title: 'Send it again?',
        body:
          entry.kind === 'reprocess'
            ? 'The service may already have reprocessed this submission. Sending again can email the EUS recipients a second time.'
            : 'The service may already have created this site. Sending again can create a duplicate. If you can, check the web interface first and enter the site ID instead.',
        confirmLabel: 'Send again',
        danger: true,
      });
      if (!ok) return;
    }
    const result = await ui.call(() => ui.api.retryEntry(entry.id));
    if (result?.ok) ui.store.applyOutboxEntry(result.value);
    else if (result) refused(result.issues);
  }

  async function discard() {
    const ok = await ui.confirm({
      title: 'Discard this change?',
      body: (
        <>
          <p>“{entry.summary}” will not be sent.</p>
          {entry.state === 'needs-review' && <p>If the service already applied it, discarding does not undo that.</p>}
        </>
      ),
      confirmLabel: 'Discard',
      danger: true,
    });
    if (!ok) return;
    const result = await ui.call(() => ui.api.discardEntry(entry.id));
    if (result?.ok) {
      ui.store.applyChanges(result.value);
      ui.toast('Discarded.', { tone: 'info' });
    } else if (result) refused(result.issues);
  }

  /** The entry moved on meanwhile (sent, done, removed): say why, and show it as it is now. */
  function refused(issues: Parameters<typeof issueText>[0]) {
    ui.toast(issueText(issues), { tone: 'error' });
    void ui.store.refreshEntry(entry.id).catch(() => undefined);
  }

  return (
    <article className={`entry entry-${entry.state}`} aria-label={`${entry.summary}: ${entry.state}`}>
      <header>
        <OutboxBadge state={entry.state} problemKind={entry.problem?.kind} />
        <span className="entry-kind">{entry.kind === 'reprocess' ? 'EUS reprocess' : isCreate ? 'New site' : 'Site change'}</span>
      </header>
      {nameShown !== null && <p className="entry-site">{nameShown}</p>}
      <p className="entry-summary">{entry.summary}</p>
      {measurement && (
        <p className="entry-measurement" data-testid="entry-measurement">
          {measurementText(measurement, unit)}
        </p>
      )}
      {entry.kind === 'reprocess' && entry.state !== 'done' && (
        <p className="entry-email" data-testid="entry-email">
          {entry.payload.sendEmail === true ? 'Will email the submission\'s recipients again when sent.' : 'Sends no email.'}
        </p>
      )}
      <p className="entry-meta">
        Queued {relativeTime(entry.createdAt)}
        {attemptsText(entry) && ` · ${attemptsText(entry)}`}
        {next && (entry.state === 'pending' || entry.state === 'paused') && ` · next try ${next}`}
        {entry.state === 'done' && ` · done ${relativeTime(entry.updatedAt)}`}
      </p>
      {entry.state === 'done' && entry.result && <p className="entry-result">Service answered: {entry.result}</p>}
      {entry.problem && (
        <Problem problem={entry.problem}>
          {entry.state === 'needs-review' && (
            <p>{reviewText(entry.problem, entry.kind === 'reprocess' ? 'reprocess' : isCreate ? 'create' : 'edit')}</p>
          )}
        </Problem>
      )}
      <div className="actions">
        {(entry.state === 'failed' || entry.state === 'paused' || entry.state === 'needs-review') && (
          <button type="button" onClick={() => void retry()}>
            {entry.state === 'needs-review' ? 'Send again' : 'Retry'}
          </button>
        )}
        {entry.kind === 'site' && entry.localId && entry.state !== 'done' && entry.state !== 'sending' && (
          <button type="button" onClick={() => ui.openSiteForm({ mode: 'edit', localId: entry.localId! })}>
            Edit
          </button>
        )}
        {entry.state === 'needs-review' && isCreate && !resolving && (
          <button type="button" className="primary" onClick={() => setResolving(true)}>
            It was created — enter its site ID
          </button>
        )}
        {entry.state !== 'done' && entry.state !== 'sending' && (
          <button type="button" className="danger-outline" onClick={() => void discard()}>
            Discard
          </button>
        )}
      </div>
      {resolving && <ResolveForm entry={entry} onDone={() => setResolving(false)} />}
    </article>
  );
}

function ResolveForm({ entry, onDone }: { entry: OutboxEntryView; onDone: () => void }) {
  const ui = useUi();
  return (
    <ValueForm
      className="resolve-form"
      label="Site ID given by the service"
      input={{ inputMode: 'numeric', autoComplete: 'off', autoFocus: true }}
      blankMessage="Enter the site ID the service gave this site (the number at the end of its address)."
      submitLabel="Confirm site ID"
      onCancel={onDone}
      send={(siteId) => ui.call(() => ui.api.resolveEntry(entry.id, siteId))}
      onSent={(resolved, siteId) => {
        ui.store.applyOutboxEntry(resolved);
        ui.toast(`Marked as created with site ID ${siteId}.`, { tone: 'success' });
        onDone();
      }}
    />
  );
}

/** The later of two instants (ISO text), either of which may be missing. */
function laterTime(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
