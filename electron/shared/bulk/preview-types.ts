// The import preview's shapes: the options it is made with, a row's verdict, the counts, the whole
// preview. Plain data (a preview is computed in a worker and posted back); the logic is in preview.ts
// (one row at a time) and preview-marks.ts (what needs the rows together). Browser-safe.
import type { InputIssue, SiteEdit } from '../domain';
import type { SiteEditInput } from '../validation';
import type { ExportSite } from './export';
import type { SiteField } from './fields';
import type { ColumnMapping, ManualMapping } from './mapping';
import type { ImportFormat } from './table';

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
