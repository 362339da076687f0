// The renderer's bridge when the page is served by the browser host: each call is a POST to
// /api/<method> with the JSON argument array, events come from /api/events read with fetch
// streaming. The per-run token travels in the Authorization header only, never in a URL that a
// server or history would keep; it is taken from the address bar's fragment once and then removed.
// A file for bulk work goes as the raw body of /api/openBulkFile, streamed from disk by the browser.
import type { ApiEvent, ApiMethod, ChosenFile, SitewalkApi, SitewalkBridge } from '../../../electron/shared/contract/index';
import { SseParser } from './sse';

const TOKEN_KEY = 'sitewalk.token';
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

/** What a call says when nothing answers on the host's address: the program serving the page stopped. */
export const HOST_GONE_MESSAGE =
  'Sitewalk is not running: the program that serves this page has stopped. Start it again; if it prints a new address, paste that address into this tab.';

/** An API call the host refused or could not complete; `code` is the host's reason. */
export class ApiCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

interface TokenPlace {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * Reads `#token=…` from the address, removes it from the address bar (so it is not bookmarked,
 * shared in a screenshot or kept in history) and keeps it for this tab only, so a reload still works.
 */
export function takeToken(place: TokenPlace): string | null {
  const hash = place.location.hash.replace(/^#/, '');
  const parts = hash === '' ? [] : hash.split('&');
  const found = parts.find((part) => part.startsWith('token='));
  if (found !== undefined) {
    const token = found.slice('token='.length);
    const rest = parts.filter((part) => part !== found).join('&');
    place.history.replaceState(place.history.state, '', `${place.location.pathname}${place.location.search}${rest ? `#${rest}` : ''}`);
    if (/^[A-Za-z0-9_-]{16,200}$/.test(token)) {
      try {
        place.storage?.setItem(TOKEN_KEY, token);
      } catch {
        // Storage can be disabled; the token then lives for this page load only.
      }
      return token;
    }
  }
  try {
    return place.storage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

export interface HttpBridgeOptions {
  token: string | null;
  /** Absent: the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Told when the event stream cannot be kept open (e.g. the host was restarted). */
  onStreamProblem?: (message: string) => void;
  /**
   * Told `true` when nothing answers on the host's address (a call or the event stream failed
   * below HTTP: the host stopped), `false` when the event stream is open again.
   */
  onHostGone?: (gone: boolean) => void;
}

export interface HttpBridge extends SitewalkBridge {
  /** Stops the event stream and forgets the listeners. */
  close(): void;
  /** A new token (the host was restarted and its new address pasted): calls and events use it from now on. */
  setToken(token: string): void;
}

function isChosenFile(value: unknown): value is ChosenFile {
  return typeof value === 'object' && value !== null && 'file' in value && typeof Blob !== 'undefined' && (value as { file: unknown }).file instanceof Blob;
}

/** A fetch that rejected without an HTTP answer, not because the page cancelled it. */
function isUnreachable(error: unknown): boolean {
  return error instanceof TypeError;
}

/** An answer of more characters than this is parsed only once `holdLargeAnswers`' promise has settled. */
const LARGE_ANSWER_CHARS = 64 * 1024;
let largeAnswersHeld: Promise<void> | null = null;

/**
 * Large JSON answers (the site list of many sites: megabytes at 50,000) arriving before `until` settles are read
 * at once but parsed after it: the page's boot holds them while the first frame of many pins is made,
 * which their parsing and what follows it would otherwise delay. Small answers are never held.
 */
export function holdLargeAnswers(until: Promise<void>): void {
  largeAnswersHeld = until;
  void until.finally(() => {
    if (largeAnswersHeld === until) largeAnswersHeld = null;
  });
}

/** The answer's JSON, or null when it is not JSON (an error page); a large one waits for the hold. */
async function readAnswer(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (largeAnswersHeld && text.length > LARGE_ANSWER_CHARS) await largeAnswersHeld;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function createHttpBridge(options: HttpBridgeOptions): HttpBridge {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const listeners = new Set<(event: ApiEvent) => void>();
  let stream: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryDelay = RECONNECT_MIN_MS;
  let token = options.token;
  let gone = false;

  function hostGone(now: boolean): void {
    if (gone === now) return;
    gone = now;
    options.onHostGone?.(now);
  }

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
  }

  async function call(method: ApiMethod, args: unknown[]): Promise<unknown> {
    // The chosen file itself: the host writes it to disk as it arrives (base64 inside JSON cost the
    // host several times the file in memory).
    const chosen = method === 'openBulkFile' && isChosenFile(args[0]) ? args[0] : null;
    let response: Response;
    try {
      response = await doFetch(`${base}/api/${method}`, {
        method: 'POST',
        headers: headers(
          chosen ? { 'Content-Type': 'application/octet-stream', 'X-Sitewalk-File-Name': encodeURIComponent(chosen.name) } : { 'Content-Type': 'application/json' },
        ),
        body: chosen ? (chosen.file as Blob) : JSON.stringify(args),
        // 'same-origin' so the answer's tile cookie is kept: the map's <img> tiles carry it to /tiles/
        // (it is scoped to that path, so no cookie ever goes to /api/; the token does).
        credentials: 'same-origin',
        cache: 'no-store',
        redirect: 'error',
      });
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      // "Failed to fetch" says nothing to a person: what failed is Sitewalk itself.
      hostGone(true);
      throw new ApiCallError('host-gone', HOST_GONE_MESSAGE, 0);
    }
    // An answer that is bytes (sitePositions) comes as they are.
    if (response.ok && response.headers.get('Content-Type') === 'application/octet-stream') return new Uint8Array(await response.arrayBuffer());
    const body = (await readAnswer(response)) as { value?: unknown; error?: { code?: string; message?: string } } | null;
    // Over the size limit: a refusal of the file, said where the dialog says the others.
    if (chosen && response.status === 413 && body?.error?.message) return { ok: false, issues: [{ field: 'file', message: body.error.message }] };
    if (!response.ok) {
      const message = body?.error?.message ?? `Sitewalk answered HTTP ${response.status}.`;
      throw new ApiCallError(body?.error?.code ?? 'http', message, response.status);
    }
    if (!body || !('value' in body)) throw new ApiCallError('protocol', 'Sitewalk sent an answer this page cannot read.', response.status);
    return body.value;
  }

  function deliver(data: string): void {
    let event: ApiEvent;
    try {
      event = JSON.parse(data) as ApiEvent;
    } catch {
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('Sitewalk event listener failed', error);
      }
    }
  }

  async function openStream(controller: AbortController): Promise<void> {
    const response = await doFetch(`${base}/api/events`, {
      headers: headers({ Accept: 'text/event-stream' }),
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
      signal: controller.signal,
    });
    if (response.status === 401 || response.status === 403) {
      // Another run of the host has another token: retrying cannot help.
      options.onStreamProblem?.(
        'This page still has the address of its last run. Paste the address Sitewalk printed when it started into this tab\'s address bar: the page takes it up at once.',
      );
      controller.abort();
      return;
    }
    if (!response.ok || !response.body) throw new Error(`event stream answered HTTP ${response.status}`);
    retryDelay = RECONNECT_MIN_MS;
    hostGone(false);
    const parser = new SseParser(deliver);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(value);
    }
  }

  function startStream(): void {
    if (stream) return;
    const controller = new AbortController();
    stream = controller;
    openStream(controller)
      .catch((error: unknown) => {
        if (!controller.signal.aborted && isUnreachable(error)) hostGone(true);
      })
      .finally(() => {
        if (stream !== controller) return;
        stream = null;
        if (controller.signal.aborted || listeners.size === 0) return;
        // Dropped (host busy or restarted): try again, backing off up to 30 s; while nothing answers
        // at all, every second, so the page sees the host back as soon as it is.
        retryTimer = setTimeout(() => {
          retryTimer = null;
          if (listeners.size > 0) startStream();
        }, gone ? RECONNECT_MIN_MS : retryDelay);
        retryDelay = Math.min(retryDelay * 2, RECONNECT_MAX_MS);
      });
  }

  function stopStream(): void {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    stream?.abort();
    stream = null;
  }

  return {
    invoke: ((method: ApiMethod, ...args: unknown[]) => call(method, args)) as SitewalkBridge['invoke'],
    onEvent(listener) {
      listeners.add(listener);
      startStream();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stopStream();
      };
    },
    close() {
      listeners.clear();
      stopStream();
    },
    setToken(next) {
      token = next;
      retryDelay = RECONNECT_MIN_MS;
      stopStream();
      if (listeners.size > 0) startStream();
    },
  };
}

/** Every method of the contract; `satisfies` makes a method added to SitewalkApi a compile error here until listed. */
export const API_METHOD_NAMES = Object.keys({
  getStatus: true,
  listProfiles: true,
  saveProfile: true,
  deleteProfile: true,
  useProfile: true,
  setApiKey: true,
  clearApiKey: true,
  testProfile: true,
  listSites: true,
  listSitesPacked: true,
  sitePositions: true,
  saveSite: true,
  addExistingSite: true,
  listOutbox: true,
  listOutboxHistory: true,
  retryEntry: true,
  discardEntry: true,
  getOutboxEntry: true,
  resolveEntry: true,
  syncNow: true,
  reprocessEus: true,
  getRenderingQualities: true,
  getSettings: true,
  saveSettings: true,
  openBulkFile: true,
  previewImport: true,
  getPreviewRows: true,
  getDryRunReport: true,
  startImport: true,
  previewReprocessFile: true,
  startReprocessFile: true,
  getBulkRun: true,
  cancelBulkRun: true,
  getBulkReport: true,
  previewBatchEdit: true,
  applyBatchEdit: true,
  exportSites: true,
  listBasemaps: true,
  useBasemap: true,
  saveBasemapSource: true,
  addBasemapFile: true,
  removeBasemap: true,
  planDownload: true,
  startDownload: true,
  cancelDownload: true,
  listDownloads: true,
  getOfflineTiles: true,
  setOfflineTilesLimit: true,
  clearDownloadedTiles: true,
  getGps: true,
} satisfies Record<ApiMethod, true>) as ApiMethod[];

/** The typed API on top of a bridge: each method forwards its arguments unchanged. */
export function apiFromBridge(bridge: SitewalkBridge): SitewalkApi {
  const invoke = bridge.invoke as (method: ApiMethod, ...args: unknown[]) => Promise<unknown>;
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of API_METHOD_NAMES) api[method] = (...args) => invoke.call(bridge, method, ...args);
  return api as unknown as SitewalkApi;
}
