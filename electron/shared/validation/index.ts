// The validation entry point: one schema per input, shared by the UI, the CSV import, the CLI and the
// service client. Import from here rather than from the single files.
export {
  TEXT_LIMITS,
  MAX_HEIGHT_M,
  COORDINATE_DECIMALS,
  formatCoordinate,
  roundCoordinate,
  findXmlForbidden,
  isXmlSafe,
  characterCount,
  labelFor,
  runSchema,
  toInputIssues,
  type ValidationResult,
} from './common';
export { parseSiteEdit, siteEditSchema, type SiteEditInput } from './site';
export { parseEusReprocess, eusReprocessSchema, type EusReprocessInput } from './eus';
export { siteRefusalWarnings, estimatedSiteQueryLength, type RefusalWarning, type RefusalContext } from './request-validation';
