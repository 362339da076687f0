// The renderer's single way to the main process, whichever host serves the page: in Electron the
// preload's `window.sitewalk` bridge (IPC), in a browser the browser host's HTTP API. The UI calls
// getApi() and onApiEvent() and never learns which one it has, nor ever sees the API key.
import type { ApiEvent, ApiMethod, ChosenFile, SitewalkApi, SitewalkBridge } from '../../../electron/shared/contract/index';
import { apiFromBridge, createHttpBridge, HOST_GONE_MESSAGE, takeToken, type HttpBridge } from './http-bridge';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a browser. */
    sitewalk?: SitewalkBridge;
  }
}

export { ApiCallError, holdLargeAnswers } from './http-bridge';

/**
 * Whether the page can use its host: ok; gone (nothing answers on its address: Sitewalk stopped);
 * session-lost (it answers, but to another token: it was restarted and this page has the old address).
 */
export type HostLink = { state: 'ok' } | { state: 'gone' | 'session-lost'; message: string };

let bridge: SitewalkBridge | null = null;
let httpBridge: HttpBridge | null = null;
let api: SitewalkApi | null = null;
let link: HostLink = { state: 'ok' };
const linkListeners = new Set<(link: HostLink) => void>();

function setLink(next: HostLink): void {
  if (next.state === link.state && (next.state === 'ok' || (link.state !== 'ok' && next.message === link.message))) return;
  link = next;
  for (const listener of [...linkListeners]) listener(link);
}

function tokenPlace(): Parameters<typeof takeToken>[0] {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return { location: window.location, history: window.history, storage };
}

function currentBridge(): SitewalkBridge {
  if (bridge) return bridge;
  if (window.sitewalk) {
    bridge = withFileBytes(window.sitewalk);
  } else {
    let token = takeToken(tokenPlace());
    httpBridge = bridge = createHttpBridge({
      token,
      onStreamProblem: (message) => setLink({ state: 'session-lost', message }),
      onHostGone: (gone) => {
        if (gone) setLink({ state: 'gone', message: HOST_GONE_MESSAGE });
        else if (link.state === 'gone') setLink({ state: 'ok' });
      },
    });
    // After a restart only the #token part of the address changes, and a browser does not reload
    // for that: the new token is taken up here, and the page carries on with it.
    window.addEventListener('hashchange', () => {
      if (!/(?:^#|&)token=/.test(window.location.hash)) return;
      const next = takeToken(tokenPlace());
      if (!next || next === token) return;
      token = next;
      httpBridge?.setToken(next);
      setLink({ state: 'ok' });
    });
  }
  return bridge;
}

/**
 * Electron's IPC cannot carry a File: a chosen file goes as its bytes (a typed array crosses IPC as
 * it is, without the base64 a JSON call needs).
 */
function withFileBytes(preload: SitewalkBridge): SitewalkBridge {
  const invoke = preload.invoke as (method: ApiMethod, ...args: unknown[]) => Promise<unknown>;
  return {
    ...preload,
    invoke: (async (method: ApiMethod, ...args: unknown[]) => {
      const first = args[0] as Partial<ChosenFile> | undefined;
      if (method === 'openBulkFile' && first?.file instanceof Blob) {
        return invoke.call(preload, method, { name: first.name ?? '', bytes: new Uint8Array(await first.file.arrayBuffer()) });
      }
      return invoke.call(preload, method, ...args);
    }) as SitewalkBridge['invoke'],
  };
}

/** Which host serves this page. */
export function hostKind(): 'electron' | 'browser' {
  return window.sitewalk ? 'electron' : 'browser';
}

export function getApi(): SitewalkApi {
  api ??= apiFromBridge(currentBridge());
  return api;
}

/** Where a picked file is on this computer (Electron only), or null: a browser never tells the page. */
export function pathForFile(file: File): string | null {
  const path = window.sitewalk?.pathForFile?.(file) ?? '';
  return path === '' ? null : path;
}

/** Subscribes to the main process's events; returns the unsubscribe. */
export function onApiEvent(listener: (event: ApiEvent) => void): () => void {
  return currentBridge().onEvent(listener);
}

/**
 * Told whenever the page's link to its host changes (Sitewalk stopped, restarted under a new
 * address, or back): the UI says so and holds back what would fail, instead of showing stale data.
 */
export function onHostLink(listener: (link: HostLink) => void): () => void {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
}

/** The link as it stands now. */
export function hostLink(): HostLink {
  return link;
}

// Take the token out of the address bar as soon as the app loads, not at the first call.
if (typeof window !== 'undefined' && !window.sitewalk) currentBridge();
