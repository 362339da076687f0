// The sandbox as the wire-layer tests use it: started in-process on a random loopback port, a
// client per binding pointed at it, and reads of its inspection endpoint (/_sandbox/…) to check
// what really reached the service.
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { createServiceClient } from '../../../electron/core/service/client';
import type { Binding, ServiceClient } from '../../../electron/core/service/types';

export async function startTestSandbox(): Promise<RunningSandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo' });
}

export function clientFor(sandbox: RunningSandbox, binding: Binding, options: { key?: string; account?: string; timeoutMs?: number } = {}): ServiceClient {
  return createServiceClient({
    connection: { baseUrl: sandbox.url, servicePath: sandbox.servicePath, namespace: sandbox.namespace, binding },
    credentials: () => ({ account: options.account ?? sandbox.demo.account, key: options.key ?? sandbox.demo.key }),
    timeoutMs: options.timeoutMs ?? 15_000,
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
