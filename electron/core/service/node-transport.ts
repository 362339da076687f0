// The client's transport in plain Node (the browser host and the CLI): undici — the engine under
// Node's own fetch — through its request API on a keep-alive connection pool, answering in the shape
// the client reads from any fetch (status, headers.get, a body to stream). The same engine means the
// same error codes as fetch (ECONNREFUSED before anything was sent, UND_ERR_SOCKET after), so the
// client's "was it sent?" reading is unchanged; skipping fetch's WHATWG Request/Response layers
// roughly halves the CPU a call costs. The Electron host passes net.fetch instead (system proxies).
import { Agent, request } from 'undici';
import type { TransportResponse } from './types';

/** One pool for every service the process talks to; idle connections are kept for a few seconds. */
const pool = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000, connections: 32 });

export async function nodeTransport(url: string, init: RequestInit): Promise<TransportResponse> {
  const answer = await request(url, {
    method: (init.method ?? 'GET') as 'GET' | 'POST',
    headers: init.headers as Record<string, string> | undefined,
    body: typeof init.body === 'string' ? init.body : undefined,
    signal: init.signal ?? undefined,
    dispatcher: pool,
    // undici's request API never follows a redirect: a 3xx comes back as it is (the client refuses it).
  });
  const headers = answer.headers;
  return {
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
