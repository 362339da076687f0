// One process at a time per data folder: the journals have a single writer. The lock is a file
// holding the owner's PID, created atomically (hard link of a finished temp file, which fails if
// the lock exists). A lock left by a process that died (SIGKILL, power loss) is taken over when its
// PID no longer runs on this host.
import { hostname } from 'node:os';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const LOCK_FILE = 'sitewalk.lock';

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The data folder ${dataDir} is in use by another Sitewalk (process ${pid}). Close it first, or use another data folder.`);
    this.name = 'DataDirBusyError';
  }
}

interface LockInfo {
  pid: number;
  host: string;
  since: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** Lock files held by this process: a second open of the same folder here is refused too. */
const heldHere = new Set<string>();

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  if (heldHere.has(path)) throw new DataDirBusyError(dataDir, process.pid);
  const mine: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const temporary = `${path}.${randomBytes(6).toString('hex')}`;
  await writeFile(temporary, JSON.stringify(mine), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(temporary, path);
        heldHere.add(path);
        return {
          async release() {
            heldHere.delete(path);
            const current = await readLock(path);
            if (current?.pid === mine.pid && current.since === mine.since) await rm(path, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readLock(path);
      if (holder && holder.host === mine.host && holder.pid !== process.pid && isRunning(holder.pid)) {
        throw new DataDirBusyError(dataDir, holder.pid);
      }
      if (holder && holder.host !== mine.host) {
        // Another machine on a shared folder: its PIDs mean nothing here, so never steal.
        throw new DataDirBusyError(dataDir, holder.pid);
      }
      // Stale (its process is gone) or unreadable (a crash while it was being written): take it over.
      await rm(path, { force: true });
    }
    throw new Error(`Could not lock the data folder ${dataDir}: another process keeps taking it.`);
  } finally {
    await rm(temporary, { force: true });
  }
}

async function readLock(path: string): Promise<LockInfo | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockInfo>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.since === 'string') return parsed as LockInfo;
    return null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
