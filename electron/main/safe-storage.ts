// The 'safe-storage' SecretStore: API keys encrypted with Electron's safeStorage (Keychain, DPAPI,
// libsecret/kwallet) and the encrypted blobs kept in one file in the data dir, rewritten atomically.
// Linux's 'basic_text' backend (a hard-coded password) counts as no encryption at all: the store
// then reports itself unavailable and the host falls back, visibly, to os-keyring or session-only.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SafeStorage } from 'electron';
import { z } from 'zod';
import { writeFileAtomic } from '../node/atomic-file';
import type { SecretStore } from '../core/profiles/secrets';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

export type Availability = { available: true } | { available: false; reason: string };

/** Linux backends that really encrypt with a secret the OS keeps. */
const LINUX_REAL_BACKENDS = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

/** Must be asked after the app is ready (safeStorage decides its backend then). */
export function safeStorageAvailability(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Availability {
  if (!safeStorage.isEncryptionAvailable()) return { available: false, reason: 'the system offers no encryption for stored secrets' };
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    if (!LINUX_REAL_BACKENDS.has(backend)) {
      return { available: false, reason: `no desktop keyring is running (safeStorage backend "${backend}" would keep the key readable)` };
    }
  }
  return { available: true };
}

export const SAFE_STORAGE_FILE = 'secrets.safe-storage.json';

const blobFileSchema = z.object({
  version: z.literal(1),
  /** profile id → base64 of safeStorage.encryptString(key) */
  entries: z.record(z.string(), z.string()),
});
type BlobFile = z.infer<typeof blobFileSchema>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createSafeStorageSecretStore(safeStorage: SafeStorageLike, dataDir: string): SecretStore {
  const file = join(dataDir, SAFE_STORAGE_FILE);
  let cache: Map<string, string> | null = null;
  // Changes run one after another, and the cache changes only once the file has: a failed write
  // leaves memory and disk agreeing.
  let queue: Promise<unknown> = Promise.resolve();

  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function load(): Promise<Map<string, string>> {
    if (cache) return cache;
    let text: string | null = null;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`The encrypted key file ${file} cannot be read.`);
    }
    let entries: Record<string, string> = {};
    if (text !== null) {
      const parsed = blobFileSchema.safeParse(parseJson(text));
      // A damaged file is named, never read as "no keys" (which would lose them on the next write).
      if (!parsed.success) throw new Error(`The encrypted key file ${file} cannot be read: it is damaged. Move it aside and enter the keys again.`);
      entries = parsed.data.entries;
    }
    cache = new Map(Object.entries(entries));
    return cache;
  }

  async function write(entries: Map<string, string>): Promise<void> {
    const body: BlobFile = { version: 1, entries: Object.fromEntries(entries) };
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify(body));
    cache = entries;
  }

  return {
    kind: 'safe-storage',
    async get(profileId) {
      const blob = (await load()).get(profileId);
      if (blob === undefined) return null;
      return safeStorage.decryptString(Buffer.from(blob, 'base64'));
    },
    set(profileId, key) {
      return exclusive(async () => {
        const next = new Map(await load());
        next.set(profileId, safeStorage.encryptString(key).toString('base64'));
        await write(next);
      });
    },
    delete(profileId) {
      return exclusive(async () => {
        const current = await load();
        if (!current.has(profileId)) return;
        const next = new Map(current);
        next.delete(profileId);
        await write(next);
      });
    },
    async has(profileId) {
      return (await load()).has(profileId);
    },
  };
}
