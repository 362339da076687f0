// Every method the renderer may call, with its argument schemas (the single source both hosts check
// against) and its typed signature. The API key goes in (setApiKey) and never comes back out.
import { z } from 'zod';
import type { Result } from '../result';
import type { EusPlan } from '../bulk/eus';
import { ROW_FILTERS, type ImportPreviewView, type PreviewRowsPage, type RowFilter } from '../bulk/preview-page';
import type { ApiEvent } from './events';
import type { SiteListWire } from './site-list-wire';
import {
  bulkFileSchema,
  connectionTestOptionsSchema,
  importOptionsSchema,
  MAX_BULK_FILE_BYTES,
  profileInputSchema,
  reprocessFileOptionsSchema,
  reprocessInputSchema,
  settingsPatchSchema,
  siteInputSchema,
  type ChosenFile,
  type ConnectionTestOptions,
  type ImportOptionsInput,
  type ProfileInput,
  type ReprocessFileOptions,
  type ReprocessInput,
  type SettingsPatch,
  type SiteInput,
} from './inputs';
import type {
  BulkFileView,
  ChangeSet,
  BulkRunView,
  ConnectionTestView,
  ExportedFile,
  OutboxEntryView,
  OutboxHistoryPage,
  OutboxListing,
  ProfileView,
  RenderingQualitiesView,
  SettingsView,
  SiteView,
  StatusView,
} from './views';
import {
  basemapFileInputSchema,
  basemapSourceInputSchema,
  downloadAreaInputSchema,
  type BasemapFileInput,
  type BasemapSourceInput,
  type BasemapView,
  type DownloadAreaInput,
  type DownloadPlanView,
  type DownloadView,
  type OfflineTilesView,
} from './basemaps';
import type { GpsView } from './gps';
import { batchEditInputSchema, type BatchEditApplied, type BatchEditInput, type BatchEditPreview } from './batch-edit';

const id = z.string().min(1).max(200);

/** A page of the outbox's history: older than `before` (a page's `next`), at most `limit` entries. */
export const outboxHistoryQuerySchema = z.object({ before: z.string().min(1).max(100).optional(), limit: z.number().int().min(1).max(500).optional() });
export type OutboxHistoryQuery = z.infer<typeof outboxHistoryQuerySchema>;

/** Argument schemas, one tuple per method: the single source both hosts validate against. */
export const API_METHODS = {
  getStatus: z.tuple([]),
  listProfiles: z.tuple([]),
  saveProfile: z.tuple([profileInputSchema]),
  deleteProfile: z.tuple([id]),
  useProfile: z.tuple([id]),
  setApiKey: z.tuple([id, z.string().min(1).max(1000)]),
  clearApiKey: z.tuple([id]),
  testProfile: z.tuple([id, connectionTestOptionsSchema]),
  listSites: z.tuple([]),
  listSitesPacked: z.tuple([]),
  sitePositions: z.tuple([z.number().int().min(0).max(100_000_000)]),
  saveSite: z.tuple([siteInputSchema]),
  addExistingSite: z.tuple([siteInputSchema]),
  listOutbox: z.tuple([]),
  listOutboxHistory: z.tuple([outboxHistoryQuerySchema]),
  retryEntry: z.tuple([id]),
  discardEntry: z.tuple([id]),
  getOutboxEntry: z.tuple([id]),
  resolveEntry: z.tuple([id, z.string().min(1).max(100)]),
  syncNow: z.tuple([]),
  reprocessEus: z.tuple([reprocessInputSchema]),
  getRenderingQualities: z.tuple([z.object({ refresh: z.boolean().optional() })]),
  getSettings: z.tuple([]),
  saveSettings: z.tuple([settingsPatchSchema]),
  openBulkFile: z.tuple([bulkFileSchema]),
  previewImport: z.tuple([id, importOptionsSchema]),
  getPreviewRows: z.tuple([id, z.object({ filter: z.enum(ROW_FILTERS), offset: z.number().int().min(0).max(100_000_000) })]),
  getDryRunReport: z.tuple([id]),
  startImport: z.tuple([id, importOptionsSchema]),
  previewReprocessFile: z.tuple([id, reprocessFileOptionsSchema]),
  startReprocessFile: z.tuple([id, reprocessFileOptionsSchema]),
  getBulkRun: z.tuple([id]),
  cancelBulkRun: z.tuple([id]),
  getBulkReport: z.tuple([id]),
  previewBatchEdit: z.tuple([batchEditInputSchema]),
  applyBatchEdit: z.tuple([batchEditInputSchema]),
  exportSites: z.tuple([z.enum(['csv', 'kml', 'geojson']), z.object({ localIds: z.array(z.string().max(200)).max(1_000_000).optional() }).strict()]),
  listBasemaps: z.tuple([]),
  useBasemap: z.tuple([id]),
  saveBasemapSource: z.tuple([basemapSourceInputSchema]),
  addBasemapFile: z.tuple([basemapFileInputSchema]),
  removeBasemap: z.tuple([id]),
  planDownload: z.tuple([downloadAreaInputSchema]),
  startDownload: z.tuple([downloadAreaInputSchema]),
  cancelDownload: z.tuple([id]),
  listDownloads: z.tuple([]),
  getOfflineTiles: z.tuple([]),
  setOfflineTilesLimit: z.tuple([z.number().int().min(1)]),
  clearDownloadedTiles: z.tuple([]),
  getGps: z.tuple([]),
} as const;

export type ApiMethod = keyof typeof API_METHODS;

export interface SitewalkApi {
  getStatus(): Promise<StatusView>;
  listProfiles(): Promise<ProfileView[]>;
  saveProfile(input: ProfileInput): Promise<Result<ProfileView>>;
  deleteProfile(profileId: string): Promise<Result<null>>;
  useProfile(profileId: string): Promise<Result<ProfileView>>;
  /** Write-only: the key is stored by the main process and never returned. */
  setApiKey(profileId: string, key: string): Promise<Result<ProfileView>>;
  clearApiKey(profileId: string): Promise<Result<ProfileView>>;
  /**
   * "Test connection": the service description (no API call), then the account and key with one
   * GetRenderingQualityList call, then which bindings answer (free; `everyBinding` makes the real
   * call over the other three too, up to 3 more API calls).
   */
  testProfile(profileId: string, options: ConnectionTestOptions): Promise<Result<ConnectionTestView>>;
  listSites(): Promise<SiteView[]>;
  /** The same sites as listSites, in the lean columnar form the page loads at start (decodeSiteList, then unpackSites). */
  listSitesPacked(): Promise<SiteListWire>;
  /**
   * Where the located sites of that list are, as bytes (decodeSitePositions): for the page's cluster
   * worker, asked beside the list and far smaller. Empty when fewer than `atLeast` sites are located.
   */
  sitePositions(atLeast: number): Promise<Uint8Array>;
  /** Validates, queues durably, returns the site as now pending. */
  saveSite(input: SiteInput): Promise<Result<SiteView>>;
  /** Adds a site the service already has, by its ID, to the local register (nothing is sent). */
  addExistingSite(input: SiteInput): Promise<Result<SiteView>>;
  /** Every unfinished entry and the newest page of done ones: what the page needs at start. */
  listOutbox(): Promise<OutboxListing>;
  /** Older done entries, a page at a time (newest first), for "Show older". */
  listOutboxHistory(query: OutboxHistoryQuery): Promise<OutboxHistoryPage>;
  retryEntry(entryId: string): Promise<Result<OutboxEntryView>>;
  /** Removes an unsent entry; answers what changed (the entry, a create's site), so it shows at once. */
  discardEntry(entryId: string): Promise<Result<ChangeSet>>;
  /** The entry as it is now (or its removal) and its site: to refresh one an action found already moved on. */
  getOutboxEntry(entryId: string): Promise<ChangeSet>;
  /** A needs-review create confirmed by the user with the site ID the service gave. */
  resolveEntry(entryId: string, siteId: string): Promise<Result<OutboxEntryView>>;
  syncNow(): Promise<StatusView>;
  reprocessEus(input: ReprocessInput): Promise<Result<OutboxEntryView>>;
  getRenderingQualities(options: { refresh?: boolean }): Promise<RenderingQualitiesView>;
  getSettings(): Promise<SettingsView>;
  saveSettings(patch: SettingsPatch): Promise<Result<SettingsView>>;
  /** Hands a file to the host for bulk work (held in the data folder for this run only); the page passes a ChosenFile. */
  openBulkFile(file: { name: string; base64: string } | { name: string; bytes: Uint8Array } | ChosenFile): Promise<Result<BulkFileView>>;
  /** The dry run: every row of the file mapped and checked, nothing queued; answers the counts and the first page of rows. */
  previewImport(fileId: string, options: ImportOptionsInput): Promise<Result<ImportPreviewView>>;
  /** A page of the last dry run's rows, as a filter shows them. */
  getPreviewRows(fileId: string, query: { filter: RowFilter; offset: number }): Promise<Result<PreviewRowsPage>>;
  /** The last dry run's row-by-row report, as CSV. */
  getDryRunReport(fileId: string): Promise<Result<ExportedFile>>;
  /** Checks the file again and queues every ready row in one durable batch; the run is followed by the host. */
  startImport(fileId: string, options: ImportOptionsInput): Promise<Result<BulkRunView>>;
  /** Reads an EUS CSV download and plans the reprocess (filters, selection, Multi Map, email); nothing queued. */
  previewReprocessFile(fileId: string, options: ReprocessFileOptions): Promise<Result<EusPlan>>;
  startReprocessFile(fileId: string, options: ReprocessFileOptions): Promise<Result<BulkRunView>>;
  getBulkRun(runId: string): Promise<BulkRunView | null>;
  /** Takes the run's rows not yet sent out of the outbox; rows in flight finish. */
  cancelBulkRun(runId: string): Promise<Result<BulkRunView>>;
  /** The row-by-row report of an ended run, as CSV. */
  getBulkReport(runId: string): Promise<Result<ExportedFile>>;
  /** The register of the active profile as CSV (the import's columns), KML or GeoJSON. */
  /** `localIds`: only these sites (the ones the list shows, after search and filters); absent: every site. */
  /** What setting these fields on these sites would change, per site (nothing is queued). */
  previewBatchEdit(input: BatchEditInput): Promise<Result<BatchEditPreview>>;
  /** Queues the batch in one transaction (one entry per changed site), or nothing with the reasons. */
  applyBatchEdit(input: BatchEditInput): Promise<Result<BatchEditApplied>>;
  exportSites(format: 'csv' | 'kml' | 'geojson', options: { localIds?: string[] }): Promise<Result<ExportedFile>>;
  /** Every basemap: the configured tile servers and the added files; exactly one is active. */
  listBasemaps(): Promise<BasemapView[]>;
  useBasemap(basemapId: string): Promise<Result<BasemapView[]>>;
  /** Adds or edits a tile server (street, satellite, topo or another). */
  saveBasemapSource(input: BasemapSourceInput): Promise<Result<BasemapView[]>>;
  /** Adds a raster MBTiles or PMTiles file, read where it is; refused with a sentence if it is not one. */
  addBasemapFile(input: BasemapFileInput): Promise<Result<BasemapView[]>>;
  /** Removes a file or a server the user added (the file itself is left alone). */
  removeBasemap(basemapId: string): Promise<Result<BasemapView[]>>;
  /** The tile count and size estimate of an area download, or why it would be refused. */
  planDownload(input: DownloadAreaInput): Promise<Result<DownloadPlanView>>;
  /** Starts (or resumes: cached tiles are skipped) an area download; progress comes as 'download' events. */
  startDownload(input: DownloadAreaInput): Promise<Result<DownloadView>>;
  cancelDownload(downloadId: string): Promise<Result<DownloadView>>;
  /** Downloads of this session, the running one first. */
  listDownloads(): Promise<DownloadView[]>;
  /** The downloaded tiles as a whole: their size on disk and the limit for all of them. */
  getOfflineTiles(): Promise<OfflineTilesView>;
  setOfflineTilesLimit(limitBytes: number): Promise<Result<OfflineTilesView>>;
  /** "Clear downloaded tiles": stops a running download, then removes every downloaded tile. */
  clearDownloadedTiles(): Promise<Result<OfflineTilesView>>;
  /** "My location" as the host sees it now (the receiver it reads for gpsd/NMEA; 'device' and 'off' say so). */
  getGps(): Promise<GpsView>;
}

/**
 * Largest JSON request body of the browser host per method, where the default is too small. (A file
 * sent as a raw body to /api/openBulkFile is bounded by the bulk session's own limit instead.)
 */
export const BODY_LIMITS: Partial<Record<ApiMethod, number>> = { openBulkFile: Math.ceil((MAX_BULK_FILE_BYTES * 4) / 3) + 64 * 1024 };

/** What the preload exposes as `window.sitewalk`, and what the browser host's page client implements. */
export interface SitewalkBridge {
  invoke<M extends ApiMethod>(method: M, ...args: Parameters<SitewalkApi[M]>): ReturnType<SitewalkApi[M]>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /**
   * Electron only: where on this computer a File from an <input type="file"> is (webUtils.getPathForFile),
   * so a basemap file can be read in place. Typed `object` because this layer has no DOM types.
   */
  pathForFile?(file: object): string;
}
