// The one adapter between the core facade and the renderer contract (electron/api.ts), used by both
// hosts: the Electron IPC handler and the browser host's HTTP routes call `dispatch`, which checks the
// method name and arguments against API_METHODS before anything reaches the core. Views are built
// here from core objects and never carry a key; settings live in the core's key-value store.
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  API_METHODS,
  type ChangeSet,
  DEFAULT_SETTINGS,
  type ApiEvent,
  type ApiMethod,
  type Result,
  type SettingsPatch,
  type SettingsView,
  type SitewalkApi,
  type StatusView,
} from '../shared/contract/index';
import {
  openCore,
  type CoreOptions,
  type SitewalkCore,
  type SyncStatus,
} from './open-core';
import { refuse, type InputIssue } from '../shared/result';
import { GPS_SOURCE_KINDS, THEMES, type GpsSourceKind, type Theme } from '../shared/domain';
import { findXmlForbidden } from '../shared/validation/index';
import { BulkSession, type BulkSessionOptions } from './bulk/session';
import type { FetchLike } from './service/types';
import { createBasemaps, createDownloads, createOfflineTiles, templateAddressIssue, type BasemapsOptions, type TileProvider } from './tiles/index';
import { HostGps, type GpsTuning } from './gps/host-gps';
import { GATE_RANGE } from '../shared/gps/gate';

export type HostKind = 'electron' | 'browser';

/** A call refused at the boundary: nothing reached the core. */
export class HostApiError extends Error {
  constructor(
    readonly code: 'unknown-method' | 'bad-arguments',
    message: string,
  ) {
    super(message);
    this.name = 'HostApiError';
  }
}

export interface HostApi {
  api: SitewalkApi;
  /** Every ApiEvent, in the order the core emitted the changes. Returns the unsubscribe. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Validates `method` and `args` (an array) with API_METHODS, then calls the api. */
  dispatch(method: string, args: unknown): Promise<unknown>;
  /** openBulkFile for a file streamed as a request body (bulk/session.ts receiveFile). */
  receiveBulkFile: BulkSession['receiveFile'];
}

function isApiMethod(method: string): method is ApiMethod {
  return Object.hasOwn(API_METHODS, method);
}

/** Checks one call against its schema and runs it; refusals are HostApiErrors with a sentence. */
async function dispatchCall(api: SitewalkApi, method: string, args: unknown): Promise<unknown> {
  if (typeof method !== 'string' || !isApiMethod(method)) {
    const shown = String(method).slice(0, 60);
    throw new HostApiError('unknown-method', `There is no API method named "${shown}".`);
  }
  if (!Array.isArray(args)) throw new HostApiError('bad-arguments', `${method}: the arguments must be a JSON array.`);
  const schema = API_METHODS[method];
  const expected = schema.def.items.length;
  if (args.length !== expected) {
    throw new HostApiError('bad-arguments', `${method} takes ${expected} argument${expected === 1 ? '' : 's'}, not ${args.length}.`);
  }
  const parsed = (schema as z.ZodType<unknown[]>).safeParse(args);
  if (!parsed.success) throw new HostApiError('bad-arguments', `${method}: ${describeIssues(parsed.error)}`);
  const call = api[method] as (...callArgs: unknown[]) => Promise<unknown>;
  return call.apply(api, parsed.data);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const [position, ...rest] = issue.path;
      const where =
        typeof position === 'number'
          ? `argument ${position + 1}${rest.length > 0 ? ` (${rest.join('.')})` : ''}`
          : 'the argument list';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

// ---------- views: the core's views are the contract's (never a key); the status adds the host ----------

function toStatusView(status: SyncStatus, host: HostKind): StatusView {
  return { ...status, host };
}

/** The entries (as they are now, or their removals) and the site they belong to, with revisions. */
function changeSetAfter(core: SitewalkCore, entryIds: readonly string[], localId: string | undefined): ChangeSet {
  const changes: ChangeSet = { entries: [], entriesRemoved: [], sites: [], sitesRemoved: [] };
  for (const entryId of entryIds) {
    const entry = core.outbox.get(entryId);
    if (entry) changes.entries.push(entry);
    else changes.entriesRemoved.push({ entryId, revision: core.outbox.revision(entryId) });
  }
  if (localId) {
    const site = core.sites.get(localId);
    if (site) changes.sites.push(site);
    else changes.sitesRemoved.push({ localId, revision: core.sites.revision(localId) });
  }
  return changes;
}

function mapResult<T, U>(outcome: Result<T>, map: (value: T) => U): Result<U> {
  return outcome.ok ? { ok: true, value: map(outcome.value) } : { ok: false, issues: outcome.issues };
}

// ---------- settings (kept in the core's key-value store, beside the profiles) ----------

const SETTING_KEYS = ['tileUrl', 'tileAttribution', 'syncConcurrency', 'heightUnit', 'theme', 'gpsSource', 'gpsHost', 'gpsPort', 'welcomed'] as const;

/** Settings as stored; a value that is missing or no longer valid reads as its default. */
function readSettings(core: SitewalkCore): SettingsView {
  const settings: SettingsView = { ...DEFAULT_SETTINGS };
  const stored = (key: (typeof SETTING_KEYS)[number]) => core.settings.get(key);
  const tileUrl = stored('tileUrl');
  if (typeof tileUrl === 'string' && tileUrlIssue(tileUrl) === null) settings.tileUrl = tileUrl;
  const attribution = stored('tileAttribution');
  if (typeof attribution === 'string' && attributionIssue(attribution) === null) settings.tileAttribution = attribution;
  const concurrency = stored('syncConcurrency');
  if (typeof concurrency === 'number' && Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 16) settings.syncConcurrency = concurrency;
  const unit = stored('heightUnit');
  if (unit === 'm' || unit === 'ft') settings.heightUnit = unit;
  const theme = stored('theme');
  if (THEMES.includes(theme as Theme)) settings.theme = theme as Theme;
  const gpsSource = stored('gpsSource');
  if (GPS_SOURCE_KINDS.includes(gpsSource as GpsSourceKind)) settings.gpsSource = gpsSource as GpsSourceKind;
  const gpsHost = stored('gpsHost');
  if (typeof gpsHost === 'string' && gpsHostIssue(gpsHost) === null) settings.gpsHost = gpsHost;
  const gpsPort = stored('gpsPort');
  if (typeof gpsPort === 'number' && Number.isInteger(gpsPort) && gpsPort >= 1 && gpsPort <= 65535) settings.gpsPort = gpsPort;
  settings.gpsGates = readGpsGates(core.settings.get(GPS_GATES_KEY));
  if (stored('welcomed') === true) settings.welcomed = true;
  return settings;
}

const GPS_GATES_KEY = 'gpsGates';

/** The stored gates, keeping only profile IDs with a gate in range (a hand-edited file loses nothing else). */
function readGpsGates(stored: unknown): Record<string, number> {
  const gates: Record<string, number> = {};
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return gates;
  for (const [profileId, meters] of Object.entries(stored)) {
    if (typeof meters === 'number' && Number.isFinite(meters) && meters >= GATE_RANGE.min && meters <= GATE_RANGE.max) gates[profileId] = meters;
  }
  return gates;
}

/** A tile URL must be an http(s) template with {z}, {x} and {y} whose origin the CSP can name. */
function tileUrlIssue(tileUrl: string): string | null {
  const text = tileUrl.trim();
  if (!/^https?:\/\//i.test(text)) return 'The tile server address must start with https:// (or http://), like https://tile.openstreetmap.org/{z}/{x}/{y}.png.';
  if (!['{z}', '{x}', '{y}'].every((part) => text.includes(part))) return 'The tile server address must contain {z}, {x} and {y}, where the map puts the tile numbers.';
  if (/\s/.test(text)) return 'The tile server address cannot contain spaces.';
  if (tileOrigin(text) === null) return 'The tile server\'s host name cannot be used; only the first part of it may be a {placeholder}.';
  return templateAddressIssue(text);
}

/** Leaflet shows the attribution as HTML: entities like &copy; are fine, tags are not. */
function attributionIssue(attribution: string): string | null {
  if (/[<>]/.test(attribution)) return 'The map attribution is shown as text: it cannot contain < or >.';
  if (findXmlForbidden(attribution)) return 'The map attribution contains an invisible control character.';
  if (attribution.length > 500) return 'The map attribution is longer than 500 characters.';
  return null;
}

/** A receiver's host: a name or an IP address, nothing that could carry a path or a scheme. */
function gpsHostIssue(host: string): string | null {
  const text = gpsHostValue(host);
  if (text === '') return 'Enter the receiver\'s host, like 127.0.0.1 for gpsd on this computer.';
  if (isIP(text) === 0 && !HOST_NAME.test(text)) return 'The receiver\'s host is a name or an IP address, like 127.0.0.1, ::1 or gps.local (no http://, no port).';
  return null;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** The host as a socket takes it: an IPv6 address written in brackets ([::1], as in a URL) loses them. */
function gpsHostValue(host: string): string {
  const text = host.trim();
  return /^\[[^\]]*\]$/.test(text) ? text.slice(1, -1) : text;
}

function settingsIssues(patch: SettingsPatch): InputIssue[] {
  const issues: InputIssue[] = [];
  if (patch.tileUrl !== undefined) {
    const issue = tileUrlIssue(patch.tileUrl);
    if (issue) issues.push({ field: 'tileUrl', message: issue });
  }
  if (patch.tileAttribution !== undefined) {
    const issue = attributionIssue(patch.tileAttribution);
    if (issue) issues.push({ field: 'tileAttribution', message: issue });
  }
  if (patch.gpsHost !== undefined) {
    const issue = gpsHostIssue(patch.gpsHost);
    if (issue) issues.push({ field: 'gpsHost', message: issue });
  }
  return issues;
}

// ---------- the adapter ----------

/** How a host's tiles reach the tile servers (Electron: net.fetch) and say who asks. */
export interface HostTileOptions {
  fetch?: FetchLike;
  userAgent?: string;
  /** Tile cache settings (tests shorten the back-off). */
  cache?: BasemapsOptions['cache'];
  /** Area download progress events at most this often (default 250 ms). */
  progressEveryMs?: number;
}

export function createHostApi(
  core: SitewalkCore,
  options: { host: HostKind; bulk?: BulkSessionOptions; gps?: GpsTuning; tiles?: HostTileOptions },
): HostApi & { close(): Promise<void>; tiles: TileProvider } {
  const { host } = options;
  // Events that come from here rather than from the core: settings changes and bulk runs.
  const hostListeners = new Set<(event: ApiEvent) => void>();
  const tell = (event: ApiEvent) => {
    for (const listener of [...hostListeners]) listener(event);
  };
  const bulk = new BulkSession(core, (run) => tell({ type: 'bulk-run', run }), options.bulk);
  // "My location" from a receiver the host reads (gpsd or NMEA over TCP), following the settings.
  const gps = new HostGps((view) => tell({ type: 'gps', gps: view }), options.gps);
  // The settings as last saved here, for what asks on every tile or fix (conf reads its file from
  // disk on each get); saveSettings replaces it.
  let settingsNow = readSettings(core);
  gps.follow(settingsNow);
  // Basemaps (the Settings tile server is the street one) and area downloads; both hosts serve the
  // tiles of every basemap from `basemaps.tileFor` (/tiles/{basemapId}/{z}/{x}/{y}).
  const tileOptions = options.tiles ?? {};
  const tellBasemaps = () =>
    void basemaps.list().then(
      (list) => tell({ type: 'basemaps', basemaps: list }),
      () => undefined,
    );
  const basemaps = createBasemaps({
    dataDir: core.dataDir,
    settings: core.settings,
    street: () => settingsNow,
    saveStreet: (tileUrl, tileAttribution) => api.saveSettings({ tileUrl, tileAttribution }),
    ...(tileOptions.fetch ? { fetch: tileOptions.fetch } : {}),
    ...(tileOptions.userAgent ? { userAgent: tileOptions.userAgent } : {}),
    ...(tileOptions.cache ? { cache: tileOptions.cache } : {}),
    onChange: tellBasemaps,
  });
  const offlineTiles = createOfflineTiles(core.dataDir, core.settings);
  const downloads = createDownloads({
    source: (basemapId) => basemaps.source(basemapId),
    cache: () => basemaps.cache(),
    offline: () => offlineTiles.view(),
    onProgress: (download) => tell({ type: 'download', download }),
    ...(tileOptions.progressEveryMs === undefined ? {} : { progressEveryMs: tileOptions.progressEveryMs }),
  });
  let tilesClosing: Promise<void> | null = null;
  const closeTiles = () => (tilesClosing ??= downloads.close().then(() => basemaps.close()));

  const api: SitewalkApi = {
    async getStatus() {
      return toStatusView(core.sync.status(), host);
    },
    async listProfiles() {
      return core.profiles.list();
    },
    async saveProfile(input) {
      const { id, ...fields } = input;
      return id ? core.profiles.update(id, fields) : core.profiles.add(fields);
    },
    async deleteProfile(profileId) {
      return mapResult(await core.profiles.remove(profileId), () => null);
    },
    async useProfile(profileId) {
      return core.profiles.use(profileId);
    },
    async setApiKey(profileId, key) {
      return core.profiles.setKey(profileId, key);
    },
    async clearApiKey(profileId) {
      return core.profiles.clearKey(profileId);
    },
    async testProfile(profileId, testOptions) {
      return core.profiles.test(profileId, testOptions.everyBinding ? { everyBinding: true } : {});
    },
    async listSites() {
      return core.sites.list();
    },
    async listSitesPacked() {
      return core.sites.listPacked();
    },
    async saveSite(input) {
      const { localId, ...fields } = input;
      const outcome = await core.sites.save(localId ? { ...fields, localId } : fields);
      return mapResult(outcome, (saved) => saved.site);
    },
    async addExistingSite(input) {
      const { siteId, localId: _localId, ...fields } = input;
      if (siteId === undefined || siteId.trim() === '') {
        return refuse('siteId', 'Enter the ID of the site on the service (it ends the site\'s address in the account).');
      }
      return core.sites.addExisting(siteId, fields);
    },
    async listOutbox() {
      // Not the whole history: after a big import it is tens of thousands of entries the page may never show.
      return { active: core.outbox.unfinished(), history: core.outbox.history() };
    },
    async listOutboxHistory(query) {
      return core.outbox.history(query);
    },
    async retryEntry(entryId) {
      return core.outbox.retry(entryId);
    },
    async discardEntry(entryId) {
      const before = core.outbox.get(entryId);
      return mapResult(await core.outbox.discard(entryId), ({ removed }) => changeSetAfter(core, removed, before?.localId));
    },
    async getOutboxEntry(entryId) {
      return changeSetAfter(core, [entryId], core.outbox.get(entryId)?.localId);
    },
    async resolveEntry(entryId, siteId) {
      return core.outbox.resolve(entryId, siteId);
    },
    async syncNow() {
      return toStatusView(await core.sync.syncNow(), host);
    },
    async reprocessEus(input) {
      const { force, ...request } = input;
      return core.reprocess(request, { force: force === true });
    },
    async getRenderingQualities(qualityOptions) {
      return core.renderingQualities(qualityOptions.refresh ? { refresh: true } : {});
    },
    async getSettings() {
      return readSettings(core);
    },
    async saveSettings(patch) {
      const issues = settingsIssues(patch);
      if (issues.length > 0) return { ok: false, issues };
      for (const key of SETTING_KEYS) {
        const value = patch[key];
        if (value !== undefined) core.settings.set(key, key === 'gpsHost' && typeof value === 'string' ? gpsHostValue(value) : typeof value === 'string' ? value.trim() : value);
      }
      if (patch.gpsGate !== undefined) {
        const gates = readGpsGates(core.settings.get(GPS_GATES_KEY));
        if (patch.gpsGate.meters === null) delete gates[patch.gpsGate.profileId];
        else gates[patch.gpsGate.profileId] = patch.gpsGate.meters;
        core.settings.set(GPS_GATES_KEY, gates);
      }
      const settings = readSettings(core);
      settingsNow = settings;
      if (patch.syncConcurrency !== undefined) core.sync.setConcurrency(settings.syncConcurrency);
      tell({ type: 'settings', settings });
      if (patch.tileUrl !== undefined || patch.tileAttribution !== undefined) tellBasemaps();
      gps.follow(settings);
      return { ok: true, value: settings };
    },
    async openBulkFile(file) {
      if ('base64' in file) return bulk.openFile(file.name, file.base64);
      if ('bytes' in file) return bulk.openFile(file.name, file.bytes);
      // A chosen file is the page bridge's to send; none reaches a host (the boundary's schema refuses it).
      return refuse('file', 'The file did not arrive; choose it again.');
    },
    previewImport(fileId, choices) {
      return bulk.previewImport(fileId, choices);
    },
    async getPreviewRows(fileId, query) {
      return bulk.previewRows(fileId, query.filter, query.offset);
    },
    getDryRunReport(fileId) {
      return bulk.dryRunReport(fileId);
    },
    startImport(fileId, choices) {
      return bulk.startImport(fileId, choices);
    },
    async previewReprocessFile(fileId, choices) {
      return bulk.planReprocess(fileId, choices);
    },
    startReprocessFile(fileId, choices) {
      return bulk.startReprocess(fileId, choices);
    },
    async getBulkRun(runId) {
      return bulk.run(runId);
    },
    async cancelBulkRun(runId) {
      return bulk.cancel(runId);
    },
    async getBulkReport(runId) {
      return bulk.report(runId);
    },
    async exportSites(format, options) {
      return { ok: true, value: bulk.export(format, options.localIds) };
    },
    async getGps() {
      return gps.view();
    },
    listBasemaps() {
      return basemaps.list();
    },
    useBasemap(basemapId) {
      return basemaps.use(basemapId);
    },
    saveBasemapSource(input) {
      return basemaps.saveSource(input);
    },
    addBasemapFile(input) {
      return basemaps.addFile(input);
    },
    async removeBasemap(basemapId) {
      // A download still writing into the server's kept tiles would bring them back after the removal.
      await downloads.stopFor(basemapId);
      return basemaps.remove(basemapId);
    },
    planDownload(input) {
      return downloads.plan(input);
    },
    startDownload(input) {
      return downloads.start(input);
    },
    async cancelDownload(downloadId) {
      return downloads.cancel(downloadId);
    },
    async listDownloads() {
      return downloads.list();
    },
    getOfflineTiles() {
      return offlineTiles.view();
    },
    setOfflineTilesLimit(limitBytes) {
      return offlineTiles.setLimit(limitBytes);
    },
    async clearDownloadedTiles() {
      // A download still writing would bring tiles back after the clearing.
      await downloads.stopAll();
      return { ok: true, value: await offlineTiles.clear() };
    },
  };

  // The page's first paint waits for the packed site list and the outbox's first history page: build
  // both while the page is still loading; the core keeps them until something changes.
  const warm = setImmediate(() => {
    try {
      core.sites.listPacked();
      core.outbox.history();
    } catch {
      // The page's own call will say what went wrong.
    }
  });

  return {
    api,
    dispatch: (method, args) => dispatchCall(api, method, args),
    receiveBulkFile: (name, body, declaredBytes) => bulk.receiveFile(name, body, declaredBytes),
    tiles: basemaps,
    close: () => {
      clearImmediate(warm);
      bulk.close();
      gps.close();
      return closeTiles();
    },
    onEvent(listener) {
      hostListeners.add(listener);
      const unsubscribers = [
        core.on('status', (status) => listener({ type: 'status', status: toStatusView(status, host) })),
        core.on('site', (site) => listener({ type: 'site', site: site })),
        core.on('site-removed', ({ localId, revision }) => listener({ type: 'site-removed', localId, revision })),
        core.on('outbox', (entry) => listener({ type: 'outbox', entry: entry })),
        core.on('outbox-removed', ({ entryId, revision }) => listener({ type: 'outbox-removed', entryId, revision })),
        core.on('profiles', (profiles) => listener({ type: 'profiles', profiles: profiles })),
        core.on('problem', ({ message, detail }) => listener({ type: 'problem', message, detail })),
      ];
      return () => {
        hostListeners.delete(listener);
        for (const unsubscribe of unsubscribers) unsubscribe();
      };
    },
  };
}

// ---------- content security policy (the same for both hosts) ----------

/**
 * The origin a tile URL template loads from, as a CSP source, or null when it cannot be expressed
 * (CSP allows a wildcard only as the whole leftmost label, so `{s}.tile.example.org` becomes
 * `*.tile.example.org`).
 */
function tileOrigin(tileUrl: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!.toLowerCase();
  const portMatch = /:(\d{1,5})$/.exec(authority);
  const host = portMatch ? authority.slice(0, -portMatch[0].length) : authority;
  const labels = host.split('.');
  const mapped = labels.map((label, index) => (label.includes('{') ? (index === 0 ? '*' : null) : label));
  if (mapped.some((label) => label === null || label === '')) return null;
  const cspHost = mapped.join('.');
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(cspHost) && !/^\[[0-9a-f:.]+\]$/.test(cspHost)) return null;
  return `${scheme}://${cspHost}${portMatch ? `:${portMatch[1]}` : ''}`;
}

/**
 * The page's policy, one literal so both hosts send the same header and a security linter can read
 * it: our own scripts, styles and fonts only (no inline script or style, no eval), images from us
 * and data: URLs, network access to our own origin only. Map tiles come through the host (/tiles/,
 * cached for offline use), so the page never reaches the tile server itself. renderer/index.html
 * carries the same policy in a meta tag, without frame-ancestors (which a meta tag cannot hold);
 * test/host/browser-host.test.ts keeps the two in step.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

// ---------- a running backend, as both hosts hold it ----------

/** The core plus its renderer adapter, as a host starts and stops it. */
export interface HostBackend {
  hostApi: HostApi;
  /** Every basemap's tiles (/tiles/{basemapId}/{z}/{x}/{y}, and /tiles/{z}/{x}/{y} = the street map). */
  tiles: TileProvider;
  /** A connectivity hint from the host (Electron: net.isOnline()); the core still probes itself. */
  setOnline(online: boolean): void;
  syncNow(): Promise<void>;
  /** Flushes the outbox, stops the sandbox; safe to call twice. */
  close(): Promise<void>;
}

export interface OpenBackendOptions extends CoreOptions {
  host: HostKind;
  /** How tiles are fetched; the transport defaults to `fetch` (the core's, e.g. Electron's net.fetch). */
  tiles?: HostTileOptions;
}

/** Opens the core in `dataDir` and its adapter, with the stored sync concurrency applied. */
export async function openHostBackend(options: OpenBackendOptions): Promise<HostBackend> {
  const { host, tiles, ...coreOptions } = options;
  const core = await openCore(coreOptions);
  const transport = tiles?.fetch ?? coreOptions.fetch;
  const hostApi = createHostApi(core, { host, tiles: { ...tiles, ...(transport ? { fetch: transport } : {}) } });
  core.sync.setConcurrency((await hostApi.api.getSettings()).syncConcurrency);
  return {
    hostApi,
    tiles: hostApi.tiles,
    setOnline: (online) => core.sync.setConnectivity(online),
    syncNow: async () => void (await core.sync.syncNow()),
    close: async () => {
      await hostApi.close();
      return core.close();
    },
  };
}
