// What every binding module provides (build a request, read an answer) and the reading that all
// four share: SOAP faults (1.1 and 1.2, whatever the binding, since proxies and misrouted requests
// mix them), ASMX's 500 text/plain exception texts, and every other non-2xx answer.
// A codec never throws: each answer becomes the payload element or a CallError.
import type { Binding, CallError, Connection, Operation } from './types';
import type { WireParams } from './operations';
import { cleanServiceMessage, faultError, httpError, protocolError } from './errors';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, childOf, childrenOf, deepText, parseXml, type XmlElement } from './xml';

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
  body: string;
  location: string | null;
  /** The endpoint called, without query: safe to show (the key may be in a GET query). */
  endpoint: string;
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
  const base = connection.baseUrl.trim().replace(/\/+$/, '');
  const path = connection.servicePath.trim().replace(/^\/*/, '/');
  return `${base}${path === '/' ? '' : path}`;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Parses a body that should be XML; failures become protocol errors (2xx) the caller returns. */
export function parseBody(answer: Answer): { ok: true; root: XmlElement } | { ok: false; error: CallError } {
  const parsed = parseXml(answer.body);
  if (parsed.ok) return parsed;
  // An empty, truncated or non-XML body on a 2xx is transport damage (or a captive portal page).
  return { ok: false, error: protocolError({ ...facts(answer), reason: parsed.reason, damaged: true }) };
}

export function wrongShape(answer: Answer, reason: string): { ok: false; error: CallError } {
  return { ok: false, error: protocolError({ ...facts(answer), reason, damaged: false }) };
}

function facts(answer: Answer) {
  return { body: answer.body, status: answer.status, contentType: answer.contentType, endpoint: answer.endpoint };
}

/** The SOAP Fault in an envelope (either version), or null when the document holds none. */
export function soapFault(root: XmlElement, answer: Answer): CallError | null {
  if (root.local !== 'Envelope' || (root.ns !== SOAP11_ENVELOPE_NS && root.ns !== SOAP12_ENVELOPE_NS)) return null;
  const body = childOf(root, root.ns, 'Body');
  const fault = body && childOf(body, root.ns, 'Fault');
  if (!fault) return null;
  const status = `HTTP ${answer.status} ${answer.contentType || '(no content-type)'}`;
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
      detail: [status, actor ? `actor: ${actor}` : '', detail ? `detail: ${deepText(detail).trim() || '(empty)'}` : ''].filter(Boolean).join('\n'),
    });
  }
  const codeElement = childOf(fault, root.ns, 'Code');
  const code = normaliseCode(text(codeElement && childOf(codeElement, root.ns, 'Value')));
  const subcodes: string[] = [];
  let sub = codeElement && childOf(codeElement, root.ns, 'Subcode');
  while (sub) {
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
      subcodes.length > 0 ? `subcode: ${subcodes.join(' / ')}` : '',
      detail ? `detail: ${deepText(detail).trim() || '(empty)'}` : '',
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
  if (/xml/i.test(answer.contentType) || /^\s*(?:\uFEFF)?\s*<(?:\?xml|[\w.-]+:Envelope|Envelope)\b/.test(answer.body)) {
    const parsed = parseXml(answer.body);
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
  });
}

/**
 * HTTP GET/POST exception: "System.ArgumentException: message\n   at …stack". ASMX HTML-encodes
 * the message ("Site &#39;12&#39; …"): it is decoded so people and the quota/auth patterns read text.
 */
function plainTextFault(answer: Answer): CallError {
  const reason = decodeHtmlEntities(answer.body.replace(/^\uFEFF/, '').trim());
  const { exceptionType } = cleanServiceMessage(reason);
  return faultError({
    code: exceptionType ?? 'HTTP 500',
    reason,
    source: 'http-text',
    detail: `HTTP 500 ${answer.contentType} from ${answer.endpoint}`,
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
