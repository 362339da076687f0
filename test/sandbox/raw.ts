// Raw HTTP against the sandbox for the wire tests: envelopes, form bodies and query strings are
// built here by hand (never through electron/core/service), sent with node:http on a fresh
// connection, and the answer comes back as status, headers and exact body text. A request the
// server never answers (dropped or hung) rejects with the socket error or 'no answer'.
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { startSandbox, type RunningSandbox, type SandboxOptions, type SandboxState } from '../../electron/sandbox/index';

export type RawBinding = 'soap11' | 'soap12' | 'http-get' | 'http-post';
export const RAW_BINDINGS: readonly RawBinding[] = ['soap11', 'soap12', 'http-get', 'http-post'];
export type OperationName = 'SitesAPI' | 'GetRenderingQualityList' | 'EusReprocessAPI';
export const OPERATIONS: readonly OperationName[] = ['SitesAPI', 'GetRenderingQualityList', 'EusReprocessAPI'];

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Parameters in wire order; a list, so a test can repeat a name or change its case. */
export type Fields = Array<[string, string]>;

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: Buffer;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Reject with 'no answer' after this long; the connection is then destroyed. */
  timeoutMs?: number;
}

export function send(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  const framed = Object.keys(headers).some((name) => ['content-length', 'transfer-encoding'].includes(name.toLowerCase()));
  if (body !== undefined && !framed) headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (request.timeoutMs !== undefined) {
      req.setTimeout(request.timeoutMs, () => req.destroy(new Error('no answer')));
    }
    req.end(body);
  });
}

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function soapEnvelope(version: '1.1' | '1.2', operation: string, fields: Fields, namespace = 'http://tempuri.org/'): string {
  const envelopeNs = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  const children = fields.map(([name, value]) => `      <${name}>${escapeText(value)}</${name}>`).join('\n');
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<soap:Envelope xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}" xmlns:soap="${envelopeNs}">`,
    '  <soap:Body>',
    `    <${operation} xmlns="${namespace}">`,
    children,
    `    </${operation}>`,
    '  </soap:Body>',
    '</soap:Envelope>',
  ].join('\n');
}

export function formEncode(fields: Fields): string {
  return fields.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

export interface CallOptions {
  /** SOAP 1.1: the SOAPAction header as sent (quotes included); null leaves it out. */
  soapAction?: string | null;
  /** Replaces the binding's usual Content-Type. */
  contentType?: string;
  /** Replaces the built body (SOAP and HTTP POST). */
  body?: string | Buffer;
  timeoutMs?: number;
}

/** One service call over a binding, built by hand the way the spec's request shapes read. */
export function call(sandbox: RunningSandbox, binding: RawBinding, operation: string, fields: Fields, options: CallOptions = {}): Promise<RawResponse> {
  const base = { timeoutMs: options.timeoutMs ?? 15_000 };
  switch (binding) {
    case 'http-get':
      return send(sandbox.url, { ...base, method: 'GET', path: `${sandbox.servicePath}/${operation}?${formEncode(fields)}` });
    case 'http-post':
      return send(sandbox.url, {
        ...base,
        method: 'POST',
        path: `${sandbox.servicePath}/${operation}`,
        headers: { 'Content-Type': options.contentType ?? 'application/x-www-form-urlencoded' },
        body: options.body ?? formEncode(fields),
      });
    case 'soap11': {
      const headers: Record<string, string> = { 'Content-Type': options.contentType ?? 'text/xml; charset=utf-8' };
      const action = options.soapAction === undefined ? `"${sandbox.namespace}${operation}"` : options.soapAction;
      if (action !== null) headers.SOAPAction = action;
      return send(sandbox.url, { ...base, method: 'POST', path: sandbox.servicePath, headers, body: options.body ?? soapEnvelope('1.1', operation, fields, sandbox.namespace) });
    }
    case 'soap12':
      return send(sandbox.url, {
        ...base,
        method: 'POST',
        path: sandbox.servicePath,
        headers: { 'Content-Type': options.contentType ?? 'application/soap+xml; charset=utf-8' },
        body: options.body ?? soapEnvelope('1.2', operation, fields, sandbox.namespace),
      });
  }
}

/** Every parameter of the operation in published order, with the demo credentials and working values. */
export function validFields(sandbox: RunningSandbox, operation: OperationName, overrides: Record<string, string> = {}): Fields {
  const { account, key } = sandbox.demo;
  const defaults: Record<OperationName, Fields> = {
    SitesAPI: [
      ['Account', account],
      ['Sitename', 'Wire Test Tower'],
      ['Siteid', ''],
      ['height', '30'],
      ['Latitude', '45.6770'],
      ['Longitude', '-111.0429'],
      ['Description', ''],
      ['Group', ''],
      ['Pinstyle', ''],
      ['key', key],
    ],
    GetRenderingQualityList: [
      ['Account', account],
      ['key', key],
    ],
    EusReprocessAPI: [
      ['processid', '880101'],
      ['Account', account],
      ['multicoverageid', '4101'],
      ['emailsend', '0'],
      ['key', key],
    ],
  };
  return defaults[operation].map(([name, value]) => [name, overrides[name] ?? value]);
}

/** The state without this run's call log: what a rejected call must leave exactly as it was. */
export function durableState(sandbox: RunningSandbox): Omit<SandboxState, 'calls'> {
  const { calls: _calls, ...rest } = sandbox.snapshot();
  return rest;
}

export function callsLeft(sandbox: RunningSandbox): number {
  return sandbox.snapshot().accounts.find((a) => a.id === sandbox.demo.account)!.callsLeft;
}

export async function inspect<T = unknown>(sandbox: RunningSandbox, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; json: T }> {
  const response = await send(sandbox.url, {
    method: init.method ?? 'GET',
    path: `/_sandbox/${path}`,
    headers: { ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(init.headers ?? {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, json: (response.body === '' ? null : JSON.parse(response.body)) as T };
}

export async function patchAccount(sandbox: RunningSandbox, change: Record<string, unknown>): Promise<void> {
  const { status, json } = await inspect(sandbox, `accounts/${sandbox.demo.account}`, { method: 'PATCH', body: change });
  if (status !== 200) throw new Error(`PATCH accounts answered ${status}: ${JSON.stringify(json)}`);
}

export function parseXml(text: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => void (level !== 'warning' && errors.push(message)) }).parseFromString(text, 'text/xml');
  if (errors.length > 0) throw new Error(`not well-formed XML: ${errors.join('; ')}\n${text}`);
  return doc as unknown as Document;
}

/** Child elements of an element, as (namespace, local name, element). */
export function childElements(element: Element): Element[] {
  const out: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) if (node.nodeType === 1) out.push(node as Element);
  return out;
}

/** The one child with that namespace and local name; throws when there is not exactly one. */
export function only(element: Element, ns: string | null, local: string): Element {
  const found = childElements(element).filter((child) => child.localName === local && (child.namespaceURI ?? null) === ns);
  if (found.length !== 1) throw new Error(`expected one <${local}> in ${ns ?? 'no namespace'} under <${element.tagName}>, found ${found.length}`);
  return found[0]!;
}

/** What HttpUtility.HtmlEncode makes of a message in a text/plain error body. */
export function htmlEncode(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export type ErrorPhase = 'process' | 'read' | 'route';

/** The faultstring / Reason text ASMX writes for an exception raised in that phase. */
export function faultText(phase: ErrorPhase, message: string): string {
  if (phase === 'process') return `Server was unable to process request. ---> ${message}`;
  if (phase === 'read') return `Server was unable to read request. ---> ${message}`;
  return message;
}

/** HTTP GET/POST failure: 500 text/plain, ".NET type: HTML-encoded message" then a stack line. */
export function expectPlainError(response: RawResponse, exceptionType: string, message: string): void {
  expect(response.status).toBe(500);
  expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(response.headers['cache-control']).toBe('private');
  const [first, second] = response.body.split('\r\n');
  expect(first).toBe(`${exceptionType}: ${htmlEncode(message)}`);
  expect(second).toMatch(/^ {3}at \S/);
  expect(response.body.endsWith('\r\n')).toBe(true);
}

/** A SOAP fault in ASMX's exact shape, with this code and fault text. */
export function expectSoapFault(version: '1.1' | '1.2', response: RawResponse, expected: { code: 'Client' | 'Server' | 'VersionMismatch'; text: string | RegExp; status?: number }): void {
  expect(response.status).toBe(expected.status ?? 500);
  expect(response.headers['content-type']).toBe(version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
  expect(response.headers['cache-control']).toBe('private');
  expect(response.body.startsWith('<?xml version="1.0" encoding="utf-8"?><soap:Envelope ')).toBe(true);
  const envelopeNs = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  const envelope = parseXml(response.body).documentElement;
  expect([envelope.namespaceURI, envelope.localName, envelope.prefix]).toEqual([envelopeNs, 'Envelope', 'soap']);
  expect(childElements(envelope).map((e) => e.localName)).toEqual(['Body']);
  const body = only(envelope, envelopeNs, 'Body');
  expect(childElements(body)).toHaveLength(1);
  const fault = only(body, envelopeNs, 'Fault');
  if (version === '1.1') {
    expect(childElements(fault).map((e) => [e.namespaceURI ?? null, e.localName])).toEqual([
      [null, 'faultcode'],
      [null, 'faultstring'],
      [null, 'detail'],
    ]);
    expect(only(fault, null, 'faultcode').textContent).toBe(`soap:${expected.code}`);
    expectText(only(fault, null, 'faultstring').textContent, expected.text);
    expect(only(fault, null, 'detail').childNodes.length).toBe(0);
  } else {
    expect(childElements(fault).map((e) => [e.namespaceURI, e.localName])).toEqual([
      [SOAP12_NS, 'Code'],
      [SOAP12_NS, 'Reason'],
      [SOAP12_NS, 'Detail'],
    ]);
    const code = only(fault, SOAP12_NS, 'Code');
    expect(childElements(code).map((e) => e.localName)).toEqual(['Value']);
    expect(only(code, SOAP12_NS, 'Value').textContent).toBe(`soap:${SOAP12_CODES[expected.code]}`);
    const reason = only(fault, SOAP12_NS, 'Reason');
    const text = only(reason, SOAP12_NS, 'Text');
    expect(text.getAttributeNS(XML_NS, 'lang')).toBe('en');
    expectText(text.textContent, expected.text);
    expect(only(fault, SOAP12_NS, 'Detail').childNodes.length).toBe(0);
  }
}

const SOAP12_CODES = { Client: 'Sender', Server: 'Receiver', VersionMismatch: 'VersionMismatch' } as const;

function expectText(actual: string | null, expected: string | RegExp): void {
  if (typeof expected === 'string') expect(actual).toBe(expected);
  else expect(actual).toMatch(expected);
}

/** The failure as each binding shows one exception: a SOAP fault or a text/plain 500. */
export function expectRejected(binding: RawBinding, response: RawResponse, expected: { exceptionType: string; message: string; phase: ErrorPhase; status?: number }): void {
  if (binding === 'http-get' || binding === 'http-post') {
    expectPlainError(response, expected.exceptionType, expected.message);
    return;
  }
  expectSoapFault(binding === 'soap11' ? '1.1' : '1.2', response, {
    code: expected.phase === 'process' ? 'Server' : 'Client',
    text: faultText(expected.phase, expected.message),
    status: expected.status,
  });
}

/**
 * One sandbox with the demo data for a test file: started before its tests, closed after them, its
 * faults cleared and its data reset before each test. The object stands for the running sandbox.
 */
export function demoSandboxForFile(options: Omit<SandboxOptions, 'port' | 'seed'> = {}): RunningSandbox {
  let current: RunningSandbox | null = null;
  const live = (): RunningSandbox => {
    if (!current) throw new Error('the sandbox starts in beforeAll; use it inside a test');
    return current;
  };
  beforeAll(async () => {
    current = await startSandbox({ ...options, port: 0, seed: 'demo' });
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    live().setFaults({});
    live().reset('demo');
  });
  return {
    get url() {
      return live().url;
    },
    get servicePath() {
      return live().servicePath;
    },
    get namespace() {
      return live().namespace;
    },
    get demo() {
      return live().demo;
    },
    setFaults: (faults) => live().setFaults(faults),
    reset: (seed) => live().reset(seed),
    snapshot: () => live().snapshot(),
    close: () => live().close(),
  };
}
