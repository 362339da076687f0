// A preview's rows packed in the worker and kept by the host: any row decodes back as it was, across
// the blocks they are packed in, pages follow the filters the page offers, and the whole preview
// comes back unchanged for a run.
import { describe, expect, it } from 'vitest';
import { KeptPreview, packPreview } from '../../electron/core/bulk/kept-preview';
import { previewImport } from '../../electron/shared/bulk/import';
import { rowMatches } from '../../electron/shared/bulk/preview-page';

describe('kept preview rows', () => {
  it('gives back every row as it was, across blocks, page by page and whole', async () => {
    // ~3 KB of description per row: 4,000 rows make three blocks of 4 MB; every seventh row has no height.
    const notes = 'é'.repeat(1500);
    const lines = Array.from({ length: 4000 }, (_, index) => `Ridge ${index},${index % 7 === 0 ? '' : 30},45.${index},-111.1,${notes}${index}`);
    const preview = await previewImport(new TextEncoder().encode(`name,height,lat,lon,description\n${lines.join('\n')}\n`), { fileName: 'wide.csv' });
    const packed = packPreview(preview);
    expect(packed.blocks.length).toBeGreaterThanOrEqual(3);
    const kept = new KeptPreview(packed);

    expect(await kept.whole()).toEqual(preview);
    const view = kept.view();
    expect(view.rowCounts.all).toBe(4000);
    expect(view.rowCounts.invalid).toBe(preview.rows.filter((row) => rowMatches(row, 'invalid')).length);
    expect(view.firstPage.filter).toBe('invalid');
    for (const filter of ['all', 'create', 'invalid'] as const) {
      const wanted = preview.rows.filter((row) => rowMatches(row, filter));
      for (const offset of [0, 1300, wanted.length - 10]) {
        const page = kept.page(filter, offset);
        expect(page.total).toBe(wanted.length);
        expect(page.rows).toEqual(wanted.slice(offset, offset + 100));
      }
    }
  });
});
