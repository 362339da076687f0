// The 'os-keyring' secret store: one credential per profile in the OS keyring (Secret Service on
// Linux, Keychain on macOS, Credential Manager on Windows) through @napi-rs/keyring, service
// "Sitewalk", account = profile ID. On Linux the entry is pinned to the Secret Service: the library
// would otherwise fall back silently to the kernel keyring, which forgets keys at logout — a
// fallback must be visible (secrets.ts), never silent.
import { randomBytes } from 'node:crypto';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import type { SecretStore } from './secret-store';

const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

/** Time limit for one keyring operation: a locked keyring may wait for a password prompt forever. */
const OPERATION_TIMEOUT_MS = 15_000;

function entry(service: string, profileId: string): AsyncEntry {
  return new AsyncEntry(service, profileId, ENTRY_OPTIONS);
}

async function limited<T>(what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(OPERATION_TIMEOUT_MS);
  try {
    return await run(signal);
  } catch (error) {
    // The library's messages name the service and account, never the secret.
    const reason = signal.aborted ? `no answer within ${OPERATION_TIMEOUT_MS / 1000} s (is the keyring locked?)` : describe(error);
    throw new Error(`The OS keyring could not ${what}: ${reason}`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createOsKeyringStore(service: string): SecretStore {
  return {
    kind: 'os-keyring',
    async get(profileId) {
      return limited('read the API key', (signal) => entry(service, profileId).getPassword(signal));
    },
    async set(profileId, key) {
      await limited('store the API key', (signal) => entry(service, profileId).setPassword(key, signal));
    },
    async delete(profileId) {
      await limited('delete the API key', (signal) => entry(service, profileId).deleteCredential(signal));
    },
    async has(profileId) {
      return (await limited('read the API key', (signal) => entry(service, profileId).getPassword(signal))) !== null;
    },
  };
}

/** Writes, reads back and deletes a random value: the only honest test that the keyring works now. */
export async function probeOsKeyring(service: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  const account = `probe-${randomBytes(6).toString('hex')}`;
  const value = randomBytes(12).toString('hex');
  try {
    // Even creating the entry can throw (no D-Bus session at all).
    const probe = entry(service, account);
    const signal = AbortSignal.timeout(OPERATION_TIMEOUT_MS);
    await probe.setPassword(value, signal);
    const back = await probe.getPassword(signal);
    await probe.deleteCredential(signal).catch(() => undefined);
    if (back !== value) return { ok: false, reason: 'a value written to it did not read back' };
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: firstLine(describe(error)) };
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).slice(0, 200);
}
