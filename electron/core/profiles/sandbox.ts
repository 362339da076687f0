// The built-in Sandbox profile's service: the local sandbox, started in this process on a random
// loopback port the first time the profile needs it, with its state kept in <dataDir>/sandbox.json
// so separate runs (the CLI, the app) see one consistent sandbox. Its demo account and key are
// public demo data: the key is held for the session only, never in a key store. The core never
// imports the sandbox: the hosts and the CLI hand it a starter (electron/sandbox/starter.ts).
import { join } from 'node:path';
import type { SiteFields } from '../sites/site-record';

export const SANDBOX_STATE_FILE = 'sandbox.json';

/** A site the sandbox's demo account holds, in the register's words (every service field known; none measured here). */
export type SandboxSiteListing = { siteId: string } & Required<Omit<SiteFields, 'measurement'>>;

/** What the core needs of a running sandbox (electron/sandbox's handle satisfies it). */
export interface SandboxHandle {
  url: string;
  servicePath: string;
  namespace: string;
  demo: { account: string; key: string };
  /**
   * The demo account's sites. The real service lists an account's sites through an operation the
   * spec leaves out; the sandbox runs in this process, so its list is read directly. Optional: a
   * stand-in sandbox in a test may have none.
   */
  accountSites?(): SandboxSiteListing[];
  /**
   * For a sandbox another Sitewalk process on the same data folder serves (one a folder): whether it
   * still does. False once that process has closed or died: the runner starts again (and may then
   * serve the sandbox itself).
   */
  served?(): boolean;
  close(): Promise<void>;
}

export type SandboxStarter = (options: { port: number; dataFile: string }) => Promise<SandboxHandle>;

/** Starts the sandbox once, on first need; later callers share the same start. */
export class SandboxRunner {
  private starting: Promise<SandboxHandle> | null = null;
  private handle: SandboxHandle | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly starter: SandboxStarter,
  ) {}

  /** The running sandbox, if it has started. */
  get running(): SandboxHandle | null {
    return this.handle;
  }

  ensure(): Promise<SandboxHandle> {
    if (this.handle?.served && !this.handle.served()) {
      this.handle = null;
      this.starting = null;
    }
    if (!this.starting) {
      this.starting = this.starter({ port: 0, dataFile: join(this.dataDir, SANDBOX_STATE_FILE) }).then(
        (handle) => {
          this.handle = handle;
          return handle;
        },
        (error: unknown) => {
          // A failed start can be tried again later (a busy port, a locked file).
          this.starting = null;
          throw error;
        },
      );
    }
    return this.starting;
  }

  async close(): Promise<void> {
    const starting = this.starting;
    this.starting = null;
    if (!starting) return;
    const handle = await starting.catch(() => null);
    this.handle = null;
    await handle?.close();
  }
}
