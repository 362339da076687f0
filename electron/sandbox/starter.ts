// The built-in sandbox as the app's Sandbox profile uses it: the hosts pass this starter to the core
// (which never imports the sandbox). It listens on loopback only and keeps its state in the given
// data file; the demo account's sites are read straight from the running sandbox, since the real
// service's way of listing sites is an operation the spec leaves out.
// One sandbox a data folder, whatever number of Sitewalk processes share the folder: the first to
// need it holds an exclusive SQLite lock beside the data file (released by the OS if the process dies)
// and writes where it listens; the others reach that one over loopback. Two sandboxes on one data
// file would each number the sites they create from the same state: the app and `sitewalk import`
// running together gave different towers the same site ID, and edits went to the wrong tower.
import { readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { writeFileAtomicSync } from '../node/atomic-file';
import { DEMO_ACCOUNT, startSandbox } from './index';
import type { SandboxSite } from './state';

/** A site of the demo account, in the register's words (siteId, not the sandbox's id). */
export type SandboxSiteListing = { siteId: string } & Pick<SandboxSite, 'name' | 'height' | 'latitude' | 'longitude' | 'description' | 'group' | 'pinStyle'>;

export interface BuiltInSandbox {
  url: string;
  servicePath: string;
  namespace: string;
  demo: { account: string; key: string };
  /** The demo account's sites: read from the sandbox this process runs; absent for another process's (that one adds them to the register). */
  accountSites?(): SandboxSiteListing[];
  /** Whether the other process serving this folder's sandbox still does (absent when this process serves it). */
  served?(): boolean;
  close(): Promise<void>;
}

/** What the hosts start the built-in sandbox with (the core's SandboxStarter). */
type StartOptions = { port: number; dataFile: string };

/** Where the serving process listens, beside the data file: the one definition, and its parser. */
const addressSchema = z.object({ pid: z.number(), url: z.string(), servicePath: z.string(), namespace: z.string() });
type Address = z.infer<typeof addressSchema>;

const lockPath = (dataFile: string) => `${dataFile}.lock`;
const addressPath = (dataFile: string) => `${dataFile}.address`;
/** How long another process's address may take to appear after it took the lock (it starts listening first). */
const ADDRESS_WAIT_MS = 5_000;
/** How often a process reaching another's sandbox checks that one still serves it. */
const SERVED_CHECK_MS = 1_000;

/** The folder's sandbox lock, held until closed; null when another process holds it. */
function holdLock(dataFile: string): Database.Database | null {
  const db = new Database(lockPath(dataFile), { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
}

function readAddress(dataFile: string): Address | null {
  try {
    const parsed = addressSchema.safeParse(JSON.parse(readFileSync(addressPath(dataFile), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function startBuiltInSandbox(options: StartOptions): Promise<BuiltInSandbox> {
  const { dataFile } = options;
  const deadline = Date.now() + ADDRESS_WAIT_MS;
  for (;;) {
    const lock = holdLock(dataFile);
    if (lock) return serve(options, lock);
    const address = readAddress(dataFile);
    if (address) return reach(address, dataFile);
    if (Date.now() > deadline) throw new Error('Another Sitewalk on this data folder holds its sandbox but does not say where it listens; close it, or wait and try again.');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function serve(options: StartOptions, lock: Database.Database): Promise<BuiltInSandbox> {
  const { dataFile } = options;
  let running: Awaited<ReturnType<typeof startSandbox>>;
  try {
    running = await startSandbox({ port: options.port, host: '127.0.0.1', dataFile });
  } catch (error) {
    lock.close();
    throw error;
  }
  try {
    writeFileAtomicSync(addressPath(dataFile), `${JSON.stringify({ pid: process.pid, url: running.url, servicePath: running.servicePath, namespace: running.namespace } satisfies Address)}\n`);
  } catch (error) {
    // No one else could reach a sandbox whose address is not written (a full disk): none runs.
    await running.close();
    lock.close();
    throw error;
  }
  return {
    url: running.url,
    servicePath: running.servicePath,
    namespace: running.namespace,
    demo: running.demo,
    accountSites: () =>
      running
        .snapshot()
        .sites.filter((site) => site.account === running.demo.account)
        .map(({ id, name, height, latitude, longitude, description, group, pinStyle }) => ({ siteId: id, name, height, latitude, longitude, description, group, pinStyle })),
    close: async () => {
      try {
        await running.close();
      } finally {
        // The address first: a process that then takes the lock writes its own.
        rmSync(addressPath(dataFile), { force: true });
        lock.close();
      }
    },
  };
}

function reach(address: Address, dataFile: string): BuiltInSandbox {
  let checkedAt = -Infinity;
  return {
    url: address.url,
    servicePath: address.servicePath,
    namespace: address.namespace,
    demo: { account: DEMO_ACCOUNT.account, key: DEMO_ACCOUNT.key },
    served: () => {
      // Asked before each call: the lock is tried again at most once a second.
      if (Date.now() - checkedAt < SERVED_CHECK_MS) return true;
      // The lock free again: the serving process closed or died (the OS let its lock go). Or another
      // serves it now (this address was a dead one's, read before the new one wrote its own).
      const free = holdLock(dataFile);
      free?.close();
      const still = free === null && readAddress(dataFile)?.url === address.url;
      checkedAt = still ? Date.now() : -Infinity;
      return still;
    },
    close: async () => undefined,
  };
}
