// The profiles as a process keeps them: from memory while their file is unchanged (a sync asks for the
// active profile for every site it sends), and another process's write — the CLI adding a profile
// beside the app, through its own store on the same file — seen at the very next read.
import { describe, expect } from 'vitest';
import { confStoreFactory, fileCached, type KeyValueStore } from '../../electron/core/profiles/kv';
import { it } from '../support/fixtures';

/** conf on `dir`'s profiles file, counting how often it is asked (each ask reads and parses the file). */
function counted(dir: string): { store: KeyValueStore & { path: string }; reads: () => number } {
  const conf = confStoreFactory(dir)('profiles') as KeyValueStore & { path: string };
  let reads = 0;
  return {
    store: {
      path: conf.path,
      get: (key) => {
        reads++;
        return conf.get(key);
      },
      set: (key, value) => conf.set(key, value),
      delete: (key) => conf.delete(key),
    },
    reads: () => reads,
  };
}

describe('profiles read from memory while their file is unchanged', () => {
  it('reads the file once for many gets, and again only after another store writes it', ({ tempDir }) => {
    const app = counted(tempDir);
    const cached = fileCached(app.store);
    const cli = confStoreFactory(tempDir)('profiles');
    expect(cached.get('profiles')).toBeUndefined();
    cli.set('profiles', [{ id: 'a', name: 'Tower crew' }]);
    expect(cached.get('profiles')).toEqual([{ id: 'a', name: 'Tower crew' }]);
    const afterWrite = app.reads();
    for (let i = 0; i < 1000; i++) cached.get('profiles');
    expect(app.reads()).toBe(afterWrite);
    // The other process writes twice more, the same size each time: each is seen at once.
    cli.set('profiles', [{ id: 'b', name: 'Tower crew' }]);
    expect(cached.get('profiles')).toEqual([{ id: 'b', name: 'Tower crew' }]);
    cli.set('profiles', [{ id: 'c', name: 'Tower crew' }]);
    expect(cached.get('profiles')).toEqual([{ id: 'c', name: 'Tower crew' }]);
    cli.delete('profiles');
    expect(cached.get('profiles')).toBeUndefined();
  });

  it("sees its own writes at once, and a caller's change to what it read never reaches the cache", ({ tempDir }) => {
    const cached = fileCached(confStoreFactory(tempDir)('profiles'));
    cached.set('activeProfileId', 'a');
    cached.set('profiles', [{ id: 'a', name: 'North ridge' }]);
    expect(cached.get('activeProfileId')).toBe('a');
    const read = cached.get('profiles') as Array<{ name: string }>;
    read[0]!.name = 'changed by a caller';
    expect(cached.get('profiles')).toEqual([{ id: 'a', name: 'North ridge' }]);
    // Another process's view of the same file agrees.
    expect(confStoreFactory(tempDir)('profiles').get('profiles')).toEqual([{ id: 'a', name: 'North ridge' }]);
    cached.delete('activeProfileId');
    expect(cached.get('activeProfileId')).toBeUndefined();
  });
});
