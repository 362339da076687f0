// The renderer's copy of what the main process knows: status, profiles, settings, sites and outbox,
// loaded once and then kept current by API events (each event carries the whole changed object, so
// applying it is idempotent). Every site and entry view, and every removal, carries a revision from
// the core that only grows: a view is applied only when it is newer than what is held (or than the
// object's removal), so neither a call's late answer nor a batch can put an older view on screen.
// Events arriving during a load (the first, or a reload's) are held and applied after its lists, which
// may predate them. React reads slices with useSyncExternalStore; the map hears site changes directly
// (no re-render of 10,000 pins). The register, outbox, status, profiles and settings are applied here;
// a feature's own data (basemaps, bulk runs, GPS, problems, older outbox pages) by its slice
// (features/<name>/*-slice.ts, app/store.ts).
import { useSyncExternalStore } from 'react';
import { merged, type Pending } from './merge-changes';
import { withinWaitingWindow } from './waiting-window';
import type { ApiEvent, GpsView, BasemapView, BulkRunView, ChangeSet, DownloadView, OutboxEntryView, OutboxListing, ProfileView, SettingsView, SiteView, SitewalkApi, StatusView } from '../../../../electron/shared/contract/index';
// From their own files, not the contract's index: the index brings the input schemas (zod), and the
// first load (app/boot.ts) should not wait for them to be evaluated.
import { DEFAULT_SETTINGS } from '../../../../electron/shared/contract/views';
import { unpackSites, type SiteList } from '../../../../electron/shared/contract/site-list';
import { describeError } from '../../../../electron/shared/result';
import { changeSetOf } from './change-set';
import { timed } from '../load-timing';
import { loadSiteList, loadSites } from './load-sites';
import { afterPaint } from './frames';
import { FirstColumns, type ColumnsListener } from './first-columns';

export { describeError };

export interface AppState {
  loaded: boolean;
  /** Set when the main process cannot be reached at all. */
  connectionError: string | null;
  status: StatusView | null;
  profiles: ProfileView[];
  settings: SettingsView;
  sites: ReadonlyMap<string, SiteView>;
  /** Bumped on every site change, so list views can memoise on it. */
  sitesVersion: number;
  /**
   * The unfinished entries the host listed (all but the site edits waiting beyond its first
   * LISTED_PENDING) or heard of since, and the done ones loaded so far (the newest page, then what
   * "Show older" asked for).
   */
  outbox: ReadonlyMap<string, OutboxEntryView>;
  outboxVersion: number;
  /** Waiting site edits left out, by the listing or of events since (waiting-window.ts): the status counts them. */
  outboxLeftOut: number;
  /** Where the loaded history stops: `next` asks for the page older than it (null: all loaded). */
  outboxHistory: { next: string | null; total: number; loading: boolean };
  /** Things the user must know that belong to no entry (a damaged data file, a failed write). */
  problems: AppProblem[];
  /** Bulk runs (imports, EUS reprocess from a file) the host follows, by ID; rows come from getBulkRun. */
  bulkRuns: ReadonlyMap<string, BulkRunView>;
  /** Every basemap (servers and files), exactly one active; empty until loaded (or on an older host). */
  basemaps: BasemapView[];
  /** Area downloads of this session, by ID. */
  downloads: ReadonlyMap<string, DownloadView>;
  /** The GPS receiver the host reads (gpsd/NMEA), as its last event or getGps said; null until either. */
  gps: GpsView | null;
}

export interface AppProblem {
  id: number;
  message: string;
  detail: string;
}

export type SitesListener = (changed: SiteView[], removed: string[], reset: boolean) => void;

export type { ColumnsListener };

type EventOf<K extends ApiEvent['type']> = Extract<ApiEvent, { type: K }>;

/** A feature's part of the store: the events it applies, and what it loads once the first load is done. */
export interface StoreSlice {
  on?: { [K in ApiEvent['type']]?: (store: AppStore, event: EventOf<K>) => void };
  afterLoad?: (store: AppStore) => void;
}

export class AppStore {
  private state: AppState = {
    loaded: false,
    connectionError: null,
    status: null,
    profiles: [],
    settings: DEFAULT_SETTINGS,
    sites: new Map(),
    sitesVersion: 0,
    outbox: new Map(),
    outboxVersion: 0,
    outboxLeftOut: 0,
    outboxHistory: { next: null, total: 0, loading: false },
    problems: [],
    bulkRuns: new Map(),
    basemaps: [],
    downloads: new Map(),
    gps: null,
  };

  private readonly listeners = new Set<() => void>();
  private readonly siteListeners = new Set<SitesListener>();
  /** The first load's handover to the map: columns, and many sites' positions before them (first-columns.ts). */
  readonly columns = new FirstColumns();
  private held: ApiEvent[] | null = [];
  private unsubscribe: (() => void) | null = null;

  constructor(
    readonly api: SitewalkApi,
    private readonly subscribeEvents: (listener: (event: ApiEvent) => void) => () => void,
    private readonly slices: readonly StoreSlice[] = [],
  ) {}

  getState = (): AppState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Site changes as they happen; `reset` means `changed` is the complete list. */
  onSites(listener: SitesListener): () => void {
    this.siteListeners.add(listener);
    return () => this.siteListeners.delete(listener);
  }

  /**
   * The first load's sites as they arrive, before the store holds them: `reset` follows with the same
   * sites as views once they are made (after the frame that shows what `listener` drew).
   */
  onSiteColumns(listener: ColumnsListener): () => void {
    return this.columns.subscribe(listener);
  }

  /** A map will subscribe to the first load's columns, perhaps after they arrive (first-columns.ts); `arrived` hears them at once. */
  expectMap(arrived?: (list: SiteList) => void): void {
    this.columns.expectMap(arrived);
  }

  /** Loads everything, then follows events. Safe to call again after a connection error. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.subscribeEvents((event) => {
      if (this.held) this.held.push(event);
      else this.applyEvent(event);
    });
    try {
      const [status, profiles, settings, loadedSites, outbox] = await Promise.all([
        this.api.getStatus(),
        this.api.listProfiles(),
        this.api.getSettings(),
        loadSiteList(this.api).then((list) => {
          if (!Array.isArray(list)) this.columns.heard(list);
          return list;
        }),
        this.api.listOutbox(),
      ]);
      let sites: SiteView[];
      if (Array.isArray(loadedSites)) sites = loadedSites;
      else {
        // Pins before views: the map draws from the columns in this task; the 50,000 SiteViews (their
        // times as text) and the map of them by ID are made once that frame is on screen. Events
        // arriving meanwhile stay held, and nothing but the map has heard of the sites yet.
        await this.columns.hand(loadedSites);
        sites = timed('site-views', () => unpackSites(loadedSites));
      }
      // The map hears the sites now (and draws them in this task, unless it drew them from the
      // columns already); the panels (the site list sorts every site by title) render once that
      // frame is on screen.
      this.quiet = true;
      try {
        timed('sites-reset', () => this.replaceData(sites, outbox, { loaded: true, connectionError: null, status, profiles, settings }));
        // A slice's own data (basemaps and downloads) arrives after and apart from the rest: the map works without it.
        for (const slice of this.slices) slice.afterLoad?.(this);
        this.releaseHeld();
      } finally {
        this.quiet = false;
      }
      afterPaint(() => {
        if (this.owed) this.notify();
      });
    } catch (error) {
      this.set({ connectionError: describeError(error) });
    }
  }

  stop(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Reloads sites and outbox (a profile switch changes them wholesale); events meanwhile are held, as at start. */
  async reloadData(): Promise<void> {
    const holding = this.held === null;
    if (holding) this.held = [];
    try {
      const [sites, outbox, status] = await Promise.all([loadSites(this.api), this.api.listOutbox(), this.api.getStatus()]);
      this.replaceData(sites, outbox, { status });
    } finally {
      if (holding) this.releaseHeld();
    }
  }

  /** Applies the events held during a load, then follows them as they come. */
  private releaseHeld(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.applyEvent(event);
    this.flush();
  }

  /** An event as it comes: the waiting edits past the page's window left to the status (waiting-window.ts). */
  private applyEvent(event: ApiEvent): void {
    const within = withinWaitingWindow(event, this.state.outbox, this.pendingOutbox, this.state.outboxLeftOut + this.leftOutSince);
    this.leftOutSince += within.dropped;
    this.apply(within.event);
  }

  /** Every site and outbox entry at once (with `patch`); the map hears it as a reset. */
  private replaceData(sites: SiteView[], outbox: OutboxListing, patch: Partial<AppState>): void {
    const siteMap = new Map<string, SiteView>();
    for (const site of sites) siteMap.set(site.localId, site);
    this.leftOutSince = 0;
    this.set({
      ...patch,
      sites: siteMap,
      sitesVersion: this.state.sitesVersion + 1,
      outbox: new Map([...outbox.active, ...outbox.history.entries].map((e) => [e.id, e])),
      outboxVersion: this.state.outboxVersion + 1,
      outboxLeftOut: outbox.pendingLeftOut,
      outboxHistory: { next: outbox.history.next, total: outbox.history.total, loading: false },
    });
    // The answer itself when it names each site once (it does): no second 50,000-site array.
    const list = siteMap.size === sites.length ? sites : [...siteMap.values()];
    for (const l of this.siteListeners) l(list, [], true);
  }

  /** Applies what a call returned at once, without waiting for its event. */
  applySite(site: SiteView): void {
    this.apply({ type: 'site', site });
    this.flush();
  }

  applyOutboxEntry(entry: OutboxEntryView): void {
    this.apply({ type: 'outbox', entry });
    this.flush();
  }

  /** What an action answered it changed (entries, removals, the site), shown at once. */
  applyChanges(changes: ChangeSet): void {
    this.apply({ type: 'changes', changes });
    this.flush();
  }

  /** After an action was refused because the entry had moved on: show the entry as it is now. */
  async refreshEntry(entryId: string): Promise<void> {
    this.applyChanges(await this.api.getOutboxEntry(entryId));
  }

  applyStatus(status: StatusView): void {
    this.apply({ type: 'status', status });
    this.flush();
  }

  applyProfiles(profiles: ProfileView[]): void {
    this.apply({ type: 'profiles', profiles });
  }

  applySettings(settings: SettingsView): void {
    this.apply({ type: 'settings', settings });
  }

  setConnectionError(message: string | null): void {
    if (this.state.connectionError !== message) this.set({ connectionError: message });
  }

  private apply(event: ApiEvent): void {
    switch (event.type) {
      case 'status':
        // A sync tells a status for every site it sends: kept, like the changes, for the next burst.
        if (!this.pendingStatus || event.status.revision >= this.pendingStatus.revision) this.pendingStatus = event.status;
        this.scheduleFlush();
        break;
      case 'profiles':
        this.set({ profiles: event.profiles });
        break;
      case 'settings':
        this.set({ settings: event.settings });
        break;
      case 'changes':
      case 'site':
      case 'site-removed':
      case 'outbox':
      case 'outbox-removed': {
        // Kept to apply with whatever else arrives in the next moment: one store update, one re-sort.
        const changes = changeSetOf(event);
        for (const entry of changes.entries) this.gather(this.pendingOutbox, entry.id, entry, entry.revision);
        for (const { entryId, revision } of changes.entriesRemoved) this.gather(this.pendingOutbox, entryId, null, revision);
        for (const site of changes.sites) this.gather(this.pendingSites, site.localId, site, site.revision);
        for (const { localId, revision } of changes.sitesRemoved) this.gather(this.pendingSites, localId, null, revision);
        break;
      }
      default:
        for (const slice of this.slices) (slice.on?.[event.type] as ((store: AppStore, event: ApiEvent) => void) | undefined)?.(this, event);
    }
  }

  // A sync sends an event per site sent, and a status with it; copying 10,000-entry maps and re-sorting the
  // lists for each would take the page's thread, and rendering a status for each kept the page drawing
  // 50 frames a second through a 10,000-row run: changes and the status are applied 25 ms after the
  // first, in a burst at most 5 times a second.
  private lastTimedFlush = -Infinity;
  private readonly pendingSites: Pending<SiteView> = new Map();
  private readonly pendingOutbox: Pending<OutboxEntryView> = new Map();
  /** Waiting edits events brought that were left out since the last flush. */
  private leftOutSince = 0;
  private pendingStatus: StatusView | null = null;
  /** The revision at which each removed site or entry went: older views of it are ignored. */
  private readonly removedSites = new Map<string, number>();
  private readonly removedEntries = new Map<string, number>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  /** Keeps a change (null: a removal) to apply with the others in a moment; the newest revision per ID wins. */
  private gather<T>(pending: Pending<T>, id: string, value: T | null, revision: number): void {
    const held = pending.get(id);
    if (!held || revision >= held.revision) pending.set(id, { value, revision });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => ((this.lastTimedFlush = performance.now()), this.flush()), Math.max(25, this.lastTimedFlush + 200 - performance.now()));
  }

  /** Applies gathered site and outbox changes now. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const patch: Partial<AppState> = {};
    // A call's answer can carry a status older than an event already shown.
    const status = this.pendingStatus;
    this.pendingStatus = null;
    if (status && (!this.state.status || status.revision >= this.state.status.revision)) patch.status = status;
    const changed: SiteView[] = [];
    const removed: string[] = [];
    if (this.pendingSites.size > 0) {
      patch.sites = merged(this.state.sites, this.pendingSites, this.removedSites, changed, removed);
      patch.sitesVersion = this.state.sitesVersion + 1;
    }
    if (this.pendingOutbox.size > 0) {
      const before = this.state.outbox;
      const finished: OutboxEntryView[] = [];
      const gone: string[] = [];
      patch.outbox = merged(before, this.pendingOutbox, this.removedEntries, finished, gone);
      patch.outboxVersion = this.state.outboxVersion + 1;
      // The history's count follows entries finishing and done ones leaving, without asking the host.
      const delta = finished.filter((e) => e.state === 'done' && before.get(e.id)?.state !== 'done').length - gone.filter((id) => before.get(id)?.state === 'done').length;
      if (delta !== 0) patch.outboxHistory = { ...this.state.outboxHistory, total: Math.max(0, this.state.outboxHistory.total + delta) };
    }
    if (this.leftOutSince > 0) patch.outboxLeftOut = this.state.outboxLeftOut + this.leftOutSince;
    this.leftOutSince = 0;
    if (Object.keys(patch).length === 0) return;
    this.set(patch);
    if (changed.length > 0 || removed.length > 0) for (const l of this.siteListeners) l(changed, removed, false);
  }

  /** A slice's change to its own part of the state (never the register or the outbox: those go through apply). */
  update(patch: Partial<AppState>): void {
    this.set(patch);
  }

  private set(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    if (this.quiet) this.owed = true;
    else this.notify();
  }

  /** While set: state changes are held back from the React listeners (start's first load, see there). */
  private quiet = false;
  /** A change was held back and the React listeners have not heard of it yet. */
  private owed = false;

  private notify(): void {
    this.owed = false;
    for (const l of this.listeners) l();
  }
}

/** Reads one slice of the store; re-renders only when that slice changes (by identity). */
export function useAppState<T>(store: AppStore, select: (state: AppState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
