// Temp folders for tests: one fresh folder under the OS temp folder, with a prefix that says which
// tests made it, removed whole (whatever is left inside) when the test is done with it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix = 'sitewalk-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // A retry on ENOTEMPTY/EBUSY: a file the test's own processes write while it closes (the built-in
  // sandbox's sandbox.json, a database's -wal) can appear between rm's listing and its rmdir.
  return { path, remove: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}
