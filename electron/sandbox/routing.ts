// The HTTP front of the sandbox: sends each request to the help pages and WSDL, one of the four
// bindings (whose parameters it reads, then hands the call to calls.ts), or /_sandbox/. Invariants:
// one failing request never takes the server down (each is caught and answered 500), and close()
// ends every socket, hung ones included, then leaves one data file behind.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readBody, TOO_LARGE } from '../node/http-body';
import type { Binding } from '../shared/domain';
import { CallHandler } from './calls';
import { framework, ServiceError } from './errors';
import { documentationFault, proxy503Reply, type FaultConfig } from './faults';
import { handleInspect, INSPECT_PREFIX, json, parseJsonBody, refusal, type InspectHost } from './inspect';
import { isOperationName, type OperationName, type Params } from './operations';
import { PersistentState } from './persistence';
import type { Seed } from './seed';
import type { SandboxState } from './state';
import { httpErrorReply, httpResultReply, parseContentType, readHttpCall, type HttpCallRequest } from './bindings/http';
import { TEXT_HTML, TEXT_PLAIN, TEXT_XML, ok, plainError, writeReply, type Reply } from './bindings/reply';
import { MAX_QUERY_STRING_LENGTH, QUERY_TOO_LONG_MESSAGE, queryTooLongReply } from './bindings/request-validation';
import { decodeSoapBody, readSoapRequest, routeSoap11, routeSoap12Action, soapFaultReply, soapResultReply, type SoapVersion } from './bindings/soap';
import { helpPage, operationHelpPage, wsdlDocument } from './wsdl';

export interface ServerSettings {
  host: string;
  servicePath: string;
  namespace: string;
  dataFile: string | null;
  bodyLimitBytes: number;
  /** ASP.NET's request validation and query-string limit on HTTP GET/POST (see bindings/request-validation.ts). */
  requestValidation: boolean;
  random: () => number;
  log: (line: string) => void;
}

const READ_PARAMETERS_AT = 'System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()';

export class SandboxServer implements InspectHost {
  readonly http: Server;
  private readonly data: PersistentState;
  private readonly calls: CallHandler;
  private readonly sockets = new Set<Socket>();
  private closing = false;

  constructor(
    private readonly settings: ServerSettings,
    initial: SandboxState,
  ) {
    this.data = new PersistentState(settings.dataFile, initial, settings.log);
    this.calls = new CallHandler(settings, this.data);
    this.http = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
      this.handle(req, res).catch((error: unknown) => this.internalError(res, error));
    });
    this.http.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    // A malformed request line or header never reaches a handler: answer 400 and move on.
    this.http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (socket.writable && error.code !== 'ECONNRESET') socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  // InspectHost: what /_sandbox/ may see and change.
  state(): SandboxState {
    return this.data.state();
  }

  commit(): void {
    this.data.commit();
  }

  replaceState(state: SandboxState): void {
    this.data.replaceState(state);
  }

  reset(seed: Seed): void {
    this.data.reset(seed);
  }

  faults(): FaultConfig {
    return this.calls.faults();
  }

  setFaults(faults: FaultConfig): void {
    this.calls.setFaults(faults);
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.http.once('error', onError);
      this.http.listen(port, this.settings.host, () => {
        this.http.off('error', onError);
        const address = this.http.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.calls.stop();
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    // Hung calls and idle keep-alive connections would otherwise hold close() open.
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await this.calls.settled();
    this.data.checkpoint();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const rawQuery = queryAt < 0 ? '' : rawUrl.slice(queryAt + 1);
    const path = safeDecode(rawPath, false);

    if (path === INSPECT_PREFIX || path.startsWith(`${INSPECT_PREFIX}/`)) return this.inspect(req, res, path);

    const servicePath = this.settings.servicePath.toLowerCase();
    const lower = path.toLowerCase();
    const operation = lower.startsWith(`${servicePath}/`) ? path.slice(servicePath.length + 1) : null;
    if (lower !== servicePath && operation === null) {
      return writeReply(res, { status: 404, headers: { 'Content-Type': TEXT_HTML }, body: notFoundPage(path) });
    }
    // ASP.NET refuses an over-long query string before any handler runs.
    if (this.settings.requestValidation && rawQuery.length > MAX_QUERY_STRING_LENGTH) {
      req.resume();
      if (operation !== null && (req.method === 'GET' || req.method === 'POST')) {
        this.calls.log(req.method === 'GET' ? 'http-get' : 'http-post', operation, {}, 'fault', QUERY_TOO_LONG_MESSAGE, 400);
      }
      return writeReply(res, queryTooLongReply());
    }
    if (operation === null) return this.serviceRoot(req, res, rawQuery);
    return this.serviceOperation(req, res, operation, rawQuery);
  }

  private async inspect(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const refused = refusal(req);
    if (refused) {
      req.resume();
      return writeReply(res, refused);
    }
    const raw = await this.readBody(req, res);
    if (raw === null) return;
    const body = parseJsonBody(req, raw);
    if ('status' in body) return writeReply(res, body);
    try {
      writeReply(res, handleInspect(this, req.method ?? 'GET', path, body));
    } catch (error) {
      writeReply(res, json(500, { error: (error as Error).message }));
    }
  }

  /** {service_path} itself: help page, WSDL, or a SOAP call. */
  private async serviceRoot(req: IncomingMessage, res: ServerResponse, rawQuery: string): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      req.resume();
      // The proxy in front answers for the whole service, its pages included.
      if (documentationFault(this.calls.faults(), this.settings.random)) {
        return writeReply(res, proxy503Reply(this.calls.faults()));
      }
      return writeReply(res, this.documentation(req, rawQuery));
    }
    if (req.method !== 'POST') return this.verbNotAllowed(req, res);

    const contentType = parseContentType(req.headers['content-type']);
    const version: SoapVersion | null = contentType.type === 'text/xml' ? '1.1' : contentType.type === 'application/soap+xml' ? '1.2' : null;
    const raw = await this.readBody(req, res);
    if (raw === null) return;
    if (!version) return writeReply(res, plainError(framework(`Request format is invalid: ${req.headers['content-type'] ?? ''}.`, READ_PARAMETERS_AT)));
    const binding: Binding = version === '1.1' ? 'soap11' : 'soap12';
    let operation: OperationName | null = null;
    let params: Params;
    try {
      // SOAP 1.1 is routed on its header before the body is read, like ASMX.
      operation = version === '1.1' ? routeSoap11(headerValue(req.headers.soapaction), this.settings.namespace) : routeSoap12Action(contentType.params.action, this.settings.namespace);
      const request = readSoapRequest(version, decodeSoapBody(raw, contentType.params.charset), this.settings.namespace, operation);
      operation = request.operation;
      params = request.params;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      this.calls.log(binding, operation ?? '(unrouted)', {}, 'fault', error.soapText, 500);
      return writeReply(res, soapFaultReply(version, error));
    }
    const routed = operation;
    await this.calls.serve(res, binding, routed, params, {
      result: (outcome) => soapResultReply(version, this.settings.namespace, routed, outcome.result),
      error: (error) => soapFaultReply(version, error),
      text: (error) => error.soapText,
    });
  }

  /** GET {service_path}: the WSDL, one operation's help page, or the service's help page. */
  private documentation(req: IncomingMessage, rawQuery: string): Reply {
    const { servicePath, namespace } = this.settings;
    const names = rawQuery.split('&').map((part) => part.split('=')[0]!.toLowerCase());
    const host = req.headers.host ?? this.settings.host;
    if (names.includes('wsdl')) return ok(TEXT_XML, wsdlDocument(namespace, `http://${host}${servicePath}`));
    const op = /(?:^|&)op=([^&]*)/i.exec(rawQuery)?.[1];
    const name = op === undefined ? '' : safeDecode(op, true);
    if (isOperationName(name)) return ok(TEXT_HTML, operationHelpPage(servicePath, namespace, name, host));
    return ok(TEXT_HTML, helpPage(servicePath));
  }

  /** {service_path}/<Operation>: the HTTP GET and HTTP POST bindings. */
  private async serviceOperation(req: IncomingMessage, res: ServerResponse, name: string, rawQuery: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST') return this.verbNotAllowed(req, res);
    const binding: Binding = req.method === 'GET' ? 'http-get' : 'http-post';
    if (!isOperationName(name)) {
      req.resume();
      // What ASMX says when HTTP GET/POST are enabled and the name is no method (names are case-sensitive).
      const error = framework(`${name} Web Service method name is not valid.`, 'System.Web.Services.Protocols.HttpServerProtocol.Initialize()');
      this.calls.log(binding, name, {}, 'fault', error.message, 500);
      return writeReply(res, plainError(error));
    }
    const operation = name;
    let request: HttpCallRequest;
    if (binding === 'http-get') {
      req.resume();
      request = { binding, query: rawQuery };
    } else {
      const body = await this.readBody(req, res);
      if (body === null) return;
      request = { binding, contentType: req.headers['content-type'], body };
    }
    let params: Record<string, string>;
    try {
      params = readHttpCall(operation, request, this.settings.requestValidation);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      this.calls.log(binding, operation, {}, 'fault', error.message, 500);
      return writeReply(res, httpErrorReply(error));
    }
    await this.calls.serve(res, binding, operation, params, {
      result: (outcome) => httpResultReply(this.settings.namespace, outcome.result),
      error: (error) => httpErrorReply(error),
      text: (error) => error.message,
    });
  }

  /** The whole body, or null after answering 413 when it exceeds the limit (reading stops there). */
  private async readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
    const limit = this.settings.bodyLimitBytes;
    const body = await readBody(req, limit, {
      response: res,
      onTooLarge: () =>
        writeReply(res, {
          status: 413,
          headers: { 'Content-Type': TEXT_PLAIN, Connection: 'close' },
          body: `Request body too large: the limit is ${limit} bytes.\r\n`,
        }),
    });
    return body === TOO_LARGE ? null : body;
  }

  private verbNotAllowed(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    writeReply(res, {
      status: 405,
      headers: { 'Content-Type': TEXT_PLAIN, Allow: 'GET, POST', 'Cache-Control': 'private' },
      body: `The HTTP verb ${req.method ?? ''} used to access path '${(req.url ?? '').split('?')[0]}' is not allowed.\r\n`,
    });
  }

  private internalError(res: ServerResponse, error: unknown): void {
    this.settings.log(`sandbox: internal error: ${(error as Error)?.stack ?? String(error)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeReply(res, {
      status: 500,
      headers: { 'Content-Type': TEXT_PLAIN, 'Cache-Control': 'private' },
      body: `System.Exception: The sandbox failed on this request: ${(error as Error)?.message ?? String(error)}\r\n   at Sitewalk.Sandbox.Server.Handle()\r\n`,
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** Percent-decoded text (with + as a space in a query), or the text as it is when it does not decode. */
function safeDecode(text: string, plusIsSpace: boolean): string {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}

function notFoundPage(path: string): string {
  const safe = path.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html>\n<html><head><title>The resource cannot be found.</title></head><body><h1>Server Error in '/' Application.</h1><h2>The resource cannot be found.</h2><p>Requested URL: ${safe}</p></body></html>\n`;
}
