// Where API keys live. A SecretStore keeps one key per profile ID and says what kind of place it
// is, because the UI must show it: 'safe-storage' (Electron's safeStorage: encrypted with a secret
// the OS keeps, blobs persisted through the host — see electron/main/safe-storage.ts), 'os-keyring'
// (Secret Service / Keychain / Credential Manager, through @napi-rs/keyring: keyring.ts),
// 'session-only' (memory, forgotten when the app quits: session.ts). Invariants for every kind: the
// key is never written to disk in plain text, never logged, and never handed to anything outside
// the core. This file is the contract only; secrets.ts chooses among the implementations.
//
// Implementing a kind elsewhere (as the Electron host does for 'safe-storage'): encrypt in set(),
// persist only the encrypted blob (through whatever callback or file the host owns), decrypt in
// get(), resolve null for a profile without a key, and make delete() of a missing key a no-op.
// When encryption is not really available (Linux 'basic_text'), do not pretend: fall back to
// os-keyring or session-only with `chooseSecretStore`, which reports the fallback as a value.
import type { KeyStoreKind as SecretStoreKind } from '../../shared/domain';

export type { KeyStoreKind as SecretStoreKind } from '../../shared/domain';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** The profile's key, or null when it has none. */
  get(profileId: string): Promise<string | null>;
  set(profileId: string, key: string): Promise<void>;
  /** Forgets the profile's key; no-op when there is none. */
  delete(profileId: string): Promise<void>;
  has(profileId: string): Promise<boolean>;
}

export interface SecretStoreChoice {
  store: SecretStore;
  /** Why a safer kind was not used, as a sentence for the UI; null when nothing was given up. */
  fallbackReason: string | null;
}

/**
 * A store whose keys for some profiles are held in memory for this run only (the built-in Sandbox's
 * public demo key, a key given through SITEWALK_KEY) in front of the real store for the others.
 * Its kind is the real store's; `kindOf` says where a given profile's key actually is.
 */
export class LayeredSecretStore implements SecretStore {
  private readonly session = new Map<string, string>();

  constructor(readonly base: SecretStore) {}

  get kind(): SecretStoreKind {
    return this.base.kind;
  }

  /** Keeps `key` for `profileId` in memory only, in front of whatever the base store holds. */
  holdForSession(profileId: string, key: string): void {
    this.session.set(profileId, key);
  }

  releaseSession(profileId: string): void {
    this.session.delete(profileId);
  }

  kindOf(profileId: string): SecretStoreKind {
    return this.session.has(profileId) ? 'session-only' : this.base.kind;
  }

  async get(profileId: string): Promise<string | null> {
    return this.session.get(profileId) ?? this.base.get(profileId);
  }

  async set(profileId: string, key: string): Promise<void> {
    this.session.delete(profileId);
    await this.base.set(profileId, key);
  }

  async delete(profileId: string): Promise<void> {
    this.session.delete(profileId);
    await this.base.delete(profileId);
  }

  async has(profileId: string): Promise<boolean> {
    return this.session.has(profileId) || this.base.has(profileId);
  }
}
