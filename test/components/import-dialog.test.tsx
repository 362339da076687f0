// The import dialog. The one-import row limit: a file with more ready rows than one import may
// queue says so with the limit and the way out (split it) before anyone presses Queue, and Queue is
// off; a file within the limit can be queued. The host's preview is the real preview of a small
// file; only its counts are those of a file past the limit (the host's answer is what a component sees).
// The run once queued: while the host checks the file again nothing is queued yet, and the dialog
// says so, in its words and in what Cancel asks; then it follows the run's progress.
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { ImportDialog } from '../../renderer/src/features/bulk/import-dialog';
import { previewImport } from '../../electron/shared/bulk/import';
import { MAX_IMPORT_ROWS } from '../../electron/shared/bulk/limits';
import { ROW_FILTERS, type ImportPreviewView } from '../../electron/shared/bulk/preview-page';
import type { BulkRunView } from '../../electron/shared/contract/index';
import { renderWithHost } from './support/shell';

const CSV = 'name,height,lat,lon\nAlder,30,45.1,-111.1\nBirch,24,45.2,-111.2\n';

async function previewView(ready: number): Promise<ImportPreviewView> {
  const { rows, ...head } = await previewImport(new TextEncoder().encode(CSV), { fileName: 'sites.csv' });
  const rowCounts = Object.fromEntries(ROW_FILTERS.map((filter) => [filter, 0])) as ImportPreviewView['rowCounts'];
  rowCounts.all = ready;
  rowCounts.create = ready;
  return {
    ...head,
    summary: { ...head.summary, total: ready, ready, creates: ready },
    rowCounts,
    firstPage: { filter: 'all', offset: 0, total: ready, rows },
  };
}

async function openWith(ready: number) {
  const { host, screen } = await renderWithHost({}, () => <ImportDialog open onClose={() => undefined} />);
  const view = await previewView(ready);
  host.answer('openBulkFile', async () => ({ ok: true as const, value: { fileId: 'F1', name: 'sites.csv', size: CSV.length } }));
  host.answer('previewImport', async () => ({ ok: true as const, value: view }));
  const input = page.getByLabelText('Sites file');
  await input.upload(new File([CSV], 'sites.csv', { type: 'text/csv' }));
  return { host, screen };
}

describe('an import past the row limit', () => {
  it('says the limit and to split the file before anything is pressed, and Queue is off', async () => {
    const ready = MAX_IMPORT_ROWS + 1;
    const { screen } = await openWith(ready);
    const queue = screen.getByRole('button', { name: `Queue ${ready.toLocaleString()} rows` });
    await expect.element(queue).toBeDisabled();
    await expect.element(screen.getByText(/one import queues at most 40,000/)).toBeVisible();
    await expect.element(screen.getByText(/split the file into parts of up to 40,000 rows/)).toBeVisible();
  });

  it('lets a file within the limit be queued', async () => {
    const { screen } = await openWith(MAX_IMPORT_ROWS);
    await expect.element(screen.getByRole('button', { name: `Queue ${MAX_IMPORT_ROWS.toLocaleString()} rows` })).toBeEnabled();
    expect(screen.getByText(/one import queues at most/).query()).toBeNull();
  });
});

describe('an import once queued', () => {
  const RUN: BulkRunView = { id: 'R1', kind: 'import', fileName: 'sites.csv', startedAt: '2026-11-26T10:00:00.000Z', state: 'running', checking: true, progress: null, result: null, rows: null };

  it('says the file is checked again and nothing is queued yet; Cancel asks in those words; then it follows the progress', async () => {
    const { host, screen } = await openWith(2);
    host.answer('startImport', async () => ({ ok: true as const, value: RUN }));
    await screen.getByRole('button', { name: 'Queue 2 rows' }).click();
    await expect.element(screen.getByText('Checking the file again before queueing…')).toBeVisible();
    await expect.element(screen.getByText(/nothing is queued yet/)).toBeVisible();
    expect(screen.getByText(/The rows are in the outbox/).query()).toBeNull();

    await screen.getByRole('button', { name: 'Cancel run' }).click();
    const asked = screen.getByRole('dialog', { name: 'Cancel this run?' });
    await expect.element(asked.getByText(/Nothing has been queued yet/)).toBeVisible();
    await asked.getByRole('button', { name: 'Keep checking' }).click();
    expect(host.callsOf('cancelBulkRun')).toEqual([]);

    const progress = { total: 2, done: 1, failed: 0, needsReview: 0, paused: 0, pending: 1, sending: 0, cancelled: 0, elapsedMs: 1200, etaMs: 1200, cancelling: false };
    host.emit({ type: 'bulk-run', run: { ...RUN, checking: false, progress } });
    await expect.element(screen.getByText(/^Sent 1 of 2 rows/)).toBeVisible();
    await expect.element(screen.getByText(/The rows are in the outbox/)).toBeVisible();
  });

  it('says nothing was queued when cancelled while it checks, with no empty report to download', async () => {
    const { host, screen } = await openWith(2);
    host.answer('startImport', async () => ({ ok: true as const, value: RUN }));
    const counts = { total: 0, created: 0, updated: 0, reprocessed: 0, unchanged: 0, invalid: 0, skipped: 0, failed: 0, needsReview: 0, paused: 0, queued: 0, wouldQueue: 0, cancelled: 0 };
    const ended: BulkRunView = { ...RUN, state: 'ended', checking: false, result: { outcome: 'cancelled', blockers: [], counts, enqueueMs: 0, elapsedMs: 900 }, rows: [] };
    host.answer('cancelBulkRun', async () => ({ ok: true as const, value: { ...RUN } }));
    host.answer('getBulkRun', async () => ended);
    await screen.getByRole('button', { name: 'Queue 2 rows' }).click();
    await screen.getByRole('button', { name: 'Cancel run' }).click();
    await screen.getByRole('dialog', { name: 'Cancel this run?' }).getByRole('button', { name: 'Cancel the run' }).click();
    expect(host.callsOf('cancelBulkRun')).toEqual([['R1']]);
    host.emit({ type: 'bulk-run', run: { ...ended, rows: null } });
    await expect.element(screen.getByText('Cancelled before any row was queued.')).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Download report (CSV)' })).toBeDisabled();
    expect(screen.getByText('Every row went through.').query()).toBeNull();
  });
});
