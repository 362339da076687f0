// An import queued in batches through the real core: each batch is one enqueue (one transaction),
// every ready row is queued once, in file order; stopped while queueing, no further batch is queued,
// the queued rows are whole batches and the result says how many; batches sized by time stay within
// their bound and still queue every row.
import { describe, expect } from 'vitest';
import { coreOutboxPort } from '../../electron/core/bulk/core-port';
import { runImport } from '../../electron/core/bulk/import-run';
import type { OutboxPort } from '../../electron/core/bulk/apply';
import { previewImport } from '../../electron/shared/bulk/import';
import { it } from '../support/fixtures';

function sitesCsv(rows: number): Uint8Array {
  const lines = ['Siteid,Sitename,height,Latitude,Longitude'];
  for (let n = 0; n < rows; n++) lines.push(`${500_000 + n},Tower ${n},${20 + (n % 50)},45.${n},-110.2`);
  // One invalid row, left out with --skip-invalid.
  lines.push('600000,No height,,45.1,-110.1');
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

/** The real port, each enqueue seen (how many edits, in which order). */
function watched(port: OutboxPort, onBatch: (siteIds: string[]) => void): OutboxPort {
  return {
    ...port,
    enqueueSites: (edits) => {
      onBatch(edits.map((edit) => edit.siteId!));
      return port.enqueueSites(edits);
    },
  };
}

describe('an import queued in batches', () => {
  it('queues every ready row once, in file order, one enqueue per batch', async ({ openCore }) => {
    const core = await openCore({ sandbox: false });
    const preview = await previewImport(sitesCsv(25), { fileName: 'sites.csv' });
    const batches: string[][] = [];
    const result = await runImport(watched(coreOutboxPort(core), (ids) => batches.push(ids)), preview, { follow: false, skipInvalid: true, batchRows: 10 });
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(Array.from({ length: 25 }, (_, n) => String(500_000 + n)));
    expect(result.counts).toMatchObject({ queued: 25, invalid: 1 });
    expect(core.outbox.list().length).toBe(25);
  });

  it('stops queueing when cancelled between batches: whole batches stay queued and the result says how many', async ({ openCore }) => {
    const core = await openCore({ sandbox: false });
    const preview = await previewImport(sitesCsv(25), { fileName: 'sites.csv' });
    const controller = new AbortController();
    const result = await runImport(
      watched(coreOutboxPort(core), () => controller.abort()),
      preview,
      { follow: false, skipInvalid: true, batchRows: 10, signal: controller.signal },
    );
    expect(result.outcome).toBe('stopped');
    expect(result.stoppedBecause).toMatch(/^Stopped while queueing: 10 of 25 rows were queued/);
    expect(core.outbox.list().length).toBe(10);
    expect(result.counts).toMatchObject({ queued: 10, cancelled: 15, invalid: 1, total: 26 });
    expect(result.rows.map((row) => row.row)).toEqual(Array.from({ length: 26 }, (_, n) => n + 2));
  });

  it('sizes batches by time within their bound and still queues every row', async ({ openCore }) => {
    const core = await openCore({ sandbox: false });
    const preview = await previewImport(sitesCsv(3000), { fileName: 'sites.csv' });
    const sizes: number[] = [];
    const result = await runImport(watched(coreOutboxPort(core), (ids) => sizes.push(ids.length)), preview, { follow: false, skipInvalid: true, batchRows: 1000, batchMs: 20 });
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(3000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
    expect(sizes[0]).toBe(200);
    expect(result.counts.queued).toBe(3000);
  });

  it('refuses a file with more ready rows than one import may queue, queues nothing and says to split it', async ({ openCore }) => {
    const core = await openCore({ sandbox: false });
    const preview = await previewImport(sitesCsv(25), { fileName: 'sites.csv' });
    const batches: number[] = [];
    const result = await runImport(watched(coreOutboxPort(core), (ids) => batches.push(ids.length)), preview, { follow: false, skipInvalid: true, batchRows: 10, maxRows: 24 });
    expect(result.outcome).toBe('refused');
    expect(result.blockers).toEqual([
      '25 rows are ready to queue; one import queues at most 24 (each row is held in memory until it is sent). Nothing was queued: split the file into parts of up to 24 rows and import them one after another.',
    ]);
    expect(batches).toEqual([]);
    expect(core.outbox.list()).toEqual([]);
    // Counted, none of them queued; the dry run lists the rows.
    expect(result.counts).toMatchObject({ queued: 0, cancelled: 25, invalid: 1, total: 26 });
    expect(result.rows).toEqual([]);

    // At the limit, the same file is queued.
    const within = await runImport(coreOutboxPort(core), preview, { follow: false, skipInvalid: true, batchRows: 10, maxRows: 25 });
    expect(within.counts.queued).toBe(25);
  });
});
