// The checks of an import preview that need the rows together — a site ID on two rows makes both
// invalid, a create at the position of a known site or of an earlier create is said — and the
// counts. Used on a whole table (preview.ts) and, a piece at a time, on a file that streams.
// Browser-safe.
import type { PreviewRow, PreviewSummary } from './preview-types';

export function markDuplicates(rows: PreviewRow[]): void {
  const byId = new Map<string, PreviewRow[]>();
  for (const row of rows) {
    const id = row.input.siteId;
    if (row.action === 'skip' || id === undefined) continue;
    const list = byId.get(id) ?? [];
    list.push(row);
    byId.set(id, list);
  }
  for (const [id, list] of byId) {
    if (list.length < 2) continue;
    for (const row of list) markDuplicate(row, id, list.map((other) => other.row), list.length);
  }
}

/**
 * Makes a row one of the rows sharing a site ID: `first` are the first of their numbers (at least 6
 * when there are that many), `count` how many rows there are in all.
 */
export function markDuplicate(row: PreviewRow, id: string, first: readonly number[], count: number): void {
  row.flags.push('duplicate-site-id');
  row.issues.push({ field: 'siteId', message: `Site ID ${id} is on rows ${listRows(first, count)}; keep one row per site (rows are never merged).` });
}

export function positionKey(latitude: number, longitude: number): string {
  // About 1 m: two towers closer than that are the same tower.
  return `${latitude.toFixed(5)},${longitude.toFixed(5)}`;
}

/** Warns about creates at the position of a known site or of another create in the file. */
export function markPositions(rows: PreviewRow[], knownByPosition: Map<string, string>): void {
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (row.action !== 'create' || !row.edit || row.edit.latitude === undefined || row.edit.longitude === undefined) continue;
    const key = positionKey(row.edit.latitude, row.edit.longitude);
    const existing = knownByPosition.get(key);
    const earlier = seen.get(key);
    if (existing !== undefined) markKnownPosition(row, existing);
    else if (earlier !== undefined) markEarlierPosition(row, earlier);
    if (earlier === undefined) seen.set(key, row.row);
  }
}

export function markKnownPosition(row: PreviewRow, siteId: string): void {
  row.flags.push('same-position');
  row.warnings.push(`Site ${siteId} is already at this position; this row creates another site there.`);
}

export function markEarlierPosition(row: PreviewRow, earlier: number): void {
  row.flags.push('same-position');
  row.warnings.push(`Row ${earlier} creates a site at the same position.`);
}

function listRows(numbers: readonly number[], count = numbers.length): string {
  if (count <= 6) return count === 2 ? `${numbers[0]} and ${numbers[1]}` : `${numbers.slice(0, count - 1).join(', ')} and ${numbers[count - 1]}`;
  return `${numbers.slice(0, 5).join(', ')} and ${count - 5} more`;
}

export const emptySummary = (): PreviewSummary => ({ total: 0, ready: 0, creates: 0, edits: 0, unchanged: 0, invalid: 0, skipped: 0, duplicates: 0, warnings: 0 });

export function summarize(rows: readonly PreviewRow[]): PreviewSummary {
  const summary = emptySummary();
  for (const row of rows) countRow(summary, row);
  return summary;
}

/** Counts one finished row into a summary. */
export function countRow(summary: PreviewSummary, row: PreviewRow): void {
  summary.total++;
  if (row.action === 'skip') summary.skipped++;
  else if (row.issues.length > 0) summary.invalid++;
  else if (row.action === 'unchanged') summary.unchanged++;
  else if (row.action === 'create') summary.creates++;
  else summary.edits++;
  if (row.ready) summary.ready++;
  if (row.flags.includes('duplicate-site-id')) summary.duplicates++;
  if (row.warnings.length > 0) summary.warnings++;
}
