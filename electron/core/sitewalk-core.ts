// The core's public face: the one object the hosts (Electron, browser host) and the CLI use, its
// options and its events. open-core.ts builds it from the services in profiles/, access/, sites/,
// outbox/ and qualities/. Invariants every service keeps: input is validated with the shared schemas
// before anything is queued (bad input → issues, nothing queued); an accepted edit is on disk before
// the call returns; the API key never leaves the core (views say hasKey and keyStore); every change
// of state is emitted as a typed event.
import type { Clock, Random } from './clock';
import type { TypedEvents } from './events';
import type { SyncEngine } from './outbox/engine';
import type { OutboxStore } from './outbox/store';
import type { SiteRegister } from './sites/register';
import type { Blocked } from './outbox/engine';
import type { RetryPolicy } from './outbox/policy';
import type { OutboxState, Problem } from './outbox/types';

import type { RecentEmail } from './outbox/recent-email';
import type { KeyValueStore, KvStoreFactory } from './profiles/kv';
import type { SandboxStarter } from './profiles/sandbox';
import type { SecretStore, SecretStoreKind } from './profiles/secrets';
import type { FetchLike } from './service/types';
import type { SiteView } from './sites/view';
import type { StoredProblem } from './storage/problems';
import type { EusReprocessInput, SiteEditInput } from '../shared/validation/index';
import type { ProfileInput } from '../shared/validation/profile';
import type {
  ConnectionTestView,
  OutboxEntryView as ContractEntryView,
  OutboxHistoryPage,
  ProfileView,
  RenderingQualitiesView as ContractQualitiesView,
  SyncStatus,
} from '../shared/contract/views';
import type { BatchResult, Result } from '../shared/result';
import type { SiteList } from '../shared/contract/site-list';

/** How an entry stands, without its edit: what a bulk run follows for each of its thousands of rows. */
export interface EntryStanding {
  id: string;
  state: OutboxState;
  /** For a site entry: the service's site ID once known (a create's new ID); null otherwise. */
  siteId: string | null;
  /** The service's answer once done, else the problem's sentence ('' when none). */
  message: string;
  /** A pending entry that cannot go until a person acts on an earlier entry of its site or submission (failed, or waiting for review): that entry's ID. */
  waitsBehind?: string;
}

export type { ConnectionTestView, ProfileView, SyncStatus };

// ---------- options ----------

export interface CoreOptions {
  /** Where everything is kept: the database (sitewalk.db), profiles, settings, caches, sandbox state. */
  dataDir: string;
  /** Where keys are kept (the Electron host passes safe-storage). Default: the OS keyring, else session-only. */
  secretStore?: SecretStore;
  /** Transport for service calls and probes (Electron passes net.fetch). Default: Node's fetch. */
  fetch?: FetchLike;
  clock?: Clock;
  random?: Random;
  /** How profiles and settings are stored (Electron passes electron-store). Default: conf in dataDir. */
  kvStoreFactory?: KvStoreFactory;
  /** Requests in flight at once across sites (default 4). */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  probe?: Partial<Pick<RetryPolicy, 'baseMs' | 'capMs'>>;
  /** How often the service is re-checked (a free probe) while nothing is in flight, ms (default 20 s). */
  checkEveryMs?: number;
  /** Per service call (default 30 s). */
  timeoutMs?: number;
  /** How long closing waits for calls in flight before cancelling them as interrupted (default 5 s). */
  closeGraceMs?: number;
  /** Start sending as soon as the core opens and after every enqueue (default true; the CLI sends only on `sync`). */
  autoSync?: boolean;
  /** How the built-in sandbox starts; false = no built-in sandbox (its profile cannot sync). */
  sandbox: SandboxStarter | false;
  /** One line per notable event; never receives a key. */
  log?: (line: string) => void;
}

// ---------- views and results ----------

/** The contract's entry view, with the core's typed problem. */
export interface OutboxEntryView extends ContractEntryView {
  problem: Problem | null;
}

export interface SettleSummary {
  /** null = everything that could be sent was sent; otherwise why the rest is stuck. */
  blocked: Blocked | null;
  status: SyncStatus;
  /** Entries of the active profile by state, after settling. */
  counts: Record<OutboxState, number>;
}

export interface RenderingQualitiesView extends ContractQualitiesView {
  problem: Problem | null;
}

export interface SavedSite {
  site: SiteView;
  entry: OutboxEntryView;
  /** The edit was merged into a queued one of the same site. */
  coalesced: boolean;
}

export interface StorageStats {
  /** Write transactions the outbox committed since open (each one durable on its own). */
  commits: number;
  /** What the folder's database (with its WAL) takes on disk now. */
  databaseBytes: number;
}

export interface CoreEvents {
  status: SyncStatus;
  site: SiteView;
  'site-removed': { localId: string; revision: number };
  outbox: OutboxEntryView;
  'outbox-removed': { entryId: string; revision: number };
  profiles: ProfileView[];
  /** Something the user should know that is not tied to one entry (a damaged database set aside, a failed write, the sandbox's start). */
  problem: { message: string; detail: string };
}

export interface SitewalkCore {
  readonly dataDir: string;
  /** The kind of store keys go to for profiles of your own (the UI shows it). */
  readonly keyStoreKind: SecretStoreKind;
  /** Why a safer key store was not used, or null. */
  readonly keyStoreNotice: string | null;
  /** What opening the data folder found that the user must hear of (a damaged database set aside, an import). */
  readonly journalProblems: readonly StoredProblem[];
  /** A key-value store for host settings (same backend as profiles). */
  readonly settings: KeyValueStore;

  profiles: {
    list(): Promise<ProfileView[]>;
    active(): Promise<ProfileView>;
    /** By ID or name. */
    get(idOrName: string): Promise<ProfileView | null>;
    add(input: ProfileInput): Promise<Result<ProfileView>>;
    update(id: string, input: ProfileInput): Promise<Result<ProfileView>>;
    /** Refused while the profile has unsent entries. */
    remove(id: string): Promise<Result<null>>;
    use(idOrName: string): Promise<Result<ProfileView>>;
    /** Write-only. `sessionOnly`: kept in memory for this run, never stored (SITEWALK_KEY). */
    setKey(id: string, key: string, options?: { sessionOnly?: boolean }): Promise<Result<ProfileView>>;
    clearKey(id: string): Promise<Result<ProfileView>>;
    /**
     * "Test connection" (by ID or name): the service description (no API call), the account and key
     * with one GetRenderingQualityList call, and which bindings answer (free refusal probes, or with
     * `everyBinding` the real call over the other three: up to 3 more API calls). The view says what it used.
     */
    test(idOrName: string, options?: { everyBinding?: boolean }): Promise<Result<ConnectionTestView>>;
  };
  sites: {
    /** Sites of the active profile. */
    list(): SiteView[];
    /**
     * The same sites in the page's lean form: what packSites(list()) gives. Built from the register
     * directly and kept until a site, an entry or the active profile changes (the same object is
     * handed out again meanwhile: never change it).
     */
    listPacked(): SiteList;
    /** By local ID or service site ID (active profile). */
    get(id: string): SiteView | null;
    /** The site's newest revision (its removal's once removed; 0 when unknown). */
    revision(localId: string): number;
    /** Create (no localId/siteId) or edit; validated, queued durably, returned as now pending. */
    save(input: SiteEditInput & { localId?: string }): Promise<Result<SavedSite>>;
    /** Many saves in one durable write (CSV import): all or nothing. */
    saveMany(inputs: ReadonlyArray<SiteEditInput & { localId?: string }>): Promise<BatchResult<SavedSite>>;
    /** Registers a site the service already has, by its ID; nothing is sent. */
    addExisting(siteId: string, fields?: Omit<SiteEditInput, 'siteId'>): Promise<Result<SiteView>>;
  };
  outbox: {
    /** Entries of the active profile (or every profile), oldest first. */
    list(options?: { allProfiles?: boolean }): OutboxEntryView[];
    /** Entries of the active profile not done yet, oldest first (cheap: the lanes only). */
    unfinished(): OutboxEntryView[];
    /** The same, but for the site edits waiting beyond the first `pendingLimit` of them (what a page lists), and how many those are. */
    unfinishedPage(pendingLimit: number): { entries: OutboxEntryView[]; pendingLeftOut: number };
    /** A page of the active profile's done entries, newest first; `before` is an earlier page's `next`. */
    history(query?: { before?: string; limit?: number }): OutboxHistoryPage;
    get(id: string): OutboxEntryView | null;
    /** How the entry stands, without its edit read (cheap: a bulk run asks it of every row it follows). */
    standing(id: string): EntryStanding | null;
    /** The entry's newest revision (its removal's once removed; 0 when unknown). */
    revision(id: string): number;
    /** Sends again: failed, needs-review (a deliberate resend), paused (lifts the pause), or pending in backoff. */
    retry(id: string): Promise<Result<OutboxEntryView>>;
    /** Removes an unsent entry; a create takes the edits queued behind it (and the unsent site) with it. */
    discard(id: string): Promise<Result<{ removed: string[] }>>;
    /** Confirms a needs-review entry happened; a create needs the site ID the service gave. */
    resolve(id: string, siteId?: string): Promise<Result<OutboxEntryView>>;
    /** Replaces the payload of an entry not yet sent (pending, failed, paused); it becomes pending. */
    edit(id: string, input: SiteEditInput | EusReprocessInput): Promise<Result<OutboxEntryView>>;
  };
  /**
   * Queues an EUS reprocess. One that emails a submission which already has an emailing reprocess
   * waiting, sending or done in the last 24 h is refused (issue field 'duplicateEmail') unless
   * `force` says the user confirmed it: the recipients would get the email again.
   */
  reprocess(input: EusReprocessInput, options?: { force?: boolean }): Promise<Result<OutboxEntryView>>;
  /** As `reprocess`, in one durable write; `emailAgain` lets only the listed process IDs through the 24-hour guard. */
  reprocessMany(inputs: readonly EusReprocessInput[], options?: { force?: boolean; emailAgain?: readonly string[] }): Promise<BatchResult<OutboxEntryView>>;
  /**
   * Which of these submissions already have an emailing reprocess waiting, sending, in review or done
   * in the last 24 h, with how it stands ("Emailed 20 minutes ago"): the bulk preview marks them.
   */
  recentEmails(processIds: readonly string[]): Map<string, RecentEmail>;
  sync: {
    /** Starts automatic sending (already on unless autoSync was false). */
    start(): void;
    /** Sends what is due now: skips backoff waits, probes at once when offline, lifts a pause. */
    syncNow(): Promise<SyncStatus>;
    /** Resolves once nothing is pending or sending (entries another Sitewalk process is sending included) or the queue cannot move. */
    untilSettled(): Promise<SettleSummary>;
    /** One pass: resolves once nothing due now is left (entries waiting out a backoff stay queued). */
    untilIdle(): Promise<SettleSummary>;
    status(): SyncStatus;
    /** Whether another Sitewalk process that sends by itself (the app) has this data folder open now. */
    otherSender(): boolean;
    /** Whether this process sent the entry and recorded its answer (not another Sitewalk on the folder). */
    answeredHere(entryId: string): boolean;
    /** The host's connectivity hint; the core still probes for itself. */
    setConnectivity(online: boolean): void;
    setConcurrency(limit: number): void;
    /**
     * Stops sending for good (a CLI's Ctrl-C): requests in flight are answered and recorded first (at
     * most the close grace, then cancelled and recorded as interrupted); waits in progress resolve.
     */
    stop(): Promise<void>;
  };
  /** Cached per profile for offline use; `refresh` asks the service (falling back to the cache). */
  renderingQualities(options?: { refresh?: boolean }): Promise<RenderingQualitiesView>;
  on<K extends keyof CoreEvents>(event: K, listener: (payload: CoreEvents[K]) => void): () => void;
  /** What the store has cost since open (support and benchmarks). */
  storage(): StorageStats;
  /** Waits for requests in flight, stops the sandbox and closes the database. */
  close(): Promise<void>;
}

/** What the services that act on sites and the queue share (built once by open-core.ts). */
export interface CoreParts {
  store: OutboxStore;
  register: SiteRegister;
  engine: SyncEngine;
  events: TypedEvents<CoreEvents>;
  clock: Clock;
  /** The active profile's ID, as it is now. */
  activeId: () => string;
}
