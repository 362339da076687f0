// The contract between the renderer and the main process, whichever host serves it (Electron IPC
// or the browser host over loopback HTTP). Everything the renderer may call is a method here, with a
// zod schema for its arguments so both hosts validate at the boundary the same way; everything it may
// hear is an ApiEvent. The API key goes in (setApiKey) and never comes back out: views carry hasKey.
import { z } from 'zod';
import type { BulkProgress, RunResult } from './core/bulk/apply';
import type { EusPlan, ImportPreview } from './core/bulk/index';
import type { ReportRow } from './core/bulk/report';

// ---------- views (what the renderer sees) ----------

export type Binding = 'http-post' | 'http-get' | 'soap11' | 'soap12';
export type KeyStoreKind = 'safe-storage' | 'os-keyring' | 'session-only';
export type SyncState = 'synced' | 'pending' | 'failed' | 'needs-review';
export type OutboxState = 'pending' | 'sending' | 'done' | 'failed' | 'needs-review' | 'paused';

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  servicePath: string;
  namespace: string;
  binding: Binding;
  account: string;
  /** The built-in Sandbox profile (starts the local sandbox; not deletable). */
  builtIn: boolean;
  active: boolean;
  hasKey: boolean;
  /** Where this profile's key is kept; 'session-only' means it is forgotten when the app quits. */
  keyStore: KeyStoreKind;
}

export interface ProblemView {
  /** A sentence a technician understands. */
  message: string;
  /** What support needs (status, codes, body excerpt). */
  detail: string;
  kind: string;
  quotaExhausted?: boolean;
  authRejected?: boolean;
}

export interface SiteView {
  /** Stable local ID (a temporary one until the service gives an ID to a new site). */
  localId: string;
  /** The service's site ID, null until a create is confirmed. */
  siteId: string | null;
  name: string;
  height: number | null;
  latitude: number | null;
  longitude: number | null;
  description: string;
  group: string;
  pinStyle: 1 | 2 | 3 | 4;
  syncState: SyncState;
  lastError: ProblemView | null;
  updatedAt: string;
}

export interface OutboxEntryView {
  id: string;
  kind: 'site' | 'reprocess';
  state: OutboxState;
  /** For kind 'site': the site's local ID. */
  localId?: string;
  /** A one-line summary, e.g. "Create site 'North Ridge' (45 m)". */
  summary: string;
  /** The queued input, as the user gave it (domain names). */
  payload: Record<string, unknown>;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  nextAttemptAt: string | null;
  /** The service's answer once done. */
  result: string | null;
  problem: ProblemView | null;
}

export interface StatusView {
  online: boolean;
  syncing: boolean;
  paused: { reason: 'quota' | 'auth'; message: string } | null;
  /** Why the queue cannot move right now (offline, no API key, paused…), as a sentence; null when it can. */
  blocked?: { reason: string; message: string } | null;
  pendingCount: number;
  attentionCount: number;
  lastSyncAt: string | null;
  activeProfileId: string | null;
  host: 'electron' | 'browser';
}

export interface RenderingQualityView {
  id: number;
  name: string;
  error: string | null;
}

export interface RenderingQualitiesView {
  items: RenderingQualityView[];
  fetchedAt: string | null;
  fromCache: boolean;
  problem: ProblemView | null;
}

export interface SettingsView {
  tileUrl: string;
  tileAttribution: string;
  syncConcurrency: number;
  heightUnit: 'm' | 'ft';
}

export interface FieldIssue {
  field: string;
  message: string;
}

/** Every mutating call answers with this: either done, or the input issues (nothing was queued). */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

// ---------- bulk work: import, export, EUS reprocess from a file ----------

export type { BulkProgress, EusPlan, ImportPreview, ReportRow };

/** A file handed to the host for bulk work; later calls name it by `fileId`. */
export interface BulkFileView {
  fileId: string;
  name: string;
  size: number;
}

/** A bulk run (an import or an EUS reprocess from a file), followed by the host. */
export interface BulkRunView {
  id: string;
  kind: 'import' | 'reprocess';
  fileName: string;
  startedAt: string;
  state: 'running' | 'ended';
  /** Counts and time left while the batch is sent; null before it is queued. */
  progress: BulkProgress | null;
  /** How it ended (null while running). */
  result: Omit<RunResult, 'rows'> | null;
  /** Every row of the file, once the run has ended (events leave them out: ask getBulkRun). */
  rows: ReportRow[] | null;
}

/** A file the host made for the user to save. */
export interface ExportedFile {
  fileName: string;
  mimeType: string;
  content: string;
  /** What the user should know about the file (sites left out, sites without a service ID). */
  notes: string[];
}

/** Largest file accepted for bulk work (base64 makes the request a third larger). */
export const MAX_BULK_FILE_BYTES = 64 * 1024 * 1024;
/** Largest request body of the browser host per method, where the default is too small. */
export const BODY_LIMITS: Partial<Record<ApiMethod, number>> = { openBulkFile: Math.ceil((MAX_BULK_FILE_BYTES * 4) / 3) + 64 * 1024 };

// ---------- inputs ----------

const text = z.string().max(10_000);
const optText = text.optional();
const numberish = z.union([z.string().max(100), z.number()]);

export const siteInputSchema = z.object({
  localId: optText,
  siteId: optText,
  name: optText,
  height: numberish.optional(),
  latitude: numberish.optional(),
  longitude: numberish.optional(),
  description: optText,
  group: optText,
  pinStyle: z.union([z.string().max(10), z.number(), z.null()]).optional(),
});
export type SiteInput = z.infer<typeof siteInputSchema>;

export const reprocessInputSchema = z.object({
  processId: optText,
  multiMapId: numberish.optional(),
  sendEmail: z.union([z.boolean(), z.string().max(10)]).optional(),
});
export type ReprocessInput = z.infer<typeof reprocessInputSchema>;

export const profileInputSchema = z.object({
  id: optText,
  name: text,
  baseUrl: text,
  servicePath: optText,
  namespace: optText,
  binding: z.enum(['http-post', 'http-get', 'soap11', 'soap12']).optional(),
  account: text,
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

export const settingsPatchSchema = z.object({
  tileUrl: text.optional(),
  tileAttribution: text.optional(),
  syncConcurrency: z.number().int().min(1).max(16).optional(),
  heightUnit: z.enum(['m', 'ft']).optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

const bulkFileSchema = z.object({
  name: z.string().max(500),
  /** The file's bytes, base64. */
  base64: z.string().max(Math.ceil((MAX_BULK_FILE_BYTES * 4) / 3) + 4),
});

const cellText = z.string().max(1000);
export const importOptionsSchema = z.object({
  /** Column (header text, or "#3") → field name or "ignore". */
  mapping: z.record(z.string().max(500), z.string().max(50)).optional(),
  /** Values for blank cells. */
  defaults: z
    .object({ height: cellText, heightFeet: cellText, name: cellText, description: cellText, group: cellText, pinStyle: cellText })
    .partial()
    .optional(),
  delimiter: z.enum(['comma', 'semicolon', 'tab', 'pipe']).optional(),
  format: z.enum(['csv', 'kml', 'kmz', 'geojson']).optional(),
  /** Queue the valid rows even when some are invalid (default: refuse the file). */
  skipInvalid: z.boolean().optional(),
});
export type ImportOptionsInput = z.infer<typeof importOptionsSchema>;

export const reprocessFileOptionsSchema = z.object({
  multiMapId: z.string().max(100),
  sendEmail: z.boolean(),
  /** column=value filters, all must match (case-insensitive, * matches any text). */
  filters: z.array(z.object({ column: z.string().max(500), value: z.string().max(500) })).max(20).optional(),
  /** Only these rows (of the filtered ones): the user's selection. */
  selectedRows: z.array(z.number().int().min(0)).max(1_000_000).optional(),
  skipInvalid: z.boolean().optional(),
});
export type ReprocessFileOptions = z.infer<typeof reprocessFileOptionsSchema>;

const id = z.string().min(1).max(200);

/** Argument schemas, one tuple per method: the single source both hosts validate against. */
export const API_METHODS = {
  getStatus: z.tuple([]),
  listProfiles: z.tuple([]),
  saveProfile: z.tuple([profileInputSchema]),
  deleteProfile: z.tuple([id]),
  useProfile: z.tuple([id]),
  setApiKey: z.tuple([id, z.string().min(1).max(1000)]),
  clearApiKey: z.tuple([id]),
  listSites: z.tuple([]),
  saveSite: z.tuple([siteInputSchema]),
  addExistingSite: z.tuple([siteInputSchema]),
  listOutbox: z.tuple([]),
  retryEntry: z.tuple([id]),
  discardEntry: z.tuple([id]),
  resolveEntry: z.tuple([id, z.string().min(1).max(100)]),
  syncNow: z.tuple([]),
  reprocessEus: z.tuple([reprocessInputSchema]),
  getRenderingQualities: z.tuple([z.object({ refresh: z.boolean().optional() })]),
  getSettings: z.tuple([]),
  saveSettings: z.tuple([settingsPatchSchema]),
  openBulkFile: z.tuple([bulkFileSchema]),
  previewImport: z.tuple([id, importOptionsSchema]),
  startImport: z.tuple([id, importOptionsSchema]),
  previewReprocessFile: z.tuple([id, reprocessFileOptionsSchema]),
  startReprocessFile: z.tuple([id, reprocessFileOptionsSchema]),
  getBulkRun: z.tuple([id]),
  cancelBulkRun: z.tuple([id]),
  getBulkReport: z.tuple([id]),
  exportSites: z.tuple([z.enum(['csv', 'kml', 'geojson'])]),
} as const;

export type ApiMethod = keyof typeof API_METHODS;

export interface SitewalkApi {
  getStatus(): Promise<StatusView>;
  listProfiles(): Promise<ProfileView[]>;
  saveProfile(input: ProfileInput): Promise<ApiResult<ProfileView>>;
  deleteProfile(profileId: string): Promise<ApiResult<null>>;
  useProfile(profileId: string): Promise<ApiResult<ProfileView>>;
  /** Write-only: the key is stored by the main process and never returned. */
  setApiKey(profileId: string, key: string): Promise<ApiResult<ProfileView>>;
  clearApiKey(profileId: string): Promise<ApiResult<ProfileView>>;
  listSites(): Promise<SiteView[]>;
  /** Validates, queues durably, returns the site as now pending. */
  saveSite(input: SiteInput): Promise<ApiResult<SiteView>>;
  /** Adds a site the service already has, by its ID, to the local register (nothing is sent). */
  addExistingSite(input: SiteInput): Promise<ApiResult<SiteView>>;
  listOutbox(): Promise<OutboxEntryView[]>;
  retryEntry(entryId: string): Promise<ApiResult<OutboxEntryView>>;
  discardEntry(entryId: string): Promise<ApiResult<null>>;
  /** A needs-review create confirmed by the user with the site ID the service gave. */
  resolveEntry(entryId: string, siteId: string): Promise<ApiResult<OutboxEntryView>>;
  syncNow(): Promise<StatusView>;
  reprocessEus(input: ReprocessInput): Promise<ApiResult<OutboxEntryView>>;
  getRenderingQualities(options: { refresh?: boolean }): Promise<RenderingQualitiesView>;
  getSettings(): Promise<SettingsView>;
  saveSettings(patch: SettingsPatch): Promise<ApiResult<SettingsView>>;
  /** Hands a file to the host for bulk work (kept in memory for this run only). */
  openBulkFile(file: { name: string; base64: string }): Promise<ApiResult<BulkFileView>>;
  /** The dry run: every row of the file mapped and checked, nothing queued. */
  previewImport(fileId: string, options: ImportOptionsInput): Promise<ApiResult<ImportPreview>>;
  /** Checks the file again and queues every ready row in one durable batch; the run is followed by the host. */
  startImport(fileId: string, options: ImportOptionsInput): Promise<ApiResult<BulkRunView>>;
  /** Reads an EUS CSV download and plans the reprocess (filters, selection, Multi Map, email); nothing queued. */
  previewReprocessFile(fileId: string, options: ReprocessFileOptions): Promise<ApiResult<EusPlan>>;
  startReprocessFile(fileId: string, options: ReprocessFileOptions): Promise<ApiResult<BulkRunView>>;
  getBulkRun(runId: string): Promise<BulkRunView | null>;
  /** Takes the run's rows not yet sent out of the outbox; rows in flight finish. */
  cancelBulkRun(runId: string): Promise<ApiResult<BulkRunView>>;
  /** The row-by-row report of an ended run, as CSV. */
  getBulkReport(runId: string): Promise<ApiResult<ExportedFile>>;
  /** The register of the active profile as CSV (the import's columns), KML or GeoJSON. */
  exportSites(format: 'csv' | 'kml' | 'geojson'): Promise<ApiResult<ExportedFile>>;
}

// ---------- events (main → renderer) ----------

export type ApiEvent =
  | { type: 'status'; status: StatusView }
  | { type: 'site'; site: SiteView }
  | { type: 'site-removed'; localId: string }
  | { type: 'outbox'; entry: OutboxEntryView }
  | { type: 'outbox-removed'; entryId: string }
  | { type: 'profiles'; profiles: ProfileView[] }
  | { type: 'settings'; settings: SettingsView }
  /** A bulk run started, moved on or ended (rows are left out: getBulkRun has them). */
  | { type: 'bulk-run'; run: BulkRunView }
  /** Something the user should know that is not tied to one entry (a damaged data file, a failed write). */
  | { type: 'problem'; message: string; detail: string };

/** What the preload exposes as `window.sitewalk`, and what the browser host's page client implements. */
export interface SitewalkBridge {
  invoke<M extends ApiMethod>(method: M, ...args: Parameters<SitewalkApi[M]>): ReturnType<SitewalkApi[M]>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

export const DEFAULT_SETTINGS: SettingsView = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileAttribution: '&copy; OpenStreetMap contributors',
  syncConcurrency: 4,
  heightUnit: 'm',
};
