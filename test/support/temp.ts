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
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
