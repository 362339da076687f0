// Bulk EUS reprocess, the pure part: the service's EUS CSV download → a table of submissions
// (process ID plus every other column kept for display: address, name, date…) → filtered and
// selected rows → a plan of reprocess requests validated with the shared schema. Invariants: the
// Multi Map and email choice are validated once for the whole plan; a process ID listed twice is
// queued once (the later rows say which row carries it), so nobody gets the email twice.
// Browser-safe and plain data, like the site import.
import type { EusReprocess, InputIssue } from '../domain';
import { parseEusReprocess } from '../validation';
import { decodeText } from './decode';
import { parseDelimited, type Delimiter } from './csv';
import { normalizeHeader } from './fields';
import { eusValue, findEusPlaces, type EusPlace } from './eus-places';

/** Headers that name the process ID column, compared case/space/underscore-insensitively. */
export const PROCESS_ID_HEADERS: readonly string[] = ['processid', 'process id', 'process_id', 'ProcessID', 'Process ID', 'process no', 'process number'];

export interface EusRow {
  row: number;
  processId: string;
  /** The row's values by header, for display and filtering; one the row lacks is absent (eusValue reads it as ''). */
  values: Record<string, string>;
}

export interface EusTable {
  columns: string[];
  /** The header of the process ID column ('' when none was found: then `problems` says so). */
  processIdColumn: string;
  rows: EusRow[];
  notes: string[];
  problems: string[];
  details: Record<string, string>;
}

/** Reads the EUS CSV download. Never throws. */
export function readEusCsv(bytes: Uint8Array, options: { delimiter?: Delimiter } = {}): EusTable {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { columns: [], processIdColumn: '', rows: [], notes: [], problems: [decoded.message], details: {} };
  const csvOptions: { delimiter?: Delimiter; requiredHeaders: string[] } = { requiredHeaders: [...PROCESS_ID_HEADERS] };
  if (options.delimiter) csvOptions.delimiter = options.delimiter;
  const table = parseDelimited(decoded.text, csvOptions);
  const notes = [...decoded.notes, ...table.notes];
  const problems = [...table.problems];
  const details = { encoding: `${decoded.encoding}${decoded.bom ? ' with byte-order mark' : ''}`, ...table.details };
  const wanted = new Set(PROCESS_ID_HEADERS.map(normalizeHeader));
  const idIndex = table.columns.findIndex((column) => wanted.has(normalizeHeader(column)));
  if (idIndex < 0) {
    if (table.columns.length > 0) {
      problems.push(
        `No process ID column was found (looked for "Process ID", "processid", "process_id"). Columns: ${table.columns.map((c) => `"${c}"`).join(', ')}.`,
      );
    }
    return { columns: table.columns, processIdColumn: '', rows: [], notes, problems, details };
  }
  // Duplicate header names would overwrite each other in `values`; number the later ones.
  const keys = uniqueNames(table.columns);
  const rows: EusRow[] = table.rows.map((row) => {
    // The cells the row has (a row is not padded to the header: a missing value is read as '').
    const values: Record<string, string> = {};
    row.cells.forEach((cell, index) => {
      values[keys[index]!] = cell.trim();
    });
    return { row: row.row, processId: (row.cells[idIndex] ?? '').trim(), values };
  });
  const rowProblems = table.rows.filter((row) => row.problems?.length);
  for (const row of rowProblems) problems.push(`Row ${row.row}: ${row.problems!.join(' ')}`);
  return { columns: keys, processIdColumn: keys[idIndex]!, rows, notes, problems, details };
}

function uniqueNames(columns: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((column) => {
    const count = (seen.get(column) ?? 0) + 1;
    seen.set(column, count);
    return count === 1 ? column : `${column} (${count})`;
  });
}

/** A filter "column=value": value compared trimmed and case-insensitively; `*` matches any text. */
export interface EusFilter {
  column: string;
  value: string;
}

export function parseFilterSpec(spec: string): { ok: true; filter: EusFilter } | { ok: false; message: string } {
  const eq = spec.indexOf('=');
  if (eq <= 0) return { ok: false, message: `"${spec}" is not column=value (for example "Multi Map=North").` };
  return { ok: true, filter: { column: spec.slice(0, eq).trim(), value: spec.slice(eq + 1).trim() } };
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

export interface EusPlanOptions {
  multiMapId: string;
  sendEmail: boolean;
  /** All must match (AND). */
  filters?: EusFilter[];
  /** When given, only these row numbers (after filtering) are planned: the UI's checkbox selection. */
  selectedRows?: number[];
  /**
   * Submissions already emailed (or queued to be) in the last 24 h, by process ID, with how it
   * stands ("Emailed 20 minutes ago"): the core knows them, the plan marks their rows.
   */
  recentEmails?: Readonly<Record<string, string>>;
  /**
   * With the email, a marked row is held back unless named here (its row number: a person ticked
   * it after seeing the mark) or this is 'all' (the CLI's --force).
   */
  emailAgain?: 'all' | readonly number[];
  /** The site nearest a position (the core knows the sites): rows with a place then say how far it is. */
  nearestSite?: (latitude: number, longitude: number) => EusNearestSite | null;
  /** Only submissions at most this far (km) from their nearest site; needs positions in the file. */
  withinKm?: number;
}

/** The site closest to a submission, and how far it is. */
export interface EusNearestSite {
  localId: string;
  siteId: string | null;
  name: string;
  km: number;
}

export interface EusPlanRow {
  row: number;
  processId: string;
  values: Record<string, string>;
  /** The request that would be queued; null when the row is invalid or a repeat. */
  request: EusReprocess | null;
  ready: boolean;
  issues: InputIssue[];
  /** For a repeated process ID: the row that carries it. */
  sameAsRow?: number;
  /** How an earlier emailing reprocess of this submission stands, when one is within 24 h ("Emailed 20 minutes ago"). */
  recentEmail?: string;
  /** Left out: it would email recipients who were emailed (or are about to be) in the last 24 h, and nobody said to. */
  heldBack?: boolean;
  /** Marked, but a person chose to email it again: the core is told so for this submission only. */
  emailAgain?: boolean;
  /** Where the submission is, when the file has latitude and longitude columns and this row fills them. */
  place?: EusPlace;
  /** Why this row's position cannot be read (the row can still be reprocessed). */
  placeProblem?: string;
  nearestSite?: EusNearestSite;
}

export interface EusPlan {
  processIdColumn: string;
  columns: string[];
  rows: EusPlanRow[];
  /** Rows of the file the filters or the selection left out. */
  excluded: number;
  notes: string[];
  /** Problems with the file, the filters or the shared choice (Multi Map, email): nothing may be queued. */
  problems: string[];
  summary: { total: number; ready: number; invalid: number; repeats: number; excluded: number; heldBack: number };
  multiMapId: string;
  sendEmail: boolean;
  /** The file's position columns (found as the site import finds them), or null: then no map layer. */
  coordinates: { latitudeColumn: string; longitudeColumn: string; located: number } | null;
}

/** Filters, selects and validates. Pure; never throws. */
export function planReprocess(table: EusTable, options: EusPlanOptions): EusPlan {
  const problems = [...table.problems];
  const notes = [...table.notes];
  // One validation of the shared choice, so a bad Multi Map ID is one message, not one per row.
  const shared = parseEusReprocess({ processId: 'x', multiMapId: options.multiMapId, sendEmail: options.sendEmail });
  if (!shared.ok) for (const issue of shared.issues) problems.push(issue.message);

  const matchers: Array<{ key: string; test: RegExp }> = [];
  for (const filter of options.filters ?? []) {
    const key = table.columns.find((column) => column === filter.column) ?? table.columns.find((column) => normalizeHeader(column) === normalizeHeader(filter.column));
    if (!key) {
      problems.push(`Filter "${filter.column}=${filter.value}": the file has no column "${filter.column}". Columns: ${table.columns.map((c) => `"${c}"`).join(', ')}.`);
      continue;
    }
    matchers.push({ key, test: globToRegExp(filter.value) });
  }
  const places = findEusPlaces(table);
  const nearestOf = new Map<number, EusNearestSite>();
  if (places && options.nearestSite) {
    for (const [row, place] of places.byRow) {
      if (!('problem' in place)) {
        const nearest = options.nearestSite(place.latitude, place.longitude);
        if (nearest) nearestOf.set(row, nearest);
      }
    }
  }
  const within = options.withinKm;
  if (within !== undefined && !places) problems.push('The file has no latitude and longitude columns, so its submissions cannot be filtered by distance to a site.');
  const selected = options.selectedRows ? new Set(options.selectedRows) : null;
  const kept = table.rows.filter(
    (row) =>
      matchers.every((matcher) => matcher.test.test(eusValue(row, matcher.key))) &&
      (selected === null || selected.has(row.row)) &&
      (within === undefined || (nearestOf.get(row.row)?.km ?? Infinity) <= within),
  );

  const firstRowOf = new Map<string, number>();
  const recent = options.recentEmails ?? {};
  const emailAgain = options.emailAgain === 'all' ? 'all' : new Set(options.emailAgain ?? []);
  const rows: EusPlanRow[] = kept.map((row) => {
    const planRow: EusPlanRow = { row: row.row, processId: row.processId, values: row.values, request: null, ready: false, issues: [] };
    const recentEmail = Object.hasOwn(recent, row.processId.trim()) ? recent[row.processId.trim()] : undefined;
    if (recentEmail !== undefined) planRow.recentEmail = recentEmail;
    const place = places?.byRow.get(row.row);
    if (place && 'problem' in place) planRow.placeProblem = place.problem;
    else if (place) planRow.place = place;
    const nearest = nearestOf.get(row.row);
    if (nearest) planRow.nearestSite = nearest;
    const result = parseEusReprocess({ processId: row.processId, multiMapId: options.multiMapId, sendEmail: options.sendEmail });
    if (!result.ok) {
      // The shared choice is reported once above; keep only what is about this row.
      planRow.issues = result.issues.filter((issue) => issue.field === 'processId');
      return planRow;
    }
    const first = firstRowOf.get(result.value.processId);
    if (first !== undefined) {
      planRow.sameAsRow = first;
      return planRow;
    }
    firstRowOf.set(result.value.processId, row.row);
    planRow.request = result.value;
    if (recentEmail !== undefined && options.sendEmail) {
      if (emailAgain === 'all' || emailAgain.has(row.row)) planRow.emailAgain = true;
      else {
        planRow.heldBack = true;
        return planRow;
      }
    }
    planRow.ready = shared.ok;
    return planRow;
  });
  const repeats = rows.filter((row) => row.sameAsRow !== undefined).length;
  if (repeats > 0) notes.push(`${repeats} row${repeats === 1 ? ' repeats a process ID' : 's repeat process IDs'} of earlier rows; each submission is reprocessed once.`);
  const excluded = table.rows.length - kept.length;
  return {
    processIdColumn: table.processIdColumn,
    columns: table.columns,
    rows,
    excluded,
    notes,
    problems,
    summary: {
      total: rows.length,
      ready: rows.filter((row) => row.ready).length,
      invalid: rows.filter((row) => row.issues.length > 0).length,
      repeats,
      excluded,
      heldBack: rows.filter((row) => row.heldBack).length,
    },
    multiMapId: shared.ok ? shared.value.multiMapId : options.multiMapId,
    sendEmail: options.sendEmail,
    coordinates: places
      ? { latitudeColumn: places.latitudeColumn, longitudeColumn: places.longitudeColumn, located: [...places.byRow.values()].filter((place) => !('problem' in place)).length }
      : null,
  };
}
