// The core facade: the one object the hosts (Electron, browser host) and the CLI use. It owns the
// data folder (locked to one process), the profiles and their keys, the site register, the durable
// outbox and its sync engine, and the built-in sandbox. Invariants: every input is validated with
// the shared schemas before anything is queued (bad input → issues, nothing queued); an accepted
// edit is on disk before the call returns; the API key never leaves the core (views say hasKey and
// keyStore) and is never written in plain text; every change of state is emitted as a typed event.
import { mkdir } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { systemClock, type Clock, type Random } from './clock';
import { TypedEvents } from './events';
import { SyncEngine, type Blocked, type EngineStatus, type SettleResult } from './outbox/engine';
import type { JournalProblem } from './storage/journal';
import { lockDataDir, type DataDirLock } from './storage/lock';
import { DEFAULT_PROBE, DEFAULT_RETRY, problemOf, type RetryPolicy } from './outbox/policy';
import { OutboxStore, type Draft, type OutboxChange, type SiteDraft } from './outbox/store';
import { laneOf, summarize, type OutboxEntry, type OutboxState, type Problem, type SiteEntry } from './outbox/types';
import { confStoreFactory, type KeyValueStore, type KvStoreFactory } from './profiles/kv';
import { ProfileBook, SANDBOX_PROFILE_ID, sandboxProfile, type Profile } from './profiles/profiles';
import { QualitiesCache } from './qualities/cache';
import { SandboxRunner, startBuiltInSandbox, type SandboxHandle, type SandboxStarter } from './profiles/sandbox';
import { chooseSecretStore, LayeredSecretStore, type SecretStore, type SecretStoreKind } from './profiles/secrets';
import { serviceUrl } from './service/codec';
import { createServiceClient } from './service/client';
import { REAL_SERVICE, type Connection, type Credentials, type EusReprocess, type FetchLike, type InputIssue, type RenderingQuality, type ServiceClient, type SiteEdit } from './service/types';
import { SiteRegister, type SiteFields, type SiteRecord } from './sites/register';
import { overlay, siteView, type SiteView } from './sites/view';
import { findXmlForbidden, parseEusReprocess, parseSiteEdit, type EusReprocessInput, type SiteEditInput } from '../shared/validation/index';
import type { ProfileInput } from '../shared/validation/profile';
import type { OutboxEntryView as ContractEntryView, ProfileView, RenderingQualitiesView as ContractQualitiesView, SyncStatus } from '../shared/contract/views';
import { refuse, type BatchIssue, type BatchResult, type Result } from '../shared/result';

export type { SiteView, SyncState } from './sites/view';
export type { Problem, OutboxState } from './outbox/types';
export type { SecretStore, SecretStoreKind } from './profiles/secrets';
export type { KeyValueStore, KvStoreFactory } from './profiles/kv';
export type { Blocked } from './outbox/engine';
export type { JournalProblem } from './storage/journal';
export type { ProfileInput } from '../shared/validation/profile';
export { SANDBOX_PROFILE_ID } from './profiles/profiles';

// ---------- options ----------

export interface CoreOptions {
  /** Where everything is kept: journals, profiles, settings, caches, sandbox state. */
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
  /** Per service call (default 30 s). */
  timeoutMs?: number;
  /** Start sending as soon as the core opens and after every enqueue (default true; the CLI sends only on `sync`). */
  autoSync?: boolean;
  /** How the built-in sandbox starts; false = no built-in sandbox (its profile cannot sync). */
  sandbox?: SandboxStarter | false;
  /** One line per notable event; never receives a key. */
  log?: (line: string) => void;
}

// ---------- views and results ----------

/** Every mutating call answers with this: done, or the input's issues (nothing was queued or changed). */
export type Outcome<T> = Result<T>;

export type { ProfileView, SyncStatus };

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

export type { BatchIssue };
export type BatchOutcome<T> = BatchResult<T>;

export interface StorageStats {
  /** Bytes written to the outbox and register journals since open, compactions included. */
  bytesWritten: number;
  /** fdatasync/fsync calls of the outbox journal since open. */
  outboxSyncs: number;
  outboxFileBytes: number;
  registerFileBytes: number;
}

export interface CoreEvents {
  status: SyncStatus;
  site: SiteView;
  'site-removed': { localId: string };
  outbox: OutboxEntryView;
  'outbox-removed': { entryId: string };
  profiles: ProfileView[];
  /** Something the user should know that is not tied to one entry (damaged journal record, failed write, sandbox start). */
  problem: { message: string; detail: string };
}

export interface SitewalkCore {
  readonly dataDir: string;
  /** The kind of store keys go to for profiles of your own (the UI shows it). */
  readonly keyStoreKind: SecretStoreKind;
  /** Why a safer key store was not used, or null. */
  readonly keyStoreNotice: string | null;
  /** Damaged journal records found at open (torn tails are tolerated; corrupt records were set aside). */
  readonly journalProblems: readonly JournalProblem[];
  /** A key-value store for host settings (same backend as profiles). */
  readonly settings: KeyValueStore;

  profiles: {
    list(): Promise<ProfileView[]>;
    active(): Promise<ProfileView>;
    /** By ID or name. */
    get(idOrName: string): Promise<ProfileView | null>;
    add(input: ProfileInput): Promise<Outcome<ProfileView>>;
    update(id: string, input: ProfileInput): Promise<Outcome<ProfileView>>;
    /** Refused while the profile has unsent entries. */
    remove(id: string): Promise<Outcome<null>>;
    use(idOrName: string): Promise<Outcome<ProfileView>>;
    /** Write-only. `sessionOnly`: kept in memory for this run, never stored (SITEWALK_KEY). */
    setKey(id: string, key: string, options?: { sessionOnly?: boolean }): Promise<Outcome<ProfileView>>;
    clearKey(id: string): Promise<Outcome<ProfileView>>;
  };
  sites: {
    /** Sites of the active profile. */
    list(): SiteView[];
    /** By local ID or service site ID (active profile). */
    get(id: string): SiteView | null;
    /** Create (no localId/siteId) or edit; validated, queued durably, returned as now pending. */
    save(input: SiteEditInput & { localId?: string }): Promise<Outcome<SavedSite>>;
    /** Many saves in one durable write (CSV import): all or nothing. */
    saveMany(inputs: ReadonlyArray<SiteEditInput & { localId?: string }>): Promise<BatchOutcome<SavedSite>>;
    /** Registers a site the service already has, by its ID; nothing is sent. */
    addExisting(siteId: string, fields?: Omit<SiteEditInput, 'siteId'>): Promise<Outcome<SiteView>>;
  };
  outbox: {
    /** Entries of the active profile (or every profile), oldest first. */
    list(options?: { allProfiles?: boolean }): OutboxEntryView[];
    get(id: string): OutboxEntryView | null;
    /** Sends again: failed, needs-review (a deliberate resend), paused (lifts the pause), or pending in backoff. */
    retry(id: string): Promise<Outcome<OutboxEntryView>>;
    /** Removes an unsent entry; a create takes the edits queued behind it (and the unsent site) with it. */
    discard(id: string): Promise<Outcome<{ removed: string[] }>>;
    /** Confirms a needs-review entry happened; a create needs the site ID the service gave. */
    resolve(id: string, siteId?: string): Promise<Outcome<OutboxEntryView>>;
    /** Replaces the payload of an entry not yet sent (pending, failed, paused); it becomes pending. */
    edit(id: string, input: SiteEditInput | EusReprocessInput): Promise<Outcome<OutboxEntryView>>;
  };
  reprocess(input: EusReprocessInput): Promise<Outcome<OutboxEntryView>>;
  reprocessMany(inputs: readonly EusReprocessInput[]): Promise<BatchOutcome<OutboxEntryView>>;
  sync: {
    /** Starts automatic sending (already on unless autoSync was false). */
    start(): void;
    /** Sends what is due now: skips backoff waits, probes at once when offline, lifts a pause. */
    syncNow(): Promise<SyncStatus>;
    untilSettled(): Promise<SettleSummary>;
    /** One pass: resolves once nothing due now is left (entries waiting out a backoff stay queued). */
    untilIdle(): Promise<SettleSummary>;
    status(): SyncStatus;
    /** The host's connectivity hint; the core still probes for itself. */
    setConnectivity(online: boolean): void;
    setConcurrency(limit: number): void;
  };
  /** Cached per profile for offline use; `refresh` asks the service (falling back to the cache). */
  renderingQualities(options?: { refresh?: boolean }): Promise<RenderingQualitiesView>;
  on<K extends keyof CoreEvents>(event: K, listener: (payload: CoreEvents[K]) => void): () => void;
  /** What the journals have cost on disk since open (support and benchmarks). */
  storage(): StorageStats;
  /** Waits for requests in flight, flushes the journals, stops the sandbox, unlocks the folder. */
  close(): Promise<void>;
}

// ---------- implementation ----------

const PROBE_TIMEOUT_MS = 10_000;
const KEY_MAX = 1000;
/** Validates an edit of a site whose service ID is not known yet (its create is still queued). */
const PENDING_ID = '0';

export async function openCore(options: CoreOptions): Promise<SitewalkCore> {
  const dataDir = resolvePath(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  try {
    return await Core.open(dataDir, options, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

class Core implements SitewalkCore {
  readonly profiles: SitewalkCore['profiles'];
  readonly sites: SitewalkCore['sites'];
  readonly outbox: SitewalkCore['outbox'];
  readonly sync: SitewalkCore['sync'];
  readonly keyStoreNotice: string | null;
  readonly journalProblems: JournalProblem[];

  private readonly events: TypedEvents<CoreEvents>;
  private readonly engine: SyncEngine;
  private readonly book: ProfileBook;
  private readonly clients = new Map<string, { key: string; client: ServiceClient }>();
  /** Keys read from the store this session, so a sync of 10,000 entries asks the keyring once. */
  private readonly keyCache = new Map<string, string>();
  private readonly keyKnown = new Map<string, boolean>();
  private readonly qualities: QualitiesCache;
  private readonly sandbox: SandboxRunner | null;
  private activeId: string;
  private closing: Promise<void> | null = null;

  private constructor(
    readonly dataDir: string,
    private readonly options: CoreOptions,
    private readonly lock: DataDirLock,
    private readonly store: OutboxStore,
    private readonly register: SiteRegister,
    private readonly secrets: LayeredSecretStore,
    notice: string | null,
    readonly settings: KeyValueStore,
    profilesKv: KeyValueStore,
    problems: JournalProblem[],
  ) {
    this.keyStoreNotice = notice;
    this.journalProblems = problems;
    const log = options.log ?? (() => undefined);
    this.events = new TypedEvents<CoreEvents>((error, event) => log(`a listener of "${event}" failed: ${describe(error)}`));
    const starter = options.sandbox === false ? null : (options.sandbox ?? startBuiltInSandbox);
    // Whenever the built-in sandbox starts, its account's sites join the Sandbox profile's register,
    // so a new user sees the demo sites (and sites another run created there) without typing IDs.
    this.sandbox = starter
      ? new SandboxRunner(dataDir, async (startOptions) => {
          const handle = await starter(startOptions);
          await this.adoptSandboxSites(handle).catch((error: unknown) => {
            this.events.emit('problem', { message: 'The sandbox\'s sites could not be added to the site list.', detail: describe(error) });
          });
          return handle;
        })
      : null;
    this.book = new ProfileBook(profilesKv, () => this.sandboxProfileNow());
    this.activeId = this.book.active().id;
    this.qualities = new QualitiesCache(dataDir);

    const clock = options.clock ?? systemClock;
    this.engine = new SyncEngine({
      store,
      clock,
      random: options.random ?? Math.random,
      concurrency: options.concurrency ?? 4,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      probe: { ...DEFAULT_PROBE, ...options.probe },
      activeProfile: () => this.activeId,
      clientFor: (profileId) => this.clientFor(profileId),
      precheck: (profileId) => this.precheck(profileId),
      reachable: (profileId) => this.reachable(profileId),
      scrub: (problem, profileId) => this.scrub(problem, profileId),
      onStatus: () => this.events.emit('status', this.status()),
      log,
      initialLastSyncAt: lastDoneAt(store),
    });
    store.onApplied((changes) => this.foldIntoRegister(changes));
    store.subscribe((changes, removed) => this.onOutboxChange(changes, removed));

    this.profiles = {
      list: () => this.listProfiles(),
      active: async () => this.profileView(this.book.active()),
      get: async (idOrName) => {
        const profile = this.book.resolve(idOrName);
        return profile ? this.profileView(profile) : null;
      },
      add: (input) => this.addProfile(input),
      update: (id, input) => this.updateProfile(id, input),
      remove: (id) => this.removeProfile(id),
      use: (idOrName) => this.useProfile(idOrName),
      setKey: (id, key, keyOptions) => this.setKey(id, key, keyOptions?.sessionOnly ?? false),
      clearKey: (id) => this.clearKey(id),
    };
    this.sites = {
      list: () => this.register.list(this.activeId).map((record) => this.viewOf(record)),
      get: (id) => {
        const record = this.findSite(id);
        return record ? this.viewOf(record) : null;
      },
      save: async (input) => {
        const outcome = await this.saveSites([input]);
        return outcome.ok ? { ok: true, value: outcome.value[0]! } : { ok: false, issues: outcome.issues.map(({ index: _index, ...issue }) => issue) };
      },
      saveMany: (inputs) => this.saveSites(inputs),
      addExisting: (siteId, fields) => this.addExisting(siteId, fields ?? {}),
    };
    this.outbox = {
      list: (listOptions) =>
        this.store
          .list()
          .filter((entry) => listOptions?.allProfiles || entry.profileId === this.activeId)
          .map(entryView),
      get: (id) => {
        const entry = this.store.get(id);
        return entry ? entryView(entry) : null;
      },
      retry: (id) => this.retry(id),
      discard: (id) => this.discard(id),
      resolve: (id, siteId) => this.resolveEntry(id, siteId),
      edit: (id, input) => this.editEntry(id, input),
    };
    this.sync = {
      start: () => this.engine.start(),
      syncNow: async () => {
        const pause = this.store.pauseOf(this.activeId);
        if (pause) await this.engine.resume(this.activeId);
        this.engine.start();
        this.engine.syncNow();
        return this.status();
      },
      untilSettled: () => keepingProcessAlive(async () => this.summary(await this.engine.untilSettled())),
      untilIdle: () => keepingProcessAlive(async () => this.summary(await this.engine.untilIdle())),
      status: () => this.status(),
      setConnectivity: (online) => this.engine.setConnectivity(online),
      setConcurrency: (limit) => this.engine.setConcurrency(limit),
    };
  }

  static async open(dataDir: string, options: CoreOptions, lock: DataDirLock): Promise<Core> {
    const clock = options.clock ?? systemClock;
    let base: SecretStore;
    let notice: string | null = null;
    if (options.secretStore) base = options.secretStore;
    else {
      const choice = await chooseSecretStore();
      base = choice.store;
      notice = choice.fallbackReason;
    }
    const secrets = new LayeredSecretStore(base);
    const factory = options.kvStoreFactory ?? confStoreFactory(dataDir);
    const profilesKv = factory('profiles');
    const settings = factory('settings');
    const opened = await OutboxStore.open({ dataDir, clock });
    let register: SiteRegister;
    let registerProblems: JournalProblem[];
    try {
      ({ register, problems: registerProblems } = await SiteRegister.open({ dataDir, clock }));
    } catch (error) {
      await opened.store.close();
      throw error;
    }
    const problems = [...opened.problems, ...registerProblems];
    const core = new Core(dataDir, options, lock, opened.store, register, secrets, notice, settings, profilesKv, problems);
    try {
      await core.startUp();
    } catch (error) {
      await core.close().catch(() => undefined);
      throw error;
    }
    return core;
  }

  private async startUp(): Promise<void> {
    const log = this.options.log;
    for (const problem of this.journalProblems) {
      log?.(`data folder: ${problem.message}`);
    }
    // A process that died mid-call left entries 'sending': decide them now, before anything is sent.
    const recovered = await this.store.recoverInterrupted();
    if (recovered.length > 0) log?.(`outbox: ${recovered.length} request(s) were interrupted by the last shutdown and have been re-queued or set for review.`);
    await this.reconcileRegister();
    await this.refreshKeyKnown(this.activeId);
    if (this.options.autoSync !== false) {
      this.engine.start();
      // An app on the Sandbox profile has something to show at once; the CLI starts it on need.
      if (this.book.get(this.activeId)?.builtIn) this.warmSandbox();
    }
  }

  /** Starts the built-in sandbox in the background; a failure is told, not thrown. */
  private warmSandbox(): void {
    this.sandbox?.ensure().then(
      () => this.emitProfiles(),
      (error: unknown) => this.events.emit('problem', { message: 'The built-in sandbox could not start.', detail: describe(error) }),
    );
  }

  /** Registers the sandbox account's sites the Sandbox profile does not know yet (nothing is sent). */
  private async adoptSandboxSites(handle: SandboxHandle): Promise<void> {
    const listing = handle.accountSites?.() ?? [];
    const now = (this.options.clock ?? systemClock).now();
    const records: SiteRecord[] = [];
    for (const site of listing) {
      if (this.register.findBySiteId(SANDBOX_PROFILE_ID, site.siteId)) continue;
      const { siteId, ...known } = site;
      records.push({ localId: this.register.newLocalId(), profileId: SANDBOX_PROFILE_ID, siteId, origin: 'existing', known, appliedSeq: 0, createdAt: now, updatedAt: now });
    }
    if (records.length === 0) return;
    await this.register.put(records);
    for (const record of records) this.events.emit('site', this.viewOf(record));
  }

  on<K extends keyof CoreEvents>(event: K, listener: (payload: CoreEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  storage(): StorageStats {
    const outbox = this.store.journalStats;
    const register = this.register.journalStats;
    return {
      bytesWritten: outbox.bytesWritten + register.bytesWritten,
      outboxSyncs: outbox.syncs,
      outboxFileBytes: outbox.size,
      registerFileBytes: register.size,
    };
  }

  get keyStoreKind(): SecretStoreKind {
    return this.secrets.kind;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.engine.stop();
      await this.store.close().catch(() => undefined);
      await this.register.close().catch(() => undefined);
      await this.sandbox?.close().catch(() => undefined);
      this.keyCache.clear();
      await this.lock.release();
    })();
    return this.closing;
  }

  // ---------- profiles ----------

  private sandboxProfileNow(): Profile {
    const running = this.sandbox?.running;
    return sandboxProfile(
      running ? { baseUrl: running.url, servicePath: running.servicePath, namespace: running.namespace, account: running.demo.account } : undefined,
    );
  }

  private async profileView(profile: Profile): Promise<ProfileView> {
    let hasKey = profile.builtIn;
    if (!profile.builtIn) {
      try {
        hasKey = await this.secrets.has(profile.id);
      } catch {
        hasKey = false;
      }
      this.keyKnown.set(profile.id, hasKey);
    }
    return {
      id: profile.id,
      name: profile.name,
      baseUrl: profile.baseUrl,
      servicePath: profile.servicePath,
      namespace: profile.namespace,
      binding: profile.binding,
      account: profile.account,
      builtIn: profile.builtIn,
      active: profile.id === this.activeId,
      hasKey,
      keyStore: profile.builtIn ? 'session-only' : this.secrets.kindOf(profile.id),
    };
  }

  private async listProfiles(): Promise<ProfileView[]> {
    return Promise.all(this.book.list().map((profile) => this.profileView(profile)));
  }

  private async emitProfiles(): Promise<void> {
    this.events.emit('profiles', await this.listProfiles());
  }

  private async addProfile(input: ProfileInput): Promise<Outcome<ProfileView>> {
    const added = this.book.add(input);
    if (!added.ok) return added;
    await this.emitProfiles();
    return { ok: true, value: await this.profileView(added.value) };
  }

  private async updateProfile(id: string, input: ProfileInput): Promise<Outcome<ProfileView>> {
    const before = this.book.get(id) ?? this.book.resolve(id);
    const updated = this.book.update(id, input);
    if (!updated.ok) return updated;
    // A key belongs to the service it was given for: pointing the profile at another server (or
    // from https to http) forgets it, so an edited address can never carry the key somewhere else.
    if (before && serviceOrigin(before.baseUrl) !== serviceOrigin(updated.value.baseUrl)) {
      await this.secrets.delete(updated.value.id).catch((error: unknown) => this.options.log?.(`forgetting the key of "${updated.value.name}" failed: ${describe(error)}`));
      this.keyCache.delete(updated.value.id);
      this.keyKnown.set(updated.value.id, false);
    }
    this.clients.delete(id);
    // The user fixed the profile: a pause for a refused key or account is lifted.
    if (this.store.pauseOf(id)) await this.engine.resume(id);
    await this.emitProfiles();
    this.engine.kick();
    return { ok: true, value: await this.profileView(updated.value) };
  }

  private async removeProfile(id: string): Promise<Outcome<null>> {
    const profile = this.book.get(id) ?? this.book.resolve(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    const counts = this.store.countsOf(profile.id);
    const unsent = counts.pending + counts.sending + counts.paused + counts.failed + counts['needs-review'];
    if (unsent > 0) {
      return refuse('id', `The profile "${profile.name}" still has ${unsent} unsent request(s) in the outbox; send or discard them first.`);
    }
    const removed = this.book.remove(profile.id);
    if (!removed.ok) return removed;
    await this.secrets.delete(profile.id).catch((error: unknown) => this.options.log?.(`removing the key of "${profile.name}" failed: ${describe(error)}`));
    this.keyCache.delete(profile.id);
    this.keyKnown.delete(profile.id);
    this.clients.delete(profile.id);
    await this.qualities.remove(profile.id);
    const sites = this.register.list(profile.id).map((site) => site.localId);
    await this.register.remove(sites);
    for (const localId of sites) this.events.emit('site-removed', { localId });
    if (this.activeId === profile.id) await this.switchTo(this.book.active().id);
    await this.emitProfiles();
    return { ok: true, value: null };
  }

  private async useProfile(idOrName: string): Promise<Outcome<ProfileView>> {
    const profile = this.book.resolve(idOrName);
    if (!profile) return refuse('profile', `There is no profile "${idOrName}". Run "sitewalk profile list" to see them.`);
    const used = this.book.use(profile.id);
    if (!used.ok) return used;
    await this.switchTo(profile.id);
    await this.emitProfiles();
    if (profile.builtIn && this.options.autoSync !== false) this.warmSandbox();
    return { ok: true, value: await this.profileView(profile) };
  }

  private async switchTo(profileId: string): Promise<void> {
    if (this.activeId === profileId) return;
    this.activeId = profileId;
    await this.refreshKeyKnown(profileId);
    this.events.emit('status', this.status());
    this.engine.kick();
  }

  private async setKey(id: string, key: string, sessionOnly: boolean): Promise<Outcome<ProfileView>> {
    const profile = this.book.get(id) ?? this.book.resolve(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    if (profile.builtIn) return refuse('key', 'The Sandbox profile uses its public demo key; it needs no key of yours.');
    const text = typeof key === 'string' ? key.trim() : '';
    if (text === '') return refuse('key', 'The API key is empty; paste it from the API section of the account settings.');
    if (text.length > KEY_MAX) return refuse('key', `The API key is longer than ${KEY_MAX} characters; check what was pasted.`);
    // The key's characters are never quoted back.
    if (findXmlForbidden(text) || /[\r\n]/.test(text)) return refuse('key', 'The API key contains an invisible control character or a line break; paste it again.');
    if (sessionOnly) this.secrets.holdForSession(profile.id, text);
    else {
      try {
        await this.secrets.set(profile.id, text);
      } catch (error) {
        return refuse('key', `The key could not be stored: ${describe(error)}`);
      }
    }
    this.keyCache.set(profile.id, text);
    this.keyKnown.set(profile.id, true);
    if (this.store.pauseOf(profile.id)) await this.engine.resume(profile.id);
    await this.emitProfiles();
    this.engine.kick();
    return { ok: true, value: await this.profileView(profile) };
  }

  private async clearKey(id: string): Promise<Outcome<ProfileView>> {
    const profile = this.book.get(id) ?? this.book.resolve(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    if (profile.builtIn) return refuse('key', 'The Sandbox profile\'s demo key cannot be removed.');
    try {
      await this.secrets.delete(profile.id);
    } catch (error) {
      return refuse('key', `The key could not be removed: ${describe(error)}`);
    }
    this.secrets.releaseSession(profile.id);
    this.keyCache.delete(profile.id);
    this.keyKnown.set(profile.id, false);
    await this.emitProfiles();
    this.events.emit('status', this.status());
    return { ok: true, value: await this.profileView(profile) };
  }

  private async refreshKeyKnown(profileId: string): Promise<void> {
    const profile = this.book.get(profileId);
    if (!profile || profile.builtIn) return;
    try {
      this.keyKnown.set(profileId, await this.secrets.has(profileId));
    } catch (error) {
      this.keyKnown.set(profileId, false);
      this.options.log?.(`the key store could not be read: ${describe(error)}`);
    }
  }

  // ---------- service access ----------

  private async connectionFor(profileId: string): Promise<Connection> {
    const profile = this.book.get(profileId);
    if (!profile) throw new Error(`There is no profile "${profileId}".`);
    if (profile.builtIn) {
      if (!this.sandbox) throw new Error('The built-in sandbox is not available in this run.');
      const handle = await this.sandbox.ensure();
      return { baseUrl: handle.url, servicePath: handle.servicePath, namespace: handle.namespace, binding: REAL_SERVICE.binding };
    }
    return { baseUrl: profile.baseUrl, servicePath: profile.servicePath, namespace: profile.namespace, binding: profile.binding };
  }

  private async credentialsFor(profileId: string): Promise<Credentials> {
    const profile = this.book.get(profileId);
    if (!profile) return { account: '', key: '' };
    if (profile.builtIn && this.sandbox) {
      const handle = await this.sandbox.ensure();
      return { account: handle.demo.account, key: handle.demo.key };
    }
    let key = this.keyCache.get(profileId);
    if (key === undefined) {
      key = (await this.secrets.get(profileId)) ?? '';
      if (key !== '') this.keyCache.set(profileId, key);
    }
    return { account: profile.account, key };
  }

  private async clientFor(profileId: string): Promise<ServiceClient> {
    const connection = await this.connectionFor(profileId);
    const cacheKey = JSON.stringify(connection);
    const cached = this.clients.get(profileId);
    if (cached && cached.key === cacheKey) return cached.client;
    const client = createServiceClient({
      connection,
      credentials: () => this.credentialsFor(profileId),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
    });
    this.clients.set(profileId, { key: cacheKey, client });
    return client;
  }

  private precheck(profileId: string): Blocked | null {
    const profile = this.book.get(profileId);
    if (!profile) return { reason: 'no-profile', message: `The active profile "${profileId}" no longer exists.` };
    if (profile.builtIn) {
      return this.sandbox ? null : { reason: 'no-key', message: 'The built-in sandbox is not available in this run.' };
    }
    if (this.keyKnown.get(profileId) === false) {
      return { reason: 'no-key', message: `The profile "${profile.name}" has no API key. Add it in the profile (it is in the API section of the account settings).` };
    }
    return null;
  }

  /** Any HTTP answer from the service address counts; the WSDL page costs no API call. */
  private async reachable(profileId: string): Promise<boolean> {
    let url: string;
    try {
      url = `${serviceUrl(await this.connectionFor(profileId))}?WSDL`;
    } catch (error) {
      this.options.log?.(`probe: ${describe(error)}`);
      return false;
    }
    const transport: FetchLike = this.options.fetch ?? ((target, init) => fetch(target, init));
    try {
      const response = await transport(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.body?.cancel().catch(() => undefined);
      return true;
    } catch {
      return false;
    }
  }

  private scrub(problem: Problem, profileId: string): Problem {
    const key = this.keyCache.get(profileId);
    if (!key || key.length < 4) return problem;
    const clean = (text: string) => text.split(key).join('[key]');
    return { ...problem, message: clean(problem.message), detail: clean(problem.detail) };
  }

  // ---------- sites ----------

  private findSite(id: string): SiteRecord | undefined {
    const text = id.trim();
    const byLocal = this.register.get(text);
    if (byLocal && byLocal.profileId === this.activeId) return byLocal;
    return this.register.findBySiteId(this.activeId, text);
  }

  private viewOf(record: SiteRecord): SiteView {
    return siteView(record, this.store.lane(`site:${record.localId}`));
  }

  private async saveSites(inputs: ReadonlyArray<SiteEditInput & { localId?: string }>): Promise<BatchOutcome<SavedSite>> {
    const profileId = this.activeId;
    const now = (this.options.clock ?? systemClock).now();
    const issues: BatchIssue[] = [];
    const drafts: SiteDraft[] = [];
    const newRecords = new Map<string, SiteRecord>();
    const newBySiteId = new Map<string, SiteRecord>();
    /** Whether a create is queued for a local site (in the outbox, or earlier in this batch). */
    const createQueued = new Set<string>();

    inputs.forEach((input, index) => {
      if (typeof input !== 'object' || input === null) {
        issues.push({ index, field: '', message: 'The site is missing.' });
        return;
      }
      const localIdText = typeof input.localId === 'string' ? input.localId.trim() : '';
      const siteIdText = typeof input.siteId === 'string' ? input.siteId.trim() : input.siteId === undefined || input.siteId === null ? '' : String(input.siteId).trim();
      let record: SiteRecord | undefined;
      if (localIdText) {
        record = newRecords.get(localIdText) ?? this.register.get(localIdText);
        if (!record || record.profileId !== profileId) {
          issues.push({ index, field: 'localId', message: `There is no site with the local ID "${localIdText}" in this profile.` });
          return;
        }
        if (siteIdText && record.siteId && siteIdText !== record.siteId) {
          issues.push({ index, field: 'siteId', message: `The site ${localIdText} has the service ID ${record.siteId}, not ${siteIdText}.` });
          return;
        }
      } else if (siteIdText) {
        record = newBySiteId.get(siteIdText) ?? this.register.findBySiteId(profileId, siteIdText);
      }

      const current = record ? this.currentFields(record, drafts) : null;
      const given = { ...input } as SiteEditInput & { localId?: string };
      delete given.localId;
      // An edit may leave the height out when the site's height is known: the wire always needs one.
      if (isBlank(given.height) && current?.height !== undefined) given.height = current.height;

      const knownSiteId = record?.siteId ?? (siteIdText || null);
      const hasCreate = record ? createQueued.has(record.localId) || this.hasUnfinishedCreate(record.localId) : false;
      const op: 'create' | 'edit' = knownSiteId !== null || hasCreate ? 'edit' : 'create';
      if (op === 'create' && record && current) {
        // Re-creating a local site whose create is gone: keep its position unless a new one is given.
        if (isBlank(given.latitude) && current.latitude !== undefined) given.latitude = current.latitude;
        if (isBlank(given.longitude) && current.longitude !== undefined) given.longitude = current.longitude;
      }
      const checked = parseSiteEdit({ ...given, siteId: op === 'edit' ? (knownSiteId ?? PENDING_ID) : undefined });
      if (!checked.ok) {
        for (const issue of checked.issues) issues.push({ index, ...issue });
        return;
      }
      const payload: SiteEdit = { ...checked.value };
      if (knownSiteId === null) delete payload.siteId;

      if (!record) {
        record = {
          localId: this.register.newLocalId(),
          profileId,
          siteId: knownSiteId,
          origin: op === 'create' ? 'created' : 'imported',
          known: {},
          appliedSeq: 0,
          createdAt: now,
          updatedAt: now,
        };
        // A local ID must not repeat within the batch either.
        while (newRecords.has(record.localId)) record.localId = this.register.newLocalId();
        newRecords.set(record.localId, record);
        if (knownSiteId) newBySiteId.set(knownSiteId, record);
      }
      if (op === 'create') createQueued.add(record.localId);
      drafts.push({ kind: 'site', profileId, localId: record.localId, op, payload });
    });

    if (issues.length > 0) return { ok: false, issues };
    // Outbox first: it is the source of truth, and the register is rebuilt from it if a crash
    // comes between the two writes.
    const enqueued = await this.store.enqueue(drafts);
    if (newRecords.size > 0) await this.register.put([...newRecords.values()]);
    const saved: SavedSite[] = enqueued.map(({ entry, coalesced }) => {
      const record = this.register.get((entry as SiteEntry).localId)!;
      return { site: this.viewOf(record), entry: entryView(this.store.get(entry.id) ?? entry), coalesced };
    });
    const seen = new Set<string>();
    for (const { site } of saved) {
      if (seen.has(site.localId)) continue;
      seen.add(site.localId);
      this.events.emit('site', site);
    }
    this.engine.kick();
    return { ok: true, value: saved };
  }

  /** The site's fields as shown (known + queued), including drafts earlier in the same batch. */
  private currentFields(record: SiteRecord, drafts: readonly SiteDraft[]): SiteFields {
    const fields: SiteFields = { ...record.known };
    for (const entry of this.store.lane(`site:${record.localId}`)) if (entry.kind === 'site') overlay(fields, entry);
    for (const draft of drafts) {
      if (draft.localId === record.localId) overlay(fields, { payload: draft.payload } as SiteEntry);
    }
    return fields;
  }

  private hasUnfinishedCreate(localId: string): boolean {
    return this.store.lane(`site:${localId}`).some((entry) => entry.kind === 'site' && entry.op === 'create');
  }

  private async addExisting(siteIdInput: string, fields: Omit<SiteEditInput, 'siteId'>): Promise<Outcome<SiteView>> {
    const profileId = this.activeId;
    const siteId = typeof siteIdInput === 'string' ? siteIdInput.trim() : '';
    if (siteId === '') return refuse('siteId', 'Enter the site\'s ID: it is at the end of the site\'s address in the account\'s web interface.');
    // The shared schema checks each field; height is optional here because nothing is sent.
    const checked = parseSiteEdit({ ...fields, siteId, height: isBlank(fields.height) ? 0 : fields.height });
    if (!checked.ok) return { ok: false, issues: checked.issues };
    const known: SiteFields = {};
    const value = checked.value;
    if (!isBlank(fields.height)) known.height = value.height;
    for (const name of ['name', 'latitude', 'longitude', 'description', 'group', 'pinStyle'] as const) {
      if (value[name] !== undefined) (known as Record<string, unknown>)[name] = value[name];
    }
    const now = (this.options.clock ?? systemClock).now();
    const existing = this.register.findBySiteId(profileId, value.siteId!);
    const record: SiteRecord = existing
      ? { ...existing, known: { ...existing.known, ...known }, updatedAt: now }
      : { localId: this.register.newLocalId(), profileId, siteId: value.siteId!, origin: 'existing', known, appliedSeq: 0, createdAt: now, updatedAt: now };
    await this.register.put([record]);
    const view = this.viewOf(record);
    this.events.emit('site', view);
    return { ok: true, value: view };
  }

  // ---------- reprocess ----------

  private async reprocessSeveral(inputs: readonly EusReprocessInput[]): Promise<BatchOutcome<OutboxEntryView>> {
    const issues: BatchIssue[] = [];
    const drafts: Draft[] = [];
    inputs.forEach((input, index) => {
      const checked = parseEusReprocess(input);
      if (!checked.ok) for (const issue of checked.issues) issues.push({ index, ...issue });
      else drafts.push({ kind: 'reprocess', profileId: this.activeId, payload: checked.value });
    });
    if (issues.length > 0) return { ok: false, issues };
    const enqueued = await this.store.enqueue(drafts);
    this.engine.kick();
    return { ok: true, value: enqueued.map(({ entry }) => entryView(entry)) };
  }

  async reprocess(input: EusReprocessInput): Promise<Outcome<OutboxEntryView>> {
    const outcome = await this.reprocessSeveral([input]);
    return outcome.ok ? { ok: true, value: outcome.value[0]! } : { ok: false, issues: outcome.issues.map(({ index: _index, ...issue }) => issue) };
  }

  reprocessMany(inputs: readonly EusReprocessInput[]): Promise<BatchOutcome<OutboxEntryView>> {
    return this.reprocessSeveral(inputs);
  }

  // ---------- outbox actions ----------

  private entryOrIssue(id: string): OutboxEntry | Outcome<never> {
    const entry = this.store.get(typeof id === 'string' ? id.trim() : '');
    if (!entry) return refuse('id', `There is no outbox entry "${id}". Run "sitewalk outbox" to see them.`);
    return entry;
  }

  private async retry(id: string): Promise<Outcome<OutboxEntryView>> {
    const found = this.entryOrIssue(id);
    if ('ok' in found) return found;
    const entry = found;
    const now = (this.options.clock ?? systemClock).now();
    switch (entry.state) {
      case 'done':
        return refuse('id', `Entry ${entry.id} is already done.`);
      case 'sending':
        return refuse('id', `Entry ${entry.id} is being sent right now.`);
      case 'paused':
        await this.engine.resume(entry.profileId);
        break;
      case 'failed':
      case 'needs-review':
      case 'pending':
        // A retry starts the attempt count over, so a "gave up" entry gets its full set of tries.
        await this.store.update([{ id: entry.id, patch: { state: 'pending', attempts: 0, nextAttemptAt: null, updatedAt: now } }]);
        break;
    }
    if (entry.profileId === this.activeId) {
      this.engine.start();
      this.engine.syncNow();
    }
    return { ok: true, value: entryView(this.store.get(entry.id)!) };
  }

  private async discard(id: string): Promise<Outcome<{ removed: string[] }>> {
    const found = this.entryOrIssue(id);
    if ('ok' in found) return found;
    const entry = found;
    if (entry.state === 'sending') return refuse('id', `Entry ${entry.id} is being sent right now; wait for its answer.`);
    if (entry.state === 'done') return refuse('id', `Entry ${entry.id} is already done; there is nothing to discard.`);
    const ids = [entry.id];
    let dropSite: string | null = null;
    if (entry.kind === 'site' && entry.op === 'create') {
      const record = this.register.get(entry.localId);
      const followers = this.store.lane(laneOf(entry)).filter((other) => other.id !== entry.id);
      if (followers.some((other) => other.state === 'sending')) return refuse('id', `An edit of this site is being sent; wait for its answer.`);
      // Edits behind a discarded create could never be sent: they go with it, and so does the site.
      ids.push(...followers.map((other) => other.id));
      if (record && record.siteId === null) dropSite = record.localId;
    }
    const removed = await this.store.remove(ids);
    if (dropSite) {
      await this.register.remove([dropSite]);
      this.events.emit('site-removed', { localId: dropSite });
    }
    this.engine.kick();
    return { ok: true, value: { removed: removed.map((item) => item.id) } };
  }

  private async resolveEntry(id: string, siteIdInput?: string): Promise<Outcome<OutboxEntryView>> {
    const found = this.entryOrIssue(id);
    if ('ok' in found) return found;
    const entry = found;
    if (entry.state !== 'needs-review') {
      return refuse('id', `Entry ${entry.id} is ${entry.state}; only an entry that needs review can be confirmed.`);
    }
    const now = (this.options.clock ?? systemClock).now();
    if (entry.kind === 'site' && entry.op === 'create') {
      const siteId = typeof siteIdInput === 'string' ? siteIdInput.trim() : '';
      if (siteId === '') {
        return refuse('siteId', 'Enter the ID the service gave the new site (find the site in the account; the ID ends its address).');
      }
      // The service gives new sites numeric IDs (patterns.ts reads them so from its answers).
      if (!/^\d{1,18}$/.test(siteId)) {
        return refuse('siteId', `"${siteId.slice(0, 40)}" is not a site ID: it is a number, like 100123, at the end of the site's address in the account.`);
      }
      const checked = parseSiteEdit({ ...entry.payload, siteId });
      if (!checked.ok) return { ok: false, issues: checked.issues.filter((issue) => issue.field === 'siteId') };
      const owner = this.register.findBySiteId(entry.profileId, siteId);
      if (owner && owner.localId !== entry.localId) {
        return refuse('siteId', `Site ID ${siteId} already belongs to another site in the list (${owner.localId}).`);
      }
      const followers = this.store
        .lane(laneOf(entry))
        .filter((other): other is SiteEntry => other.id !== entry.id && other.kind === 'site' && other.payload.siteId === undefined)
        .map((other) => ({ id: other.id, patch: { payload: { ...other.payload, siteId }, op: 'edit' as const, updatedAt: now } }));
      await this.store.update([
        { id: entry.id, patch: { state: 'done', resultSiteId: siteId, result: `Confirmed by the user: the service created site ${siteId}.`, updatedAt: now, nextAttemptAt: null } },
        ...followers,
      ]);
    } else {
      await this.store.update([{ id: entry.id, patch: { state: 'done', result: 'Confirmed by the user: the service applied it.', updatedAt: now, nextAttemptAt: null } }]);
    }
    this.engine.kick();
    return { ok: true, value: entryView(this.store.get(entry.id)!) };
  }

  private async editEntry(id: string, input: SiteEditInput | EusReprocessInput): Promise<Outcome<OutboxEntryView>> {
    const found = this.entryOrIssue(id);
    if ('ok' in found) return found;
    const entry = found;
    if (entry.state === 'sending' || entry.state === 'done' || entry.state === 'needs-review') {
      const why =
        entry.state === 'needs-review'
          ? 'it may already have been applied: confirm it or send it again first'
          : entry.state === 'sending'
            ? 'it is being sent right now'
            : 'it is already done';
      return refuse('id', `Entry ${entry.id} cannot be edited: ${why}.`);
    }
    const now = (this.options.clock ?? systemClock).now();
    if (entry.kind === 'site') {
      const given = input as SiteEditInput;
      const siteId = entry.payload.siteId;
      const checked = parseSiteEdit({ ...given, siteId: entry.op === 'create' ? undefined : (siteId ?? PENDING_ID) });
      if (!checked.ok) return { ok: false, issues: checked.issues };
      const payload: SiteEdit = { ...checked.value };
      if (siteId === undefined) delete payload.siteId;
      await this.store.update([{ id: entry.id, patch: { payload, state: 'pending', attempts: 0, nextAttemptAt: null, problem: null, updatedAt: now } }]);
    } else {
      const checked = parseEusReprocess(input as EusReprocessInput);
      if (!checked.ok) return { ok: false, issues: checked.issues };
      await this.store.update([{ id: entry.id, patch: { payload: checked.value, state: 'pending', attempts: 0, nextAttemptAt: null, problem: null, updatedAt: now } }]);
    }
    if (entry.state === 'paused' && this.store.pauseOf(entry.profileId)) await this.engine.resume(entry.profileId);
    this.engine.kick();
    return { ok: true, value: entryView(this.store.get(entry.id)!) };
  }

  // ---------- rendering qualities ----------

  async renderingQualities(options: { refresh?: boolean } = {}): Promise<RenderingQualitiesView> {
    const profileId = this.activeId;
    const cached = await this.qualities.get(profileId);
    if (!options.refresh && cached) return { items: cached.items, fetchedAt: cached.fetchedAt, fromCache: true, problem: null };
    let problem: Problem;
    try {
      const client = await this.clientFor(profileId);
      const result = await client.listRenderingQualities();
      if (result.ok) {
        const fetchedAt = new Date((this.options.clock ?? systemClock).now()).toISOString();
        await this.qualities.put(profileId, { items: result.value, fetchedAt });
        return { items: result.value, fetchedAt, fromCache: false, problem: null };
      }
      problem = this.scrub(problemOf(result.error), profileId);
    } catch (error) {
      problem = {
        kind: 'network',
        message: `The service could not be asked: ${describe(error)}`,
        detail: describe(error),
        retryable: true,
        quotaExhausted: false,
        authRejected: false,
        mayHaveBeenApplied: false,
      };
    }
    return { items: cached?.items ?? [], fetchedAt: cached?.fetchedAt ?? null, fromCache: cached !== null, problem };
  }

  // ---------- status and events ----------

  private status(): SyncStatus {
    return toSyncStatus(this.engine.status(), this.activeId);
  }

  private summary(result: SettleResult): SettleSummary {
    return { blocked: result.blocked, status: toSyncStatus(result.status, this.activeId), counts: { ...this.store.countsOf(this.activeId) } };
  }

  /**
   * Folds entries that just became done into the register, in the same turn as the outbox changed
   * in memory, so a site is never shown synced without its service ID. (The register's own write
   * may land on disk before or after the outbox's; reconcileRegister repairs either order.)
   */
  private foldIntoRegister(changes: OutboxChange[]): void {
    const folded = new Map<string, SiteRecord>();
    for (const { entry, previous } of changes) {
      if (entry.kind !== 'site' || entry.state !== 'done' || previous?.state === 'done') continue;
      const record = folded.get(entry.localId) ?? this.register.get(entry.localId);
      const next = record ? foldDone(record, entry, (this.options.clock ?? systemClock).now()) : null;
      if (next) folded.set(entry.localId, next);
    }
    if (folded.size > 0) this.register.put([...folded.values()]).catch((error: unknown) => this.reportProblem(error));
  }

  /** Tells listeners what changed, once it is on disk. */
  private onOutboxChange(changes: OutboxChange[], removed: OutboxEntry[]): void {
    const touched = new Set<string>();
    // Views cost something for 10,000 entries: build them only for someone listening.
    const tellEntries = this.events.listenerCount('outbox') > 0;
    const tellSites = this.events.listenerCount('site') > 0;
    for (const { entry } of changes) {
      if (tellEntries) this.events.emit('outbox', entryView(entry));
      if (entry.kind === 'site') touched.add(entry.localId);
    }
    for (const entry of removed) {
      this.events.emit('outbox-removed', { entryId: entry.id });
      if (entry.kind === 'site') touched.add(entry.localId);
    }
    if (tellSites) {
      for (const localId of touched) {
        const record = this.register.get(localId);
        if (record) this.events.emit('site', this.viewOf(record));
      }
    }
    this.engine.refreshStatus();
  }

  private reportProblem(error: unknown): void {
    const message = describe(error);
    this.options.log?.(message);
    this.events.emit('problem', { message, detail: error instanceof Error ? (error.stack ?? message) : message });
  }

  /** Makes the register agree with the outbox after a crash between their writes. */
  private async reconcileRegister(): Promise<void> {
    const changed = new Map<string, SiteRecord>();
    for (const entry of this.store.list()) {
      if (entry.kind !== 'site') continue;
      let record = changed.get(entry.localId) ?? this.register.get(entry.localId);
      if (!record) {
        record = {
          localId: entry.localId,
          profileId: entry.profileId,
          siteId: entry.op === 'edit' ? (entry.payload.siteId ?? null) : null,
          origin: entry.op === 'create' ? 'created' : 'imported',
          known: {},
          appliedSeq: 0,
          createdAt: entry.createdAt,
          updatedAt: entry.updatedAt,
        };
        changed.set(entry.localId, record);
      }
      if (entry.state === 'done') {
        const next = foldDone(record, entry, entry.updatedAt);
        if (next) changed.set(entry.localId, next);
      }
    }
    if (changed.size > 0) await this.register.put([...changed.values()]);
  }
}

// ---------- helpers ----------

/** The record with a done entry folded into what the service is known to hold; null if already folded. */
function foldDone(record: SiteRecord, entry: SiteEntry, now: number): SiteRecord | null {
  if (entry.seq <= record.appliedSeq) return null;
  const known: SiteFields = { ...record.known };
  overlay(known, entry);
  const siteId = entry.op === 'create' ? (entry.resultSiteId ?? record.siteId) : (record.siteId ?? entry.payload.siteId ?? null);
  return { ...record, known, siteId, appliedSeq: entry.seq, updatedAt: now };
}

function lastDoneAt(store: OutboxStore): number | null {
  let last: number | null = null;
  for (const entry of store.list()) {
    if (entry.state === 'done' && (last === null || entry.updatedAt > last)) last = entry.updatedAt;
  }
  return last;
}

export function entryView(entry: OutboxEntry): OutboxEntryView {
  const view: OutboxEntryView = {
    id: entry.id,
    kind: entry.kind,
    state: entry.state,
    profileId: entry.profileId,
    summary: summarize(entry),
    payload: { ...entry.payload } as Record<string, unknown>,
    attempts: entry.attempts,
    createdAt: new Date(entry.createdAt).toISOString(),
    updatedAt: new Date(entry.updatedAt).toISOString(),
    nextAttemptAt: entry.nextAttemptAt === null ? null : new Date(entry.nextAttemptAt).toISOString(),
    result: entry.result,
    problem: entry.problem,
  };
  if (entry.kind === 'site') {
    view.localId = entry.localId;
    view.op = entry.op;
    view.siteId = entry.op === 'create' ? entry.resultSiteId : (entry.payload.siteId ?? null);
  }
  return view;
}

function toSyncStatus(status: EngineStatus, activeProfileId: string): SyncStatus {
  return {
    online: status.online,
    syncing: status.syncing,
    paused: status.paused ? { reason: status.paused.reason, message: status.paused.message, since: new Date(status.paused.since).toISOString() } : null,
    blocked: status.blocked,
    pendingCount: status.pendingCount,
    sendingCount: status.sendingCount,
    attentionCount: status.attentionCount,
    lastSyncAt: status.lastSyncAt === null ? null : new Date(status.lastSyncAt).toISOString(),
    activeProfileId,
  };
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Scheme, host and port of a base URL: what decides where a key is sent. */
function serviceOrigin(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl.trim().toLowerCase();
  }
}

/**
 * Runs `wait` with the process held open. The engine's retry and probe timers do not keep a process
 * alive (an app must be able to quit), so a CLI waiting for the queue to settle while the only thing
 * left is a backoff timer would see Node exit under it, silently.
 */
async function keepingProcessAlive<T>(wait: () => Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, 60_000);
  try {
    return await wait();
  } finally {
    clearInterval(hold);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type { EusReprocess, SiteEdit };
