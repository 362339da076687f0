// The import preview: a table (from CSV, KML/KMZ or GeoJSON) mapped to site inputs, each row
// validated with the shared site schema (the form's and the client's), given its intended action
// and its flags. A dry run is this preview; apply sends exactly the rows it marks ready. Invariants:
// every row of the file appears (ready, unchanged, invalid or skipped, with the reason); nothing is
// merged (a site ID on two rows makes both rows invalid); the result is plain data so it can be
// computed in a Web Worker.
import { parseSiteEdit, type SiteEditInput } from '../validation';
import { readCoordinateCell } from '../validation/coordinates';
import { readHeightText } from '../validation/height';
import type { InputIssue, SiteEdit } from '../domain';
import { unguardFormula } from './export';
import { MAX_IMPORT_ROWS, tooManyRowsSentence } from './limits';
import { targetLabel, type SiteField } from './fields';
import { resolveMapping, type ColumnMapping } from './mapping';
import { markDuplicates, markPositions, positionKey, summarize } from './preview-marks';
import type { DefaultField, ImportPreview, KnownSite, PreviewOptions, PreviewRow } from './preview-types';
import type { ImportFormat, ImportTable, TableRow } from './table';

export * from './preview-types';
export { countRow, emptySummary, markDuplicate, markEarlierPosition, markKnownPosition, positionKey } from './preview-marks';

const GUARDED_FIELDS: ReadonlySet<string> = new Set(['siteId', 'name', 'description', 'group']);

/**
 * What every row of one import is read with: the resolved mapping, the file-level problems, the
 * defaults, the register's sites by ID and by position. Built once; rows are then mapped one at a
 * time (previewRow), so a file can be previewed as it streams.
 */
export interface PreviewContext {
  format: ImportFormat;
  decimalComma: boolean;
  details: Record<string, string>;
  columns: ColumnMapping[];
  notes: string[];
  problems: string[];
  mappingErrors: string[];
  defaults: Partial<Record<DefaultField, string>>;
  /** Field → the columns feeding it, in the order they are tried (one, except for KML/GeoJSON). */
  mapped: Map<string, number[]>;
  knownById: Map<string, KnownSite>;
  knownByPosition: Map<string, string>;
  /** Coordinates read with a decimal comma so far. */
  decimalCommas: number;
}

export function previewContext(table: Omit<ImportTable, 'rows'>, options: PreviewOptions = {}): PreviewContext {
  const mapping = resolveMapping(table.columns, options.mapping ?? {}, { perRowFallback: table.format !== 'csv' });
  const problems = [...table.problems, ...mapping.errors];
  const defaults = cleanDefaults(options.defaults ?? {});
  const mapped = new Map<string, number[]>();
  for (const column of mapping.columns) {
    if (!column.target) continue;
    const list = mapped.get(column.target) ?? [];
    list.push(column.index);
    mapped.set(column.target, list);
  }

  if (table.columns.length > 0 && mapped.size === 0 && mapping.errors.length === 0) {
    problems.push(
      `No column is recognised (${table.columns.map((c) => `"${c}"`).join(', ')}). Use headers like Siteid, Sitename, height, Latitude, Longitude, Description, Group, Pinstyle, or map columns by hand.`,
    );
  } else if (mapped.size > 0) {
    // A file of site IDs may leave the height out (edits of sites the register knows keep theirs):
    // its rows that need one say so each.
    if (!mapped.has('siteId') && !mapped.has('height') && !mapped.has('heightFeet') && defaults.height === undefined && defaults.heightFeet === undefined) {
      problems.push('No column gives the tower height (looked for height, height_m, height (m), height_ft, height (ft)…). Map one by hand or set a default height.');
    }
    if (!mapped.has('siteId') && !(mapped.has('latitude') && mapped.has('longitude'))) {
      problems.push('No column gives the site ID, and latitude and longitude are not both present: no row could become a site. Map the columns by hand.');
    }
  }

  const knownById = new Map<string, KnownSite>();
  for (const site of options.known ?? []) knownById.set(site.siteId, site);
  const knownByPosition = new Map<string, string>();
  for (const site of options.known ?? []) {
    if (site.latitude != null && site.longitude != null) knownByPosition.set(positionKey(site.latitude, site.longitude), site.siteId);
  }
  return {
    format: table.format,
    decimalComma: table.decimalComma,
    details: table.details,
    columns: mapping.columns,
    notes: [...table.notes, ...mapping.notes],
    problems,
    mappingErrors: mapping.errors,
    defaults,
    mapped,
    knownById,
    knownByPosition,
    decimalCommas: 0,
  };
}

/** The preview without its rows and summary, once every row has been mapped. */
export function previewHead(context: PreviewContext): Omit<ImportPreview, 'rows' | 'summary'> {
  const notes = [...context.notes];
  const n = context.decimalCommas;
  if (n > 0) notes.push(`${n} coordinate${n === 1 ? '' : 's'} written with a decimal comma ${n === 1 ? 'was' : 'were'} read with a decimal point.`);
  return { format: context.format, details: context.details, columns: context.columns, notes, problems: context.problems, mappingErrors: context.mappingErrors };
}

/** Maps and validates every row of a table. Pure; never throws. */
export function buildPreview(table: ImportTable, options: PreviewOptions = {}): ImportPreview {
  const context = previewContext(table, options);
  const rows = table.rows.map((tableRow) => previewRow(context, tableRow));
  markDuplicates(rows);
  markPositions(rows, context.knownByPosition);
  for (const row of rows) finishRow(context, row);
  return { ...previewHead(context), rows, summary: summarize(rows) };
}

/**
 * One row mapped and validated on its own: everything but what needs the other rows (a site ID on
 * two rows, a create at the position of an earlier one) and the final verdict (finishRow).
 */
export function previewRow(context: PreviewContext, tableRow: TableRow): PreviewRow {
  const { mapped, defaults } = context;
  const row: PreviewRow = { row: tableRow.row, input: {}, edit: null, action: 'skip', ready: false, issues: [], warnings: [], flags: [] };
  if (tableRow.label !== undefined) row.label = tableRow.label;
  if (tableRow.skip !== undefined) {
    row.skipReason = tableRow.skip;
    return row;
  }
  const cell = (field: string): string | undefined => {
    for (const index of mapped.get(field) ?? []) {
      let value = (tableRow.cells[index] ?? '').trim();
      // Our CSV export guards formula-looking text with an apostrophe; take it off again.
      if (context.format === 'csv' && GUARDED_FIELDS.has(field)) value = unguardFormula(value).trim();
      if (value !== '') return value;
    }
    return undefined;
  };
  const input: SiteEditInput = {};
  const siteId = cell('siteId');
  if (siteId !== undefined) input.siteId = siteId;
  for (const field of ['name', 'description', 'group'] as const) {
    const value = cell(field) ?? defaultFor(field, defaults, row);
    if (value !== undefined) input[field] = value;
  }
  const pinStyle = cell('pinStyle') ?? defaultFor('pinStyle', defaults, row);
  if (pinStyle !== undefined) input.pinStyle = pinStyle;
  // The form's and the CLI's reader: decimal, decimal comma (even quoted in a comma-separated file)
  // and degrees-minutes-seconds.
  const ownIssues: InputIssue[] = [];
  for (const field of ['latitude', 'longitude'] as const) {
    const value = cell(field);
    if (value === undefined) continue;
    const read = readCoordinateCell(value, field === 'latitude' ? 'lat' : 'lon');
    if (!read.ok) {
      input[field] = value;
      ownIssues.push({ field, message: `${targetLabel(field)} "${value}": ${read.message}` });
      continue;
    }
    input[field] = read.value;
    if (read.decimalComma) {
      context.decimalCommas++;
      if (!row.flags.includes('decimal-comma')) row.flags.push('decimal-comma');
    } else if (read.converted) {
      row.warnings.push(`${targetLabel(field)} ${value} is read as ${read.value}.`);
    }
  }

  const heightIssue = readHeight(row, input, cell('height'), cell('heightFeet'), defaults, context.decimalComma);
  if (heightIssue) ownIssues.push(heightIssue);
  row.input = input;
  for (const problem of tableRow.problems ?? []) row.issues.push({ field: '', message: problem });
  row.issues.push(...ownIssues);

  row.action = input.siteId === undefined ? 'create' : 'edit';
  // An edit of a site the register knows may leave the height blank, as it may the name or the
  // position: the height reads as unchanged, and the register's is sent (the service needs one).
  const known = input.siteId !== undefined && input.height === undefined && !heightIssue ? context.knownById.get(input.siteId) : undefined;
  const result = parseSiteEdit(known ? { ...input, height: known.height ?? 0 } : input);
  if (result.ok && known && known.height == null) {
    // The register does not know this site's height either (added by its ID without one): the row
    // may change nothing (an export read back), but it cannot send anything without a height.
    const { height: _none, ...rest } = result.value;
    if (changedFields(rest, known).length > 0) {
      row.issues.push({ field: 'height', message: `Height is required: the register does not know site ${input.siteId}'s height, and the service needs one with any change.` });
    } else {
      row.action = 'unchanged';
    }
  }
  if (result.ok) {
    if (row.issues.length === 0) row.edit = result.value;
  } else {
    for (const issue of result.issues) {
      // The reader already explained a height or coordinate it could not read.
      if (ownIssues.some((own) => own.field === issue.field)) continue;
      row.issues.push(issue);
    }
  }
  return row;
}

/** The row's verdict once the rows-together checks are done: no edit when it has issues; unchanged or ready. */
export function finishRow(context: PreviewContext, row: PreviewRow): void {
  if (row.issues.length > 0) {
    row.edit = null;
    return;
  }
  if (!row.edit) return;
  if (row.action === 'edit') {
    const known = context.knownById.get(row.edit.siteId!);
    if (known) {
      const changes = changedFields(row.edit, known);
      row.changes = changes;
      if (changes.length === 0) row.action = 'unchanged';
    }
  }
  row.ready = row.action === 'create' || row.action === 'edit';
}

function cleanDefaults(defaults: Partial<Record<DefaultField, string>>): Partial<Record<DefaultField, string>> {
  const clean: Partial<Record<DefaultField, string>> = {};
  for (const field of Object.keys(defaults) as DefaultField[]) {
    const value = defaults[field];
    if (typeof value === 'string' && value.trim() !== '') clean[field] = value.trim();
  }
  return clean;
}

function defaultFor(field: DefaultField, defaults: Partial<Record<DefaultField, string>>, row: PreviewRow): string | undefined {
  const value = defaults[field];
  if (value === undefined) return undefined;
  if (!row.flags.includes('default-applied')) row.flags.push('default-applied');
  row.warnings.push(`${targetLabel(field)} is blank; the default ${value} is used.`);
  return value;
}

/**
 * Fills input.height from the meters cell, or else from the feet cell, or else from a default, with
 * the shared reader: "52 ft" in a meters column is feet, "15.8 m" or "30.0" are rounded to whole
 * meters (said in a warning), feet are converted. Returns an issue for a height it cannot read.
 */
function readHeight(
  row: PreviewRow,
  input: SiteEditInput,
  meters: string | undefined,
  feet: string | undefined,
  defaults: Partial<Record<DefaultField, string>>,
  decimalComma: boolean,
): InputIssue | null {
  if (meters === undefined && feet === undefined) {
    if (defaults.height !== undefined) meters = defaultFor('height', defaults, row);
    else if (defaults.heightFeet !== undefined) feet = defaultFor('heightFeet', defaults, row);
  }
  const text = meters ?? feet;
  if (text === undefined) return null;
  const reading = readHeightText(text, meters !== undefined ? 'm' : 'ft', { decimalComma });
  input.height = reading.schemaInput;
  if (reading.message) return { field: 'height', message: reading.message };
  if (reading.feet !== null && reading.meters !== null) {
    row.flags.push('height-from-feet');
    row.warnings.push(`Height ${reading.feet} ft is sent as ${reading.meters} m (rounded to the nearest whole meter).`);
  } else if (reading.roundedFrom !== null && reading.meters !== null) {
    row.warnings.push(`Height ${reading.roundedFrom} m is sent as ${reading.meters} m (the service stores whole meters).`);
  }
  return null;
}

const COMPARED: readonly SiteField[] = ['name', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle'];

/** Fields the edit sets to something other than what the register holds (blank = unchanged, as on the wire). */
function changedFields(edit: Partial<SiteEdit>, known: KnownSite): SiteField[] {
  const changed: SiteField[] = [];
  for (const field of COMPARED) {
    const next = edit[field as keyof SiteEdit];
    if (next === undefined) continue;
    const current = known[field as keyof KnownSite];
    // A blank pin style is the service's default, red (1).
    const currentValue = field === 'pinStyle' && (current === null || current === undefined) ? 1 : current;
    if (next !== currentValue) changed.push(field);
  }
  return changed;
}

/**
 * Why a preview may not be applied (empty when it may), given whether invalid rows are to be skipped
 * and how many rows one import may queue (MAX_IMPORT_ROWS unless given).
 */
export function applyBlockers(preview: ImportPreview, options: { skipInvalid?: boolean; maxRows?: number } = {}): string[] {
  const blockers = [...preview.problems];
  const maxRows = options.maxRows ?? MAX_IMPORT_ROWS;
  if (preview.summary.ready > maxRows) blockers.push(tooManyRowsSentence(preview.summary.ready, maxRows));
  if (preview.summary.invalid > 0 && !options.skipInvalid) {
    blockers.push(
      `${preview.summary.invalid} row${preview.summary.invalid === 1 ? ' is' : 's are'} invalid; fix ${preview.summary.invalid === 1 ? 'it' : 'them'} or choose to skip invalid rows. Nothing was queued.`,
    );
  }
  return blockers;
}
