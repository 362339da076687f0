// A row-by-row import report (CLI --report or the dialog's download) read the way a spreadsheet
// reads it: byte-order mark dropped, quoted cells unquoted, and its header checked once here.
import Papa from 'papaparse';
import { expect } from 'vitest';

export const REPORT_HEADER = ['row', 'siteId', 'name', 'action', 'status', 'message'];

/** The report's rows below its header (which must be the documented one). */
export function reportRows(text: string): string[][] {
  const [header, ...rows] = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
  expect(header).toEqual(REPORT_HEADER);
  return rows;
}
