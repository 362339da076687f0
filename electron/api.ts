// The contract between the renderer and the main process, whichever host serves it (Electron IPC
// or the browser host over loopback HTTP). Everything the renderer may call is a method here, with a
// zod schema for its arguments so both hosts validate at the boundary the same way; everything it may
// hear is an ApiEvent. The API key goes in (setApiKey) and never comes back out: views carry hasKey.
import { z } from 'zod';

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
