// The profile service: the profiles as the user sees them (never a key: hasKey and keyStore only),
// which one is active, and their keys. A key belongs to the service it was given for, so pointing a
// profile at another origin forgets it; a profile with unsent work cannot be removed; fixing a
// profile or its key lifts a pause. "Test connection" (test) goes through service access and says
// what it cost in API calls.
import type { ConnectionTestView, ProfileView } from '../../shared/contract/views';
import { findXmlForbidden } from '../../shared/validation/index';
import { bindingFallbackOf, type ProfileInput } from '../../shared/validation/profile';
import { describeError, ok, refuse, type Result } from '../../shared/result';
import type { ServiceAccess } from '../access/service-access';
import type { TypedEvents } from '../events';
import type { SyncEngine } from '../outbox/engine';
import type { OutboxStore } from '../outbox/store';
import type { QualitiesCache } from '../qualities/cache';
import type { CoreEvents, SitewalkCore } from '../sitewalk-core';
import type { SiteRegister } from '../sites/register';
import { profileSettings, type Profile, type ProfileBook } from './profiles';
import type { LayeredSecretStore } from './secrets';

const KEY_MAX = 1000;

export interface ProfileServiceDeps {
  book: ProfileBook;
  secrets: LayeredSecretStore;
  access: ServiceAccess;
  engine: SyncEngine;
  store: OutboxStore;
  register: SiteRegister;
  qualities: QualitiesCache;
  events: TypedEvents<CoreEvents>;
  log: (line: string) => void;
  /** The status as it is now (emitted when the active profile or its key changes). */
  status: () => CoreEvents['status'];
  /** Starts the built-in sandbox in the background (a new user on the Sandbox profile sees it at once). */
  warmSandbox: () => void;
}

export class ProfileService implements Pick<SitewalkCore, 'profiles'> {
  private current: string;
  readonly profiles: SitewalkCore['profiles'];

  constructor(private readonly deps: ProfileServiceDeps) {
    this.current = deps.book.active().id;
    this.profiles = {
      list: () => this.list(),
      active: () => this.view(this.deps.book.active()),
      get: async (idOrName) => {
        const profile = this.deps.book.resolve(idOrName);
        return profile ? this.view(profile) : null;
      },
      add: (input) => this.add(input),
      update: (id, input) => this.update(id, input),
      remove: (id) => this.remove(id),
      use: (idOrName) => this.use(idOrName),
      setKey: (id, key, keyOptions) => this.setKey(id, key, keyOptions?.sessionOnly ?? false),
      clearKey: (id) => this.clearKey(id),
      test: (idOrName, testOptions) => this.test(idOrName, testOptions ?? {}),
    };
  }

  /** The active profile's ID: whose sites are listed and whose entries are sent. */
  get activeId(): string {
    return this.current;
  }

  isBuiltIn(profileId: string): boolean {
    return this.deps.book.get(profileId)?.builtIn ?? false;
  }

  async emitProfiles(): Promise<void> {
    this.deps.events.emit('profiles', await this.list());
  }

  private async view(profile: Profile): Promise<ProfileView> {
    let hasKey = profile.builtIn;
    if (!profile.builtIn) {
      try {
        hasKey = await this.deps.secrets.has(profile.id);
      } catch {
        hasKey = false;
      }
      this.deps.access.noteHasKey(profile.id, hasKey);
    }
    return {
      id: profile.id,
      ...profileSettings(profile),
      builtIn: profile.builtIn,
      active: profile.id === this.current,
      hasKey,
      keyStore: profile.builtIn ? 'session-only' : this.deps.secrets.kindOf(profile.id),
    };
  }

  private list(): Promise<ProfileView[]> {
    return Promise.all(this.deps.book.list().map((profile) => this.view(profile)));
  }

  private find(idOrName: string): Profile | null {
    return this.deps.book.get(idOrName) ?? this.deps.book.resolve(idOrName);
  }

  private async add(input: ProfileInput): Promise<Result<ProfileView>> {
    const added = this.deps.book.add(input);
    if (!added.ok) return added;
    await this.emitProfiles();
    return ok(await this.view(added.value));
  }

  private async update(id: string, input: ProfileInput): Promise<Result<ProfileView>> {
    const before = this.find(id);
    // The book merges only the text fields given; the fallback switch goes as text, and keeps its
    // stored value when not given (a profile stored before the switch existed reads as on).
    const fallback = input.bindingFallback ?? (before ? bindingFallbackOf(before) : undefined);
    const updated = this.deps.book.update(id, fallback === undefined ? input : { ...input, bindingFallback: String(fallback) });
    if (!updated.ok) return updated;
    // A key belongs to the service it was given for: pointing the profile at another server (or
    // from https to http) forgets it, so an edited address can never carry the key somewhere else.
    if (before && serviceOrigin(before.baseUrl) !== serviceOrigin(updated.value.baseUrl)) {
      await this.deps.secrets.delete(updated.value.id).catch((error: unknown) => this.deps.log(`forgetting the key of "${updated.value.name}" failed: ${describeError(error)}`));
      this.deps.access.keyGone(updated.value.id);
    }
    this.deps.access.forgetClient(id);
    // The user fixed the profile: a pause for a refused key or account is lifted.
    if (this.deps.store.pauseOf(id)) await this.deps.engine.resume(id);
    await this.emitProfiles();
    this.deps.engine.kick();
    return ok(await this.view(updated.value));
  }

  private async test(idOrName: string, options: { everyBinding?: boolean }): Promise<Result<ConnectionTestView>> {
    const profile = this.find(idOrName);
    if (!profile) return refuse('id', `There is no profile "${idOrName}". Run "sitewalk profile list" to see them.`);
    if (!profile.builtIn) await this.deps.access.refreshKeyKnown(profile.id);
    try {
      return ok(await this.deps.access.testConnection(profile.id, options));
    } catch (error) {
      return refuse('id', `The connection of "${profile.name}" could not be tested: ${describeError(error)}`);
    }
  }

  private async remove(id: string): Promise<Result<null>> {
    const profile = this.find(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    const counts = this.deps.store.countsOf(profile.id);
    const unsent = counts.pending + counts.sending + counts.paused + counts.failed + counts['needs-review'];
    if (unsent > 0) {
      return refuse('id', `The profile "${profile.name}" still has ${unsent} unsent request(s) in the outbox; send or discard them first.`);
    }
    const removed = this.deps.book.remove(profile.id);
    if (!removed.ok) return removed;
    await this.deps.secrets.delete(profile.id).catch((error: unknown) => this.deps.log(`removing the key of "${profile.name}" failed: ${describeError(error)}`));
    this.deps.access.keyGone(profile.id, true);
    this.deps.access.forgetClient(profile.id);
    await this.deps.qualities.remove(profile.id);
    const sites = this.deps.register.localIdsOf(profile.id);
    await this.deps.register.remove(sites);
    for (const localId of sites) this.deps.events.emit('site-removed', { localId, revision: this.deps.register.revisionOf(localId) });
    if (this.current === profile.id) await this.switchTo(this.deps.book.active().id);
    await this.emitProfiles();
    return ok(null);
  }

  private async use(idOrName: string): Promise<Result<ProfileView>> {
    const profile = this.deps.book.resolve(idOrName);
    if (!profile) return refuse('profile', `There is no profile "${idOrName}". Run "sitewalk profile list" to see them.`);
    const used = this.deps.book.use(profile.id);
    if (!used.ok) return used;
    await this.switchTo(profile.id);
    await this.emitProfiles();
    if (profile.builtIn) this.deps.warmSandbox();
    return ok(await this.view(profile));
  }

  private async switchTo(profileId: string): Promise<void> {
    if (this.current === profileId) return;
    this.current = profileId;
    await this.deps.access.refreshKeyKnown(profileId);
    this.deps.engine.profileChanged();
    this.deps.events.emit('status', this.deps.status());
  }

  private async setKey(id: string, key: string, sessionOnly: boolean): Promise<Result<ProfileView>> {
    const profile = this.find(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    if (profile.builtIn) return refuse('key', 'The Sandbox profile uses its public demo key; it needs no key of yours.');
    const text = typeof key === 'string' ? key.trim() : '';
    if (text === '') return refuse('key', 'The API key is empty; paste it from the API section of the account settings.');
    if (text.length > KEY_MAX) return refuse('key', `The API key is longer than ${KEY_MAX} characters; check what was pasted.`);
    // The key's characters are never quoted back.
    if (findXmlForbidden(text) || /[\r\n]/.test(text)) return refuse('key', 'The API key contains an invisible control character or a line break; paste it again.');
    if (sessionOnly) this.deps.secrets.holdForSession(profile.id, text);
    else {
      try {
        await this.deps.secrets.set(profile.id, text);
      } catch (error) {
        return refuse('key', `The key could not be stored: ${describeError(error)}`);
      }
    }
    this.deps.access.keySet(profile.id, text);
    // A new key can fix a refused one, not an account out of API calls: a quota pause stays (the CLI
    // sets SITEWALK_KEY on every run, and merely listing the outbox lifted it).
    if (this.deps.store.pauseOf(profile.id)?.reason === 'auth') await this.deps.engine.resume(profile.id);
    await this.emitProfiles();
    this.deps.engine.kick();
    return ok(await this.view(profile));
  }

  private async clearKey(id: string): Promise<Result<ProfileView>> {
    const profile = this.find(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    if (profile.builtIn) return refuse('key', 'The Sandbox profile\'s demo key cannot be removed.');
    try {
      await this.deps.secrets.delete(profile.id);
    } catch (error) {
      return refuse('key', `The key could not be removed: ${describeError(error)}`);
    }
    this.deps.secrets.releaseSession(profile.id);
    this.deps.access.keyGone(profile.id);
    await this.emitProfiles();
    this.deps.events.emit('status', this.deps.status());
    return ok(await this.view(profile));
  }
}

/** Scheme, host and port of a base URL: what decides where a key is sent. */
function serviceOrigin(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl.trim().toLowerCase();
  }
}
