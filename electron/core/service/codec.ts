// What every binding module provides (build a request, read an answer) and the reading that all
// four share: SOAP faults (1.1 and 1.2, whatever the binding, since proxies and misrouted requests
// mix them), ASMX's 500 text/plain exception texts, and every other non-2xx answer.
// A codec never throws: each answer becomes the payload element or a CallError.
import type { Binding, CallError, Connection, Operation } from './types';
import type { WireParams } from './operations';
import { cleanServiceMessage, faultError, httpError, protocolError } from './errors';
import { boundText, SCAN_CHARS } from './bounded';
import { DEFAULT_XML_LIMITS, closeTruncated, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, childOf, childrenOf, deepText, parseXml, type XmlElement, type XmlLimits } from './xml';

export interface WireRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** An HTTP answer as read off the wire (body decoded to text). */
export interface Answer {
  status: number;
  statusText: string;
  contentType: string;
  /**
   * The body as received. It may hold the key (a server echoing the request): the texts parsed out of
   * it go through `redact`, and the client removes the key from every field of an error built from it.
   */
  body: string;
  redact?: (text: string) => string;
  location: string | null;
  /** The Retry-After and Date headers, when sent (a 503 or 429 saying when to come back). */
  retryAfter?: string | null;
  date?: string | null;
  /** The endpoint called, without query: safe to show (the key may be in a GET query). */
  endpoint: string;
  /** The body is the first part of a longer one: reading stopped at the client's limit. */
  truncated?: boolean;
}

/**
 * The element that carries the result: the string root or <OpResult> for SitesAPI and
 * EusReprocessAPI, the ArrayOfRendering root or <GetRenderingQualityListResult> for the list.
 * null when the service sent no result element (a null string, which ASMX omits).
 */
export type ReadResult = { ok: true; element: XmlElement | null } | { ok: false; error: CallError };

export interface BindingCodec {
  readonly binding: Binding;
  build(operation: Operation, params: WireParams, connection: Connection): WireRequest;
  read(operation: Operation, answer: Answer, connection: Connection): ReadResult;
}

/** {baseUrl}{servicePath}, tolerant of a trailing slash on one and a missing leading slash on the other. */
export function serviceUrl(connection: Connection): string {
  // A client's connection is frozen: its URL is worked out once (a mutable one, every time).
  const known = Object.isFrozen(connection) ? serviceUrls.get(connection) : undefined;
  if (known !== undefined) return known;
  const base = connection.baseUrl.trim().replace(/\/+$/, '');
  const path = connection.servicePath.trim().replace(/^\/*/, '/');
  const url = `${base}${path === '/' ? '' : path}`;
  if (Object.isFrozen(connection)) serviceUrls.set(connection, url);
  return url;
}

const serviceUrls = new WeakMap<Connection, string>();

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The most rendering qualities a list may hold: generous, but finite (an account has a handful). */
export const MAX_RENDERINGS = 10_000;

/**
 * The structure a successful answer of each operation can legitimately have, with room for SOAP
 * headers and a fault: a string result is a handful of elements; a list is four per rendering.
 */
export function answerLimits(operation: Operation): XmlLimits {
  return operation === 'GetRenderingQualityList' ? { maxElements: MAX_RENDERINGS * 4 + 256, maxDepth: 24 } : { maxElements: 256, maxDepth: 24 };
}

/**
 * Parses the answer's body as received, then removes the key from every text and attribute value in
 * the tree, before anything reads them; a body cut at the client's limit is closed where it was cut
 * when `repair` is set (a failure's fault still has its code and reason up front).
 */
function parseAnswer(answer: Answer, limits: XmlLimits, repair = false): ReturnType<typeof parseXml> {
  const source = answer.body;
  let parsed = parseXml(source, limits);
  const closed = repair && !parsed.ok && answer.truncated ? closeTruncated(source) : null;
  if (closed !== null) parsed = parseXml(closed, limits);
  if (parsed.ok && answer.redact) redactTree(parsed.root, answer.redact);
  return parsed;
}

function redactTree(element: XmlElement, redact: (text: string) => string): void {
  element.text = redact(element.text);
  for (const name of Object.keys(element.attributes)) element.attributes[name] = redact(element.attributes[name]!);
  for (const child of element.children) redactTree(child, redact);
}

/** Parses a body that should be XML; failures become protocol errors (2xx) the caller returns. */
export function parseBody(answer: Answer, operation: Operation): { ok: true; root: XmlElement } | { ok: false; error: CallError } {
  const parsed = parseAnswer(answer, answerLimits(operation));
  if (parsed.ok) return parsed;
  if (parsed.tooLarge) {
    const what = operation === 'GetRenderingQualityList' ? `a list of ${new Intl.NumberFormat('en-US').format(MAX_RENDERINGS)} rendering qualities` : `a ${operation} result`;
    return wrongShape(answer, `${parsed.reason}, more than ${what} can hold; it was not read`);
  }
  // An empty, truncated or non-XML body on a 2xx is transport damage (or a captive portal page).
  return { ok: false, error: protocolError({ ...facts(answer), reason: parsed.reason, damaged: true }) };
}

export function wrongShape(answer: Answer, reason: string): { ok: false; error: CallError } {
  return { ok: false, error: protocolError({ ...facts(answer), reason, damaged: false }) };
}

function facts(answer: Answer) {
  return { body: answer.body, status: answer.status, contentType: answer.contentType, endpoint: answer.endpoint, truncated: answer.truncated === true };
}

/** All the text of a fault's detail element, bounded: a detail can be a megabyte dump. */
function detailText(element: XmlElement): string {
  return boundText(deepText(element).trim()) || '(empty)';
}

/** The SOAP Fault in an envelope (either version), or null when the document holds none. */
export function soapFault(root: XmlElement, answer: Answer): CallError | null {
  if (root.local !== 'Envelope' || (root.ns !== SOAP11_ENVELOPE_NS && root.ns !== SOAP12_ENVELOPE_NS)) return null;
  const body = childOf(root, root.ns, 'Body');
  const fault = body && childOf(body, root.ns, 'Fault');
  if (!fault) return null;
  const status = `HTTP ${answer.status} ${boundText(answer.contentType, { maxBytes: 256 }) || '(no content-type)'}${answer.truncated ? ' (body cut short at the client\'s limit)' : ''}`;
  if (root.ns === SOAP11_ENVELOPE_NS) {
    // SOAP 1.1 fault children are unqualified; some stacks qualify them anyway, so match any namespace.
    const code = normaliseCode(text(childOf(fault, null, 'faultcode')));
    const reason = text(childOf(fault, null, 'faultstring'));
    const actor = text(childOf(fault, null, 'faultactor'));
    const detail = childOf(fault, null, 'detail');
    return faultError({
      code,
      reason,
      source: 'soap11',
      detail: [status, actor ? `actor: ${boundText(actor, { maxBytes: 512 })}` : '', detail ? `detail: ${detailText(detail)}` : ''].filter(Boolean).join('\n'),
    });
  }
  const codeElement = childOf(fault, root.ns, 'Code');
  const code = normaliseCode(text(codeElement && childOf(codeElement, root.ns, 'Value')));
  const subcodes: string[] = [];
  let sub = codeElement && childOf(codeElement, root.ns, 'Subcode');
  while (sub && subcodes.length < 16) {
    subcodes.push(text(childOf(sub, root.ns, 'Value')));
    sub = childOf(sub, root.ns, 'Subcode');
  }
  const reasonElement = childOf(fault, root.ns, 'Reason');
  const texts = reasonElement ? childrenOf(reasonElement, root.ns, 'Text') : [];
  // Prefer English, as a support engineer reads it; else the first.
  const chosen = texts.find((t) => /^en\b/i.test(t.attributes['xml:lang'] ?? '')) ?? texts[0];
  const detail = childOf(fault, root.ns, 'Detail');
  return faultError({
    code,
    reason: text(chosen),
    source: 'soap12',
    detail: [
      status,
      subcodes.length > 0 ? `subcode: ${boundText(subcodes.join(' / '), { maxBytes: 512 })}` : '',
      detail ? `detail: ${detailText(detail)}` : '',
    ].filter(Boolean).join('\n'),
  });
}

function text(element: XmlElement | undefined): string {
  return element ? deepText(element).trim() : '';
}

const STANDARD_CODES = /^(?:Client|Server|Sender|Receiver|VersionMismatch|MustUnderstand|DataEncodingUnknown)(?:\..*)?$/;

/** "s:Client", "soapenv:Server.Db" and "Client" all read as "soap:Client"…; other codes stay as sent. */
function normaliseCode(raw: string): string {
  const local = raw.includes(':') ? raw.slice(raw.indexOf(':') + 1) : raw;
  if (STANDARD_CODES.test(local)) return `soap:${local}`;
  return raw === '' ? 'soap:(none)' : raw;
}

/**
 * Any non-2xx answer: a SOAP fault if the body is one, ASMX's 500 text/plain exception message, or
 * else an http error (proxy pages, 404, redirects, empty bodies).
 */
export function readFailure(answer: Answer): CallError {
  if (/xml/i.test(answer.contentType) || /^\s*(?:\uFEFF)?\s*<(?:\?xml|[\w.-]+:Envelope|Envelope)\b/.test(answer.body.slice(0, 1024))) {
    const parsed = parseAnswer(answer, DEFAULT_XML_LIMITS, true);
    if (parsed.ok) {
      const fault = soapFault(parsed.root, answer);
      if (fault) return fault;
    }
  }
  if (answer.status === 500 && /^text\/plain\b/i.test(answer.contentType) && answer.body.trim() !== '') {
    return plainTextFault(answer);
  }
  return httpError({
    status: answer.status,
    statusText: answer.statusText,
    contentType: answer.contentType,
    body: answer.body,
    location: answer.location,
    endpoint: answer.endpoint,
    truncated: answer.truncated === true,
    retryAfter: answer.retryAfter ?? null,
    date: answer.date ?? null,
  });
}

/**
 * HTTP GET/POST exception: "System.ArgumentException: message\n   at …stack". ASMX HTML-encodes
 * the message ("Site &#39;12&#39; …"): it is decoded so people and the quota/auth patterns read text.
 */
function plainTextFault(answer: Answer): CallError {
  const reason = decodeHtmlEntities(answer.body.replace(/^\uFEFF/, '').trim());
  const { exceptionType } = cleanServiceMessage(reason.slice(0, SCAN_CHARS));
  return faultError({
    code: exceptionType ?? 'HTTP 500',
    reason,
    source: 'http-text',
    truncated: answer.truncated === true,
    detail: `HTTP 500 ${boundText(answer.contentType, { maxBytes: 256 })} from ${answer.endpoint}${answer.truncated ? ' (body cut short at the client\'s limit)' : ''}`,
  });
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Undoes HttpUtility.HtmlEncode: the named entities it writes and numeric references. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}
