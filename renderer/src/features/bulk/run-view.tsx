// A bulk run as the host follows it: while an import checks its file again, a moving bar and that
// nothing is queued yet; a progress bar with counts and time left while the batch is
// sent, Cancel (rows not yet sent leave the outbox, or the check stops), and once it has ended the outcome, the rows that
// need a look, and the row-by-row report to download. Shared by the import and the EUS reprocess.
import { useEffect, useMemo, useState } from 'react';
import type { BulkRunView, ReportRow } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { saveFile } from './files';
import { issueText } from '../../shared/issues';
import { useUi } from '../../shared/ui/ui-context';
import { DataTable } from './table';
import { applyBulkRun } from './bulk-slice';

const STATUS_LABELS: Record<ReportRow['status'], string> = {
  created: 'Created',
  updated: 'Updated',
  reprocessed: 'Reprocessed',
  unchanged: 'Unchanged',
  invalid: 'Invalid',
  skipped: 'Skipped',
  failed: 'Failed',
  'needs-review': 'Needs review',
  paused: 'Held',
  queued: 'Waiting',
  'would-queue': 'Would be queued',
  cancelled: 'Cancelled',
};

const FINE: ReadonlySet<ReportRow['status']> = new Set(['created', 'updated', 'reprocessed', 'unchanged']);
const SHOWN_ROWS = 200;

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
}

export function RunView({ runId, verb, onClose }: { runId: string; verb: string; onClose: () => void }) {
  const ui = useUi();
  const run = useAppState(ui.store, (s) => s.bulkRuns.get(runId) ?? null);
  const [cancelRequested, setCancelRequested] = useState(false);

  // The rows come with the run once it has ended (events leave them out).
  useEffect(() => {
    if (!run || run.state !== 'ended' || run.rows) return;
    let live = true;
    void ui.call(() => ui.api.getBulkRun(runId)).then((full) => {
      if (live && full) applyBulkRun(ui.store, full);
    });
    return () => {
      live = false;
    };
  }, [run, runId, ui]);

  if (!run) return <p role="status">Starting…</p>;
  return run.state === 'running' ? (
    <Running run={run} verb={verb} cancelRequested={cancelRequested} onCancel={() => void cancel()} />
  ) : (
    <Ended run={run} onClose={onClose} />
  );

  async function cancel() {
    // While the file is checked again nothing is queued yet: stopping then loses nothing.
    const checking = run?.checking === true;
    const ok = await ui.confirm({
      title: 'Cancel this run?',
      body: checking ? (
        <p>Nothing has been queued yet: the file is still being checked. Cancelling stops the check and queues nothing.</p>
      ) : (
        <p>Rows not sent yet are taken out of the outbox. Rows already sent stay on the service; the report says which went.</p>
      ),
      confirmLabel: 'Cancel the run',
      cancelLabel: checking ? 'Keep checking' : 'Keep sending',
      danger: true,
    });
    if (!ok) return;
    setCancelRequested(true);
    const result = await ui.call(() => ui.api.cancelBulkRun(runId));
    if (result?.ok) applyBulkRun(ui.store, result.value);
  }
}

function Running({ run, verb, cancelRequested, onCancel }: { run: BulkRunView; verb: string; cancelRequested: boolean; onCancel: () => void }) {
  const p = run.progress;
  const ended = p ? p.done + p.failed + p.needsReview + p.cancelled : 0;
  const total = p?.total ?? 0;
  const cancelling = cancelRequested || p?.cancelling === true;
  return (
    <section className="run-view" aria-label="Progress">
      <p className="run-headline" role="status" aria-live="polite">
        {run.checking ? 'Checking the file again before queueing…' : p ? `${verb} ${ended.toLocaleString()} of ${total.toLocaleString()} rows` : 'Queueing the rows…'}
        {p && p.etaMs !== null && p.etaMs > 0 && !cancelling ? ` · about ${duration(p.etaMs)} left` : ''}
        {cancelling ? ' · cancelling…' : ''}
      </p>
      {run.checking ? (
        // No count to show yet: the bar moves without one.
        <progress aria-label="Checking the file again" />
      ) : (
        <progress max={Math.max(total, 1)} value={ended} aria-label={`${verb} ${ended} of ${total} rows`} />
      )}
      {p && (
        <ul className="run-counts">
          <li>{p.done.toLocaleString()} done</li>
          <li>{(p.pending + p.sending).toLocaleString()} waiting</li>
          {p.failed > 0 && <li className="bad">{p.failed.toLocaleString()} failed</li>}
          {p.needsReview > 0 && <li className="bad">{p.needsReview.toLocaleString()} need review</li>}
          {p.paused > 0 && <li className="bad">{p.paused.toLocaleString()} held</li>}
          {p.cancelled > 0 && <li>{p.cancelled.toLocaleString()} cancelled</li>}
          <li>{duration(p.elapsedMs)} so far</li>
        </ul>
      )}
      <p className="form-help">
        {run.checking
          ? 'Every row is checked against the sites as they are now (they may have changed since the preview); nothing is queued yet.'
          : 'The rows are in the outbox: closing this window or the app does not lose them.'}
      </p>
      <div className="actions">
        <button type="button" className="danger-outline" onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling…' : 'Cancel run'}
        </button>
      </div>
    </section>
  );
}

function Ended({ run, onClose }: { run: BulkRunView; onClose: () => void }) {
  const ui = useUi();
  const result = run.result;
  const rows = run.rows;
  const attention = useMemo(() => (rows ?? []).filter((row) => !FINE.has(row.status)), [rows]);
  if (!result) return null;
  const c = result.counts;
  const parts = [
    [c.created, 'created'],
    [c.updated, 'updated'],
    [c.reprocessed, 'reprocessed'],
    [c.unchanged, 'unchanged'],
    [c.invalid, 'invalid'],
    [c.skipped, 'skipped'],
    [c.failed, 'failed'],
    [c.needsReview, 'need review'],
    [c.paused, 'held'],
    [c.queued, 'waiting in the outbox'],
    [c.cancelled, 'cancelled'],
  ].filter(([count]) => (count as number) > 0);
  // Stopped while an import checked its file again: no row was queued, none is in the report.
  const none = c.total === 0;
  const headline =
    result.outcome === 'refused'
      ? 'Nothing was queued.'
      : result.outcome === 'cancelled'
        ? none
          ? 'Cancelled before any row was queued.'
          : 'Cancelled.'
        : result.outcome === 'stopped'
          ? none
            ? 'Stopped before any row was queued.'
            : 'Stopped following: the rest waits in the outbox.'
          : 'Done.';

  async function download() {
    const report = await ui.call(() => ui.api.getBulkReport(run.id));
    if (!report) return;
    if (!report.ok) {
      ui.toast(issueText(report.issues), { tone: 'error' });
      return;
    }
    saveFile(report.value);
  }

  return (
    <section className="run-view" aria-label="Result">
      <p className={`run-headline ${result.outcome === 'completed' && attention.length === 0 ? 'good' : ''}`} role="status">
        {headline} {parts.map(([count, label]) => `${(count as number).toLocaleString()} ${label}`).join(', ')}
        {parts.length > 0 ? '.' : ''}
      </p>
      {result.blockers.map((blocker) => (
        <p key={blocker} className="problem">
          {blocker}
        </p>
      ))}
      {result.stoppedBecause && <p className="notice">{result.stoppedBecause}</p>}
      {rows === null ? (
        <p role="status">Loading the report…</p>
      ) : attention.length > 0 ? (
        <>
          <h3>Rows that need a look ({attention.length.toLocaleString()})</h3>
          <DataTable head={['Row', 'Status', run.kind === 'import' ? 'Site' : 'Submission', 'Message']}>
            {attention.slice(0, SHOWN_ROWS).map((row) => (
              <tr key={`${row.row}-${row.entryId ?? ''}`}>
                <td>{row.row}</td>
                <td>{STATUS_LABELS[row.status]}</td>
                <td>{[row.siteId, row.name].filter(Boolean).join(' · ')}</td>
                <td>{row.message}</td>
              </tr>
            ))}
          </DataTable>
          {attention.length > SHOWN_ROWS && <p className="form-help">The first {SHOWN_ROWS} are shown; the report has every row.</p>}
        </>
      ) : none ? null : (
        <p>Every row went through.</p>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={() => void download()} disabled={rows === null || none}>
          Download report (CSV)
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
