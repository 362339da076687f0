// The client's transport in plain Node (the browser host and the CLI): undici — the engine under
// Node's own fetch — through its request API on a keep-alive connection pool, answering in the shape
// the client reads from any fetch (status, headers.get, a body to stream). The same engine means the
// same error codes as fetch (ECONNREFUSED before anything was sent, UND_ERR_SOCKET after), so the
// client's "was it sent?" reading is unchanged; skipping fetch's WHATWG Request/Response layers
// roughly halves the CPU a call costs. The Electron host passes net.fetch instead (system proxies).
// Cheap per call: an endpoint's URL is parsed once (the pool is addressed by origin and path, so
// undici parses nothing), and the call's time limit is handed to undici's own header and body
// timers, which run for every request anyway (the client's deadline.ts watches the whole call).
// Keep-alive: idle connections are kept briefly (idle-connections.ts); one found too old by the clock
// when a request is due is closed before the request is written, and the request goes on another.
import { Agent, request } from 'undici';
import { createIdleGuard, KEEP_ALIVE, StaleConnectionError } from './idle-connections';
import type { Transport, TransportInit, TransportResponse } from './types';

const CONNECTIONS = 32;

type Target = { origin: string; path: string };

/** Parsed endpoints by URL without query; a handful per profile, bounded all the same. */
const targets = new Map<string, Target | null>();
const MAX_TARGETS = 256;

/** A query our encoder wrote (formEncodeParams): characters the URL parser leaves as they are. */
const PLAIN_QUERY = /^[\w.~%&=+!()*-]*$/;

/** Origin and path of an http(s) URL, parsed once per endpoint; null: let undici read it (and refuse it). */
function targetOf(url: string): Target | null {
  const cut = url.indexOf('?');
  const base = cut < 0 ? url : url.slice(0, cut);
  let target = targets.get(base);
  if (target === undefined) {
    target = parseTarget(base);
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(base, target);
  }
  if (target === null || cut < 0) return target;
  const query = url.slice(cut + 1);
  return PLAIN_QUERY.test(query) ? { origin: target.origin, path: `${target.path}?${query}` } : null;
}

function parseTarget(base: string): Target | null {
  if (base.includes('#')) return null;
  try {
    const parsed = new URL(base);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search !== '' || parsed.username !== '' || parsed.password !== '') return null;
    return { origin: parsed.origin, path: parsed.pathname };
  } catch {
    return null;
  }
}

const UNDICI_BACKSTOP_MS = 1_000;

export interface NodeTransportOptions {
  /** A monotonic clock in milliseconds (default performance.now); tests pass their own. */
  now?: () => number;
  /** Connections per origin (default 32); tests use 1, so which connection a request takes is known. */
  connections?: number;
}

export type ClosableTransport = Transport & { close(): Promise<void> };

/** A transport with its own connection pool; the process's is `nodeTransport`. */
export function createNodeTransport(options: NodeTransportOptions = {}): ClosableTransport {
  const guard = createIdleGuard(options.now ?? (() => performance.now()));
  const connections = options.connections ?? CONNECTIONS;
  const pool = new Agent({
    connect: guard.connect,
    keepAliveTimeout: KEEP_ALIVE.defaultMs,
    keepAliveTimeoutThreshold: KEEP_ALIVE.marginMs,
    keepAliveMaxTimeout: KEEP_ALIVE.maxMs,
    connections,
  });
  async function sendOnce(url: string, init: TransportInit): Promise<TransportResponse> {
    const response = await send(pool, url, init);
    guard.noteAnswer(response.origin, response.headers.get('keep-alive'));
    return response;
  }
  async function sendFresh(url: string, init: TransportInit): Promise<TransportResponse> {
    // A refusal closed a stale connection and wrote nothing, so sending again is safe. Another idle
    // connection of the pool may be as old: each refusal closes one, so this ends by the pool's size.
    for (let refused = 0; ; refused++) {
      try {
        return await sendOnce(url, init);
      } catch (error) {
        if (!(error instanceof StaleConnectionError) || refused >= connections) throw error;
      }
    }
  }
  return Object.assign(sendFresh, { ownTimeouts: true as const, close: () => pool.close() });
}

async function send(pool: Agent, url: string, init: TransportInit): Promise<TransportResponse & { origin: string }> {
  const target = targetOf(url);
  const options = {
    method: (init.method ?? 'GET') as 'GET' | 'POST',
    headers: init.headers as Record<string, string> | undefined,
    body: typeof init.body === 'string' ? init.body : undefined,
    // An AbortSignal or the client's CallStop: undici reads `aborted`, `reason` and abort listeners.
    signal: init.signal ?? undefined,
    // The call's deadline (deadline.ts) is the time limit. undici arms its header and body timers for
    // every request anyway: set them a second past the deadline as a backstop, never at it — undici's
    // timers over a second tick every 499 ms and can fire up to a tick early, which ended a 900 ms
    // call at 640 ms as "no answer within 0.9 s".
    ...(init.timeoutMs !== undefined ? { headersTimeout: init.timeoutMs + UNDICI_BACKSTOP_MS, bodyTimeout: init.timeoutMs + UNDICI_BACKSTOP_MS } : {}),
    // undici's request API never follows a redirect: a 3xx comes back as it is (the client refuses it).
  };
  const answer = target ? await pool.request({ ...options, origin: target.origin, path: target.path }) : await request(url, { ...options, dispatcher: pool });
  const headers = answer.headers;
  return {
    origin: target?.origin ?? new URL(url).origin,
    status: answer.statusCode,
    statusText: '',
    type: 'basic',
    headers: {
      get(name: string): string | null {
        const value = headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: answer.body,
  };
}

/** The transport of the browser host and the CLI: one pool for every service the process talks to. */
export const nodeTransport: Transport = createNodeTransport();
