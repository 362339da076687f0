// The HTTP front of the sandbox: routes each request to the WSDL/help pages, one of the four
// bindings, or /_sandbox/; applies injected faults to service calls only; persists every change
// before answering (an applied call as a line of the operation log, anything else by rewriting the
// data file). Invariants: one failing request never takes the server down (each is caught and answered
// 500), a rejected call changes nothing, and close() ends every socket, hung ones included.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { framework, malformedXml, ServiceError, unreadable } from './errors';
import { INJECTED_FAILURE_MESSAGE, latencyFor, pickFault, PROXY_503_PAGE, type FaultConfig, type FaultMode } from './faults';
import { handleInspect, INSPECT_PREFIX, json, parseJsonBody, refusal, type InspectHost } from './inspect';
import { isOperationName, OPERATION_PARAMS, runOperation, type OperationName, type OperationOutcome, type Params } from './operations';
import { deliverPush, submissionXml } from './push';
import { seedState, type Seed } from './seed';
import { CALL_LOG_LIMIT, type CallLogEntry, type PushAttempt, type SandboxState } from './state';
import { loadStateFile, serializeState, writeStateFile } from './store';
import { logLine, OperationLog, operationLogPath, replayOperationLog, type LoggedOperation } from './operation-log';
import { httpErrorReply, httpResultReply, parseUrlEncoded, readHttpParams } from './bindings/http';
import { TEXT_HTML, TEXT_PLAIN, TEXT_XML, ok, plainError, type Reply } from './bindings/reply';
import { readSoapRequest, routeSoap11, routeSoap12Action, soapFaultReply, soapResultReply, type SoapVersion } from './bindings/soap';
import { helpPage, operationHelpPage, wsdlDocument } from './wsdl';

export type BindingName = CallLogEntry['binding'];

export interface ServerSettings {
  host: string;
  servicePath: string;
  namespace: string;
  dataFile: string | null;
  bodyLimitBytes: number;
  random: () => number;
  log: (line: string) => void;
}

/** Calls appended to the operation log before the data file is rewritten whole. */
const CHECKPOINT_AFTER_CALLS = 5_000;

/** How long a response waits for an EUS push before going out anyway. */
const PUSH_WAIT_MS = 1_000;

export class SandboxServer implements InspectHost {
  readonly http: Server;
  private current: SandboxState;
  private faultConfig: FaultConfig = {};
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private readonly pushAbort = new AbortController();
  private readonly pushesInFlight = new Set<Promise<void>>();
  /** Applied calls whose log lines are not written yet, and the calls waiting for them. */
  private pendingLines: string[] = [];
  private pendingWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private flushScheduled = false;
  private readonly operationLog: OperationLog | null;
  private nextCallId = 1;
  private closing = false;

  constructor(
    private readonly settings: ServerSettings,
    initial: SandboxState,
  ) {
    this.current = initial;
    this.operationLog = settings.dataFile ? new OperationLog(operationLogPath(settings.dataFile)) : null;
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

  // ------------------------------------------------------------------------------------------
  // State, persistence, faults (also the InspectHost interface)

  state(): SandboxState {
    return this.current;
  }

  /**
   * Rewrites the data file with the whole state and empties the operation log (which also makes the
   * calls still waiting for their log line durable). On failure the in-memory state returns to
   * what the files hold, those calls are told, and the error is thrown.
   */
  commit(): void {
    if (!this.settings.dataFile) return;
    try {
      writeStateFile(this.settings.dataFile, serializeState(this.current));
      this.operationLog!.clear();
    } catch (error) {
      this.undoUnsaved(error as Error);
      throw new Error(`The sandbox could not save its data file (${(error as Error).message}); the change was undone.`);
    }
    this.pendingLines = [];
    for (const waiter of this.pendingWaiters.splice(0)) waiter.resolve();
  }

  /**
   * Resolves once an applied call is on disk. The calls of one turn of the event loop share one
   * append and one fsync; every few thousand calls the data file is rewritten instead.
   */
  private saveOperation(entry: LoggedOperation): Promise<void> {
    if (!this.operationLog) return Promise.resolve();
    this.pendingLines.push(logLine(entry));
    const saved = new Promise<void>((resolve, reject) => this.pendingWaiters.push({ resolve, reject }));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushOperations());
    }
    return saved;
  }

  private flushOperations(): void {
    this.flushScheduled = false;
    if (this.pendingLines.length === 0 || !this.operationLog) return;
    if (this.operationLog.records + this.pendingLines.length > CHECKPOINT_AFTER_CALLS) {
      try {
        this.commit();
      } catch {
        // commit() told the waiting calls and logged it.
      }
      return;
    }
    try {
      this.operationLog.append(this.pendingLines);
    } catch (error) {
      this.undoUnsaved(error as Error);
      return;
    }
    this.pendingLines = [];
    for (const waiter of this.pendingWaiters.splice(0)) waiter.resolve();
  }

  /** A write failed: back to what the files hold; calls waiting for their line are refused. */
  private undoUnsaved(error: Error): void {
    const calls = this.current.calls;
    const dataFile = this.settings.dataFile!;
    try {
      const onDisk = loadStateFile(dataFile);
      if (onDisk) {
        replayOperationLog(operationLogPath(dataFile), onDisk);
        this.current = { ...onDisk, calls };
      }
    } catch (reloadError) {
      this.settings.log(`sandbox: could not reload ${dataFile} after a failed write: ${(reloadError as Error).message}`);
    }
    this.settings.log(`sandbox: could not write ${dataFile}: ${error.message}; the unsaved changes were undone`);
    this.pendingLines = [];
    const refusal = new Error(`The sandbox could not save its data (${error.message}); the change was undone.`);
    for (const waiter of this.pendingWaiters.splice(0)) waiter.reject(refusal);
  }

  replaceState(state: SandboxState): void {
    const previous = this.current;
    this.current = { ...state, calls: [] };
    try {
      this.commit();
    } catch (error) {
      this.current = previous;
      throw error;
    }
  }

  reset(seed: Seed): void {
    this.replaceState(seedState(seed));
  }

  faults(): FaultConfig {
    return structuredClone(this.faultConfig);
  }

  setFaults(faults: FaultConfig): void {
    this.faultConfig = structuredClone(faults);
  }

  // ------------------------------------------------------------------------------------------
  // Lifecycle

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
    for (const pending of this.timers) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    this.timers.clear();
    this.pushAbort.abort();
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    // Hung calls and idle keep-alive connections would otherwise hold close() open.
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await Promise.allSettled([...this.pushesInFlight]);
    // Leave one data file behind, with nothing to replay.
    if (this.operationLog && (this.operationLog.records > 0 || this.pendingLines.length > 0)) {
      try {
        this.commit();
      } catch {
        // Logged by commit(); what the log holds is replayed at the next start.
      }
    }
  }

  /** A delay that close() cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const pending = {
        timer: setTimeout(() => {
          this.timers.delete(pending);
          resolve();
        }, ms),
        resolve,
      };
      this.timers.add(pending);
    });
  }

  // ------------------------------------------------------------------------------------------
  // Routing

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const rawQuery = queryAt < 0 ? '' : rawUrl.slice(queryAt + 1);
    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      path = rawPath;
    }

    if (path === INSPECT_PREFIX || path.startsWith(`${INSPECT_PREFIX}/`)) return this.inspect(req, res, path);

    const servicePath = this.settings.servicePath.toLowerCase();
    const lower = path.toLowerCase();
    if (lower === servicePath) return this.serviceRoot(req, res, rawQuery);
    if (lower.startsWith(`${servicePath}/`)) return this.serviceOperation(req, res, path.slice(servicePath.length + 1), rawQuery);
    this.send(res, { status: 404, headers: { 'Content-Type': TEXT_HTML }, body: notFoundPage(path) });
  }

  private async inspect(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const refused = refusal(req);
    if (refused) {
      req.resume();
      return this.send(res, refused);
    }
    const raw = await this.readBody(req, res);
    if (raw === null) return;
    const body = parseJsonBody(req, raw);
    if ('status' in body) return this.send(res, body);
    try {
      this.send(res, handleInspect(this, req.method ?? 'GET', path, body));
    } catch (error) {
      this.send(res, json(500, { error: (error as Error).message }));
    }
  }

  /** {service_path} itself: help page, WSDL, or a SOAP call. */
  private async serviceRoot(req: IncomingMessage, res: ServerResponse, rawQuery: string): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const query = rawQuery.split('&').map((part) => part.split('=')[0]!.toLowerCase());
      const host = req.headers.host ?? `${this.settings.host}`;
      if (query.includes('wsdl')) {
        const location = `http://${host}${this.settings.servicePath}`;
        return this.send(res, ok(TEXT_XML, wsdlDocument(this.settings.namespace, location)));
      }
      const op = /(?:^|&)op=([^&]*)/i.exec(rawQuery)?.[1];
      if (op !== undefined && isOperationName(safeDecode(op))) {
        return this.send(res, ok(TEXT_HTML, operationHelpPage(this.settings.servicePath, this.settings.namespace, safeDecode(op) as OperationName, host)));
      }
      return this.send(res, ok(TEXT_HTML, helpPage(this.settings.servicePath)));
    }
    if (req.method !== 'POST') return this.verbNotAllowed(req, res);

    const contentType = parseContentType(req.headers['content-type']);
    const version: SoapVersion | null = contentType.type === 'text/xml' ? '1.1' : contentType.type === 'application/soap+xml' ? '1.2' : null;
    const raw = await this.readBody(req, res);
    if (raw === null) return;
    if (!version) {
      const shown = req.headers['content-type'] ?? '';
      return this.send(res, plainError(framework(`Request format is invalid: ${shown}.`, 'System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()')));
    }
    let operation: OperationName | null = null;
    let params: Params;
    try {
      // SOAP 1.1 is routed on its header before the body is read, like ASMX.
      operation = version === '1.1' ? routeSoap11(headerValue(req.headers.soapaction), this.settings.namespace) : routeSoap12Action(contentType.params.action, this.settings.namespace);
      const text = decodeBody(raw, contentType.params.charset);
      const request = readSoapRequest(version, text, this.settings.namespace, operation);
      operation = request.operation;
      params = request.params;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      this.logCall(version === '1.1' ? 'soap11' : 'soap12', operation ?? '(unrouted)', {}, 'fault', error.soapText, 500);
      return this.send(res, soapFaultReply(version, error));
    }
    await this.serviceCall(res, version === '1.1' ? 'soap11' : 'soap12', operation, params, {
      result: (outcome) => soapResultReply(version, this.settings.namespace, operation, outcome.result),
      error: (error) => soapFaultReply(version, error),
      text: (error) => error.soapText,
    });
  }

  /** {service_path}/<Operation>: the HTTP GET and HTTP POST bindings. */
  private async serviceOperation(req: IncomingMessage, res: ServerResponse, name: string, rawQuery: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST') return this.verbNotAllowed(req, res);
    const binding: BindingName = req.method === 'GET' ? 'http-get' : 'http-post';
    if (!isOperationName(name)) {
      req.resume();
      // What ASMX says when HTTP GET/POST are enabled and the name is no method (names are case-sensitive).
      const error = framework(`${name} Web Service method name is not valid.`, 'System.Web.Services.Protocols.HttpServerProtocol.Initialize()');
      this.logCall(binding, name, {}, 'fault', error.message, 500);
      return this.send(res, plainError(error));
    }
    const operation = name;
    let params: Record<string, string>;
    try {
      let fields: Map<string, string[]>;
      if (binding === 'http-get') {
        req.resume();
        fields = parseUrlEncoded(rawQuery, 'query string');
      } else {
        const contentType = parseContentType(req.headers['content-type']);
        const raw = await this.readBody(req, res);
        if (raw === null) return;
        if (contentType.type !== 'application/x-www-form-urlencoded') {
          throw framework(`Request format is invalid: ${req.headers['content-type'] ?? ''}.`, 'System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()');
        }
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
        } catch {
          throw unreadable('The form body is not valid UTF-8; percent-encode text as UTF-8.', 'System.Web.Services.Protocols.HtmlFormParameterReader.Read(HttpRequest request)');
        }
        fields = parseUrlEncoded(text, 'form body');
      }
      params = readHttpParams(operation, fields);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      this.logCall(binding, operation, {}, 'fault', error.message, 500);
      return this.send(res, httpErrorReply(error));
    }
    await this.serviceCall(res, binding, operation, params, {
      result: (outcome) => httpResultReply(this.settings.namespace, outcome.result),
      error: (error) => httpErrorReply(error),
      text: (error) => error.message,
    });
  }

  // ------------------------------------------------------------------------------------------
  // One service call: faults, the operation, persistence, pushes, the answer

  private async serviceCall(
    res: ServerResponse,
    binding: BindingName,
    operation: OperationName,
    params: Params,
    render: { result: (outcome: OperationOutcome) => Reply; error: (error: ServiceError) => Reply; text: (error: ServiceError) => string },
  ): Promise<void> {
    const faults = this.faultConfig;
    const latency = latencyFor(faults, operation);
    if (latency > 0) await this.sleep(latency);
    if (this.closing) {
      res.socket?.destroy();
      return;
    }
    const mode: FaultMode | null = pickFault(faults, operation, this.settings.random);

    if (mode === 'hang') {
      // Never answered: the socket stays open until the client gives up or close() ends it.
      this.logCall(binding, operation, params, 'hang', 'no answer (injected)', null);
      return;
    }
    if (mode === 'proxy503') {
      this.logCall(binding, operation, params, 'proxy-503', '503 page from a proxy (injected); not applied', 503);
      return this.send(res, { status: 503, headers: { 'Content-Type': TEXT_HTML, 'Retry-After': '1' }, body: PROXY_503_PAGE });
    }
    if (mode === 'failure') {
      const error = new ServiceError(INJECTED_FAILURE_MESSAGE, 'System.Data.SqlClient.SqlException', 'process', 'Server', 'System.Data.SqlClient.SqlConnection.OnError(SqlException exception, Boolean breakConnection)');
      this.logCall(binding, operation, params, 'injected-failure', render.text(error), 500);
      return this.send(res, render.error(error));
    }

    let outcome: OperationOutcome;
    try {
      const at = new Date();
      outcome = runOperation(operation, params, { state: this.current, now: () => at });
      await this.saveOperation({ operation, params, at: at.toISOString() });
    } catch (error) {
      const serviceError =
        error instanceof ServiceError ? error : new ServiceError((error as Error).message, 'System.IO.IOException', 'process', 'Server', 'System.IO.FileStream.WriteCore(Byte[] buffer, Int32 offset, Int32 count)');
      this.logCall(binding, operation, params, 'fault', render.text(serviceError), 500);
      if (mode === 'applyThenDrop') return void res.socket?.destroy();
      return this.send(res, render.error(serviceError));
    }
    const resultText = outcome.result.kind === 'string' ? outcome.result.text : `${outcome.result.list.length} rendering qualities`;
    const delivering = this.startPushes(outcome.pushes);

    if (mode === 'applyThenDrop') {
      this.logCall(binding, operation, params, 'dropped-after-apply', `${resultText} (applied; connection dropped, injected)`, null);
      res.socket?.destroy();
      return;
    }
    this.logCall(binding, operation, params, 'ok', resultText, 200);
    if (delivering) await Promise.race([delivering, this.sleep(PUSH_WAIT_MS)]);
    this.send(res, render.result(outcome));
  }

  /** Starts the XML pushes of a reprocess; resolves when all are recorded. */
  private startPushes(pushes: PushAttempt[]): Promise<void> | null {
    if (pushes.length === 0) return null;
    const runs = pushes.map(async (push) => {
      const submission = this.current.submissions.find((s) => s.processId === push.processId && s.account === push.account);
      if (!submission) return;
      const outcome = await deliverPush(push, submissionXml(submission, this.settings.namespace), this.pushAbort.signal);
      // The record may have gone with a reset or load meanwhile; only a record still present is updated.
      const record = this.current.pushes.find((p) => p.id === push.id && p.at === push.at && p.processId === push.processId);
      if (!record) return;
      Object.assign(record, outcome, { pending: false });
      this.settings.log(`sandbox: pushed submission ${push.processId} to ${push.url}: ${outcome.status ?? outcome.error}`);
      if (!this.closing) {
        try {
          this.commit();
        } catch {
          // Logged by commit(); the push outcome stays visible in memory.
        }
      }
    });
    const all = Promise.allSettled(runs).then(() => undefined);
    this.pushesInFlight.add(all);
    void all.finally(() => this.pushesInFlight.delete(all));
    return all;
  }

  private logCall(binding: BindingName, operation: string, params: Params, outcome: CallLogEntry['outcome'], message: string, status: number | null): void {
    const shown: Record<string, string | null> = {};
    const order = isOperationName(operation) ? OPERATION_PARAMS[operation] : Object.keys(params);
    for (const name of order) {
      if (!(name in params)) continue;
      const value = params[name] ?? null;
      shown[name] = name === 'key' && value !== null ? (value === '' ? '' : '[redacted]') : value;
    }
    const calls = this.current.calls;
    calls.push({ id: this.nextCallId++, at: new Date().toISOString(), binding, operation, params: shown, outcome, message, status });
    if (calls.length > CALL_LOG_LIMIT) calls.splice(0, calls.length - CALL_LOG_LIMIT);
    this.settings.log(`sandbox: ${binding} ${operation} → ${outcome}${status === null ? '' : ` ${status}`}: ${message.split('\n')[0]}`);
  }

  // ------------------------------------------------------------------------------------------
  // Plumbing

  /** The whole body, or null after answering 413 when it exceeds the limit (reading stops there). */
  private readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
    const limit = this.settings.bodyLimitBytes;
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > limit) {
      this.tooLarge(req, res);
      return Promise.resolve(null);
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) {
          req.off('data', onData);
          req.off('end', onEnd);
          this.tooLarge(req, res);
          resolve(null);
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => resolve(Buffer.concat(chunks));
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', reject);
    });
  }

  private tooLarge(req: IncomingMessage, res: ServerResponse): void {
    const reply: Reply = {
      status: 413,
      headers: { 'Content-Type': TEXT_PLAIN, Connection: 'close' },
      body: `Request body too large: the limit is ${this.settings.bodyLimitBytes} bytes.\r\n`,
    };
    req.pause();
    this.send(res, reply);
    // Stop reading: the connection closes once the answer is out, the rest of the body unread.
    res.once('finish', () => req.socket.destroySoon?.() ?? req.socket.end());
  }

  private verbNotAllowed(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    this.send(res, {
      status: 405,
      headers: { 'Content-Type': TEXT_PLAIN, Allow: 'GET, POST', 'Cache-Control': 'private' },
      body: `The HTTP verb ${req.method ?? ''} used to access path '${(req.url ?? '').split('?')[0]}' is not allowed.\r\n`,
    });
  }

  private send(res: ServerResponse, reply: Reply): void {
    if (res.headersSent || res.destroyed) return;
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }

  private internalError(res: ServerResponse, error: unknown): void {
    this.settings.log(`sandbox: internal error: ${(error as Error)?.stack ?? String(error)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    this.send(res, {
      status: 500,
      headers: { 'Content-Type': TEXT_PLAIN, 'Cache-Control': 'private' },
      body: `System.Exception: The sandbox failed on this request: ${(error as Error)?.message ?? String(error)}\r\n   at Sitewalk.Sandbox.Server.Handle()\r\n`,
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function parseContentType(header: string | undefined): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = (header ?? '').split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    params[name] = value;
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeBody(raw: Buffer, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8', { fatal: true });
  } catch {
    throw malformedXml(`There is an error in XML document. ---> The charset '${charset}' is not supported; send UTF-8.`);
  }
  try {
    return decoder.decode(raw);
  } catch {
    throw malformedXml(`There is an error in XML document. ---> Invalid character in the given encoding: the body is not valid ${decoder.encoding.toUpperCase()}.`);
  }
}

function notFoundPage(path: string): string {
  const safe = path.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html>\n<html><head><title>The resource cannot be found.</title></head><body><h1>Server Error in '/' Application.</h1><h2>The resource cannot be found.</h2><p>Requested URL: ${safe}</p></body></html>\n`;
}
