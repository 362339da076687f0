// The small key-value interface profiles and settings are stored through. `conf` (plain Node: the
// CLI, the browser host, tests) and `electron-store` (the Electron host, which extends conf) both
// satisfy it and write the same file, `<dataDir>/<name>.json`, so the CLI and the app read one
// another's profiles. Keys are top-level names; values are plain JSON.
import { statSync } from 'node:fs';
import Conf from 'conf';

export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Opens the store called `name` ("profiles", "settings") of the data folder. */
export type KvStoreFactory = (name: string) => KeyValueStore;

/**
 * conf in the data folder. The Electron host passes the equivalent electron-store factory:
 * `(name) => new Store({ cwd: dataDir, name, accessPropertiesByDotNotation: false, configFileMode: 0o600 })`.
 */
export function confStoreFactory(dataDir: string): KvStoreFactory {
  return (name) =>
    new Conf<Record<string, unknown>>({
      cwd: dataDir,
      configName: name,
      projectName: 'sitewalk',
      // Profile IDs and names may contain dots: never read them as paths.
      accessPropertiesByDotNotation: false,
      configFileMode: 0o600,
    }) as unknown as KeyValueStore;
}

/**
 * The store's values read once and then served from memory; writes go through to the store (and
 * its file) at once. For preferences, which this process alone writes and which the host reads
 * often (the tile route, the settings view): conf and electron-store read and parse their file on
 * every get otherwise.
 */
export function memoryCached(store: KeyValueStore): KeyValueStore {
  return cached(store, () => 'written by this process alone');
}

/**
 * The store's values served from memory while its file is unchanged, for what other processes write
 * too (profiles: the CLI adds one beside the app). conf and electron-store replace the file on every
 * write, which a stat of it sees; otherwise each get reads and parses the file, and a sync asks for
 * the active profile for every site it sends (10,000 reads in a 10,000-row run). A store without a
 * file (tests' memory stores) is returned as it is.
 */
export function fileCached(store: KeyValueStore & { readonly path?: string }): KeyValueStore {
  const path = store.path;
  if (path === undefined) return store;
  return cached(store, () => {
    try {
      const stat = statSync(path, { bigint: true });
      return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    } catch {
      // No file yet: the store answers its defaults.
      return 'absent';
    }
  });
}

/**
 * `store`'s values kept in memory until `version` answers something else (asked before each read, so
 * a change landing between the two is seen at the next get, never missed) or this process writes.
 */
function cached(store: KeyValueStore, version: () => string): KeyValueStore {
  const values = new Map<string, unknown>();
  let seen: string | null = null;
  const forget = () => {
    values.clear();
    seen = null;
  };
  return {
    get: (key) => {
      const now = version();
      if (now !== seen) values.clear();
      seen = now;
      if (!values.has(key)) values.set(key, store.get(key));
      return copy(values.get(key));
    },
    set: (key, value) => {
      store.set(key, value);
      forget();
    },
    delete: (key) => {
      store.delete(key);
      forget();
    },
  };
}

/** A value as JSON would bring it back: what a caller changes never reaches the cache. */
function copy(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** An in-memory store with the same behaviour (values are copied in and out like JSON). */
export function memoryStoreFactory(): KvStoreFactory {
  const stores = new Map<string, Map<string, string>>();
  return (name) => {
    let values = stores.get(name);
    if (!values) {
      values = new Map();
      stores.set(name, values);
    }
    const map = values;
    return {
      get: (key) => {
        const text = map.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as unknown);
      },
      set: (key, value) => void map.set(key, JSON.stringify(value)),
      delete: (key) => void map.delete(key),
    };
  };
}
