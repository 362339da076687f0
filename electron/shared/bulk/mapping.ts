// Column → field mapping for an import: automatic through the alias table, overridable by hand
// ({column → field}). Invariants: a field is fed by at most one column (a second one is reported
// and ignored, never merged); every column of the file appears in the result, mapped or not, so
// the preview can show what will be ignored. Pure, plain data.
import { IMPORT_TARGETS, normalizeHeader, parseTarget, targetForHeader, targetLabel, type ImportTarget } from './fields';

/** A manual mapping: column (its header text, or "#3" for the third column) → field name or "ignore". */
export type ManualMapping = Record<string, string>;

export interface ColumnMapping {
  /** 0-based position in the table. */
  index: number;
  header: string;
  /** The field this column feeds, or null when it is ignored. */
  target: Exclude<ImportTarget, 'ignore'> | null;
  /** How the target was chosen: alias table, manual override, or nothing matched. */
  source: 'auto' | 'manual' | 'none';
  /** Why a column that names a field is ignored anyway (another column already feeds it). */
  note?: string;
}

export interface MappingResult {
  columns: ColumnMapping[];
  /** Problems with the manual mapping itself (unknown column or field): nothing may be applied. */
  errors: string[];
  /** Sentences for the preview (conflicts resolved, feet conversion…). */
  notes: string[];
}

/** Parses "Tower=name,Elev ft=heightFeet" (the CLI's --mapping) into a ManualMapping. */
export function parseMappingSpec(spec: string): { ok: true; mapping: ManualMapping } | { ok: false; message: string } {
  const mapping: ManualMapping = {};
  for (const part of splitSpec(spec)) {
    if (part.trim() === '') continue;
    const eq = part.lastIndexOf('=');
    if (eq <= 0) return { ok: false, message: `"${part.trim()}" is not column=field (for example "Tower name=name").` };
    const column = part.slice(0, eq).trim();
    const field = part.slice(eq + 1).trim();
    if (column === '' || field === '') return { ok: false, message: `"${part.trim()}" is not column=field (for example "Tower name=name").` };
    mapping[column] = field;
  }
  return { ok: true, mapping };
}

/** Splits on commas, allowing a backslash to escape a comma inside a column name. */
function splitSpec(spec: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i]!;
    if (c === '\\' && spec[i + 1] === ',') {
      current += ',';
      i++;
    } else if (c === ',') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

export interface MappingOptions {
  /**
   * Several columns may feed one field, tried left to right per row (the first non-blank wins).
   * For KML and GeoJSON, whose features name the same thing differently ("height" on one,
   * "height_m" on another). A spreadsheet's columns are the same on every row, so there a second
   * column for a field is ambiguous and is ignored instead.
   */
  perRowFallback?: boolean;
}

/** Resolves the mapping of a table's columns. */
export function resolveMapping(headers: readonly string[], manual: ManualMapping = {}, options: MappingOptions = {}): MappingResult {
  const errors: string[] = [];
  const notes: string[] = [];
  const overrides = new Map<number, ImportTarget>();

  for (const [columnRef, fieldText] of Object.entries(manual)) {
    const target = parseTarget(fieldText);
    if (target === null) {
      errors.push(`Mapping "${columnRef}=${fieldText}": "${fieldText}" is not a field. Fields: ${IMPORT_TARGETS.join(', ')}.`);
      continue;
    }
    const index = findColumn(headers, columnRef);
    if (index === null) {
      errors.push(`Mapping "${columnRef}=${fieldText}": the file has no column "${columnRef}". Columns: ${headers.map((h) => `"${h}"`).join(', ')}.`);
      continue;
    }
    if (index === 'ambiguous') {
      errors.push(`Mapping "${columnRef}=${fieldText}": several columns are called "${columnRef}"; refer to one by its position, like "#2".`);
      continue;
    }
    overrides.set(index, target);
  }

  const columns: ColumnMapping[] = headers.map((header, index) => {
    const manualTarget = overrides.get(index);
    if (manualTarget !== undefined) {
      return { index, header, target: manualTarget === 'ignore' ? null : manualTarget, source: 'manual' };
    }
    const auto = targetForHeader(header);
    return { index, header, target: auto, source: auto ? 'auto' : 'none' };
  });

  // One column per field. A manual choice beats an automatic one; otherwise the leftmost wins.
  const owner = new Map<string, ColumnMapping>();
  const ordered = [...columns].sort((a, b) => (a.source === 'manual' ? 0 : 1) - (b.source === 'manual' ? 0 : 1) || a.index - b.index);
  for (const column of ordered) {
    if (column.target === null) continue;
    const field = column.target === 'heightFeet' ? 'height' : column.target;
    const first = owner.get(field);
    if (!first) {
      owner.set(field, column);
      continue;
    }
    if (options.perRowFallback && column.source === 'auto') {
      column.note = `Used where "${first.header}" is blank.`;
      continue;
    }
    column.note = `Ignored: column "${first.header}" already gives ${targetLabel(field === 'height' ? first.target! : column.target)}.`;
    notes.push(
      `Columns "${first.header}" and "${column.header}" both give ${field === 'height' ? 'the height' : targetLabel(column.target)}; "${first.header}" is used and "${column.header}" is ignored. Map one of them to "ignore" to silence this.`,
    );
    column.target = null;
  }
  const fallbacks = columns.filter((column) => column.target !== null && column.note !== undefined);
  if (fallbacks.length > 0) {
    notes.push(`Some fields come from different properties on different features: ${fallbacks.map((column) => `"${column.header}" (${column.note!.replace(/\.$/, '').replace(/^Used/, 'used')})`).join(', ')}.`);
  }
  const feet = columns.find((column) => column.target === 'heightFeet');
  if (feet) notes.push(`Heights in column "${feet.header}" are in feet and are converted to whole meters (nearest meter; 100 ft → 30 m).`);
  return { columns, errors, notes };
}

/** A column by "#N" (1-based) or by header text (exact first, then case/space/punctuation-insensitive). */
function findColumn(headers: readonly string[], ref: string): number | null | 'ambiguous' {
  const position = /^#(\d+)$/.exec(ref.trim());
  if (position) {
    const index = Number(position[1]) - 1;
    return index >= 0 && index < headers.length ? index : null;
  }
  const exact = headers.flatMap((header, index) => (header === ref.trim() ? [index] : []));
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1) return 'ambiguous';
  const key = normalizeHeader(ref);
  const loose = headers.flatMap((header, index) => (normalizeHeader(header) === key ? [index] : []));
  if (loose.length === 1) return loose[0]!;
  if (loose.length > 1) return 'ambiguous';
  return null;
}
