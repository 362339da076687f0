// Profiles: where a profile's calls go (base URL, service path, namespace, binding) and as which
// account. Several can exist, one is active; the built-in "Sandbox" profile always exists, is never
// stored or deleted, and is active on a first run. Stored through a KeyValueStore ("profiles") that
// sees another process's change (the CLI beside the app) at the next call: kv.ts fileCached. Keys are
// not here: they live in the SecretStore, by profile ID.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { BINDINGS, REAL_SERVICE } from '../../shared/domain';
import { refuse, type Result } from '../../shared/result';
import { bindingFallbackOf, parseProfile, SANDBOX_PROFILE_NAME, type ProfileInput, type ProfileSettings } from '../../shared/validation/profile';
import type { KeyValueStore } from './kv';

export const SANDBOX_PROFILE_ID = 'sandbox';

export interface Profile extends ProfileSettings {
  id: string;
  /** The built-in Sandbox profile: its connection is the local sandbox's, known once it runs. */
  builtIn: boolean;
  createdAt: string;
}

const STORE_VERSION = 1;

interface StoredDocument {
  version: number;
  profiles: Profile[];
  activeProfileId: string | null;
}

/** The Sandbox profile as listed before its sandbox has started. */
export function sandboxProfile(connection?: { baseUrl: string; servicePath: string; namespace: string; account: string }): Profile {
  return {
    id: SANDBOX_PROFILE_ID,
    name: SANDBOX_PROFILE_NAME,
    baseUrl: connection?.baseUrl ?? 'http://127.0.0.1',
    servicePath: connection?.servicePath ?? REAL_SERVICE.servicePath,
    namespace: connection?.namespace ?? REAL_SERVICE.namespace,
    binding: REAL_SERVICE.binding,
    account: connection?.account ?? '10001',
    builtIn: true,
    createdAt: new Date(0).toISOString(),
  };
}

export class ProfileBook {
  constructor(
    private readonly kv: KeyValueStore,
    /** The Sandbox profile as it is now (its URL is known once the sandbox runs). */
    private readonly sandbox: () => Profile,
  ) {}

  list(): Profile[] {
    return [this.sandbox(), ...this.read().profiles];
  }

  get(id: string): Profile | null {
    return this.list().find((profile) => profile.id === id) ?? null;
  }

  /** By ID, else by name (case-insensitive): what a CLI user types. */
  resolve(idOrName: string): Profile | null {
    const text = idOrName.trim();
    const all = this.list();
    return all.find((profile) => profile.id === text) ?? all.find((profile) => profile.name.toLowerCase() === text.toLowerCase()) ?? null;
  }

  /** The active profile: the one chosen, or the Sandbox when none is (first run) or it was removed. */
  active(): Profile {
    const document = this.read();
    const chosen = document.activeProfileId;
    if (chosen && chosen !== SANDBOX_PROFILE_ID) {
      const found = document.profiles.find((profile) => profile.id === chosen);
      if (found) return found;
    }
    return this.sandbox();
  }

  add(input: ProfileInput): Result<Profile> {
    const document = this.read();
    const parsed = parseProfile(input, { otherNames: document.profiles.map((profile) => profile.name) });
    if (!parsed.ok) return parsed;
    const profile: Profile = { id: newProfileId(document.profiles), ...parsed.value, builtIn: false, createdAt: new Date().toISOString() };
    this.write({ ...document, profiles: [...document.profiles, profile] });
    return { ok: true, value: profile };
  }

  /** Changes the given fields; blank or absent ones keep their value. */
  update(id: string, input: ProfileInput): Result<Profile> {
    if (id === SANDBOX_PROFILE_ID) return refuse('id', 'The built-in Sandbox profile cannot be changed; add a profile of your own instead.');
    const document = this.read();
    const current = document.profiles.find((profile) => profile.id === id);
    if (!current) return refuse('id', `There is no profile "${id}".`);
    const merged: ProfileInput = { ...profileSettings(current) };
    for (const [key, value] of Object.entries(input) as Array<[keyof ProfileInput, unknown]>) {
      if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'boolean') (merged as Record<string, unknown>)[key] = value;
    }
    const parsed = parseProfile(merged, { otherNames: document.profiles.filter((profile) => profile.id !== id).map((profile) => profile.name) });
    if (!parsed.ok) return parsed;
    const updated: Profile = { ...current, ...parsed.value };
    this.write({ ...document, profiles: document.profiles.map((profile) => (profile.id === id ? updated : profile)) });
    return { ok: true, value: updated };
  }

  remove(id: string): Result<Profile> {
    if (id === SANDBOX_PROFILE_ID) return refuse('id', 'The built-in Sandbox profile cannot be removed.');
    const document = this.read();
    const current = document.profiles.find((profile) => profile.id === id);
    if (!current) return refuse('id', `There is no profile "${id}".`);
    this.write({
      ...document,
      profiles: document.profiles.filter((profile) => profile.id !== id),
      activeProfileId: document.activeProfileId === id ? SANDBOX_PROFILE_ID : document.activeProfileId,
    });
    return { ok: true, value: current };
  }

  use(id: string): Result<Profile> {
    const profile = this.get(id);
    if (!profile) return refuse('id', `There is no profile "${id}".`);
    this.write({ ...this.read(), activeProfileId: profile.id });
    return { ok: true, value: profile };
  }

  private read(): StoredDocument {
    const raw = this.kv.get('profiles');
    const activeRaw = this.kv.get('activeProfileId');
    const profiles = Array.isArray(raw) ? raw.filter(isStoredProfile).map((profile) => ({ ...profile, builtIn: false })) : [];
    return { version: STORE_VERSION, profiles, activeProfileId: typeof activeRaw === 'string' ? activeRaw : null };
  }

  private write(document: StoredDocument): void {
    this.kv.set('version', STORE_VERSION);
    this.kv.set('profiles', document.profiles.map(({ builtIn: _builtIn, ...stored }) => stored));
    this.kv.set('activeProfileId', document.activeProfileId);
  }
}

/** Where a profile's calls go and as whom: what the user set (and sees), without ID or key. */
export function profileSettings(profile: Profile): ProfileSettings & { bindingFallback: boolean } {
  return {
    name: profile.name,
    baseUrl: profile.baseUrl,
    servicePath: profile.servicePath,
    namespace: profile.namespace,
    binding: profile.binding,
    account: profile.account,
    bindingFallback: bindingFallbackOf(profile),
  };
}

function newProfileId(existing: readonly Profile[]): string {
  for (;;) {
    const id = `p-${randomBytes(4).toString('hex')}`;
    if (!existing.some((profile) => profile.id === id)) return id;
  }
}

/** A profile as stored (read back parsed, never trusted; one that does not parse is left out). */
const storedProfileSchema = z.looseObject({
  id: z.string().refine((id) => id !== SANDBOX_PROFILE_ID),
  name: z.string(),
  baseUrl: z.string(),
  servicePath: z.string(),
  namespace: z.string(),
  account: z.string(),
  binding: z.enum(BINDINGS),
  bindingFallback: z.boolean().optional(),
});

function isStoredProfile(value: unknown): value is Profile {
  return storedProfileSchema.safeParse(value).success;
}
