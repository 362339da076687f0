// The sandbox as the wire-layer tests use it: started in-process on a random loopback port, a
// client per binding pointed at it, and reads of its inspection endpoint (/_sandbox/…) to check
// what really reached the service.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { createServiceClient } from '../../../electron/core/service/client';
import type { Binding, ServiceClient } from '../../../electron/core/service/types';

export async function startTestSandbox(): Promise<RunningSandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo' });
}

/**
 * One sandbox for the tests of a file: started before the first and closed after the last; before each
 * test its faults are turned off and its demo data put back. `started` is handed the running sandbox.
 */
export function sandboxPerFile(started: (sandbox: RunningSandbox) => void): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    started(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => {
    sandbox?.setFaults({});
    sandbox?.reset('demo');
  });
}

export interface SandboxClientOptions {
  key?: string;
  account?: string;
  timeoutMs?: number;
  /** The client's binding fallback; unset, the client's default. */
  bindingFallback?: boolean;
}

export function clientFor(sandbox: RunningSandbox, binding: Binding, options: SandboxClientOptions = {}): ServiceClient {
  return createServiceClient({
    connection: { baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, binding },
    credentials: () => ({ account: options.account ?? sandbox.demo.account, key: options.key ?? sandbox.demo.key }),
    timeoutMs: options.timeoutMs ?? 15_000,
    ...(options.bindingFallback === undefined ? {} : { bindingFallback: options.bindingFallback }),
  });
}

/** JSON from the inspection endpoint; throws with the answer on a non-2xx. */
export async function inspect<T = unknown>(sandbox: RunningSandbox, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path.replace(/^\//, '')}`, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} /_sandbox/${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text === '' ? null : JSON.parse(text)) as T;
}
