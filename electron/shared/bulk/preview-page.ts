// The import preview as the page receives it: the file's findings, counts for each row filter and
// the first page of rows, never every row (at 100,000 rows the whole answer cost the host a second
// of its own thread to decode and send, and the page as much again). Further pages are asked for by
// filter and offset; the rows stay where the preview was made. Browser-safe.
import type { ImportPreview, PreviewRow } from './preview';

/** The preview table's "Show" choices. */
export const ROW_FILTERS = ['all', 'invalid', 'notes', 'create', 'edit', 'unchanged', 'skip'] as const;
export type RowFilter = (typeof ROW_FILTERS)[number];

/** Rows per page, in an answer and in the page's table. */
export const PREVIEW_PAGE_ROWS = 100;

export function rowMatches(row: PreviewRow, filter: RowFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'invalid':
      return row.issues.length > 0;
    case 'notes':
      return row.issues.length === 0 && row.warnings.length > 0;
    default:
      return row.action === filter && (filter === 'skip' || row.issues.length === 0);
  }
}

/** One bit per filter, in ROW_FILTERS order: what a kept row is asked by when a page is wanted. */
export function filterBits(row: PreviewRow): number {
  let bits = 0;
  ROW_FILTERS.forEach((filter, index) => {
    if (rowMatches(row, filter)) bits |= 1 << index;
  });
  return bits;
}

export interface PreviewRowsPage {
  filter: RowFilter;
  /** Index of the first row of `rows` among the rows this filter shows. */
  offset: number;
  /** How many rows this filter shows in all. */
  total: number;
  rows: PreviewRow[];
}

/** previewImport's answer: everything but the rows, the count per filter, and the first page. */
export interface ImportPreviewView extends Omit<ImportPreview, 'rows'> {
  rowCounts: Record<RowFilter, number>;
  /** The filter the table opens with: the invalid rows when there are any. */
  firstPage: PreviewRowsPage;
}
