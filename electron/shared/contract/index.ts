// The contract between the renderer and the main process, whichever host serves it (Electron IPC or
// the browser host over loopback HTTP): inputs (schemas), views, methods and events.
export * from './inputs';
export * from './views';
export * from './methods';
export * from './events';
export * from './basemaps';
export * from './gps';
export * from './site-list';
export * from './site-list-wire';
export * from './site-positions';
export * from './batch-edit';
export type { Result } from '../result';
export type { Binding, InputIssue, KeyStoreKind, OutboxState, PinStyle, SyncState } from '../domain';
export type { BulkProgress, ReportRow, RunResult } from '../bulk/report';
export type { EusPlan, EusPlanRow } from '../bulk/eus';
export type { ImportPreview, PreviewRow } from '../bulk/preview';
export { PREVIEW_PAGE_ROWS, ROW_FILTERS, type ImportPreviewView, type PreviewRowsPage, type RowFilter } from '../bulk/preview-page';
