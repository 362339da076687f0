// The renderer's single way to the main process, whichever host serves the page: in Electron the
// preload's `window.sitewalk` bridge (IPC), in a browser the browser host's HTTP API. The UI calls
// getApi() and onApiEvent() and never learns which one it has, nor ever sees the API key.
import type { ApiEvent, SitewalkApi, SitewalkBridge } from '../../../electron/shared/contract/index';
import { apiFromBridge, createHttpBridge, takeToken } from './http-bridge';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a browser. */
    sitewalk?: SitewalkBridge;
  }
}

export { ApiCallError } from './http-bridge';

let bridge: SitewalkBridge | null = null;
let api: SitewalkApi | null = null;
const sessionProblems = new Set<(message: string) => void>();

function currentBridge(): SitewalkBridge {
  if (bridge) return bridge;
  if (window.sitewalk) {
    bridge = window.sitewalk;
  } else {
    let storage: Storage | null = null;
    try {
      storage = window.sessionStorage;
    } catch {
      storage = null;
    }
    const token = takeToken({ location: window.location, history: window.history, storage });
    bridge = createHttpBridge({
      token,
      onStreamProblem: (message) => {
        for (const listener of sessionProblems) listener(message);
      },
    });
  }
  return bridge;
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
 * Told when the page can no longer reach its host (browser host restarted with a new token): the UI
 * can say so instead of silently showing stale data.
 */
export function onSessionProblem(listener: (message: string) => void): () => void {
  sessionProblems.add(listener);
  return () => sessionProblems.delete(listener);
}

// Take the token out of the address bar as soon as the app loads, not at the first call.
if (typeof window !== 'undefined' && !window.sitewalk) currentBridge();
