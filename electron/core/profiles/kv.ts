// The small key-value interface profiles and settings are stored through. `conf` (plain Node: the
// CLI, the browser host, tests) and `electron-store` (the Electron host, which extends conf) both
// satisfy it and write the same file, `<dataDir>/<name>.json`, so the CLI and the app read one
// another's profiles. Keys are top-level names; values are plain JSON.
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
  const values = new Map<string, unknown>();
  const copy = (value: unknown): unknown => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));
  return {
    get: (key) => {
      if (!values.has(key)) values.set(key, store.get(key));
      return copy(values.get(key));
    },
    set: (key, value) => {
      store.set(key, value);
      values.set(key, copy(value));
    },
    delete: (key) => {
      store.delete(key);
      values.set(key, undefined);
    },
  };
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
