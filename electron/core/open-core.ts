// The composition root: opens the data folder's database (shared with any other Sitewalk process on
// the same folder), the stores and the key store, wires the services — profiles, service access,
// sites, outbox actions, qualities — around one sync engine, and presents them as the SitewalkCore
// the hosts and the CLI use. It holds no logic of its own beyond start-up, events, following the
// other processes' changes, and close. The clock is resolved here once and handed to everything.
// The app's own services on top of a core (settings, bulk runs, GPS, basemaps, area downloads) are
// composed by host-services.ts (openHostServices, exported from here): the hosts have them, the CLI not.
import { resolve as resolvePath } from 'node:path';
import { describeError } from '../shared/result';
import { ServiceAccess } from './access/service-access';
import { systemClock, type Clock } from './clock';
import { TypedEvents } from './events';
import { OutboxActions } from './outbox/actions';
import { SyncEngine, type SettleResult } from './outbox/engine';
import { DEFAULT_PROBE, DEFAULT_RETRY } from './outbox/policy';
import { HistoryExpiry } from './outbox/history-expiry';
import { OutboxStore } from './outbox/store';
import { relayOutboxChanges } from './outbox-events';
import { lastDonePerProfile, syncControl, toSyncStatus } from './sync-status';
import { confStoreFactory, fileCached, memoryCached, type KeyValueStore } from './profiles/kv';
import { ProfileBook, SANDBOX_PROFILE_ID, sandboxProfile, type Profile } from './profiles/profiles';
import { SandboxRunner } from './profiles/sandbox';
import { chooseSecretStore, LayeredSecretStore, type SecretStoreKind } from './profiles/secrets';
import { ProfileService } from './profiles/service';
import { QualitiesCache } from './qualities/cache';
import { QualitiesService } from './qualities/service';
import { Revisions } from './revisions';
import { adoptSandboxSites, foldDone } from './sites/fold';
import { SiteRegister } from './sites/register';
import { SiteService } from './sites/service';
import { ensureDataDir } from './storage/data-dir';
import { openFolderDatabase } from './storage/open-folder';
import { BEAT_EVERY_MS, Peers } from './storage/peers';
import { writeMarker, writeMarkerSync, type Marker } from './storage/marker';
import { UnsentSites } from './unsent-sites';
import type { SitewalkDb } from './storage/database';
import type { StoredProblem } from './storage/problems';
import type { CoreEvents, CoreOptions, SettleSummary, SitewalkCore, StorageStats, SyncStatus } from './sitewalk-core';

export type * from './sitewalk-core';
export type * from './host-services';
export { openHostServices } from './host-services';
export type { SiteView, SyncState } from './sites/view';
export type { Problem, OutboxState } from './outbox/types';
export type { SecretStore, SecretStoreKind } from './profiles/secrets';
export type { KeyValueStore, KvStoreFactory } from './profiles/kv';
export type { Blocked } from './outbox/engine';
export type { StoredProblem } from './storage/problems';
export type { ProfileInput } from '../shared/validation/profile';
export type { EusReprocess, SiteEdit } from './service/types';
export { SANDBOX_PROFILE_ID } from './profiles/profiles';
export { entryView } from './outbox/views';

/** How often the core looks for other processes' changes to the folder (PRAGMA data_version: cheap). */
const POLL_EVERY_MS = 500;
/** The folder's marker (storage/marker.ts) is rewritten at most this often while things change. */
const MARK_EVERY_MS = 3_000;

export async function openCore(options: CoreOptions): Promise<SitewalkCore> {
  const dataDir = resolvePath(options.dataDir);
  // Created 0700 whatever the umask; an existing folder others can read is said, not changed.
  const { warning } = ensureDataDir(dataDir);
  return Core.open(dataDir, options, warning);
}

interface Opened {
  db: SitewalkDb;
  peers: Peers;
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
  private readonly profileBook: ProfileBook;
  private readonly db: SitewalkDb;
  private readonly peers: Peers;
  private readonly expiry: HistoryExpiry;
  private readonly unsent: UnsentSites;
  private closing: Promise<void> | null = null;
  /** Follows the other processes' changes and beats this process's heart (see follow()). */
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private lastBeat = 0;
  private marked = { revision: -1, at: 0, writing: false };

  private constructor(
    readonly dataDir: string,
    private readonly options: CoreOptions,
    opened: Opened,
  ) {
    ({ db: this.db, peers: this.peers, store: this.store, register: this.register, secrets: this.secrets, settings: this.settings } = opened);
    this.keyStoreNotice = opened.notice;
    this.journalProblems = opened.problems;
    this.clock = options.clock ?? systemClock;
    const log = (this.log = options.log ?? (() => undefined));
    const events = (this.events = new TypedEvents<CoreEvents>((error, event) => log(`a listener of "${event}" failed: ${describeError(error)}`)));
    const { store, register, clock } = this;
    const now = () => clock.now();

    const starter = options.sandbox === false ? null : options.sandbox;
    // Whenever the built-in sandbox starts, its account's sites join the Sandbox profile's register.
    this.sandbox = starter
      ? new SandboxRunner(dataDir, async (startOptions) => {
          const handle = await starter(startOptions);
          await adoptSandboxSites(register, SANDBOX_PROFILE_ID, handle, now()).then(
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
      ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
      activeProfile: activeId,
      access: this.access,
      onStatus: () => events.emit('status', this.status()),
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
      qualities: new QualitiesCache(this.db),
      events,
      log,
      status: () => this.status(),
      warmSandbox: () => this.warmSandbox(),
    });
    this.siteService = new SiteService({ store, register, engine, events, clock, activeId });
    this.actions = new OutboxActions({ store, register, engine, events, clock, activeId }, options.autoSync !== false);
    this.qualities = new QualitiesService(new QualitiesCache(this.db), this.access, clock);
    this.profiles = this.profileService.profiles;
    this.sites = this.siteService.sites;
    this.outbox = this.actions.outbox;
    this.sync = { ...syncControl(engine, store, activeId, () => this.status(), (result) => this.summary(result)), otherSender: () => this.peers.otherSender() };
    this.expiry = new HistoryExpiry(store, clock, log);
    this.unsent = new UnsentSites(store, register);
    // A result and the register's record of it commit in one transaction.
    store.onApplied((changes) => foldDone(register, changes, now()));
    store.subscribe(relayOutboxChanges({ events, store, register, engine, siteView: (record) => this.siteService.viewOf(record) }));
    // What another process queued may be ours to send (the app sends what the CLI queued).
    store.subscribe(() => engine.kick());
    register.onUnreadable((problem) => {
      this.journalProblems.push(problem);
      log(`data folder: ${problem.message}`);
      events.emit('status', this.status());
    });
    register.subscribe((changed, removed) => {
      for (const record of changed) events.emit('site', this.siteService.viewOf(record));
      for (const localId of removed) events.emit('site-removed', { localId, revision: register.revisionOf(localId) });
    });
  }

  static async open(dataDir: string, options: CoreOptions, folderWarning: string | null): Promise<Core> {
    const clock = options.clock ?? systemClock;
    const choice = options.secretStore ? { store: options.secretStore, fallbackReason: null } : await chooseSecretStore();
    const factory = options.kvStoreFactory ?? confStoreFactory(dataDir);
    const { db, problems } = await openFolderDatabase(dataDir, clock.now());
    let core: Core;
    try {
      // Real time, whatever the core's clock: heartbeats are about processes, not the test's timeline.
      const peers = new Peers(db, () => Date.now(), options.autoSync !== false);
      peers.join();
      // One revision counter for entries and sites, kept in the database: a site's view depends on both.
      const revisions = new Revisions(db);
      const { store } = await OutboxStore.open({ db, dataDir, clock, revisions, processId: peers.id });
      // Rows no Sitewalk writes are set aside and said; the rest of the register opens.
      const { register, problems: unreadable } = await SiteRegister.open({ db, dataDir, clock, revisions });
      core = new Core(dataDir, options, {
        db,
        peers,
        store,
        register,
        secrets: new LayeredSecretStore(choice.store),
        notice: choice.fallbackReason,
        // Preferences: written by this process alone, read often: from memory after the first read.
        settings: memoryCached(factory('settings')),
        // Profiles: written by the CLI too; from memory while their file is unchanged.
        profilesKv: fileCached(factory('profiles')),
        problems: [...problems, ...unreadable, ...(folderWarning ? [{ kind: 'warning' as const, message: folderWarning }] : [])],
      });
    } catch (error) {
      db.close();
      throw error;
    }
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
    // A process that died mid-call left entries 'sending': decided now, before anything is sent
    // (entries another running Sitewalk is sending stay its own).
    const recovered = await this.store.recoverInterrupted((claimedBy) => this.peers.isDead(claimedBy));
    if (recovered.length > 0) this.log(`outbox: ${recovered.length} request(s) were interrupted by the last shutdown and have been re-queued or set for review.`);
    const orphans = new Map<string, number>();
    for (const [, lane] of this.store.laneEntries()) {
      for (const entry of lane) if (this.profileBook.get(entry.profileId) === null) orphans.set(entry.profileId, (orphans.get(entry.profileId) ?? 0) + 1);
    }
    for (const [profileId, count] of orphans) {
      const message = `${count} queued request(s) belong to the profile "${profileId}", which Sitewalk no longer has (profiles.json may be missing or damaged): they are kept and not sent. Restore profiles.json from a backup to send them.`;
      this.journalProblems.push({ kind: 'damage', message });
      this.log(`data folder: ${message}`);
    }
    await this.access.refreshKeyKnown(this.profileService.activeId);
    // History past the days kept goes at open and hourly, not only when the folder is closed.
    this.expiry.start();
    this.follow();
    if (this.options.autoSync !== false) {
      this.engine.start();
      // An app on the Sandbox profile has something to show at once; the CLI starts it on need.
      if (this.profileService.isBuiltIn(this.profileService.activeId)) this.warmSandbox();
    }
  }

  /**
   * Follows the other Sitewalk processes on this folder: their committed changes are read in (and
   * told as events) within POLL_EVERY_MS, this process's heartbeat is kept, and an entry claimed by
   * a process that has died is taken back and treated as interrupted.
   */
  private follow(): void {
    this.pollTimer = setInterval(() => {
      try {
        this.db.poll();
        const now = Date.now();
        if (!this.marked.writing && this.db.revision !== this.marked.revision && now - this.marked.at >= MARK_EVERY_MS) {
          const marker = this.marker(now);
          this.marked = { revision: marker.revision, at: now, writing: true };
          writeMarker(this.dataDir, marker).then(
            () => (this.marked.writing = false),
            (error: unknown) => {
              this.marked.writing = false;
              this.log(`data folder: its marker could not be written (${describeError(error)}).`);
            },
          );
        }
        if (now - this.lastBeat < BEAT_EVERY_MS) return;
        this.lastBeat = now;
        this.peers.beat();
        const claims = this.store.claimsOfOthers();
        if (claims.some((claim) => this.peers.isDead(claim.claimedBy))) {
          void this.store.recoverInterrupted((claimedBy) => this.peers.isDead(claimedBy)).then(
            (entries) => entries.length > 0 && this.log(`outbox: ${entries.length} request(s) left by a Sitewalk that stopped were taken back.`),
            (error: unknown) => this.reportProblem(error),
          );
        }
      } catch (error) {
        this.reportProblem(error);
      }
    }, POLL_EVERY_MS);
    this.pollTimer.unref?.();
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

  /** What the folder's marker records now: the revision reached and what waits to be sent. */
  private marker(now: number): Marker {
    return { revision: this.db.revision, ...this.unsent.now(), at: now };
  }

  storage(): StorageStats {
    return { commits: this.store.writeStats.commits, databaseBytes: this.db.sizeOnDisk() };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.pollTimer) clearInterval(this.pollTimer);
      this.pollTimer = null;
      await this.engine.stop();
      await this.sandbox?.close().catch(() => undefined);
      this.access.clear();
      this.expiry.stop();
      this.expiry.runNow();
      this.peers.leave();
      try {
        writeMarkerSync(this.dataDir, this.marker(Date.now()));
      } catch (error) {
        this.log(`data folder: its marker could not be written (${describeError(error)}).`);
      }
      this.db.close();
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
