// The one adapter between the core facade and the renderer contract (electron/api.ts), used by both
// hosts: the Electron IPC handler and the browser host's HTTP routes call `dispatch`, which checks the
// method name and arguments against API_METHODS before anything reaches the core. Views are built
// here from core objects and never carry a key; settings live in the core's key-value store.
import { z } from 'zod';
import { API_METHODS, type ApiEvent, type ApiMethod, type SettingsView, type SitewalkApi } from '../api';

export type HostKind = 'electron' | 'browser';

/** A call refused at the boundary: nothing reached the core. */
export class HostApiError extends Error {
  constructor(
    readonly code: 'unknown-method' | 'bad-arguments',
    message: string,
  ) {
    super(message);
    this.name = 'HostApiError';
  }
}

export interface HostApi {
  api: SitewalkApi;
  /** Every ApiEvent, in the order the core emitted the changes. Returns the unsubscribe. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Validates `method` and `args` (an array) with API_METHODS, then calls the api. */
  dispatch(method: string, args: unknown): Promise<unknown>;
}

export function isApiMethod(method: string): method is ApiMethod {
  return Object.hasOwn(API_METHODS, method);
}

/** Checks one call against its schema and runs it; refusals are HostApiErrors with a sentence. */
export async function dispatchCall(api: SitewalkApi, method: string, args: unknown): Promise<unknown> {
  if (typeof method !== 'string' || !isApiMethod(method)) {
    const shown = String(method).slice(0, 60);
    throw new HostApiError('unknown-method', `There is no API method named "${shown}".`);
  }
  if (!Array.isArray(args)) throw new HostApiError('bad-arguments', `${method}: the arguments must be a JSON array.`);
  const schema: z.ZodType<unknown[]> = API_METHODS[method];
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw new HostApiError('bad-arguments', `${method}: ${describeIssues(parsed.error)}`);
  const call = api[method] as (...callArgs: unknown[]) => Promise<unknown>;
  return call.apply(api, parsed.data);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const [position, ...rest] = issue.path;
      const where =
        typeof position === 'number'
          ? `argument ${position + 1}${rest.length > 0 ? ` (${rest.join('.')})` : ''}`
          : 'the argument list';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

// ---------- content security policy (the same for both hosts) ----------

/**
 * The origin a tile URL template loads from, as a CSP source, or null when it cannot be expressed
 * (CSP allows a wildcard only as the whole leftmost label, so `{s}.tile.example.org` becomes
 * `*.tile.example.org`).
 */
export function tileOrigin(tileUrl: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!.toLowerCase();
  const portMatch = /:(\d{1,5})$/.exec(authority);
  const host = portMatch ? authority.slice(0, -portMatch[0].length) : authority;
  const labels = host.split('.');
  const mapped = labels.map((label, index) => (label.includes('{') ? (index === 0 ? '*' : null) : label));
  if (mapped.some((label) => label === null || label === '')) return null;
  const cspHost = mapped.join('.');
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(cspHost) && !/^\[[0-9a-f:.]+\]$/.test(cspHost)) return null;
  return `${scheme}://${cspHost}${portMatch ? `:${portMatch[1]}` : ''}`;
}

/**
 * The page's policy: our own scripts only (no inline, no eval), inline styles for Leaflet, images
 * from us, data: URLs and the configured tile server, and network access to our own origin only.
 */
export function contentSecurityPolicy(settings: Pick<SettingsView, 'tileUrl'>): string {
  const tiles = tileOrigin(settings.tileUrl);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${tiles ? ` ${tiles}` : ''}`,
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

// ---------- a running backend, as both hosts hold it ----------

/** Where API keys are kept (the core's SecretStore shape; 'safe-storage' is implemented by the Electron host). */
export interface SecretStore {
  readonly kind: 'safe-storage' | 'os-keyring' | 'session-only';
  get(profileId: string): Promise<string | null>;
  set(profileId: string, key: string): Promise<void>;
  delete(profileId: string): Promise<void>;
  has(profileId: string): Promise<boolean>;
}

/** The core plus its renderer adapter, as a host starts and stops it. */
export interface HostBackend {
  hostApi: HostApi;
  /** A connectivity hint from the host (Electron: net.isOnline()); the core still probes itself. */
  setOnline(online: boolean): void;
  syncNow(): Promise<void>;
  /** Flushes the outbox, stops the sandbox; safe to call twice. */
  close(): Promise<void>;
}
