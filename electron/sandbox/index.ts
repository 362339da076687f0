// The sandbox's public API: startSandbox() gives a running local service that speaks the real
// service's four bindings (see "The sandbox" in the root README.md), with its state inspectable and its
// faults settable. Options are checked here, before anything listens, so a bad option never leaves
// a half-started server behind.
import { parseFaults, type FaultConfig } from './faults';
import { DEMO_ACCOUNT as DEMO, seedState, type Seed } from './seed';
import { loadFromDisk } from './persistence';
import { SandboxServer } from './routing';
import { cloneState, type SandboxState } from './state';

export type { FaultConfig } from './faults';
export type { SandboxState, SandboxAccount, SandboxSite, SandboxSubmission, SandboxMultiMap, MailMessage, PushAttempt, CallLogEntry, RenderingQualityEntry } from './state';
export { StateError } from './state';
export { FaultConfigError } from './faults';
export { AUTH_MESSAGE, QUOTA_MESSAGE, OPERATION_PARAMS } from './operations';

export interface SandboxOptions {
  port?: number;
  host?: string;
  servicePath?: string;
  namespace?: string;
  dataFile?: string;
  seed?: Seed;
  faults?: FaultConfig;
  bodyLimitBytes?: number;
  /**
   * ASP.NET's request validation on HTTP GET/POST (markup-like values refused with a 500) and its
   * 2,048-character query-string limit (400). On by default, as in ASP.NET 4.x; false behaves like a
   * service that turned both off. SOAP is never affected.
   */
  requestValidation?: boolean;
  random?: () => number;
  log?: (line: string) => void;
}

export interface RunningSandbox {
  url: string;
  servicePath: string;
  namespace: string;
  demo: { account: string; key: string };
  setFaults(faults: FaultConfig): void;
  reset(seed?: Seed): void;
  snapshot(): SandboxState;
  close(): Promise<void>;
}

export const DEMO_ACCOUNT: { account: '10001'; key: 'sandbox-demo-key' } = { account: DEMO.account, key: DEMO.key };

export const DEFAULTS = {
  host: '127.0.0.1',
  servicePath: '/towercoverage.asmx',
  namespace: 'http://tempuri.org/',
  bodyLimitBytes: 1024 * 1024,
} as const;

export class SandboxOptionError extends Error {
  override name = 'SandboxOptionError';
}

function checkOptions(options: SandboxOptions): { port: number; servicePath: string; namespace: string; bodyLimitBytes: number } {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SandboxOptionError(`port must be a whole number from 0 to 65535 (0 = any free port), not ${String(options.port)}.`);
  const servicePath = options.servicePath ?? DEFAULTS.servicePath;
  if (!/^\/[A-Za-z0-9._~!$'()*+,;=:@%/-]*$/.test(servicePath) || servicePath.endsWith('/') || servicePath.startsWith('/_sandbox')) {
    throw new SandboxOptionError(`servicePath must be a path like /towercoverage.asmx (starting with /, not ending with /, not under /_sandbox), not '${servicePath}'.`);
  }
  const namespace = options.namespace ?? DEFAULTS.namespace;
  if (namespace === '' || /[\s<>"&]/.test(namespace)) throw new SandboxOptionError(`namespace must be a URI like http://tempuri.org/ (no spaces, <, >, " or &), not '${namespace}'.`);
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes;
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1024) throw new SandboxOptionError(`bodyLimitBytes must be a whole number of at least 1024, not ${String(options.bodyLimitBytes)}.`);
  if (options.requestValidation !== undefined && typeof options.requestValidation !== 'boolean') throw new SandboxOptionError(`requestValidation must be true or false, not ${String(options.requestValidation)}.`);
  if (options.seed !== undefined && options.seed !== 'demo' && options.seed !== 'empty') throw new SandboxOptionError(`seed must be 'demo' or 'empty', not '${String(options.seed)}'.`);
  return { port, servicePath, namespace, bodyLimitBytes };
}

/**
 * Starts the sandbox. With dataFile, the state is loaded from it when it exists (a corrupt file
 * rejects the start and is left untouched) and written after every change.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { port, servicePath, namespace, bodyLimitBytes } = checkOptions(options);
  const faults = parseFaults(options.faults ?? {});
  const dataFile = options.dataFile ?? null;
  // With the calls answered after the data file was last rewritten.
  const loaded = dataFile ? loadFromDisk(dataFile) : null;
  const host = options.host ?? DEFAULTS.host;
  const server = new SandboxServer(
    {
      host,
      servicePath,
      namespace,
      dataFile,
      bodyLimitBytes,
      requestValidation: options.requestValidation ?? true,
      random: options.random ?? Math.random,
      log: options.log ?? (() => undefined),
    },
    loaded ?? seedState(options.seed ?? 'demo'),
  );
  server.setFaults(faults);
  // A new data file starts out holding the seed; a loaded one takes in what its log replayed.
  server.commit();

  const actualPort = await server.listen(port);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${actualPort}`,
    servicePath,
    namespace,
    demo: { account: DEMO_ACCOUNT.account, key: DEMO_ACCOUNT.key },
    setFaults: (next) => server.setFaults(parseFaults(next)),
    reset: (seed = 'demo') => server.reset(seed),
    snapshot: () => cloneState(server.state()),
    close: () => server.close(),
  };
}
