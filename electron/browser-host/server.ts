// The browser host: the built renderer and the renderer contract on loopback HTTP, for machines
// where Electron cannot run. It listens on 127.0.0.1 only; every /api request needs the per-run
// token (Authorization: Bearer), a Host of 127.0.0.1/localhost:<port> and, when sent, our own
// Origin. No CORS headers are ever sent, so no other page can read an answer. The token is never
// logged: log lines (refusals, failures) carry the method and path only, never headers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BODY_LIMITS, type ApiEvent, type ApiMethod } from '../shared/contract/index';
import { HostApiError, type HostApi } from '../core/host-api';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { answerTile, tileHeaders, type TileCache, type TileProvider } from '../core/tiles';
import { closeAfterAnswer, readBody } from '../node/http-body';
import { checkRequestSource, createToken, hasTileCookie, hasToken, tileCookieName } from './guards';
import { lookupStatic, openStatic } from './static-files';

export const LOOPBACK = '127.0.0.1';
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const HEARTBEAT_MS = 20_000;

export interface BrowserHostOptions {
  hostApi: HostApi;
  /** The built renderer (index.html + assets). A missing folder is answered with a 503 page. */
  staticDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Only '127.0.0.1' is accepted: the API must never be reachable from another machine. */
  host?: string;
  /** Largest accepted API request body; above it the answer is 413 and nothing runs. */
  bodyLimitBytes?: number;
  /**
   * Serves /tiles/{basemapId}/{z}/{x}/{y} and /tiles/{z}/{x}/{y} (the map's tiles: the backend's
   * basemaps, or a bare cache); without it those paths are 404.
   */
  tiles?: TileCache | TileProvider;
  /** Supplied by tests; a fresh random one otherwise. */
  token?: string;
  log?: (line: string) => void;
}

export interface RunningBrowserHost {
  /** http://127.0.0.1:PORT (no token). */
  origin: string;
  port: number;
  address: AddressInfo;
  token: string;
  /** What the user opens: the origin with the token in the fragment (never sent to any server). */
  pageUrl: string;
  close(): Promise<void>;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<RunningBrowserHost> {
  const host = options.host ?? LOOPBACK;
  if (host !== LOOPBACK) {
    throw new Error(`The browser host listens on ${LOOPBACK} only; refusing "${host}" (the API must not be reachable from other machines).`);
  }
  const token = options.token ?? createToken();
  // For /tiles/ only (never the API): given to whoever holds the token, in a cookie the page's images send.
  const tileSecret = createToken();
  const log = options.log ?? (() => undefined);
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const { hostApi, staticDir } = options;

  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let port = 0;

  // The core's events are listened to only while a page's event stream is open: with nobody
  // listening the core builds no views of what it changes (an import nobody watches made a view of
  // every row's entry and site) and there is no frame to make. A page that connects starts from the
  // current status and loads its lists, as after any reconnect.
  let unsubscribe: (() => void) | null = null;
  const send = (event: ApiEvent) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const stream of streams) stream.write(frame);
  };

  function baseHeaders(response: ServerResponse): void {
    response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('X-Frame-Options', 'DENY');
    response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  }

  // The packed site list is the largest answer (megabytes at 50,000 sites) and the one the page's first
  // paint waits for; the core hands out the same object until a site changes (sites.listPacked), so
  // its JSON is made (and encoded) once per object and kept with it.
  const packedBodies = new WeakMap<object, Buffer>();
  const packedBody = (value: object): Buffer => {
    let bytes = packedBodies.get(value);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify({ value }), 'utf8');
      packedBodies.set(value, bytes);
    }
    return bytes;
  };

  function sendJson(response: ServerResponse, status: number, body: unknown, text: string | Buffer = JSON.stringify(body)): void {
    response.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
    });
    response.end(text);
  }

  /** An answer that is bytes (sitePositions) goes as they are: JSON would spell each number out. */
  function sendBytes(response: ServerResponse, bytes: Uint8Array): void {
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.byteLength, 'Cache-Control': 'no-store' });
    response.end(bytes);
  }

  function sendError(response: ServerResponse, status: number, code: string, message: string): void {
    sendJson(response, status, { error: { code, message } });
  }

  async function serveStatic(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      sendError(response, 405, 'method-not-allowed', 'Only GET and HEAD are served here.');
      return;
    }
    const found = await lookupStatic(staticDir, path);
    if (found.kind === 'bad-request') return sendError(response, 400, 'bad-path', 'This path cannot be read.');
    if (found.kind === 'not-found') {
      if (path === '/' || path === '/index.html') {
        // The page itself is missing: say how to get it rather than a bare 404.
        const text = 'The Sitewalk interface has not been built yet. Run "npm run build" and reload.\n';
        response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        response.end(text);
        return;
      }
      return sendError(response, 404, 'not-found', 'There is no such file.');
    }
    response.writeHead(200, {
      'Content-Type': found.contentType,
      'Content-Length': found.size,
      'Cache-Control': 'no-cache',
    });
    if (request.method === 'HEAD') return void response.end();
    const stream = openStatic(found.path);
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  }

  async function serveCall(request: IncomingMessage, response: ServerResponse, method: string): Promise<void> {
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return sendError(response, 405, 'method-not-allowed', 'API methods are called with POST.');
    }
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/octet-stream' && method === 'openBulkFile') return serveUpload(request, response);
    if (type !== 'application/json') {
      return sendError(response, 415, 'unsupported-media-type', 'The arguments must be sent as application/json.');
    }
    // A file for bulk work may be far larger than any other call.
    const limit = Math.max(bodyLimit, Object.hasOwn(BODY_LIMITS, method) ? (BODY_LIMITS[method as ApiMethod] ?? 0) : 0);
    const body = await readBody(request, limit);
    if (body === 'too-large') {
      closeAfterAnswer(request, response);
      return sendError(response, 413, 'too-large', `The request is larger than ${limit} bytes; nothing was done.`);
    }
    let args: unknown = [];
    if (body.length > 0) {
      try {
        args = JSON.parse(body.toString('utf8'));
      } catch {
        return sendError(response, 400, 'bad-json', 'The arguments are not valid JSON.');
      }
    }
    try {
      const value = await hostApi.dispatch(method, args);
      if (method === 'listSitesPacked' && typeof value === 'object' && value !== null) sendJson(response, 200, null, packedBody(value));
      else if (value instanceof Uint8Array) sendBytes(response, value);
      else sendJson(response, 200, { value: value ?? null });
    } catch (error) {
      if (error instanceof HostApiError) return sendError(response, 400, error.code, error.message);
      log(`browser-host: ${method} failed: ${error instanceof Error ? error.message : String(error)}`);
      sendError(response, 500, 'internal', 'Sitewalk could not complete this request; details are in its log.');
    }
  }

  /**
   * openBulkFile with the file as the raw body (its name percent-encoded in X-Sitewalk-File-Name):
   * written to a held file as it arrives, never whole in memory. Past the limit — declared or found —
   * the answer is 413 with the sentence, nothing more is kept and the connection closes (closeAfterAnswer).
   */
  async function serveUpload(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let name: string;
    try {
      name = decodeURIComponent(String(request.headers['x-sitewalk-file-name'] ?? '')).slice(0, 500);
    } catch {
      return sendError(response, 400, 'bad-name', 'The file name is not percent-encoded UTF-8.');
    }
    const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
    const answer = await hostApi.receiveBulkFile(name, request, declared !== null && Number.isFinite(declared) ? declared : null);
    if ('tooLarge' in answer) {
      closeAfterAnswer(request, response);
      return sendError(response, 413, 'too-large', answer.tooLarge);
    }
    sendJson(response, 200, { value: answer });
  }

  async function serveEvents(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'GET') {
      response.setHeader('Allow', 'GET');
      return sendError(response, 405, 'method-not-allowed', 'Events are read with GET.');
    }
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    response.flushHeaders();
    streams.add(response);
    unsubscribe ??= hostApi.onEvent(send);
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const forget = () => {
      clearInterval(heartbeat);
      streams.delete(response);
      if (streams.size === 0) {
        unsubscribe?.();
        unsubscribe = null;
      }
    };
    request.on('close', forget);
    response.on('close', forget);
    // Every subscription starts from the current status, so a page that reconnects is up to date.
    try {
      const status: ApiEvent = { type: 'status', status: await hostApi.api.getStatus() };
      if (streams.has(response)) response.write(`data: ${JSON.stringify(status)}\n\n`);
    } catch (error) {
      log(`browser-host: status for a new event stream failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A map tile. An <img> cannot send the token, so the page's API calls give it the tile cookie; a
   * request with neither (another local user, another program) is 401, for the tiles say where the
   * user has been. Only our own page may load one (Sec-Fetch-Site, set by the browser), so no other
   * site can use Sitewalk as a tile proxy either.
   */
  async function serveTile(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return sendError(response, 405, 'method-not-allowed', 'Map tiles are read with GET.');
    }
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') {
      log(`browser-host: refused ${request.method} ${path.slice(0, 200)}: Sec-Fetch-Site ${String(site).slice(0, 20)}`);
      return sendError(response, 403, 'forbidden', 'Map tiles are served to the Sitewalk page only.');
    }
    if (!hasToken(request.headers, token) && !hasTileCookie(request.headers, port, tileSecret)) {
      log(`browser-host: refused ${request.method} ${path.slice(0, 200)}: no session token or tile cookie`);
      return sendError(response, 401, 'unauthorized', 'Map tiles are served to the Sitewalk page only; open the address Sitewalk printed.');
    }
    if (!options.tiles) return sendError(response, 404, 'not-found', 'This host serves no map tiles.');
    const answer = await answerTile(options.tiles, path);
    if (!answer.ok) return sendError(response, answer.status, answer.reason, answer.message);
    response.writeHead(200, tileHeaders(answer));
    response.end(request.method === 'HEAD' ? undefined : answer.bytes);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    baseHeaders(response);
    const refusal = checkRequestSource(request.headers, port);
    const rawUrl = request.url ?? '/';
    const path = rawUrl.split('?')[0]!.split('#')[0]!;
    if (refusal) {
      log(`browser-host: refused ${request.method ?? '?'} ${path.slice(0, 200)}: ${refusal.reason}`);
      return sendError(response, refusal.status, 'forbidden', refusal.reason);
    }

    if (path === '/api' || path.startsWith('/api/')) {
      if (!hasToken(request.headers, token)) {
        log(`browser-host: refused ${request.method ?? '?'} ${path.slice(0, 200)}: no valid session token`);
        response.setHeader('WWW-Authenticate', 'Bearer realm="sitewalk"');
        return sendError(response, 401, 'unauthorized', 'This request lacks the session token; open the address Sitewalk printed.');
      }
      if (!hasTileCookie(request.headers, port, tileSecret)) {
        response.setHeader('Set-Cookie', `${tileCookieName(port)}=${tileSecret}; Path=/tiles; HttpOnly; SameSite=Strict`);
      }
      const name = path.slice('/api/'.length);
      if (name === 'events') return serveEvents(request, response);
      return serveCall(request, response, name);
    }
    if (path === '/tiles' || path.startsWith('/tiles/')) return serveTile(request, response, path);
    return serveStatic(request, response, path);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`browser-host: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) sendError(response, 500, 'internal', 'Sitewalk could not complete this request.');
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen({ port: options.port ?? 0, host }, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  const origin = `http://${LOOPBACK}:${port}`;
  log(`browser-host: listening on ${origin}`);
  // Ready before the page asks: the page is still loading its scripts.
  const warm = setImmediate(() => {
    hostApi.dispatch('listSitesPacked', []).then(
      (value) => {
        if (typeof value === 'object' && value !== null) packedBody(value);
      },
      () => undefined,
    );
  });

  let closing: Promise<void> | null = null;
  return {
    origin,
    port,
    address,
    token,
    pageUrl: `${origin}/#token=${token}`,
    close() {
      closing ??= new Promise<void>((resolveClose) => {
        clearImmediate(warm);
        unsubscribe?.();
        unsubscribe = null;
        for (const stream of streams) stream.end();
        streams.clear();
        server.close(() => resolveClose());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
