// The Electron host's 'safe-storage' secret store with a fake safeStorage: keys round-trip through
// encryption into one file in the data dir, never as typed, and Linux's basic_text backend (or no
// encryption at all) is reported unavailable so the host falls back.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore, SAFE_STORAGE_FILE, safeStorageAvailability } from '../../electron/main/safe-storage';
import { createFakeElectron } from './fake-electron';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-safe-storage-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function fakeSafeStorage(options: { backend?: string; encryption?: boolean } = {}) {
  return (createFakeElectron(options).electron.safeStorage as unknown) as Parameters<typeof createSafeStorageSecretStore>[0];
}

describe('safe-storage availability', () => {
  it('accepts a real Linux keyring backend', () => {
    expect(safeStorageAvailability(fakeSafeStorage({ backend: 'gnome_libsecret' }), 'linux')).toEqual({ available: true });
    expect(safeStorageAvailability(fakeSafeStorage({ backend: 'kwallet6' }), 'linux')).toEqual({ available: true });
  });

  it("refuses Linux's basic_text backend even though Electron calls it available", () => {
    const result = safeStorageAvailability(fakeSafeStorage({ backend: 'basic_text' }), 'linux');
    expect(result.available).toBe(false);
    expect(!result.available && result.reason).toMatch(/basic_text/);
  });

  it('refuses when the system offers no encryption', () => {
    expect(safeStorageAvailability(fakeSafeStorage({ encryption: false }), 'darwin').available).toBe(false);
  });

  it('does not ask for a Linux backend on other systems', () => {
    expect(safeStorageAvailability(fakeSafeStorage({ backend: 'unknown' }), 'win32')).toEqual({ available: true });
  });
});

describe('safe-storage secret store', () => {
  it('keeps a key encrypted in the data dir and gives it back after a restart', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), dataDir);
    expect(store.kind).toBe('safe-storage');
    await store.set('profile-1', 'my-secret-api-key');
    expect(await store.has('profile-1')).toBe(true);

    const onDisk = await readFile(join(dataDir, SAFE_STORAGE_FILE), 'utf8');
    expect(onDisk).not.toContain('my-secret-api-key');
    expect(onDisk).toContain('profile-1');

    const reopened = createSafeStorageSecretStore(fakeSafeStorage(), dataDir);
    expect(await reopened.get('profile-1')).toBe('my-secret-api-key');
    expect(await reopened.get('profile-2')).toBeNull();
  });

  it('forgets a deleted key on disk too', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), dataDir);
    await store.set('a', 'key-a');
    await store.set('b', 'key-b');
    await store.delete('a');
    const reopened = createSafeStorageSecretStore(fakeSafeStorage(), dataDir);
    expect(await reopened.has('a')).toBe(false);
    expect(await reopened.get('b')).toBe('key-b');
  });

  it('keeps every key when several are saved at once', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), dataDir);
    await Promise.all(Array.from({ length: 8 }, (_, index) => store.set(`p${index}`, `key-${index}`)));
    const reopened = createSafeStorageSecretStore(fakeSafeStorage(), dataDir);
    for (let index = 0; index < 8; index++) expect(await reopened.get(`p${index}`)).toBe(`key-${index}`);
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
