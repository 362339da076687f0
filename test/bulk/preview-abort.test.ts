// An import preview asked to stop (the CLI's Ctrl-C while it checks a file): its worker thread is
// ended, the rows it had written removed, and the promise rejects with the reason it was given — in
// that order, so the process may exit the moment it rejects with nothing left running in the worker.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { previewImportStored } from '../../electron/core/bulk/preview-off-thread';
import { it } from '../support/fixtures';
import { writeSitesCsv } from '../support/sites-csv';

it('stops a preview in its worker: the promise rejects with the reason, the rows written so far removed', { timeout: 120_000 }, async ({ tempDir }) => {
  const file = join(tempDir, 'sites.csv');
  await writeSitesCsv(file, 400_000);
  const store = join(tempDir, 'preview.db');
  const stopping = new AbortController();
  const checking = previewImportStored({ path: file }, { fileName: 'sites.csv' }, store, stopping.signal);
  const settled = checking.then(
    () => 'finished',
    (error: unknown) => error,
  );
  // Once the worker has begun writing rows, mid-file.
  await vi.waitFor(() => expect(existsSync(store)).toBe(true), { timeout: 60_000, interval: 5 });
  stopping.abort('SIGINT');
  expect(await settled).toBe('SIGINT');
  expect(readdirSync(tempDir).sort()).toEqual(['sites.csv']);
});

// The worker makes the store file itself as it starts: stopped in that moment, the file used to be
// removed before the worker made it, and was left behind until the next start.
it('leaves no store file when stopped while its worker starts', async ({ tempDir }) => {
  const file = join(tempDir, 'sites.csv');
  await writeSitesCsv(file, 50_000);
  const store = join(tempDir, 'preview.db');
  const stopping = new AbortController();
  const checking = previewImportStored({ path: file }, { fileName: 'sites.csv' }, store, stopping.signal);
  stopping.abort('SIGINT');
  await expect(checking).rejects.toBe('SIGINT');
  expect(readdirSync(tempDir)).toEqual(['sites.csv']);
});

it('starts no worker for a preview stopped before it began', async ({ tempDir }) => {
  const file = join(tempDir, 'sites.csv');
  await writeSitesCsv(file, 10);
  const store = join(tempDir, 'preview.db');
  await expect(previewImportStored({ path: file }, { fileName: 'sites.csv' }, store, AbortSignal.abort('SIGTERM'))).rejects.toBe('SIGTERM');
  expect(existsSync(store)).toBe(false);
});
