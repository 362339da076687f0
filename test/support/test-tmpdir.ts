// Where the tests' temp folders go (TMPDIR, set for every test process by vitest.config.ts and
// vitest.e2e.config.ts): a folder in memory (/dev/shm) where the machine has one. The app syncs
// every durable write to disk — SQLite's full synchronous commits, the sandbox's operation log —
// and on these machines' disks a sync waits: the 10,000-row import (now a step of e2e/bulk) spent 150 of
// its 250 s in SQLite's commits and fsync, and took 132 s in memory; apply-sandbox 169 s, then 42 s
// (and 36 CPU-s, then 21). On tmpfs a sync returns at once, and what a test can observe is the
// same: a SIGKILLed process's writes survive it, a full disk refuses a write (no test cuts the
// power). Only where it has room: a container's /dev/shm is often 64 MB, and the heavy files write
// files of 40 MB and more at once. SITEWALK_TEST_TMPDIR names another folder; elsewhere the OS's stays.
import { accessSync, constants, mkdirSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MEMORY = '/dev/shm';
/** Free space the memory folder needs for the tests to go there: the heavy files at once, with room to spare. */
const MEMORY_NEEDED = 4 * 1024 ** 3;

function roomyFolder(path: string, bytes: number): boolean {
  try {
    accessSync(path, constants.W_OK);
    if (!statSync(path).isDirectory()) return false;
    const { bavail, bsize } = statfsSync(path);
    return bavail * bsize >= bytes;
  } catch {
    return false;
  }
}

/** The environment that puts the tests' temp folders in memory: `{ TMPDIR }`, or nothing where there is no such folder. */
export function testTmpdirEnv(): { TMPDIR?: string } {
  const chosen = process.env.SITEWALK_TEST_TMPDIR;
  if (chosen) return { TMPDIR: chosen };
  if (process.platform !== 'linux' || !roomyFolder(MEMORY, MEMORY_NEEDED)) return {};
  // A folder of the tests' own, so what a killed run leaves is found in one place.
  const dir = join(MEMORY, 'sitewalk-tests');
  mkdirSync(dir, { recursive: true });
  return { TMPDIR: dir };
}
