// A preview's rows kept on disk: one scratch SQLite file per preview (not the folder's sitewalk.db;
// nothing in it outlives the preview), written by the preview's worker a row at a time as the file
// streams, then read by the host or the CLI a page or a batch at a time. So a 1.2-million-row CSV
// costs its reader the rows of one page, never the whole file: the rows that need the others (a
// site ID on two rows, a create at the position of an earlier one) are found with the file's
// indexes once it has been read, and only those rows are rewritten.
import Database from 'better-sqlite3';
import { closeSync, openSync, rmSync } from 'node:fs';
import { filterBits, PREVIEW_PAGE_ROWS, ROW_FILTERS, type ImportPreviewView, type PreviewRowsPage, type RowFilter } from '../../shared/bulk/preview-page';
import {
  countRow,
  emptySummary,
  finishRow,
  markDuplicate,
  markEarlierPosition,
  markKnownPosition,
  positionKey,
  previewRow,
  type ImportPreview,
  type PreviewContext,
  type PreviewRow,
  type PreviewSummary,
} from '../../shared/bulk/preview';
import { dryRunReportRow, type ReportRow, type RowStatus } from '../../shared/bulk/report';
import type { TableRow } from '../../shared/bulk/table';
import { yieldToLoop } from '../../shared/bulk/limits';

/** Rows written in one transaction while the file is read. */
const WRITE_ROWS = 5000;
/** Rows between two turns of the event loop when many are read. */
export const READ_ROWS = 2000;

type Head = Omit<ImportPreview, 'rows'>;

/** A row's dry-run report line as stored beside its body: site ID, name, action, status, message. */
type ReportColumns = [string, string, string, string, string];

/**
 * The dry-run report line a row would get, kept in columns of its own: the report (read twice by
 * the CLI, for the file and for the rows that need attention) then parses no row's JSON body, which
 * was ~5 µs a row.
 */
function reportColumns(row: PreviewRow): ReportColumns {
  const line = dryRunReportRow(row);
  return [line.siteId, line.name, line.action, line.status, line.message];
}

function openScratch(path: string): Database.Database {
  // Never made here: a scratch file removed while its worker starts (the CLI stopped by a signal)
  // would otherwise come back, left behind with the default permissions.
  const db = new Database(path, { fileMustExist: true });
  // Scratch data, rebuilt by checking the file again: no journal, no fsync, a small page cache.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -8000');
  db.pragma('temp_store = FILE');
  return db;
}

/** The worker's side: rows added as they are read, then the rows-together checks, then the head. */
export class PreviewStoreWriter {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[number, number, number, string | null, string | null, number, string, ...ReportColumns]>;
  private pending = 0;
  private readonly summary: PreviewSummary = emptySummary();

  constructor(readonly path: string) {
    rmSync(path, { force: true });
    // The user's data: readable by them alone, as every file in the data folder.
    closeSync(openSync(path, 'wx', 0o600));
    this.db = openScratch(path);
    this.db.exec(`CREATE TABLE head (json TEXT NOT NULL);
      CREATE TABLE rows (idx INTEGER PRIMARY KEY, row INTEGER NOT NULL, bits INTEGER NOT NULL, site_id TEXT, pos TEXT, pos_known INTEGER NOT NULL, body TEXT NOT NULL,
        r_site TEXT NOT NULL, r_name TEXT NOT NULL, r_action TEXT NOT NULL, r_status TEXT NOT NULL, r_message TEXT NOT NULL);`);
    this.insert = this.db.prepare(
      'INSERT INTO rows (idx, row, bits, site_id, pos, pos_known, body, r_site, r_name, r_action, r_status, r_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  get rowCount(): number {
    return this.summary.total;
  }

  /**
   * A finished row (previewRow + finishRow; the known-position warning given). `position`: its
   * position key when it creates a site, and whether a known site is there already.
   */
  private add(row: PreviewRow, position: { key: string; known: boolean } | null): void {
    if (this.pending === 0) this.db.exec('BEGIN');
    const siteId = row.action !== 'skip' && row.input.siteId !== undefined ? row.input.siteId : null;
    this.insert.run(this.summary.total, row.row, filterBits(row), siteId, position?.key ?? null, position?.known ? 1 : 0, JSON.stringify(row), ...reportColumns(row));
    countRow(this.summary, row);
    if (++this.pending >= WRITE_ROWS) this.commit();
  }

  /**
   * A row of the file's table, checked (previewRow), told when a known site is where it creates one,
   * given its verdict (finishRow) and added: what a file's rows go through one at a time.
   */
  check(context: PreviewContext, tableRow: TableRow): void {
    const row = previewRow(context, tableRow);
    let position: { key: string; known: boolean } | null = null;
    if (row.action === 'create' && row.edit && row.edit.latitude !== undefined && row.edit.longitude !== undefined) {
      const key = positionKey(row.edit.latitude, row.edit.longitude);
      const known = context.knownByPosition.get(key);
      if (known !== undefined) markKnownPosition(row, known);
      position = { key, known: known !== undefined };
    }
    finishRow(context, row);
    this.add(row, position);
  }

  /** Forgets every row (the file was refused part-way: its preview has no rows). */
  clear(): void {
    this.commit();
    this.db.exec('DELETE FROM rows');
    Object.assign(this.summary, emptySummary());
  }

  private commit(): void {
    if (this.pending > 0) this.db.exec('COMMIT');
    this.pending = 0;
  }

  /** The rows-together checks, then the head written; closes the file for the reader. */
  finish(head: Omit<Head, 'summary'>): void {
    this.commit();
    this.db.exec('CREATE INDEX rows_site ON rows (site_id) WHERE site_id IS NOT NULL; CREATE INDEX rows_pos ON rows (pos) WHERE pos IS NOT NULL;');
    this.db.transaction(() => {
      this.markDuplicates();
      this.markPositions();
      this.db.prepare('INSERT INTO head (json) VALUES (?)').run(JSON.stringify({ ...head, summary: this.summary }));
    })();
    this.db.close();
  }

  /** Rewrites one row, the counts following it. */
  private rewrite(idx: number, change: (row: PreviewRow) => void): void {
    const row = JSON.parse(this.db.prepare<[number], string>('SELECT body FROM rows WHERE idx = ?').pluck().get(idx)!) as PreviewRow;
    const before = emptySummary();
    countRow(before, row);
    change(row);
    const after = emptySummary();
    countRow(after, row);
    for (const key of Object.keys(before) as Array<keyof PreviewSummary>) this.summary[key] += after[key] - before[key];
    this.db
      .prepare('UPDATE rows SET bits = ?, body = ?, r_site = ?, r_name = ?, r_action = ?, r_status = ?, r_message = ? WHERE idx = ?')
      .run(filterBits(row), JSON.stringify(row), ...reportColumns(row), idx);
  }

  /** A site ID on two rows makes both invalid (as markDuplicates): groups read by key, a page at a time. */
  private markDuplicates(): void {
    const groups = this.db.prepare<[string], { site_id: string; n: number }>(
      'SELECT site_id, count(*) AS n FROM rows WHERE site_id IS NOT NULL AND site_id > ? GROUP BY site_id HAVING n > 1 ORDER BY site_id LIMIT 500',
    );
    const members = this.db.prepare<[string], { idx: number; row: number }>('SELECT idx, row FROM rows WHERE site_id = ? ORDER BY idx');
    let after = '';
    for (let page = groups.all(after); page.length > 0; page = groups.all(after)) {
      for (const { site_id: id, n } of page) {
        const rows = members.all(id);
        const numbers = rows.slice(0, 6).map((member) => member.row);
        for (const member of rows) {
          this.rewrite(member.idx, (row) => {
            markDuplicate(row, id, numbers, n);
            // As finishRow does for a row with issues: no edit, not ready, not "unchanged".
            row.edit = null;
            row.ready = false;
            if (row.action === 'unchanged') row.action = 'edit';
            delete row.changes;
          });
        }
      }
      after = page[page.length - 1]!.site_id;
    }
  }

  /** A create at the position of an earlier create (and of no known site) is said (as markPositions). */
  private markPositions(): void {
    const groups = this.db.prepare<[number], { first: number }>(
      'SELECT min(idx) AS first FROM rows WHERE pos IS NOT NULL GROUP BY pos HAVING count(*) > 1 AND min(idx) > ? ORDER BY first LIMIT 500',
    );
    const later = this.db.prepare<[number, number], { idx: number }>('SELECT idx FROM rows WHERE pos = (SELECT pos FROM rows WHERE idx = ?) AND idx > ? AND pos_known = 0 ORDER BY idx');
    const rowOf = this.db.prepare<[number], number>('SELECT row FROM rows WHERE idx = ?').pluck();
    let after = -1;
    for (let page = groups.all(after); page.length > 0; page = groups.all(after)) {
      for (const { first } of page) {
        const earlier = rowOf.get(first)!;
        for (const { idx } of later.all(first, first)) this.rewrite(idx, (row) => markEarlierPosition(row, earlier));
      }
      after = page[page.length - 1]!.first;
    }
  }
}

/** The host's or the CLI's side: what the page is shown, pages of rows, and every row in batches. */
export class StoredPreview {
  private readonly db: Database.Database;
  readonly head: Head;
  private counts: Record<RowFilter, number> | null = null;

  constructor(readonly path: string) {
    this.db = openScratch(path);
    this.head = JSON.parse(this.db.prepare<[], string>('SELECT json FROM head').pluck().get()!) as Head;
  }

  get rowCount(): number {
    return this.head.summary.total;
  }

  private rowCounts(): Record<RowFilter, number> {
    if (!this.counts) {
      const sums = ROW_FILTERS.map((_, index) => `coalesce(sum((bits >> ${index}) & 1), 0)`).join(', ');
      const values = this.db.prepare<[], number[]>(`SELECT ${sums} FROM rows`).raw().get()!;
      this.counts = Object.fromEntries(ROW_FILTERS.map((filter, index) => [filter, values[index]!])) as Record<RowFilter, number>;
    }
    return this.counts;
  }

  /** The page's answer: the findings, the counts and the first page (of the invalid rows when there are any). */
  view(): ImportPreviewView {
    const rowCounts = this.rowCounts();
    return { ...this.head, rowCounts, firstPage: this.page(rowCounts.invalid > 0 ? 'invalid' : 'all', 0) };
  }

  /** Up to `limit` rows that `filter` shows, from the `offset`-th of them on. */
  page(filter: RowFilter, offset: number, limit = PREVIEW_PAGE_ROWS): PreviewRowsPage {
    const bit = 1 << ROW_FILTERS.indexOf(filter);
    const bodies = this.db.prepare<[number, number, number], string>('SELECT body FROM rows WHERE bits & ? ORDER BY idx LIMIT ? OFFSET ?').pluck().all(bit, limit, offset);
    return { filter, offset, total: this.rowCounts()[filter], rows: bodies.map((body) => JSON.parse(body) as PreviewRow) };
  }

  /** Every row (or those `filter` shows) in file order, `size` at a time, the event loop turning between batches. */
  batches(size = READ_ROWS, filter: RowFilter = 'all'): AsyncGenerator<PreviewRow[]> {
    return this.inFileOrder<[string], PreviewRow>('body', filter, size, ([, , body]) => JSON.parse(body) as PreviewRow);
  }

  /** Every row's dry-run report line (as dryRunReportRow gives it) in file order, `size` at a time. */
  reportBatches(size = READ_ROWS): AsyncGenerator<ReportRow[]> {
    return this.inFileOrder<ReportColumns, ReportRow>('r_site, r_name, r_action, r_status, r_message', 'all', size, ([, row, siteId, name, action, status, message]) => ({
      row,
      siteId,
      name,
      action,
      status: status as RowStatus,
      message,
    }));
  }

  /** `columns` (after idx and row) of the rows `filter` shows, in file order, a page of `size` at a time (by idx, never OFFSET). */
  private async* inFileOrder<C extends unknown[], T>(columns: string, filter: RowFilter, size: number, read: (values: [number, number, ...C]) => T): AsyncGenerator<T[]> {
    const bit = 1 << ROW_FILTERS.indexOf(filter);
    const next = this.db.prepare<[number, number, number], [number, number, ...C]>(`SELECT idx, row, ${columns} FROM rows WHERE idx > ? AND bits & ? ORDER BY idx LIMIT ?`).raw();
    let after = -1;
    for (;;) {
      const page = next.all(after, bit, size);
      if (page.length === 0) return;
      after = page[page.length - 1]![0];
      yield page.map(read);
      await yieldToLoop();
    }
  }

  /** The whole preview in memory: for a file small enough to be shown whole (tests, a short file). */
  async whole(): Promise<ImportPreview> {
    const rows: PreviewRow[] = [];
    for await (const batch of this.batches()) rows.push(...batch);
    return { ...this.head, rows };
  }

  /** Closes and removes the file. */
  drop(): void {
    if (this.db.open) this.db.close();
    rmSync(this.path, { force: true });
  }
}
