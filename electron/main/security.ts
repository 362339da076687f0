// The Electron host's hardening, in one place so a reviewer can check it against the Electron
// security checklist: the app origin, which external links may leave the app (https only, in the
// system browser), what a page may navigate to or open (nothing outside the app), which permissions
// it gets (geolocation, for the app's own page only) and the CSP header on every response.
import type { Event, HandlerDetails, Session, Shell, WebContents, WindowOpenHandlerResponse } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../browser-host/content-security-policy';

export const APP_SCHEME = 'app';
export const APP_HOST = 'sitewalk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Whether a URL belongs to the app's own pages (served from dist/renderer by the app:// handler). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Links that may leave the app for the system browser: https without credentials, nothing else. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '' && parsed.hostname !== '';
  } catch {
    return false;
  }
}

export type OpenExternal = Pick<Shell, 'openExternal'>;

function openOutside(shell: OpenExternal, url: string, log: (line: string) => void): void {
  if (!isSafeExternalUrl(url)) {
    log(`refused to open a non-https link outside the app (${safeForLog(url)})`);
    return;
  }
  shell.openExternal(url).catch((error: unknown) => log(`could not open a link in the system browser: ${String(error)}`));
}

/** Only the scheme and host of a URL: enough to diagnose, without query strings that may hold data. */
export function safeForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'unparseable URL';
  }
}

/**
 * Applied to every WebContents the app creates: no new windows (https links go to the system
 * browser instead), no navigation or redirect away from the app, no <webview>.
 */
export function hardenWebContents(contents: WebContents, shell: OpenExternal, log: (line: string) => void): void {
  contents.setWindowOpenHandler((details: HandlerDetails): WindowOpenHandlerResponse => {
    openOutside(shell, details.url, log);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event: Event, url: string) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    openOutside(shell, url, log);
  });
  contents.on('will-redirect', (event: Event, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event: Event) => event.preventDefault());
}

/**
 * Permissions: geolocation (the map's "where am I") for the app's own page, everything else refused,
 * both when a page asks and when Chromium merely checks.
 */
export function grantsPermission(permission: string, requestingUrl: string): boolean {
  return (permission === 'geolocation' || permission === 'geolocation-approximate') && isAppUrl(requestingUrl);
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(grantsPermission(permission, details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => grantsPermission(permission, requestingOrigin));
  // The app:// handler sets the same header; this covers every other response the session sees.
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    headers['X-Content-Type-Options'] = ['nosniff'];
    callback({ responseHeaders: headers });
  });
}
