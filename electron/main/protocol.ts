// The app:// scheme that serves dist/renderer to the window. A standard, secure scheme gives the
// page a real origin (app://sitewalk) for CSP 'self' and the IPC sender check, without file://'s
// broad access. The file lookup is the browser host's, so both refuse traversal the same way.
// app://sitewalk/tiles/{basemapId}/{z}/{x}/{y} are the map's tiles, from the same basemaps the browser host
// serves them from (fetched with net.fetch, kept in the data folder for offline use).
import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { lookupStatic } from '../browser-host/static-files';
import { CONTENT_SECURITY_POLICY } from '../browser-host/content-security-policy';
import { answerTile, tileHeaders, type TileCache, type TileProvider } from '../core/tiles';
import { APP_HOST, APP_SCHEME } from './security';

/**
 * Must run before the app is ready (Electron's rule for privileged schemes). corsEnabled lets
 * Chromium load the page's module scripts (fetched in CORS mode) from this scheme.
 */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
  ]);
}

export interface AppProtocolOptions {
  rendererDir: string;
  /** Serves /tiles/{basemapId}/{z}/{x}/{y} and /tiles/{z}/{x}/{y}; without it those paths are 404. */
  tiles?: TileCache | TileProvider;
}

function securityHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
}

/** Answers one app:// request: a file of the built renderer, or a plain 404/405. */
export async function serveAppRequest(request: Request, options: AppProtocolOptions): Promise<Response> {
  const url = new URL(request.url);
  const plain = (status: number, text: string) =>
    new Response(text, { status, headers: securityHeaders('text/plain; charset=utf-8') });
  if (url.host !== APP_HOST) return plain(404, 'Not found.');
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed.');
  if (url.pathname === '/tiles' || url.pathname.startsWith('/tiles/')) return serveTile(request, url.pathname, options);
  const found = await lookupStatic(options.rendererDir, url.pathname);
  if (found.kind === 'bad-request') return plain(400, 'Bad path.');
  if (found.kind === 'not-found') {
    const missingPage = url.pathname === '/' || url.pathname === '/index.html';
    return plain(missingPage ? 503 : 404, missingPage ? 'The Sitewalk interface has not been built. Run "npm run build".' : 'Not found.');
  }
  const body = request.method === 'HEAD' ? null : await readFile(found.path);
  return new Response(body, { status: 200, headers: securityHeaders(found.contentType) });
}

/** A map tile from the cache; a miss is an error status, which Leaflet turns into the grid. */
async function serveTile(request: Request, path: string, options: AppProtocolOptions): Promise<Response> {
  if (!options.tiles) return new Response('No map tiles here.', { status: 404, headers: { ...securityHeaders('text/plain; charset=utf-8'), 'Cache-Control': 'no-store' } });
  const answer = await answerTile(options.tiles, path);
  if (!answer.ok) return new Response(answer.message, { status: answer.status, headers: { ...securityHeaders('text/plain; charset=utf-8'), 'Cache-Control': 'no-store' } });
  const headers = { ...securityHeaders(answer.contentType), ...tileHeaders(answer) };
  return new Response(request.method === 'HEAD' ? null : Uint8Array.from(answer.bytes), { status: 200, headers });
}

export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, options: AppProtocolOptions): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, options));
}
