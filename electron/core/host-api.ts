// The one adapter between the core (with the host services open-core composes) and the renderer
// contract (shared/contract), used by both hosts: the Electron IPC handler and the browser host's HTTP
// routes call `dispatch`, which checks the method name and arguments against API_METHODS before
// anything reaches the core. Views are built here from core objects and never carry a key.
import type { z } from 'zod';
import {
  API_METHODS,
  LISTED_PENDING,
  type ChangeSet,
  type ApiEvent,
  type ApiMethod,
  type Result,
  type SitewalkApi,
  type StatusView,
} from '../shared/contract/index';
import { openHostServices, type HostServicesOptions, type SitewalkCore, type SyncStatus } from './open-core';
import { refuse } from '../shared/result';
import { encodeSiteList, type SiteListWire } from '../shared/contract/site-list-wire';
import type { SiteList } from '../shared/contract/site-list';
import { encodeSitePositions, sitePositionsOf } from '../shared/contract/site-positions';
import type { TileProvider } from './tiles/index';
import type { BulkSession } from './bulk/session';
import { applySitesBatch, previewSitesBatch } from './sites/batch-edit';
import { gatherChanges } from './change-events';

export type { HostTileOptions } from './open-core';

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

// The core hands out one SiteList until a site changes; its wire form is made once for it, so the
// browser host's cache of the answer's bytes (kept by object) holds across the page's reloads.
const wires = new WeakMap<SiteList, SiteListWire>();
function wireOf(list: SiteList): SiteListWire {
  let wire = wires.get(list);
  if (!wire) {
    wire = encodeSiteList(list);
    wires.set(list, wire);
  }
  return wire;
}

// The same for the positions: made once per list, whatever threshold the page asks with (empty below it).
const positionsByList = new WeakMap<SiteList, { count: number; bytes: Uint8Array }>();
const NO_POSITIONS = encodeSitePositions({ count: 0, latitude: new Float64Array(0), longitude: new Float64Array(0), state: new Uint8Array(0), style: new Uint8Array(0) });
function positionsOf(list: SiteList, atLeast: number): Uint8Array {
  let known = positionsByList.get(list);
  if (!known) {
    const positions = sitePositionsOf(list);
    known = { count: positions.count, bytes: encodeSitePositions(positions) };
    positionsByList.set(list, known);
  }
  return known.count < atLeast ? NO_POSITIONS : known.bytes;
}

function mapResult<T, U>(outcome: Result<T>, map: (value: T) => U): Result<U> {
  return outcome.ok ? { ok: true, value: map(outcome.value) } : { ok: false, issues: outcome.issues };
}

// ---------- the adapter ----------

/** The contract over `core`: opens the host services on it (open-core's openHostServices) and maps each method to a call. */
export function createHostApi(
  core: SitewalkCore,
  options: { host: HostKind } & HostServicesOptions,
): HostApi & { close(): Promise<void>; tiles: TileProvider } {
  const { host } = options;
  const { settings, bulk, gps, basemaps, offlineTiles, downloads, ...services } = openHostServices(core, options);

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
      return wireOf(core.sites.listPacked());
    },
    async sitePositions(atLeast) {
      return positionsOf(core.sites.listPacked(), atLeast);
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
      // Not the whole history, nor every queued edit: after a big import either is tens of thousands of
      // entries the page does not show (it lists 300 waiting and counts the rest from the status).
      const { entries, pendingLeftOut } = core.outbox.unfinishedPage(LISTED_PENDING);
      return { active: entries, pendingLeftOut, history: core.outbox.history() };
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
      return settings.now();
    },
    async saveSettings(patch) {
      return settings.save(patch);
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
    async previewBatchEdit(input) {
      return previewSitesBatch(core.sites, input);
    },
    async applyBatchEdit(input) {
      return applySitesBatch(core.sites, input);
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

  // The page's first paint waits for the packed site list, its sites' positions (the first cluster
  // index is built from them) and the outbox's first history page: build them while the page is still
  // loading; the core keeps them until something changes.
  const warm = setImmediate(() => {
    try {
      positionsOf(core.sites.listPacked(), 0);
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
      return services.close();
    },
    onEvent(listener) {
      // Site and outbox changes and the status reach the page gathered: a transaction's changes in one
      // 'changes' event, a sync's burst at most ten times a second (change-events.ts).
      const gather = gatherChanges(listener);
      const unsubscribeServices = services.on(gather.other);
      const unsubscribers = [
        core.on('status', (status) => gather.status(toStatusView(status, host))),
        core.on('site', gather.site),
        core.on('site-removed', ({ localId, revision }) => gather.siteRemoved(localId, revision)),
        core.on('outbox', gather.entry),
        core.on('outbox-removed', ({ entryId, revision }) => gather.entryRemoved(entryId, revision)),
        core.on('profiles', (profiles) => gather.other({ type: 'profiles', profiles: profiles })),
        core.on('problem', ({ message, detail }) => gather.other({ type: 'problem', message, detail })),
      ];
      return () => {
        gather.close();
        unsubscribeServices();
        for (const unsubscribe of unsubscribers) unsubscribe();
      };
    },
  };
}
