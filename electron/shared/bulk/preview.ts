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
import { unguardFormula, type ExportSite } from './export';
import { targetLabel, type SiteField } from './fields';
import { resolveMapping, type ColumnMapping, type ManualMapping } from './mapping';
import type { ImportFormat, ImportTable } from './table';

/** A site as the register knows it, by the service's site ID: lets the preview spot rows that change nothing. */
export type KnownSite = Omit<ExportSite, 'siteId'> & { siteId: string };

/** Fields a default may fill when the file leaves them blank. */
export type DefaultField = 'height' | 'heightFeet' | 'name' | 'description' | 'group' | 'pinStyle';
export const DEFAULT_FIELDS: readonly DefaultField[] = ['height', 'heightFeet', 'name', 'description', 'group', 'pinStyle'];

export interface PreviewOptions {
  mapping?: ManualMapping;
  /** Values for blank cells (or unmapped fields), e.g. a height for a KML that has none. */
  defaults?: Partial<Record<DefaultField, string>>;
  /** The register's sites with a service ID, to mark edits that would change nothing. */
  known?: readonly KnownSite[];
}

/**
 * create: no site ID, a new site; edit: changes an existing site; unchanged: an edit whose values
 * the register already holds (not sent); skip: the row cannot be a site (a line in a KML).
 */
export type RowAction = 'create' | 'edit' | 'unchanged' | 'skip';

export type RowFlag = 'duplicate-site-id' | 'height-from-feet' | 'decimal-comma' | 'default-applied' | 'same-position';

export interface PreviewRow {
  row: number;
  label?: string;
  /** The values taken from the file, as text, by domain field. */
  input: SiteEditInput;
  /** The validated edit that would be queued; null when the row is invalid or skipped. */
  edit: SiteEdit | null;
  action: RowAction;
  /** True when the row will be sent (valid create or edit). */
  ready: boolean;
  /** Blocking problems (shared schema messages, duplicates, broken CSV). */
  issues: InputIssue[];
  /** Worth a look but not blocking (conversions, defaults, a site already at that spot). */
  warnings: string[];
  flags: RowFlag[];
  /** For an edit of a known site: the fields that would change. */
  changes?: SiteField[];
  /** For a skipped row: why. */
  skipReason?: string;
}

export interface PreviewSummary {
  total: number;
  /** Rows that will be sent: valid creates plus valid edits. */
  ready: number;
  creates: number;
  edits: number;
  unchanged: number;
  invalid: number;
  skipped: number;
  /** Rows sharing a site ID with another row (all of them are invalid). */
  duplicates: number;
  warnings: number;
}

export interface ImportPreview {
  format: ImportFormat;
  details: Record<string, string>;
  columns: ColumnMapping[];
  rows: PreviewRow[];
  /** How the file was read. */
  notes: string[];
  /** File-level problems (unreadable, unknown mapping, no height column…): nothing may be applied. */
  problems: string[];
  /** The problems that come from the manual mapping rather than from the file (a subset of `problems`). */
  mappingErrors: string[];
  summary: PreviewSummary;
}

const GUARDED_FIELDS: ReadonlySet<string> = new Set(['siteId', 'name', 'description', 'group']);

/** Maps and validates every row of a table. Pure; never throws. */
export function buildPreview(table: ImportTable, options: PreviewOptions = {}): ImportPreview {
  const mapping = resolveMapping(table.columns, options.mapping ?? {}, { perRowFallback: table.format !== 'csv' });
  const problems = [...table.problems, ...mapping.errors];
  const notes = [...table.notes, ...mapping.notes];
  const defaults = cleanDefaults(options.defaults ?? {});
  // Field → the columns feeding it, in the order they are tried (one, except for KML/GeoJSON).
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
    if (!mapped.has('height') && !mapped.has('heightFeet') && defaults.height === undefined && defaults.heightFeet === undefined) {
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

  let decimalCommas = 0;
  const rows: PreviewRow[] = table.rows.map((tableRow) => {
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
        if (table.format === 'csv' && GUARDED_FIELDS.has(field)) value = unguardFormula(value).trim();
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
        decimalCommas++;
        if (!row.flags.includes('decimal-comma')) row.flags.push('decimal-comma');
      } else if (read.converted) {
        row.warnings.push(`${targetLabel(field)} ${value} is read as ${read.value}.`);
      }
    }

    const heightIssue = readHeight(row, input, cell('height'), cell('heightFeet'), defaults, table.decimalComma);
    if (heightIssue) ownIssues.push(heightIssue);
    row.input = input;
    for (const problem of tableRow.problems ?? []) row.issues.push({ field: '', message: problem });
    row.issues.push(...ownIssues);

    row.action = input.siteId === undefined ? 'create' : 'edit';
    const result = parseSiteEdit(input);
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
  });
  if (decimalCommas > 0) notes.push(`${decimalCommas} coordinate${decimalCommas === 1 ? '' : 's'} written with a decimal comma ${decimalCommas === 1 ? 'was' : 'were'} read with a decimal point.`);

  markDuplicates(rows);
  markPositions(rows, knownByPosition);
  for (const row of rows) {
    if (row.issues.length > 0) {
      row.edit = null;
      continue;
    }
    if (!row.edit) continue;
    if (row.action === 'edit') {
      const known = knownById.get(row.edit.siteId!);
      if (known) {
        const changes = changedFields(row.edit, known);
        row.changes = changes;
        if (changes.length === 0) row.action = 'unchanged';
      }
    }
    row.ready = row.action === 'create' || row.action === 'edit';
  }

  return {
    format: table.format,
    details: table.details,
    columns: mapping.columns,
    rows,
    notes,
    problems,
    mappingErrors: mapping.errors,
    summary: summarize(rows),
  };
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

function markDuplicates(rows: PreviewRow[]): void {
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
    const where = listRows(list.map((row) => row.row));
    for (const row of list) {
      row.flags.push('duplicate-site-id');
      row.issues.push({
        field: 'siteId',
        message: `Site ID ${id} is on rows ${where}; keep one row per site (rows are never merged).`,
      });
    }
  }
}

function positionKey(latitude: number, longitude: number): string {
  // About 1 m: two towers closer than that are the same tower.
  return `${latitude.toFixed(5)},${longitude.toFixed(5)}`;
}

/** Warns about creates at the position of a known site or of another create in the file. */
function markPositions(rows: PreviewRow[], knownByPosition: Map<string, string>): void {
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (row.action !== 'create' || !row.edit || row.edit.latitude === undefined || row.edit.longitude === undefined) continue;
    const key = positionKey(row.edit.latitude, row.edit.longitude);
    const existing = knownByPosition.get(key);
    const earlier = seen.get(key);
    if (existing !== undefined) {
      row.flags.push('same-position');
      row.warnings.push(`Site ${existing} is already at this position; this row creates another site there.`);
    } else if (earlier !== undefined) {
      row.flags.push('same-position');
      row.warnings.push(`Row ${earlier} creates a site at the same position.`);
    }
    if (earlier === undefined) seen.set(key, row.row);
  }
}

function listRows(numbers: number[]): string {
  if (numbers.length <= 6) return numbers.length === 2 ? `${numbers[0]} and ${numbers[1]}` : `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  return `${numbers.slice(0, 5).join(', ')} and ${numbers.length - 5} more`;
}

const COMPARED: readonly SiteField[] = ['name', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle'];

/** Fields the edit sets to something other than what the register holds (blank = unchanged, as on the wire). */
function changedFields(edit: SiteEdit, known: KnownSite): SiteField[] {
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

function summarize(rows: readonly PreviewRow[]): PreviewSummary {
  const summary: PreviewSummary = { total: rows.length, ready: 0, creates: 0, edits: 0, unchanged: 0, invalid: 0, skipped: 0, duplicates: 0, warnings: 0 };
  for (const row of rows) {
    if (row.action === 'skip') summary.skipped++;
    else if (row.issues.length > 0) summary.invalid++;
    else if (row.action === 'unchanged') summary.unchanged++;
    else if (row.action === 'create') summary.creates++;
    else summary.edits++;
    if (row.ready) summary.ready++;
    if (row.flags.includes('duplicate-site-id')) summary.duplicates++;
    if (row.warnings.length > 0) summary.warnings++;
  }
  return summary;
}

/** Why a preview may not be applied (empty when it may), given whether invalid rows are to be skipped. */
export function applyBlockers(preview: ImportPreview, options: { skipInvalid?: boolean } = {}): string[] {
  const blockers = [...preview.problems];
  if (preview.summary.invalid > 0 && !options.skipInvalid) {
    blockers.push(
      `${preview.summary.invalid} row${preview.summary.invalid === 1 ? ' is' : 's are'} invalid; fix ${preview.summary.invalid === 1 ? 'it' : 'them'} or choose to skip invalid rows. Nothing was queued.`,
    );
  }
  return blockers;
}
