// The browser host as the tests run it: a real core (session-only keys, the built-in sandbox) in a
// temp folder behind the real browser host on a random loopback port, optionally serving map tiles
// the way `npm start` wires them; a raw HTTP client that can send any Host/Origin header (fetch
// cannot); and a close that leaves no server, core lock or temp folder behind.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBrowserHost, type RunningBrowserHost } from '../../electron/browser-host/server';
import { openHostBackend, type HostBackend } from '../../electron/core/host-backend';
import { testCoreOptions } from './core';
import { makeTempDir } from './temp';

export interface TestHost extends RunningBrowserHost {
  backend: HostBackend;
  dataDir: string;
  /** The renderer folder the host serves. */
  staticDir: string;
  /** Every line the host and the core logged. */
  logs: string[];
  /** Closes the host, its tile cache and its core, and removes its folder. */
  close(): Promise<void>;
}

export interface TestHostOptions {
  /** Put a stand-in for the built renderer in staticDir (default true). */
  withStatic?: boolean;
  /**
   * Serve /tiles/ as `npm start` does: every basemap (the street one is the settings' tile server,
   * set to `tileUrl` when given) through the backend's tile cache, with a back-off of `retryAfterMs`
   * and area download progress at most every `progressEveryMs`.
   */
  tiles?: { tileUrl?: string; retryAfterMs?: number; progressEveryMs?: number };
}

/** A built-renderer stand-in: an index page and one script, enough to check serving and headers. */
async function writeStaticSite(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body>Sitewalk</body></html>');
  await writeFile(join(dir, 'assets', 'app.js'), 'export const ready = true;\n');
  await writeFile(join(dir, 'assets', 'style.css'), 'body { margin: 0 }\n');
}

export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const root = await makeTempDir('sitewalk-host-test-');
  const dataDir = join(root.path, 'data');
  const staticDir = join(root.path, 'renderer');
  const logs: string[] = [];
  const log = (line: string) => void logs.push(line);
  // Undone in reverse order by close(), or at once when the start fails half-way.
  const undo: Array<() => unknown> = [() => root.remove()];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    if (options.withStatic !== false) await writeStaticSite(staticDir);
    const tileOptions = options.tiles;
    const backend = await openHostBackend({
      host: 'browser',
      ...testCoreOptions({ dataDir }),
      log,
      ...(tileOptions
        ? {
            tiles: {
              ...(tileOptions.retryAfterMs === undefined ? {} : { cache: { retryAfterMs: tileOptions.retryAfterMs } }),
              ...(tileOptions.progressEveryMs === undefined ? {} : { progressEveryMs: tileOptions.progressEveryMs }),
            },
          }
        : {}),
    });
    undo.push(() => backend.close());
    if (tileOptions?.tileUrl) await backend.hostApi.api.saveSettings({ tileUrl: tileOptions.tileUrl });
    const tiles = tileOptions ? backend.tiles : undefined;
    const host = await startBrowserHost({ hostApi: backend.hostApi, staticDir, port: 0, tiles, log });
    undo.push(() => host.close());
    return { ...host, backend, dataDir, staticDir, logs, close };
  } catch (error) {
    await close();
    throw error;
  }
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

/** The headers of an authorized API call to `host`: its token and a JSON body. */
export function authHeaders(host: Pick<RunningBrowserHost, 'token'>): Record<string, string> {
  return { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };
}

/** An authorized API call, as the page makes it, to the host at `port` with its `token`. */
export function call(host: Pick<RunningBrowserHost, 'port' | 'token'>, method: string, args: unknown[], headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(host.port, {
    method: 'POST',
    path: `/api/${method}`,
    headers: { ...authHeaders(host), ...headers },
    body: JSON.stringify(args),
  });
}
