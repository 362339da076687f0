// Shared set-up for the host tests: a real core in a temp data dir behind the real browser host on a
// random loopback port, a raw HTTP client that can send any Host/Origin header (fetch cannot), and
// cleanup that leaves no server, core lock or temp dir behind.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost, type RunningBrowserHost } from '../../electron/browser-host/server';
import { openHostBackend, type HostBackend } from '../../electron/core/host-api';
import { createSessionSecretStore } from '../../electron/core/profiles/session';

export interface TestHost {
  host: RunningBrowserHost;
  backend: HostBackend;
  dataDir: string;
  staticDir: string;
  /** Every line the host and the core logged. */
  logs: string[];
  close(): Promise<void>;
}

/** A built-renderer stand-in: an index page and one script, enough to check serving and headers. */
async function writeStaticSite(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body>Sitewalk</body></html>');
  await writeFile(join(dir, 'assets', 'app.js'), 'export const ready = true;\n');
  await writeFile(join(dir, 'assets', 'style.css'), 'body { margin: 0 }\n');
}

export async function startTestHost(options: { withStatic?: boolean } = {}): Promise<TestHost> {
  const root = await mkdtemp(join(tmpdir(), 'sitewalk-host-test-'));
  const dataDir = join(root, 'data');
  const staticDir = join(root, 'renderer');
  if (options.withStatic !== false) await writeStaticSite(staticDir);
  const logs: string[] = [];
  const log = (line: string) => void logs.push(line);
  // Session-only keys: these tests are about the host, not the OS keyring.
  const backend = await openHostBackend({ host: 'browser', dataDir, secretStore: createSessionSecretStore(), log });
  let host: RunningBrowserHost;
  try {
    host = await startBrowserHost({ hostApi: backend.hostApi, staticDir, port: 0, log });
  } catch (error) {
    await backend.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    host,
    backend,
    dataDir,
    staticDir,
    logs,
    async close() {
      await host.close();
      await backend.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = unknown>(): T;
}

/** One HTTP request with exactly the headers given (Host included), to 127.0.0.1:port. */
export function raw(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        // A fresh connection per request: no state carried between checks.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json: <T>() => JSON.parse(body) as T });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}

/** An authorized API call, as the page makes it. */
export function call(test: TestHost, method: string, args: unknown[], headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(test.host.port, {
    method: 'POST',
    path: `/api/${method}`,
    headers: { authorization: `Bearer ${test.host.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(args),
  });
}
