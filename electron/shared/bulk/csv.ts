// Delimited text (CSV, semicolon CSV from European Excel, TSV) → ImportTable, with papaparse doing
// the quoting. Handles what office tools write: Excel's "sep=;" first line, quoted newlines, blank
// and delimiter-only rows, trailing empty columns, stray spaces in headers, a title row above the
// header. Row numbers are the ones a spreadsheet shows (a quoted newline does not start a new row).
// Pure and browser-safe.
import Papa from 'papaparse';
import { normalizeHeader, targetForHeader } from './fields';
import { MAX_COLUMNS, overlongLine, overlongLineSentence, tooManyColumnsSentence } from './limits';
import type { ImportTable, TableRow } from './table';

export type Delimiter = ',' | ';' | '\t' | '|';
const CANDIDATES: readonly Delimiter[] = [',', ';', '\t', '|'];

const DELIMITER_NAMES: Readonly<Record<Delimiter, string>> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'vertical bar' };

/** The separator in words for a sentence; anything else (a forced odd separator) quoted as JSON. */
export function delimiterName(delimiter: string): string {
  return Object.hasOwn(DELIMITER_NAMES, delimiter) ? DELIMITER_NAMES[delimiter as Delimiter] : JSON.stringify(delimiter);
}

export interface DelimitedOptions {
  /** Force a separator instead of detecting it. */
  delimiter?: Delimiter;
  /**
   * Header names the caller's manual mapping refers to: a row holding one of them can be the header
   * even when no cell is a known alias.
   */
  extraHeaders?: string[];
  /** When set, the header is the first row holding one of these names (the EUS download's process ID column). */
  requiredHeaders?: string[];
}

/** How many leading records are searched for the header row (title rows, notes above the table). */
const HEADER_SEARCH = 20;

/** Reads delimited text into a table. Never throws; trouble is in `problems` and row `problems`. */
export function parseDelimited(text: string, options: DelimitedOptions = {}): ImportTable {
  const notes: string[] = [];
  const problems: string[] = [];
  // Before papaparse: one line of 60 MB would become millions of cells held at once.
  const overlong = overlongLine(text);
  if (overlong !== null) return { format: 'csv', columns: [], rows: [], decimalComma: false, notes, problems: [overlongLineSentence(overlong)], details: {} };
  const { body, delimiter, headerRule } = openDelimited(text, options, notes);

  const parsed = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: false, quoteChar: '"' });
  const records = parsed.data;
  // A final line break is the end of the last row, not a blank row after it.
  const last = records[records.length - 1];
  if (last && last.length === 1 && last[0] === '' && /\r?\n$|\r$/.test(body)) records.pop();

  const rowProblems = new Map<number, string[]>();
  for (const error of parsed.errors) {
    const index = error.row ?? -1;
    if (error.code === 'MissingQuotes') {
      // An unclosed quote swallows everything after it into one cell: the rest of the file cannot
      // be trusted, so the whole file is refused rather than half-read.
      problems.push(unclosedQuoteSentence(index + 1));
    } else if (index >= 0) {
      const list = rowProblems.get(index) ?? [];
      list.push(rowProblemSentence(error.message));
      rowProblems.set(index, list);
    }
  }

  const headerIndex = findHeaderIndex(records, headerRule);
  if (headerIndex < 0) {
    return {
      format: 'csv',
      columns: [],
      rows: [],
      decimalComma: delimiter !== ',',
      notes,
      problems: [...problems, 'The file has no rows.'],
      details: { separator: delimiterName(delimiter) },
    };
  }
  const columns = headerColumns(records[headerIndex]!);
  if (columns.length > MAX_COLUMNS) {
    return { format: 'csv', columns: [], rows: [], decimalComma: delimiter !== ',', notes, problems: [...problems, headerTooWideSentence(columns.length)], details: { separator: delimiterName(delimiter) } };
  }
  const width = columns.length;
  const above = rowsAboveHeaderNote(headerIndex, records.slice(0, headerIndex).filter((record) => !isBlank(record)).length);
  if (above) notes.push(above);
  problems.push(...headerProblems(columns));

  const rows: TableRow[] = [];
  let blankRows = 0;
  for (let index = headerIndex + 1; index < records.length; index++) {
    const row = tableRowOf(records[index]!, index, width, delimiter, rowProblems.get(index) ?? []);
    if (row) rows.push(row);
    else blankRows++;
  }
  if (blankRows > 0) notes.push(blankRowsNote(blankRows));

  const decimalComma = delimiter !== ',';
  return {
    format: 'csv',
    columns,
    rows,
    decimalComma,
    notes,
    problems,
    details: { separator: delimiterName(delimiter) },
  };
}

/**
 * The start of delimited text: Excel's "sep=;" first line (it names the separator and is not a row
 * of the sheet), then the separator (forced, named, else detected from the start of the text).
 * `text` may be only the first part of a file (a stream's head): detection reads 60 rows at most.
 */
export function openDelimited(text: string, options: DelimitedOptions, notes: string[]): { body: string; delimiter: Delimiter; headerRule: HeaderRule } {
  let body = text;
  let delimiter: Delimiter | undefined = options.delimiter;
  const sepLine = /^sep=(.)\r?\n/i.exec(body);
  if (sepLine) {
    body = body.slice(sepLine[0].length);
    const named = sepLine[1] as Delimiter;
    if (CANDIDATES.includes(named)) {
      delimiter ??= named;
      notes.push(`The first line "sep=${named === '\t' ? '\\t' : named}" names the separator; it is not a row.`);
    }
  }
  const headerRule: HeaderRule = { extra: options.extraHeaders ?? [], required: options.requiredHeaders ?? [] };
  delimiter ??= detectDelimiter(body, headerRule);
  return { body, delimiter, headerRule };
}

/** The columns a header record names: trailing empty header cells (what spreadsheets leave) dropped. */
export function headerColumns(headerCells: readonly string[]): string[] {
  let width = headerCells.length;
  while (width > 0 && headerCells[width - 1]!.trim() === '') width--;
  return headerCells.slice(0, width).map(cleanHeader);
}

/** The file-level problems of a header: columns without a name. */
export function headerProblems(columns: readonly string[]): string[] {
  return columns.flatMap((column, index) => (column === '' ? [`Column ${index + 1} has no header; give it a name (or delete the column) and import again.`] : []));
}

/** The note for rows above the header, or null when there were none that held anything. */
export function rowsAboveHeaderNote(headerIndex: number, skipped: number): string | null {
  if (headerIndex === 0 || skipped === 0) return null;
  return `The header is on row ${headerIndex + 1}; ${skipped} row${skipped === 1 ? '' : 's'} above it ${skipped === 1 ? 'was' : 'were'} not read.`;
}

export const headerTooWideSentence = (columns: number) => tooManyColumnsSentence(`The header names ${columns.toLocaleString('en-US')} columns`);

export const blankRowsNote = (blankRows: number) => `${blankRows} blank row${blankRows === 1 ? ' was' : 's were'} skipped.`;

/** A record below the header as a table row (null for a blank one): cut to the header's width (never padded), extra values said. */
export function tableRowOf(record: readonly string[], index: number, width: number, delimiter: Delimiter, problems: readonly string[]): TableRow | null {
  if (isBlank(record)) return null;
  const cells = record.length > width ? record.slice(0, width) : [...record];
  const row: TableRow = { row: index + 1, cells };
  const problemsHere = [...problems];
  const extra = record.slice(width).filter((cell) => cell.trim() !== '').length;
  if (extra > 0) {
    problemsHere.push(
      `The row has ${extra} more value${extra === 1 ? '' : 's'} than the header has columns; a value probably contains the separator (${delimiterName(delimiter)}) without quotes.`,
    );
  }
  if (problemsHere.length > 0) row.problems = problemsHere;
  return row;
}

export const unclosedQuoteSentence = (row: number) =>
  `Row ${row} opens a quoted value that is never closed, so everything after it reads as one value. Fix the stray double quote (") and import again.`;

export const rowProblemSentence = (message: string) => `The row is not well-formed CSV (${message.replace(/\.$/, '')}); check its double quotes.`;

export function isBlank(record: readonly string[]): boolean {
  return record.every((cell) => cell.trim() === '');
}

/** Header text as compared and shown: trimmed, inner runs of white space made one space. */
function cleanHeader(cell: string): string {
  return cell.replace(/^\uFEFF/, '').replace(/\s+/g, ' ').trim();
}

/**
 * Picks the separator that splits the first rows into the most consistent number of columns (at
 * least two). A semicolon file with commas inside descriptions or decimal commas still wins for
 * ';', because its header has no commas.
 */
export function detectDelimiter(text: string, headerRule: HeaderRule = { extra: [], required: [] }): Delimiter {
  let best: Delimiter = ',';
  let bestScore = -1;
  for (const candidate of CANDIDATES) {
    const sample = Papa.parse<string[]>(text, { delimiter: candidate, preview: 60, skipEmptyLines: 'greedy' }).data;
    if (sample.length === 0) continue;
    const headerIndex = Math.max(0, findHeaderIndex(sample, headerRule));
    const header = sample[headerIndex]!;
    let width = header.length;
    while (width > 0 && header[width - 1]!.trim() === '') width--;
    if (width < 2) continue;
    const rest = sample.slice(headerIndex + 1);
    const consistent = rest.filter((record) => {
      let used = record.length;
      while (used > 0 && record[used - 1]!.trim() === '') used--;
      return used <= width && record.length >= Math.min(width, 2);
    }).length;
    const required = new Set(headerRule.required.map(normalizeHeader));
    const known = header.filter((cell) => targetForHeader(cell) !== null || required.has(normalizeHeader(cell))).length;
    const ratio = rest.length === 0 ? 1 : consistent / rest.length;
    // Consistency first, then how many headers we recognise, then the column count.
    const score = ratio * 1_000_000 + known * 1000 + width;
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

export interface HeaderRule {
  /** Names that count as known headers besides the site aliases (a manual mapping's columns). */
  extra: readonly string[];
  /** When not empty, the header is the first row holding one of these. */
  required: readonly string[];
}

/**
 * The header row: among the first non-blank records, the first holding a required name when there
 * are any, else the first with at least two recognised column names (or one, when the row has only
 * one cell); failing that, the first non-blank record. -1 when there are no non-blank records.
 */
export function findHeaderIndex(records: readonly string[][], rule: HeaderRule, complete = true): number {
  const extra = new Set(rule.extra.map(normalizeHeader));
  const required = new Set(rule.required.map(normalizeHeader));
  let first = -1;
  let seen = 0;
  for (let index = 0; index < records.length && seen < HEADER_SEARCH; index++) {
    const record = records[index]!;
    if (isBlank(record)) continue;
    seen++;
    if (first < 0) first = index;
    const cells = record.filter((cell) => cell.trim() !== '');
    if (required.size > 0) {
      if (cells.some((cell) => required.has(normalizeHeader(cell)))) return index;
      continue;
    }
    const known = cells.filter((cell) => targetForHeader(cell) !== null || extra.has(normalizeHeader(cell))).length;
    if (known >= 2 || (known === 1 && cells.length === 1)) return index;
  }
  // More records may still come (a stream): the fallback waits until the search is over.
  return complete || seen >= HEADER_SEARCH ? first : UNDECIDED;
}

/** findHeaderIndex's answer while records may still come and none qualifies yet. */
export const UNDECIDED = -2;
