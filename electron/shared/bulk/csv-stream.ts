// Delimited text read as it arrives, one piece at a time (a file streamed from disk), giving the same
// table rows as parseDelimited gives for the whole text: the separator and the line break are found
// in the first part, the header among the first 20 non-blank records, and each record after it
// becomes a row as soon as its end has been read. Only the unfinished record is held between pieces,
// and a quoted value still open after MAX_RECORD_CHARS refuses the file (an unclosed quote would
// otherwise make the rest of the file one value held in memory). Pure and browser-safe.
import Papa from 'papaparse';
import {
  blankRowsNote,
  delimiterName,
  findHeaderIndex,
  headerColumns,
  headerProblems,
  headerTooWideSentence,
  isBlank,
  openDelimited,
  rowProblemSentence,
  rowsAboveHeaderNote,
  tableRowOf,
  unclosedQuoteSentence,
  UNDECIDED,
  type Delimiter,
  type DelimitedOptions,
  type HeaderRule,
} from './csv';
import { MAX_COLUMNS, MAX_LINE_CHARS } from './limits';
import type { ImportTable, TableRow } from './table';

/** Text read before the separator is chosen: what detectDelimiter's 60 rows need, many times over. */
const HEAD_CHARS = 256 * 1024;
/** One record, quoted line breaks included: a few lines of the longest a line may be. */
export const MAX_RECORD_CHARS = 4 * MAX_LINE_CHARS;

export const overlongRecordSentence = (row: number) =>
  `${unclosedQuoteSentence(row)} (No row of a spreadsheet holds ${MAX_RECORD_CHARS / (1024 * 1024)} million characters.)`;

interface Held {
  record: string[];
  index: number;
  problems: string[];
}

/** The table without its rows: what is known once the whole text has been read. */
export type TableHead = Omit<ImportTable, 'rows'>;

export class DelimitedStream {
  private head = '';
  private parser: Papa.Parser | null = null;
  private delimiter: Delimiter = ',';
  private headerRule: HeaderRule = { extra: [], required: [] };
  private partial = '';
  /** Index of the next record (0-based; the row a spreadsheet shows is index + 1). */
  private next = 0;
  /** Records read before the header was decided. */
  private held: Held[] = [];
  private width = -1;
  private blankRows = 0;
  private readonly notes: string[] = [];
  private readonly problems: string[] = [];
  private columns: string[] = [];
  private stopped = false;

  constructor(private readonly options: DelimitedOptions = {}) {}

  /** True once the text cannot be read on (an unclosed quote): the caller may stop reading. */
  get refused(): boolean {
    return this.stopped;
  }

  /** The rows whose end this piece completes. */
  push(text: string): TableRow[] {
    if (this.stopped) return [];
    if (this.parser === null) {
      this.head += text;
      if (this.head.length < HEAD_CHARS) return [];
      text = this.open();
    }
    return this.feed(text, false);
  }

  /** The rows left once the text has ended. */
  end(): TableRow[] {
    if (this.stopped) return [];
    const text = this.parser === null ? this.open() : '';
    const rows = this.feed(text, true);
    if (this.width < 0) rows.push(...this.decideHeader(true));
    return rows;
  }

  /** What parseDelimited says about the whole text besides its rows; call after end(). */
  table(): TableHead {
    const notes = [...this.notes];
    if (this.blankRows > 0) notes.push(blankRowsNote(this.blankRows));
    const problems = [...this.problems];
    if (this.width < 0 && !this.stopped) problems.push('The file has no rows.');
    return {
      format: 'csv',
      columns: this.columns,
      decimalComma: this.delimiter !== ',',
      notes,
      problems,
      details: { separator: delimiterName(this.delimiter) },
    };
  }

  private open(): string {
    const { body, delimiter, headerRule } = openDelimited(this.head, this.options, this.notes);
    this.head = '';
    this.delimiter = delimiter;
    this.headerRule = headerRule;
    // Papaparse's own guess (the first line break kind of the text), made once on the head.
    const newline = (Papa.parse(body, { delimiter, preview: 1 }).meta.linebreak || '\n') as '\n' | '\r' | '\r\n';
    this.parser = new Papa.Parser({ delimiter, newline, quoteChar: '"' });
    return body;
  }

  private feed(text: string, last: boolean): TableRow[] {
    const aggregate = this.partial + text;
    const parsed = this.parser!.parse(aggregate, 0, !last) as Papa.ParseResult<string[]>;
    this.partial = last ? '' : aggregate.slice(parsed.meta.cursor);
    // A final line break is the end of the last row, not a blank row after it (as parseDelimited).
    const final = parsed.data[parsed.data.length - 1];
    if (last && final && final.length === 1 && final[0] === '' && /\r?\n$|\r$/.test(aggregate)) parsed.data.pop();
    const byRecord = new Map<number, string[]>();
    for (const error of parsed.errors) {
      const index = error.row ?? -1;
      // Only at the end (before it the open value waits for more text): the file is refused, its rows still shown.
      if (error.code === 'MissingQuotes') this.problems.push(unclosedQuoteSentence(this.next + index + 1));
      else if (index >= 0) byRecord.set(index, [...(byRecord.get(index) ?? []), rowProblemSentence(error.message)]);
    }
    const rows: TableRow[] = [];
    parsed.data.forEach((record, offset) => {
      // A header too wide refuses the file: nothing after it is a row.
      if (this.stopped) return;
      const held: Held = { record, index: this.next++, problems: byRecord.get(offset) ?? [] };
      if (this.width >= 0) this.emit(held, rows);
      else {
        this.held.push(held);
        rows.push(...this.decideHeader(false));
      }
    });
    if (this.partial.length > MAX_RECORD_CHARS) this.refuse(overlongRecordSentence(this.next + 1));
    return rows;
  }

  private refuse(problem: string): void {
    this.stopped = true;
    this.problems.push(problem);
    this.partial = '';
    this.held = [];
  }

  /** Once the header is known (or the search is over): the columns, and the held records after it as rows. */
  private decideHeader(complete: boolean): TableRow[] {
    const records = this.held.map((held) => held.record);
    const found = findHeaderIndex(records, this.headerRule, complete);
    if (found === UNDECIDED || found < 0) return [];
    const columns = headerColumns(records[found]!);
    if (columns.length > MAX_COLUMNS) {
      this.refuse(headerTooWideSentence(columns.length));
      return [];
    }
    this.columns = columns;
    this.width = columns.length;
    const above = rowsAboveHeaderNote(this.held[found]!.index, records.slice(0, found).filter((record) => !isBlank(record)).length);
    if (above) this.notes.push(above);
    this.problems.push(...headerProblems(this.columns));
    const rows: TableRow[] = [];
    for (const held of this.held.slice(found + 1)) this.emit(held, rows);
    this.held = [];
    return rows;
  }

  private emit(held: Held, rows: TableRow[]): void {
    const row = tableRowOf(held.record, held.index, this.width, this.delimiter, held.problems);
    if (row) rows.push(row);
    else this.blankRows++;
  }
}
