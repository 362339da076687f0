// The host, as a component test sees it: an in-memory SitewalkApi at the renderer's `api` boundary
// (the main process is outside a component's reach), feeding the renderer's real AppStore. It holds
// sites, outbox entries, the status and the receiver, answers the calls the panels make the way the
// core does (a Result, views with growing revisions, a ChangeSet for a discard), records every call,
// and lets a test hold an answer back (`hold`) or give another one (`answer`), and send events (`emit`).
import type {
  ApiEvent,
  ChangeSet,
  GpsView,
  OutboxEntryView,
  OutboxHistoryPage,
  ProfileView,
  SettingsView,
  SiteInput,
  SiteView,
  SitewalkApi,
  StatusView,
} from '../../../electron/shared/contract/index';
import { DEFAULT_SETTINGS } from '../../../electron/shared/contract/index';
import type { Result } from '../../../electron/shared/result';
import { createAppStore } from '../../../renderer/src/app/store';
import type { AppStore } from '../../../renderer/src/shared/store/app-store';
import { previewBatchEdit } from '../../../electron/shared/bulk/batch-edit';
import { siteView } from '../../renderer/site-view';

export { siteView };

/** What the host holds at start; anything left out is an empty, online, synced host. */
export interface HostData {
  sites?: SiteView[];
  /** Every entry, whatever its state: done ones form the history, newest first. */
  entries?: OutboxEntryView[];
  /** Done entries in the first page listOutbox gives (the rest come through listOutboxHistory). */
  historyPage?: number;
  /** Waiting site edits listOutbox says it left out (the host's after a big import; `entries` are those it listed). */
  pendingLeftOut?: number;
  status?: Partial<StatusView>;
  settings?: Partial<SettingsView>;
  profiles?: ProfileView[];
  gps?: GpsView;
}

type Method = keyof SitewalkApi;
type Handler<M extends Method> = (...args: Parameters<SitewalkApi[M]>) => ReturnType<SitewalkApi[M]>;

export interface FakeHost {
  api: SitewalkApi;
  store: AppStore;
  /** Every call made, in order: method and arguments. */
  calls: Array<{ method: Method; args: unknown[] }>;
  /** The arguments of each call of `method`. */
  callsOf<M extends Method>(method: M): Array<Parameters<SitewalkApi[M]>>;
  /** Answers `method` with `handler` from now on. */
  answer<M extends Method>(method: M, handler: Handler<M>): void;
  /** Holds the next call of `method` until `release()` (then it answers as it would have). */
  hold(method: Method): { release: () => void };
  /** Sends an event, as the main process does. */
  emit(event: ApiEvent): void;
  /** The host's next revision (views it sends must grow). */
  nextRevision(): number;
}

export const PROFILE: ProfileView = {
  id: 'p',
  name: 'Field crew',
  baseUrl: 'http://127.0.0.1:9/',
  servicePath: '/api/coverage.asmx',
  namespace: 'http://tempuri.org/',
  binding: 'http-post',
  account: 'acct',
  builtIn: false,
  active: true,
  hasKey: true,
  keyStore: 'os-keyring',
  bindingFallback: true,
} as ProfileView;

export function statusView(patch: Partial<StatusView> = {}): StatusView {
  return {
    online: true,
    syncing: false,
    paused: null,
    blocked: null,
    pendingCount: 0,
    sendingCount: 0,
    attentionCount: 0,
    lastSyncAt: null,
    connection: { state: 'online', lastError: null, nextTryAt: null },
    activeProfileId: 'p',
    dataProblems: [],
    revision: 1,
    host: 'browser',
    ...patch,
  };
}

export function entryView(patch: Partial<OutboxEntryView> & { id: string }): OutboxEntryView {
  return {
    kind: 'site',
    state: 'pending',
    profileId: 'p',
    localId: 'L1',
    op: 'edit',
    siteId: '4711',
    summary: 'Edit site \'Ridge\'',
    payload: { siteId: '4711', name: 'Ridge' },
    attempts: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    nextAttemptAt: null,
    result: null,
    problem: null,
    revision: 1,
    ...patch,
    // Tries in all: as many as since the last Send again unless the test says more.
    totalAttempts: patch.totalAttempts ?? patch.attempts ?? 0,
  };
}

export function createFakeHost(data: HostData = {}): FakeHost {
  let revision = 100;
  const nextRevision = () => ++revision;
  const sites = new Map((data.sites ?? []).map((s) => [s.localId, s]));
  const entries = new Map((data.entries ?? []).map((e) => [e.id, e]));
  let status = statusView(data.status);
  const settings: SettingsView = { ...DEFAULT_SETTINGS, ...data.settings };
  const profiles = data.profiles ?? [PROFILE];
  const listeners = new Set<(event: ApiEvent) => void>();
  const calls: FakeHost['calls'] = [];
  const held = new Map<Method, Promise<void>>();

  const emit = (event: ApiEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  const history = () => [...entries.values()].filter((e) => e.state === 'done').sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
  /** A page of done entries after the one named `before` (page cursors are entry IDs here). */
  const page = (before: string | undefined, limit: number): OutboxHistoryPage => {
    const all = history();
    const start = before === undefined ? 0 : all.findIndex((e) => e.id === before) + 1;
    const chunk = all.slice(start, start + limit);
    const last = chunk.at(-1);
    return { entries: chunk, next: last && start + limit < all.length ? last.id : null, total: all.length };
  };
  const refused = <T>(field: string, message: string): Result<T> => ({ ok: false, issues: [{ field, message }] });
  const changed = (entry: OutboxEntryView): OutboxEntryView => {
    const next = { ...entry, updatedAt: new Date().toISOString(), revision: nextRevision() };
    entries.set(next.id, next);
    return next;
  };
  const saveSite = (input: SiteInput): SiteView => {
    const known = input.localId ? sites.get(input.localId) : undefined;
    const number = (value: unknown, fallback: number | null) => (value === undefined || value === '' ? fallback : Number(value));
    const site: SiteView = {
      ...(known ?? siteView({ localId: `new-${nextRevision()}`, siteId: null, name: '', description: '', group: '' })),
      ...(input.name !== undefined && input.name !== '' ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.group !== undefined ? { group: input.group } : {}),
      ...(typeof input.pinStyle === 'number' ? { pinStyle: input.pinStyle as SiteView['pinStyle'] } : {}),
      height: number(input.height, known?.height ?? null),
      latitude: number(input.latitude, known?.latitude ?? null),
      longitude: number(input.longitude, known?.longitude ?? null),
      syncState: 'pending',
      queued: (known?.queued ?? 0) + 1,
      updatedAt: new Date().toISOString(),
      revision: nextRevision(),
    };
    sites.set(site.localId, site);
    return site;
  };

  const handlers: Partial<{ [M in Method]: Handler<M> }> = {
    getStatus: async () => status,
    listProfiles: async () => profiles,
    getSettings: async () => settings,
    listSites: async () => [...sites.values()],
    listOutbox: async () => ({ active: [...entries.values()].filter((e) => e.state !== 'done'), pendingLeftOut: data.pendingLeftOut ?? 0, history: page(undefined, data.historyPage ?? 50) }),
    listOutboxHistory: async ({ before, limit }) => page(before, limit ?? 50),
    listBasemaps: async () => [],
    listDownloads: async () => [],
    getGps: async () => data.gps ?? ({ source: settings.gpsSource, state: 'connecting', message: 'Connecting…', endpoint: null, fix: null, counts: { read: 0, dropped: 0, badValues: 0 }, revision: 1 } as GpsView),
    syncNow: async () => {
      status = { ...status, paused: null, revision: nextRevision() };
      return status;
    },
    saveSite: async (input) => ({ ok: true, value: saveSite(input) }),
    exportSites: async (format, { localIds }) => ({ ok: true, value: { fileName: `sites.${format}`, mimeType: 'text/plain', content: (localIds ?? [...sites.keys()]).join('\n'), notes: [] } }),
    // The batch edit with the core's own preview rules over this host's sites.
    previewBatchEdit: async (input) => previewBatchEdit(input, (localId) => sites.get(localId) ?? null),
    applyBatchEdit: async (input) => {
      const preview = previewBatchEdit(input, (localId) => sites.get(localId) ?? null);
      if (!preview.ok) return preview;
      const problem = preview.value.rows.find((row) => row.problem);
      if (problem) return refused('localIds', problem.problem!);
      const queued = preview.value.rows
        .filter((row) => row.changes.length > 0)
        .map((row) => {
          const fields = Object.fromEntries(row.changes.map((change) => [change.field, change.to]));
          const site = saveSite({ localId: row.localId, ...fields });
          emit({ type: 'site', site });
          return { localId: row.localId, entryId: `E-${row.localId}`, coalesced: false };
        });
      return { ok: true, value: { queued, unchanged: preview.value.rows.length - queued.length } };
    },
    addExistingSite: async (input) => ({ ok: true, value: { ...saveSite(input), siteId: String(input.siteId), syncState: 'synced', queued: 0 } }),
    retryEntry: async (entryId) => {
      const entry = entries.get(entryId);
      if (!entry || entry.state === 'done') return refused('entryId', 'This change was already sent.');
      // As the core does: the tries start over, their total is kept.
      return { ok: true, value: changed({ ...entry, state: 'pending', attempts: 0, totalAttempts: Math.max(entry.totalAttempts, entry.attempts), problem: null, nextAttemptAt: null }) };
    },
    discardEntry: async (entryId) => {
      const entry = entries.get(entryId);
      if (!entry || entry.state === 'done' || entry.state === 'sending') return refused('entryId', 'This change is being sent or was sent: it can no longer be discarded.');
      entries.delete(entryId);
      const change: ChangeSet = { entries: [], entriesRemoved: [{ entryId, revision: nextRevision() }], sites: [], sitesRemoved: [] };
      return { ok: true, value: change };
    },
    getOutboxEntry: async (entryId) => {
      const entry = entries.get(entryId);
      return { entries: entry ? [entry] : [], entriesRemoved: entry ? [] : [{ entryId, revision: nextRevision() }], sites: [], sitesRemoved: [] };
    },
    resolveEntry: async (entryId, siteId) => {
      const entry = entries.get(entryId);
      if (!entry) return refused('entryId', 'No such change.');
      return { ok: true, value: changed({ ...entry, state: 'done', siteId, result: `Site ID ${siteId}` }) };
    },
  };

  const api = new Proxy({} as SitewalkApi, {
    get(_target, name: string) {
      // The store asks whether the host has the packed list; this one answers with listSites only.
      if (name === 'listSitesPacked' || name === 'then') return undefined;
      return async (...args: unknown[]) => {
        const method = name as Method;
        calls.push({ method, args });
        const gate = held.get(method);
        if (gate) {
          held.delete(method);
          await gate;
        }
        const handler = handlers[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
        if (!handler) throw new Error(`The fake host does not answer ${method}: this test did not expect that call.`);
        return handler(...args);
      };
    },
  });

  const store = createAppStore(api, (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  });

  return {
    api,
    store,
    calls,
    callsOf: <M extends Method>(method: M) => calls.filter((c) => c.method === method).map((c) => c.args as Parameters<SitewalkApi[M]>),
    answer: (method, handler) => {
      (handlers as Record<string, unknown>)[method] = handler;
    },
    hold: (method) => {
      let release: () => void = () => undefined;
      held.set(method, new Promise<void>((resolve) => (release = resolve)));
      return { release: () => release() };
    },
    emit,
    nextRevision,
  };
}
