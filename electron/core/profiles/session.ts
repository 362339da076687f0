// The 'session-only' secret store: keys in this process's memory, gone when it ends. The fallback
// when no OS keyring or safeStorage can keep a key safely, and the home of public demo keys.
import type { SecretStore } from './secret-store';

export function createSessionSecretStore(): SecretStore {
  const keys = new Map<string, string>();
  return {
    kind: 'session-only',
    async get(profileId) {
      return keys.get(profileId) ?? null;
    },
    async set(profileId, key) {
      keys.set(profileId, key);
    },
    async delete(profileId) {
      keys.delete(profileId);
    },
    async has(profileId) {
      return keys.has(profileId);
    },
  };
}
