// Network failures as CallErrors: whether a failed request may have reached the service, decided
// from the error code alone, and the sentence for each kind of failure (refused, not found, TLS,
// timeouts, a connection broken after sending). errors.ts builds every other CallError.
import type { CallError } from './types';
import { boundText, HEADER_BYTES, quote } from './bounded';

// Whether a failed request may have reached the service is decided from the error code alone:
// - 'no' when the failure happens before a byte of the request can have left: name resolution,
//   refused or unreachable connections, connect timeouts, TLS handshake and certificate failures,
//   proxy connection failures, and Electron's equivalents (net::ERR_…).
// - 'maybe' for everything else, unknown codes included: resets, "other side closed", broken pipes.
//
// The stale keep-alive race: when the server closes an idle pooled socket just as a request is
// written to it, the client sees a reset or "other side closed" before any byte of the answer —
// exactly what a server that applied the request and then dropped the connection looks like, so
// such a failure stays 'maybe' (the outbox retries idempotent edits at once and sends creates to
// review). The race is avoided rather than guessed at: undici reads what an idle socket has pending
// before reusing it, and node-transport.ts refuses to write to a connection that the clock says is
// past its keep-alive time (idle-connections.ts) — that refusal, SITEWALK_STALE_CONNECTION, is
// 'no': nothing of the request was written. Electron's net.fetch keeps its own pool.

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA', 'EHOSTUNREACH', 'ENETUNREACH',
  'SITEWALK_STALE_CONNECTION', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL', 'EACCES', 'EPERM', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_INVALID_ARG',
  'ERR_INVALID_URL', 'ERR_INVALID_ARG_VALUE', 'ERR_UNSUPPORTED_PROTOCOL', 'BAD_PORT', 'ERR_INVALID_REQUEST',
  'net::ERR_CONNECTION_REFUSED', 'net::ERR_NAME_NOT_RESOLVED', 'net::ERR_NAME_RESOLUTION_FAILED',
  'net::ERR_INTERNET_DISCONNECTED', 'net::ERR_ADDRESS_UNREACHABLE', 'net::ERR_ADDRESS_INVALID',
  'net::ERR_NETWORK_ACCESS_DENIED', 'net::ERR_PROXY_CONNECTION_FAILED', 'net::ERR_TUNNEL_CONNECTION_FAILED',
  'net::ERR_CONNECTION_TIMED_OUT', 'net::ERR_UNSAFE_PORT', 'net::ERR_BLOCKED_BY_CLIENT', 'net::ERR_INVALID_URL',
  'net::ERR_DISALLOWED_URL_SCHEME', 'net::ERR_UNKNOWN_URL_SCHEME',
]);

const NEVER_RETRY = /^(?:BAD_PORT|ERR_INVALID_REQUEST|ERR_INVALID_URL|ERR_INVALID_ARG_VALUE|ERR_UNSUPPORTED_PROTOCOL|UND_ERR_INVALID_ARG|net::ERR_UNSAFE_PORT|net::ERR_INVALID_URL|net::ERR_(?:DISALLOWED|UNKNOWN)_URL_SCHEME)$/;

function isTlsCode(code: string): boolean {
  return /^(?:CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:VERIFY|GET)_|net::ERR_CERT_|net::ERR_SSL_|net::ERR_BAD_SSL)/.test(code);
}

/** The most specific error code in a fetch rejection (TypeError → cause → AggregateError.errors). */
export function errorCode(error: unknown): string {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const record = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof record.code === 'string' && record.code !== '') return record.code;
    // Node's fetch refuses ports on the Fetch standard's block list before connecting.
    if (record.message === 'bad port') return 'BAD_PORT';
    // Electron's net.fetch puts the Chromium code in the message: "net::ERR_CONNECTION_REFUSED".
    const net = typeof record.message === 'string' ? /net::ERR_[A-Z_]+/.exec(record.message) : null;
    if (net) return net[0];
    if (Array.isArray(record.errors)) {
      for (const inner of record.errors) {
        const code = errorCode(inner);
        if (code !== 'UNKNOWN') return code;
      }
    }
    current = record.cause;
  }
  // A TypeError without a cause is fetch refusing its arguments (a URL with credentials, a bad
  // header value): it is thrown before any connection. Network failures always carry a cause.
  if (error instanceof TypeError && error.cause === undefined && error.message !== 'fetch failed') return 'ERR_INVALID_REQUEST';
  return 'UNKNOWN';
}

/** A rejected fetch (or a failure while reading the body), as a network CallError. */
export function networkError(error: unknown, endpoint: string, host: string): CallError {
  const code = errorCode(error);
  const tls = isTlsCode(code);
  const sent: 'no' | 'maybe' = NOT_SENT_CODES.has(code) || tls ? 'no' : 'maybe';
  let message: string;
  if (code === 'ECONNREFUSED' || code === 'net::ERR_CONNECTION_REFUSED') {
    message = `The service at ${host} refused the connection: it is not running there, or the address in the profile is wrong. Nothing was sent.`;
  } else if (/^(?:ENOTFOUND|EAI_|net::ERR_NAME_)/.test(code)) {
    message = `The address ${host} could not be found: check the internet connection and the base URL in the profile. Nothing was sent.`;
  } else if (tls) {
    message = `A secure connection to ${host} could not be set up (certificate or TLS problem). Nothing was sent. Check the base URL and the computer's date, or ask IT about the network's security filter.`;
  } else if (code === 'BAD_PORT' || code === 'net::ERR_UNSAFE_PORT') {
    message = `The port in the base URL (${host}) is one that web clients refuse to use; the service cannot be on it. Nothing was sent.`;
  } else if (NEVER_RETRY.test(code)) {
    message = 'The service address is not valid: check the base URL and service path in the profile. Nothing was sent.';
  } else if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'net::ERR_CONNECTION_TIMED_OUT') {
    message = `The connection to ${host} could not be opened in time: this computer may be offline. Nothing was sent.`;
  } else if (code === 'SITEWALK_STALE_CONNECTION') {
    message = `The connections to ${host} had been idle too long to be trusted; they were closed before the request was written. Nothing was sent.`;
  } else if (sent === 'no') {
    message = `This computer cannot reach ${host} (no network, or a proxy refused the connection). Nothing was sent.`;
  } else {
    message = `The connection to ${host} broke after the request was sent, so the service may or may not have applied it.`;
  }
  return {
    kind: 'network',
    sent,
    code,
    message,
    detail: `${quote(code, 120)} calling ${endpoint} (request ${sent === 'no' ? 'not sent' : 'possibly received'}): ${boundText(describeThrown(error), { maxBytes: HEADER_BYTES * 2 })}`,
    retryable: !tls && !NEVER_RETRY.test(code),
    quotaExhausted: false,
    authRejected: false,
  };
}

/** "TypeError: fetch failed ← SocketError: other side closed (UND_ERR_SOCKET)". */
export function describeThrown(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && parts.length < 6) {
    seen.add(current);
    if (current instanceof Error || (typeof current === 'object' && 'message' in (current as object))) {
      const record = current as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
      const code = typeof record.code === 'string' || typeof record.code === 'number' ? ` (${String(record.code)})` : '';
      parts.push(`${String(record.name ?? 'Error')}: ${String(record.message ?? '')}${code}`);
      current = record.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(' ← ');
}
