// One request to the tile server, reduced to what the cache needs to decide: an image to keep, "not
// modified" (our copy is still good), unreachable (no connection, DNS, timeout: the next tiles would
// fail the same way) or refused (the server answered, but not with a tile we may keep). Never throws.
import type { FetchLike } from '../service/types';
import { isCacheableType } from './entry';
import { templateAddressIssue } from './template-policy';

export type UpstreamResult =
  | { kind: 'image'; bytes: Buffer; contentType: string; etag: string | null; lastModified: string | null }
  | { kind: 'not-modified' }
  | { kind: 'unreachable'; detail: string }
  | { kind: 'refused'; detail: string };

export interface UpstreamRequest {
  url: string;
  fetch: FetchLike;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** Validators of the copy we hold, for a conditional request. */
  etag?: string | null;
  lastModified?: string | null;
  /** Aborts the request (the cache is closing). */
  signal?: AbortSignal;
}

export async function fetchUpstream(request: UpstreamRequest): Promise<UpstreamResult> {
  // A template saved before the address rules, or an address that became refused: never asked.
  const addressIssue = templateAddressIssue(request.url);
  if (addressIssue) return { kind: 'refused', detail: addressIssue };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const stop = () => controller.abort();
  request.signal?.addEventListener('abort', stop, { once: true });
  if (request.signal?.aborted) controller.abort();
  const headers: Record<string, string> = {
    // The OpenStreetMap tile policy asks every application to say who it is.
    'User-Agent': request.userAgent,
    Accept: 'image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8',
  };
  if (request.etag) headers['If-None-Match'] = request.etag;
  if (request.lastModified) headers['If-Modified-Since'] = request.lastModified;
  try {
    // Redirects are followed only within the tile server's own origin: a tile is never taken from
    // a host the user did not name (a captive portal, a hijacked DNS name's login page…).
    let url = request.url;
    let response = await request.fetch(url, { method: 'GET', headers, signal: controller.signal, redirect: 'manual' });
    for (let hops = 0; REDIRECTS.has(response.status); hops++) {
      await discard(response);
      const location = response.headers.get('location');
      const next = location ? safeUrl(location, url) : null;
      if (!next || hops >= MAX_REDIRECTS) return { kind: 'refused', detail: `the tile server answered HTTP ${response.status} without a usable redirect` };
      if (next.origin !== new URL(request.url).origin) {
        return { kind: 'refused', detail: `the tile server redirected to another host (${next.host}); tiles are only taken from the server in the settings` };
      }
      url = next.href;
      response = await request.fetch(url, { method: 'GET', headers, signal: controller.signal, redirect: 'manual' });
    }
    if (response.status === 304 && (request.etag || request.lastModified)) {
      await discard(response);
      return { kind: 'not-modified' };
    }
    if (response.status !== 200) {
      await discard(response);
      return { kind: 'refused', detail: `the tile server answered HTTP ${response.status}` };
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!isCacheableType(contentType)) {
      await discard(response);
      return { kind: 'refused', detail: `the tile server answered ${contentType || 'without a content type'}, not an image` };
    }
    const bytes = await readCapped(response, request.maxBytes);
    if (bytes === 'too-large') return { kind: 'refused', detail: `the tile is larger than ${request.maxBytes} bytes` };
    if (bytes.length === 0) return { kind: 'refused', detail: 'the tile server answered an empty image' };
    return { kind: 'image', bytes, contentType, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
  } catch (error) {
    if (timedOut) return { kind: 'unreachable', detail: `no answer from the tile server within ${Math.round(request.timeoutMs / 1000)} s` };
    if (request.signal?.aborted) return { kind: 'unreachable', detail: 'the tile cache is closing' };
    return { kind: 'unreachable', detail: describe(error) };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', stop);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;

function safeUrl(location: string, base: string): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** The body, unless it grows past `maxBytes` (a lying or missing Content-Length changes nothing). */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer | 'too-large'> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await discard(response);
    return 'too-large';
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** Node's fetch hides the reason (ENOTFOUND, ECONNREFUSED…) in `cause`. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  const reason = code ?? (typeof cause?.message === 'string' ? cause.message : null);
  return reason ? `${error.message} (${reason})` : error.message;
}
