// One process at a time per data folder: the journals have a single writer. The lock is a file
// holding its owner's PID, host and a random ID, created atomically (hard link of a finished temp
// file, which fails if the lock exists). A lock left by a process that died (SIGKILL, power loss) is
// taken over when its PID no longer runs on this host — by exactly one of the processes that find it:
//
//   to remove a stale lock, a contender must first create `<lock>.claim-<identity>` (identity: a
//   digest of that lock file's inode and content, unique to it), which only one contender can do.
//   Holding the claim, it reads the lock again and removes it only if it is still that same file;
//   then it competes like everyone else to create a fresh lock.
//
// So a lock file is only ever removed by its owner (release) or by the one holder of its claim, and a
// live lock is never removed. Removing "whatever is at the path now", as a plain read-check-delete
// does, let two of eight simultaneous `sitewalk sync` runs each delete the other's fresh lock and
// both hold the folder. A claim left by a contender that died mid-takeover is stale in turn and is
// taken over the same way. A lock from another host is never taken (its PIDs mean nothing here).
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, open, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'sitewalk.lock';

/** How long contenders wait for another's takeover to finish before giving up. */
const TAKEOVER_TIMEOUT_MS = 10_000;

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
  /** Random, per lock (or claim) created: tells two files apart even when PIDs are reused. */
  id?: string;
}

/** A lock or claim file as read: its content (null when unreadable) and what makes it this file. */
interface Instance {
  info: LockInfo | null;
  identity: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** Lock files held (or being taken) by this process: a second open of the same folder here is refused. */
const heldHere = new Set<string>();

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  // Checked and reserved with no await between: two opens in this process cannot both pass.
  if (heldHere.has(path)) throw new DataDirBusyError(dataDir, process.pid);
  heldHere.add(path);
  try {
    const mine = newInfo();
    const deadline = Date.now() + TAKEOVER_TIMEOUT_MS;
    while (!(await create(dataDir, path, mine))) {
      const holder = await read(path);
      if (holder && isLive(holder.info)) throw new DataDirBusyError(dataDir, holder.info!.pid);
      if (Date.now() > deadline) throw new Error(`Could not lock the data folder ${dataDir}: another process keeps taking it.`);
      // Stale: take it over (or let the one contender that claimed it do so). Gone: try again.
      if (holder) await removeStale(dataDir, path, holder);
    }
    await sweep(dataDir);
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        // Only this process or the holder of a claim on this very file can remove it, and no claim
        // is made on a live lock: the file read here is still ours when it is removed.
        const current = await read(path);
        if (current?.info?.id === mine.id) await rm(path, { force: true });
        heldHere.delete(path);
      },
    };
  } catch (error) {
    heldHere.delete(path);
    throw error;
  }
}

function newInfo(): LockInfo {
  return { pid: process.pid, host: hostname(), since: new Date().toISOString(), id: randomBytes(12).toString('hex') };
}

/** Creates `path` with `info` as its content, atomically; false when it exists. */
async function create(dataDir: string, path: string, info: LockInfo): Promise<boolean> {
  const temporary = join(dataDir, `${LOCK_FILE}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  await writeFile(temporary, JSON.stringify(info), { mode: 0o600 });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/** The file at `path` as it is now (content and identity read from one open file), or null. */
async function read(path: string): Promise<Instance | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = await handle.stat();
    const raw = (await handle.readFile()).subarray(0, 4096).toString('utf8');
    const identity = createHash('sha256').update(`${stat.dev}:${stat.ino}:${raw}`).digest('hex').slice(0, 24);
    return { info: parse(raw), identity };
  } finally {
    await handle.close();
  }
}

function parse(raw: string): LockInfo | null {
  try {
    const parsed = JSON.parse(raw) as Partial<LockInfo>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.since === 'string') return parsed as LockInfo;
    return null;
  } catch {
    return null;
  }
}

/**
 * Whether a lock or claim must be respected. Unreadable: a crash while it was written (stale). From
 * another host: always respected. With this process's PID: left by an earlier process that had the
 * same PID (this process's own attempts are kept apart by heldHere), so stale.
 */
function isLive(info: LockInfo | null): boolean {
  if (!info) return false;
  if (info.host !== hostname()) return true;
  if (info.pid === process.pid) return false;
  return isRunning(info.pid);
}

/**
 * Removes the stale file `target` (as read: `instance`) if this process wins its claim; otherwise
 * returns after a short wait, and the caller looks again. Never removes anything else.
 */
async function removeStale(dataDir: string, target: string, instance: Instance): Promise<void> {
  const claim = `${target}.claim-${instance.identity}`;
  if (!(await create(dataDir, claim, newInfo()))) {
    const rival = await read(claim);
    if (!rival) return;
    if (isLive(rival.info)) {
      // Another contender is taking it over: its lock will be there in a moment.
      await sleep(10 + Math.random() * 20);
      return;
    }
    // That contender died mid-takeover: its claim is stale, and is removed the same way.
    await removeStale(dataDir, claim, rival);
    return;
  }
  try {
    const again = await read(target);
    if (again && again.identity === instance.identity) {
      await unlink(target).catch((error: NodeJS.ErrnoException) => {
        // Windows refuses to remove a file another process has open (reading it): look again.
        if (error.code !== 'ENOENT' && error.code !== 'EPERM' && error.code !== 'EBUSY') throw error;
      });
    }
  } finally {
    // The file the claim was for is gone for good (its identity cannot come back): the claim is spent.
    // One left behind is stale once this process ends, and is swept or taken over then.
    await rm(claim, { force: true }).catch(() => undefined);
  }
}

/** Removes temp and claim files left by processes that died; a live one's are left alone. */
async function sweep(dataDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`${LOCK_FILE}.`)) continue;
    const temp = /^sitewalk\.lock\.tmp-(\d+)-[0-9a-f]+$/.exec(name);
    if (temp) {
      if (!isRunning(Number(temp[1]))) await rm(join(dataDir, name), { force: true }).catch(() => undefined);
    } else if (name.includes('.claim-')) {
      const claim = await read(join(dataDir, name)).catch(() => null);
      if (claim && !isLive(claim.info)) await rm(join(dataDir, name), { force: true }).catch(() => undefined);
    }
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
