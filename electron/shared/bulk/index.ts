// The browser-safe face of bulk work: everything here takes and returns plain data, imports no
// `node:` module and can run in the renderer's Web Worker (parse, map, validate, preview, export,
// plan an EUS reprocess). Applying a preview to the core lives in ./apply (main process), file I/O in
// ./files (Node only); neither is exported from here.
export { decodeText, type DecodeResult, type TextEncodingName } from './decode';
export { parseDelimited, detectDelimiter, delimiterName, type Delimiter } from './csv';
export { parseKml, parseKmz, parseGeoJson } from './geo';
export { readImportTable, previewImport, formatFromFileName, type ImportOptions, type ReadOptions } from './import';
export {
  buildPreview,
  applyBlockers,
  DEFAULT_FIELDS,
  type DefaultField,
  type ImportPreview,
  type KnownSite,
  type PreviewOptions,
  type PreviewRow,
  type PreviewSummary,
  type RowAction,
  type RowFlag,
} from './preview';
export { resolveMapping, parseMappingSpec, type ColumnMapping, type ManualMapping, type MappingResult } from './mapping';
export { CANONICAL_HEADERS, IMPORT_TARGETS, feetToMeters, normalizeHeader, parseTarget, targetForHeader, targetLabel, type ImportTarget, type SiteField } from './fields';
export { exportCsv, exportKml, exportGeoJson, exportSites, guardFormula, unguardFormula, type ExportFormat, type ExportResult, type ExportSite } from './export';
export { readEusCsv, planReprocess, parseFilterSpec, PROCESS_ID_HEADERS, type EusFilter, type EusPlan, type EusPlanOptions, type EusPlanRow, type EusRow, type EusTable } from './eus';
export type { ImportFormat, ImportTable, TableRow } from './table';
