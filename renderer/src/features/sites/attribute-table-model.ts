// The attribute table's rules, without a page: its columns (what each shows, how it sorts, whether a
// cell can be edited), sorting the shown sites, the WAI-ARIA grid's keys for a table (Home/End within
// the row, Ctrl+Home/End to the grid's corners), and one edited cell → the site edit to queue.
import type { SiteInput, SiteView } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { SYNC_SHORT } from '../../shared/format';
import { PIN_NAMES } from '../../shared/sprites';
import { formatHeight, metersToFeet, readHeight } from '../../shared/units';
import { nextCell, type Cell } from './grid-keys';

export type ColumnKey = 'name' | 'siteId' | 'group' | 'pinStyle' | 'height' | 'description' | 'syncState';

export interface Column {
  key: ColumnKey;
  label: string;
  /** How an edit is typed: text, a choice of pin colours, or nothing (the cell is read-only). */
  edit: 'text' | 'pin' | 'height' | null;
}

export const COLUMNS: readonly Column[] = [
  { key: 'name', label: 'Name', edit: 'text' },
  { key: 'siteId', label: 'Site ID', edit: null },
  { key: 'group', label: 'Group', edit: 'text' },
  { key: 'pinStyle', label: 'Pin colour', edit: 'pin' },
  { key: 'height', label: 'Height', edit: 'height' },
  { key: 'description', label: 'Description', edit: 'text' },
  { key: 'syncState', label: 'State', edit: null },
];

export interface Sort {
  column: ColumnKey;
  direction: 'ascending' | 'descending';
}

const COLLATOR = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The cell as shown. */
export function cellText(site: SiteView, column: ColumnKey, unit: HeightUnit): string {
  switch (column) {
    case 'pinStyle':
      return PIN_NAMES[site.pinStyle];
    case 'height':
      return formatHeight(site.height, unit);
    case 'syncState':
      return SYNC_SHORT[site.syncState];
    case 'siteId':
      return site.siteId ?? 'New';
    default:
      return site[column];
  }
}

/** The sites in the sort's order (a stable sort: equal cells keep the list's order). Blank cells go last. */
export function sortSites(sites: readonly SiteView[], sort: Sort | null): SiteView[] {
  if (!sort) return [...sites];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const value = (site: SiteView): string | number | null => {
    if (sort.column === 'height') return site.height;
    if (sort.column === 'pinStyle') return site.pinStyle;
    if (sort.column === 'siteId') return site.siteId;
    return site[sort.column] === '' ? null : site[sort.column];
  };
  return [...sites].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : COLLATOR.compare(String(x), String(y));
    return sign * order;
  });
}

/** A click on a column's header: ascending, then descending, then back to ascending. */
export function nextSort(current: Sort | null, column: ColumnKey): Sort {
  return current?.column === column && current.direction === 'ascending' ? { column, direction: 'descending' } : { column, direction: 'ascending' };
}

/** Where a key moves the active cell of the table; null when the key is not the grid's. */
export function tableKey(key: string, from: Cell, shape: { rows: number; columns: number; pageRows: number; ctrl: boolean }): Cell | null {
  if (key === 'Home') return shape.ctrl ? { row: 0, column: 0 } : { row: from.row, column: 0 };
  if (key === 'End') return shape.ctrl ? { row: shape.rows - 1, column: shape.columns - 1 } : { row: from.row, column: shape.columns - 1 };
  return nextCell(key, from, shape);
}

/** The text an edit starts from: the value as typed (a height in the chosen unit, the pin's number). */
export function editStartText(site: SiteView, column: ColumnKey, unit: HeightUnit): string {
  if (column === 'height') return site.height === null ? '' : unit === 'ft' ? String(metersToFeet(site.height)) : String(site.height);
  if (column === 'pinStyle') return String(site.pinStyle);
  return cellText(site, column, unit);
}

/** One edited cell → the site edit to queue, or a sentence when the text cannot be a value. */
export function cellEdit(site: SiteView, column: ColumnKey, text: string, unit: HeightUnit): { ok: true; input: SiteInput } | { ok: false; message: string } {
  const input: SiteInput = { localId: site.localId };
  if (column === 'height') {
    const reading = readHeight(text, unit);
    if (reading.message) return { ok: false, message: reading.message };
    if (reading.meters === null) return { ok: false, message: 'Enter the tower height, like 30 (or 98 ft).' };
    input.height = reading.schemaInput;
  } else if (column === 'pinStyle') input.pinStyle = text;
  else if (column === 'name' || column === 'group' || column === 'description') {
    // The service keeps a field's old value when it is sent blank: a blank cell would change nothing.
    if (text.trim() === '') return { ok: false, message: 'The service keeps the old value when it gets a blank one: type the new value, or press Esc to leave it.' };
    input[column] = text;
  } else return { ok: false, message: 'This column cannot be edited here.' };
  return { ok: true, input };
}
