// The composition root: opens the data folder (locked to one process), the stores and the key store,
// wires the services — profiles, service access, sites, outbox actions, qualities, register
// reconciliation — around one sync engine, and presents them as the SitewalkCore the hosts and the
// CLI use. It holds no logic of its own beyond start-up, events and close. The clock is resolved
// here once and handed to everything.
import { resolve as resolvePath } from 'node:path';
import { describeError } from '../shared/result';
import { ServiceAccess } from './access/service-access';
import { systemClock, type Clock } from './clock';
import { TypedEvents } from './events';
import { OutboxActions } from './outbox/actions';
import { SyncEngine, type SettleResult } from './outbox/engine';
import { DEFAULT_PROBE, DEFAULT_RETRY } from './outbox/policy';
import { OutboxStore } from './outbox/store';
import { relayOutboxChanges } from './outbox-events';
import { lastDonePerProfile, syncControl, toSyncStatus } from './sync-status';
import { confStoreFactory, type KeyValueStore } from './profiles/kv';
import { ProfileBook, SANDBOX_PROFILE_ID, sandboxProfile, type Profile } from './profiles/profiles';
import { SandboxRunner } from './profiles/sandbox';
import { chooseSecretStore, LayeredSecretStore, type SecretStoreKind } from './profiles/secrets';
import { ProfileService } from './profiles/service';
import { QualitiesCache } from './qualities/cache';
import { QualitiesService } from './qualities/service';
import { Revisions } from './revisions';
import { RegisterReconciler } from './sites/reconcile';
import { SiteRegister } from './sites/register';
import { SiteService } from './sites/service';
import { ensureDataDir } from './storage/data-dir';
import { lockDataDir, type DataDirLock } from './storage/lock';
import type { StoredProblem } from './storage/records';
import type { CoreEvents, CoreOptions, SettleSummary, SitewalkCore, StorageStats, SyncStatus } from './sitewalk-core';

export type * from './sitewalk-core';
export type { SiteView, SyncState } from './sites/view';
export type { Problem, OutboxState } from './outbox/types';
export type { SecretStore, SecretStoreKind } from './profiles/secrets';
export type { KeyValueStore, KvStoreFactory } from './profiles/kv';
export type { Blocked } from './outbox/engine';
export type { JournalProblem } from './storage/journal';
export type { ProfileInput } from '../shared/validation/profile';
export type { EusReprocess, SiteEdit } from './service/types';
export { SANDBOX_PROFILE_ID } from './profiles/profiles';
export { entryView } from './outbox/views';

/** How long the queue must stay quiet before the journals are checked for waste. */
const SETTLED_COMPACTION_DELAY_MS = 5_000;

export async function openCore(options: CoreOptions): Promise<SitewalkCore> {
  const dataDir = resolvePath(options.dataDir);
  // Created 0700 whatever the umask; an existing folder others can read is said, not changed.
  const { warning } = ensureDataDir(dataDir);
  const lock = await lockDataDir(dataDir);
  try {
    return await Core.open(dataDir, options, lock, warning);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

interface Opened {
  store: OutboxStore;
  register: SiteRegister;
  secrets: LayeredSecretStore;
  notice: string | null;
  settings: KeyValueStore;
  profilesKv: KeyValueStore;
  problems: StoredProblem[];
}

class Core implements SitewalkCore {
  readonly profiles: SitewalkCore['profiles'];
  readonly sites: SitewalkCore['sites'];
  readonly outbox: SitewalkCore['outbox'];
  readonly sync: SitewalkCore['sync'];
  readonly settings: KeyValueStore;
  readonly keyStoreNotice: string | null;
  readonly journalProblems: StoredProblem[];

  private readonly clock: Clock;
  private readonly log: (line: string) => void;
  private readonly events: TypedEvents<CoreEvents>;
  private readonly store: OutboxStore;
  private readonly register: SiteRegister;
  private readonly secrets: LayeredSecretStore;
  private readonly sandbox: SandboxRunner | null;
  private readonly access: ServiceAccess;
  private readonly engine: SyncEngine;
  private readonly profileService: ProfileService;
  private readonly siteService: SiteService;
  private readonly actions: OutboxActions;
  private readonly qualities: QualitiesService;
  private readonly reconciler: RegisterReconciler;
  private readonly profileBook: ProfileBook;
  private closing: Promise<void> | null = null;
  /** A settled-compaction check waiting for the queue to stay quiet (see compactWhenSettled). */
  private settleTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    readonly dataDir: string,
    private readonly options: CoreOptions,
    private readonly lock: DataDirLock,
    opened: Opened,
  ) {
    ({ store: this.store, register: this.register, secrets: this.secrets, settings: this.settings } = opened);
    this.keyStoreNotice = opened.notice;
    this.journalProblems = opened.problems;
    this.clock = options.clock ?? systemClock;
    const log = (this.log = options.log ?? (() => undefined));
    const events = (this.events = new TypedEvents<CoreEvents>((error, event) => log(`a listener of "${event}" failed: ${describeError(error)}`)));
    const { store, register, clock } = this;
    const now = () => clock.now();

    this.reconciler = new RegisterReconciler(store, register, now, (error) => this.reportProblem(error));
    const starter = options.sandbox === false ? null : options.sandbox;
    // Whenever the built-in sandbox starts, its account's sites join the Sandbox profile's register.
    this.sandbox = starter
      ? new SandboxRunner(dataDir, async (startOptions) => {
          const handle = await starter(startOptions);
          await this.reconciler.adoptSandboxSites(SANDBOX_PROFILE_ID, handle).then(
            (records) => records.forEach((record) => events.emit('site', this.siteService.viewOf(record))),
            (error: unknown) => events.emit('problem', { message: 'The sandbox\'s sites could not be added to the site list.', detail: describeError(error) }),
          );
          return handle;
        })
      : null;
    const book = (this.profileBook = new ProfileBook(opened.profilesKv, () => this.sandboxProfileNow()));
    this.access = new ServiceAccess({ book, secrets: this.secrets, sandbox: this.sandbox, fetch: options.fetch, timeoutMs: options.timeoutMs, log });
    const activeId = () => this.profileService.activeId;
    this.engine = new SyncEngine({
      store,
      clock,
      random: options.random ?? Math.random,
      concurrency: options.concurrency ?? 4,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      probe: { ...DEFAULT_PROBE, ...options.probe },
      ...(options.checkEveryMs !== undefined ? { checkEveryMs: options.checkEveryMs } : {}),
      activeProfile: activeId,
      access: this.access,
      onStatus: (status) => {
        events.emit('status', this.status());
        if (!status.syncing) this.compactWhenSettled(SETTLED_COMPACTION_DELAY_MS);
      },
      log,
      initialContact: lastDonePerProfile(store),
    });
    const engine = this.engine;
    this.profileService = new ProfileService({
      book,
      secrets: this.secrets,
      access: this.access,
      engine,
      store,
      register,
      qualities: new QualitiesCache(dataDir),
      events,
      log,
      status: () => this.status(),
      warmSandbox: () => this.warmSandbox(),
    });
    this.siteService = new SiteService({ store, register, engine, events, clock, activeId });
    this.actions = new OutboxActions({ store, register, engine, events, clock, activeId });
    this.qualities = new QualitiesService(new QualitiesCache(dataDir), this.access, clock);
    this.profiles = this.profileService.profiles;
    this.sites = this.siteService.sites;
    this.outbox = this.actions.outbox;
    this.sync = syncControl(engine, store, activeId, () => this.status(), (result) => this.summary(result));
    store.onApplied((changes) => this.reconciler.foldDone(changes));
    store.subscribe(relayOutboxChanges({ events, store, register, engine, siteView: (record) => this.siteService.viewOf(record) }));
  }

  static async open(dataDir: string, options: CoreOptions, lock: DataDirLock, folderWarning: string | null): Promise<Core> {
    const clock = options.clock ?? systemClock;
    const choice = options.secretStore ? { store: options.secretStore, fallbackReason: null } : await chooseSecretStore();
    const factory = options.kvStoreFactory ?? confStoreFactory(dataDir);
    // One revision counter for entries and sites: a site's view depends on both stores.
    const revisions = new Revisions();
    const opened = await OutboxStore.open({ dataDir, clock, revisions });
    let registerOpened: Awaited<ReturnType<typeof SiteRegister.open>>;
    try {
      registerOpened = await SiteRegister.open({ dataDir, clock, revisions });
    } catch (error) {
      await opened.store.close();
      throw error;
    }
    const core = new Core(dataDir, options, lock, {
      store: opened.store,
      register: registerOpened.register,
      secrets: new LayeredSecretStore(choice.store),
      notice: choice.fallbackReason,
      settings: factory('settings'),
      profilesKv: factory('profiles'),
      problems: [...opened.problems, ...registerOpened.problems, ...(folderWarning ? [{ kind: 'damage' as const, message: folderWarning }] : [])],
    });
    try {
      await core.startUp();
    } catch (error) {
      await core.close().catch(() => undefined);
      throw error;
    }
    return core;
  }

  private async startUp(): Promise<void> {
    for (const problem of this.journalProblems) this.log(`data folder: ${problem.message}`);
    // A process that died mid-call left entries 'sending'. Those whose answer the register already
    // recorded are done; the rest are decided now, before anything is sent.
    await this.reconciler.recoverDoneEntries((entry) => entry.state === 'sending');
    const recovered = await this.store.recoverInterrupted();
    if (recovered.length > 0) this.log(`outbox: ${recovered.length} request(s) were interrupted by the last shutdown and have been re-queued or set for review.`);
    const book = this.profileBook;
    for (const message of await this.reconciler.reconcile((profileId) => book.get(profileId) !== null)) {
      this.journalProblems.push({ kind: 'damage', message });
      this.log(`data folder: ${message}`);
    }
    await this.access.refreshKeyKnown(this.profileService.activeId);
    // A folder left bloated (by an older version, or a run that ended mid-sync) is compacted once the
    // app has started and shown its sites, not before.
    this.compactWhenSettled(SETTLED_COMPACTION_DELAY_MS);
    if (this.options.autoSync !== false) {
      this.engine.start();
      // An app on the Sandbox profile has something to show at once; the CLI starts it on need.
      if (this.profileService.isBuiltIn(this.profileService.activeId)) this.warmSandbox();
    }
  }

  /** Starts the built-in sandbox in the background (apps only); a failure is told, not thrown. */
  private warmSandbox(): void {
    if (this.options.autoSync === false) return;
    this.sandbox?.ensure().then(
      () => this.profileService.emitProfiles(),
      (error: unknown) => this.events.emit('problem', { message: 'The built-in sandbox could not start.', detail: describeError(error) }),
    );
  }

  private sandboxProfileNow(): Profile {
    const running = this.sandbox?.running;
    return sandboxProfile(running ? { baseUrl: running.url, servicePath: running.servicePath, namespace: running.namespace, account: running.demo.account } : undefined);
  }

  reprocess: SitewalkCore['reprocess'] = (input, options) => this.actions.reprocess(input, options);
  reprocessMany: SitewalkCore['reprocessMany'] = (inputs, options) => this.actions.reprocessMany(inputs, options);
  recentEmails: SitewalkCore['recentEmails'] = (processIds) => this.actions.recentEmails(processIds);

  renderingQualities(options: { refresh?: boolean } = {}): ReturnType<SitewalkCore['renderingQualities']> {
    return this.qualities.list(this.profileService.activeId, options);
  }

  on<K extends keyof CoreEvents>(event: K, listener: (payload: CoreEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  get keyStoreKind(): SecretStoreKind {
    return this.secrets.kind;
  }

  storage(): StorageStats {
    const outbox = this.store.journalStats;
    const register = this.register.journalStats;
    return { bytesWritten: outbox.bytesWritten + register.bytesWritten, outboxSyncs: outbox.syncs, outboxFileBytes: outbox.size, registerFileBytes: register.size };
  }

  /**
   * Once the queue has been quiet for `delayMs` (a sync settled, an import's batch was sent, or the
   * app just opened a folder an older version left), compacts the journals that hold much more than
   * their live records, so the next start reads each site and entry once. A new sync pass meanwhile
   * pushes it back; close() runs a pending one before the journals shut.
   */
  private compactWhenSettled(delayMs: number): void {
    if (this.closing) return;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.engine.status().syncing) return;
      void this.compactBloated();
    }, delayMs);
    this.settleTimer.unref?.();
  }

  private async compactBloated(): Promise<void> {
    // One after the other: each rewrite holds a snapshot of its store in memory while it runs.
    await this.store.compactIfBloated().catch((error: unknown) => this.log(`outbox: compaction failed (${describeError(error)}); the journal is unchanged.`));
    await this.register.compactIfBloated().catch((error: unknown) => this.log(`site list: compaction failed (${describeError(error)}); the journal is unchanged.`));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const settling = this.settleTimer !== null;
      if (this.settleTimer) clearTimeout(this.settleTimer);
      this.settleTimer = null;
      await this.engine.stop();
      if (settling) await this.compactBloated();
      await this.store.close().catch(() => undefined);
      await this.register.close().catch(() => undefined);
      await this.sandbox?.close().catch(() => undefined);
      this.access.clear();
      await this.lock.release();
    })();
    return this.closing;
  }

  // ---------- status and events ----------

  private status(): SyncStatus {
    return toSyncStatus(this.engine.status(), this.profileService.activeId, this.journalProblems);
  }

  private summary(result: SettleResult): SettleSummary {
    const activeId = this.profileService.activeId;
    return { blocked: result.blocked, status: toSyncStatus(result.status, activeId, this.journalProblems), counts: { ...this.store.countsOf(activeId) } };
  }

  private reportProblem(error: unknown): void {
    const message = describeError(error);
    this.log(message);
    this.events.emit('problem', { message, detail: error instanceof Error ? (error.stack ?? message) : message });
  }
}
