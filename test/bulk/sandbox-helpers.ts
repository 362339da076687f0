// The sandbox for the bulk tests: started in the test process on a random loopback port, a core in
// a temp folder with a profile of its own pointing at it (the demo account and key for this session),
// and the sandbox's inspection endpoint read back so tests compare what reached the service with the
// file and the report. Everything started here is closed by `closeAll`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCore, type CoreOptions, type SitewalkCore } from '../../electron/core/app';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { startSandbox } from '../../electron/sandbox/index';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const cleanups: Array<() => Promise<void>> = [];

export async function closeAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export async function sandbox(seed: 'demo' | 'empty' = 'empty'): Promise<Sandbox> {
  const running = await startSandbox({ port: 0, host: '127.0.0.1', seed });
  cleanups.push(() => running.close());
  return running;
}

export async function tempFolder(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'sitewalk-bulk-sandbox-'));
  cleanups.push(() => rm(path, { recursive: true, force: true }));
  return path;
}

/** A core with an active profile "Office" at `baseUrl` holding the demo key for this session. */
export async function coreFor(baseUrl: string, options: Partial<CoreOptions> = {}): Promise<{ core: SitewalkCore; dataDir: string }> {
  const dataDir = options.dataDir ?? (await tempFolder());
  const core = await openCore({
    dataDir,
    secretStore: createSessionSecretStore(),
    sandbox: false,
    autoSync: false,
    retry: { baseMs: 20, capMs: 200, maxAttempts: 50 },
    probe: { baseMs: 20, capMs: 200 },
    timeoutMs: 20_000,
    ...options,
  });
  cleanups.push(() => core.close());
  const added = await core.profiles.add({ name: 'Office', baseUrl, account: '10001', binding: 'http-post' });
  if (!added.ok) throw new Error(JSON.stringify(added.issues));
  await core.profiles.use(added.value.id);
  await core.profiles.setKey(added.value.id, 'sandbox-demo-key', { sessionOnly: true });
  return { core, dataDir };
}

export interface ServiceSite {
  id: string;
  name: string;
  height: number;
  latitude: number;
  longitude: number;
  description: string;
  group: string;
  pinStyle: number;
}

async function inspect<T>(url: string, path: string, key: string): Promise<T[]> {
  const response = await fetch(`${url}/_sandbox/${path}`);
  if (!response.ok) throw new Error(`GET /_sandbox/${path} answered ${response.status}`);
  const body = (await response.json()) as unknown;
  return (Array.isArray(body) ? body : ((body as Record<string, unknown>)[key] ?? [])) as T[];
}

export function serviceSites(url: string): Promise<ServiceSite[]> {
  return inspect<ServiceSite>(url, 'sites', 'sites');
}

export interface ServiceSubmission {
  processId: string;
  name: string;
  address: string;
  multiMapId: string;
  reprocessHistory: Array<{ toMultiMapId: string; sendEmail: boolean }>;
}

export function serviceSubmissions(url: string): Promise<ServiceSubmission[]> {
  return inspect<ServiceSubmission>(url, 'submissions', 'submissions');
}

export function serviceMail(url: string): Promise<Array<{ processId: string; to: string }>> {
  return inspect(url, 'mail', 'mail');
}

export async function serviceMultiMaps(url: string): Promise<Array<{ id: string; name: string }>> {
  const response = await fetch(`${url}/_sandbox/state`);
  const state = (await response.json()) as { multiMaps?: Array<{ id: string; name: string }> };
  return state.multiMaps ?? [];
}
