// The browser host's gatekeeping, kept apart from the server so each rule reads on its own: the
// per-run token (random, compared in constant time, never logged), the Host check against DNS
// rebinding and the Origin check against other pages. A request passes only with all of them.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** 32 random bytes, base64url: what the page gets in its URL fragment. */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether the Authorization header carries exactly this token. Both sides are hashed first so the
 * comparison takes the same time whatever the length or content of the candidate.
 */
export function hasToken(headers: IncomingHttpHeaders, token: string): boolean {
  const header = headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header.trim());
  const candidate = match?.[1] ?? '';
  const equal = timingSafeEqual(digest(candidate), digest(token));
  return equal && candidate.length > 0;
}

/**
 * The cookie that lets the page's <img> tiles through (an image request cannot carry the token): set
 * on the page's own authorized API calls, sent back by the browser to /tiles/ only, never readable by
 * script. Named by port, so two Sitewalks on one machine keep their own.
 */
export function tileCookieName(port: number): string {
  return `sitewalk-tiles-${port}`;
}

export function hasTileCookie(headers: IncomingHttpHeaders, port: number, secret: string): boolean {
  const cookies = typeof headers.cookie === 'string' ? headers.cookie : '';
  const name = tileCookieName(port);
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name && timingSafeEqual(digest(rest.join('=')), digest(secret))) return true;
  }
  return false;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The Host values a browser sends when it really talks to us: anything else is a rebound name. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** The origins our own page can have (the user may have typed either name). */
export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export type Refusal = { status: 403; reason: string } | null;

/**
 * Host must be ours; Origin, when sent, must be ours; a browser that says the request is
 * cross-site is refused too (Sec-Fetch-Site is set by the browser, not by the page).
 */
export function checkRequestSource(headers: IncomingHttpHeaders, port: number): Refusal {
  const host = (headers.host ?? '').toLowerCase();
  if (!allowedHosts(port).has(host)) return { status: 403, reason: 'This address is not served here (unexpected Host).' };
  const origin = headers.origin;
  if (origin !== undefined && !allowedOrigins(port).has(origin.toLowerCase())) {
    return { status: 403, reason: 'Requests from other pages are refused.' };
  }
  if (headers['sec-fetch-site'] === 'cross-site') return { status: 403, reason: 'Requests from other pages are refused.' };
  return null;
}
