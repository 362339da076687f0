// Questions for a service that cost no API call, for "Test connection": its description (the WSDL:
// which ports it lists, under which namespace) and, per binding, a request ASMX refuses before any
// operation runs — so the answer shows whether that binding is served without using a call:
//   HTTP GET / POST  GetRenderingQualityList without parameters → 500 "Missing parameter: Account."
//                    (switched off: "Request format is unrecognized…", or 404/405)
//   SOAP 1.1         a SOAPAction the service does not know → a SOAP 1.1 Client fault
//   SOAP 1.2         a Body element that is no operation → a SOAP 1.2 Sender fault
// A GET of the WSDL per port would not tell: the description is the same page whatever is enabled.
// Never throws; every outcome is a value with a sentence.
import type { Binding, Connection, Transport, TransportResponse } from './types';
import { BINDINGS } from './types';
import { readFailure, serviceUrl, type Answer } from './codec';
import { operationUrl } from './plain';
import { stripQuery } from './errors';
import { describeThrown } from './network-errors';
import { boundText } from './bounded';
import { childrenOf, parseXml, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type XmlElement } from './xml';
import { BINDING_NAMES } from '../../shared/aspnet';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const WSDL_HTTP_NS = 'http://schemas.xmlsoap.org/wsdl/http/';
/** A WSDL is a handful of KB; an answer past this is not one. */
const MAX_PROBE_BYTES = 2 * 1024 * 1024;
const PROBE_OPERATION = 'GetRenderingQualityList';

export interface Description {
  /** The service description answered and reads as a WSDL. */
  ok: boolean;
  /** HTTP status, or null when nothing answered. */
  status: number | null;
  /** Nothing answered at all (network failure, time limit). */
  unreachable: boolean;
  /** Bindings the WSDL has a port for; null when there is no WSDL to read. */
  ports: Binding[] | null;
  targetNamespace: string | null;
  message: string;
  detail: string;
}

export interface BindingAnswer {
  binding: Binding;
  /** true: served as ASMX serves it; false: refused or absent; null: the answer says nothing. */
  answers: boolean | null;
  message: string;
  detail: string;
}

interface Read {
  status: number;
  contentType: string;
  text: string;
  location: string | null;
}

async function ask(transport: Transport, url: string, init: RequestInit, timeoutMs: number): Promise<{ ok: true; read: Read } | { ok: false; reason: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  try {
    const response = await transport(url, { ...init, redirect: 'manual', signal: controller.signal });
    const text = await readText(response, MAX_PROBE_BYTES);
    return { ok: true, read: { status: response.status, contentType: response.headers.get('content-type') ?? '', text, location: response.headers.get('location') } };
  } catch (error) {
    return { ok: false, reason: controller.signal.aborted ? `no answer within ${Math.round(timeoutMs / 1000)} s` : describeThrown(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function readText(response: TransportResponse, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    const room = limit - size;
    chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.byteLength, room);
    if (size >= limit) break;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** GET {service}?WSDL: no API call. Reads the ports it lists and its target namespace. */
export async function readDescription(connection: Connection, transport: Transport, timeoutMs: number): Promise<Description> {
  const endpoint = serviceUrl(connection);
  const asked = await ask(transport, `${endpoint}?WSDL`, { method: 'GET', headers: { Accept: 'text/xml, */*;q=0.1' } }, timeoutMs);
  if (!asked.ok) {
    return {
      ok: false,
      status: null,
      unreachable: true,
      ports: null,
      targetNamespace: null,
      message: `The service at ${endpoint} cannot be reached: ${asked.reason}.`,
      detail: `GET ${endpoint}?WSDL: ${asked.reason}`,
    };
  }
  const { status, contentType, text } = asked.read;
  const detail = `GET ${endpoint}?WSDL → HTTP ${status} ${contentType || '(no content-type)'}\n${boundText(text, { maxBytes: 1024 })}`;
  const failed = (message: string): Description => ({ ok: false, status, unreachable: false, ports: null, targetNamespace: null, message, detail });
  if (status >= 300 && status < 400) {
    return failed(`The address redirects elsewhere (HTTP ${status}${asked.read.location ? ` to ${stripQuery(asked.read.location)}` : ''}): a sign-in page, or a wrong base URL.`);
  }
  if (status >= 500) return failed(`The service is not answering well: its description gave HTTP ${status}.`);
  if (status === 404 || status === 410) return failed(`Nothing was found at ${endpoint} (HTTP ${status}): check the base URL and service path.`);
  if (status < 200 || status >= 300) return failed(`The service's description gave HTTP ${status}; check the base URL and service path.`);
  const parsed = parseXml(text.replace(/^\uFEFF/, ''), { maxElements: 50_000, maxDepth: 64 });
  if (!parsed.ok || parsed.root.local !== 'definitions' || parsed.root.ns !== WSDL_NS) {
    return failed('The address answers, but not with a web service description (WSDL): check the base URL and service path (the real service\'s is /towercoverage.asmx).');
  }
  const ports = wsdlPorts(parsed.root);
  const targetNamespace = parsed.root.attributes.targetNamespace ?? null;
  const listed = ports.length === 0 ? 'no ports' : `ports for ${ports.map((binding) => BINDING_NAMES[binding]).join(', ')}`;
  const mismatch =
    targetNamespace !== null && targetNamespace !== connection.namespace
      ? ` Its namespace is ${targetNamespace}, but the profile says ${connection.namespace}: answers will not be read until the profile matches.`
      : '';
  return {
    ok: mismatch === '',
    status,
    unreachable: false,
    ports,
    targetNamespace,
    message: `The service answers at ${endpoint}; its description lists ${listed}.${mismatch}`,
    detail,
  };
}

/**
 * The bindings the WSDL has a port for, from what each port's binding says: soap:binding (1.1),
 * soap12:binding (1.2), http:binding verb="GET" / verb="POST".
 */
function wsdlPorts(definitions: XmlElement): Binding[] {
  const kinds = new Map<string, Binding>();
  for (const binding of childrenOf(definitions, WSDL_NS, 'binding')) {
    const name = binding.attributes.name;
    if (!name) continue;
    for (const child of binding.children) {
      if (child.local !== 'binding') continue;
      if (child.ns === WSDL_SOAP11_NS) kinds.set(name, 'soap11');
      else if (child.ns === WSDL_SOAP12_NS) kinds.set(name, 'soap12');
      else if (child.ns === WSDL_HTTP_NS) {
        const verb = (child.attributes.verb ?? '').toUpperCase();
        if (verb === 'GET') kinds.set(name, 'http-get');
        else if (verb === 'POST') kinds.set(name, 'http-post');
      }
    }
  }
  const found = new Set<Binding>();
  for (const service of childrenOf(definitions, WSDL_NS, 'service')) {
    for (const port of childrenOf(service, WSDL_NS, 'port')) {
      const ref = port.attributes.binding ?? '';
      const kind = kinds.get(ref.includes(':') ? ref.slice(ref.indexOf(':') + 1) : ref);
      if (kind) found.add(kind);
    }
  }
  return BINDINGS.filter((binding) => found.has(binding));
}

/** The request ASMX refuses over `binding` before any operation runs (see the header). */
function refusalRequest(binding: Binding, connection: Connection): { url: string; init: RequestInit } {
  const ns = connection.namespace;
  switch (binding) {
    case 'http-get':
      return { url: operationUrl(connection, PROBE_OPERATION), init: { method: 'GET', headers: { Accept: 'text/xml, */*;q=0.1' } } };
    case 'http-post':
      return {
        url: operationUrl(connection, PROBE_OPERATION),
        init: { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', Accept: 'text/xml, */*;q=0.1' }, body: '' },
      };
    case 'soap11':
      return {
        url: serviceUrl(connection),
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${ns}SitewalkConnectionTest"`, Accept: 'text/xml, */*;q=0.1' },
          body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body><SitewalkConnectionTest xmlns="${escapeAttr(ns)}" /></soap:Body></soap:Envelope>`,
        },
      };
    case 'soap12':
      return {
        url: serviceUrl(connection),
        init: {
          method: 'POST',
          headers: { 'Content-Type': 'application/soap+xml; charset=utf-8', Accept: 'application/soap+xml, */*;q=0.1' },
          body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12_ENVELOPE_NS}"><soap:Body><SitewalkConnectionTest xmlns="${escapeAttr(ns)}" /></soap:Body></soap:Envelope>`,
        },
      };
  }
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Whether `binding` is served, asked with a request it must refuse before any operation: no API call. */
export async function probeBinding(binding: Binding, connection: Connection, transport: Transport, timeoutMs: number): Promise<BindingAnswer> {
  const { url, init } = refusalRequest(binding, connection);
  const name = BINDING_NAMES[binding];
  const asked = await ask(transport, url, init, timeoutMs);
  if (!asked.ok) return { binding, answers: null, message: `${name} did not answer: ${asked.reason}.`, detail: `${init.method} ${stripQuery(url)}: ${asked.reason}` };
  const { status, contentType, text, location } = asked.read;
  const detail = `${init.method} ${stripQuery(url)} → HTTP ${status} ${contentType || '(no content-type)'}\n${boundText(text, { maxBytes: 1024 })}`;
  const answer: Answer = { status, statusText: '', contentType, body: text, location, endpoint: stripQuery(url) };
  if (status >= 200 && status < 300) {
    // ASMX never accepts these; something else answered (a portal, a catch-all page).
    return { binding, answers: null, message: `${name}: something answered that is not the service (HTTP ${status}).`, detail };
  }
  const error = readFailure(answer);
  if (binding === 'http-get' || binding === 'http-post') {
    if (error.kind === 'fault' && error.source === 'http-text') {
      if (/request format is unrecognized|unexpectedly ending in/i.test(error.reason)) {
        return { binding, answers: false, message: `${name} is switched off on the service ("${error.reason}").`, detail };
      }
      return { binding, answers: true, message: `${name} answers${/missing parameter/i.test(error.reason) ? '' : ` ("${error.reason}")`}.`, detail };
    }
    if (status === 404 || status === 405) return { binding, answers: false, message: `${name} is not served (HTTP ${status}).`, detail };
    return { binding, answers: null, message: `${name}: the answer says nothing clear (HTTP ${status}).`, detail };
  }
  const source = binding === 'soap11' ? 'soap11' : 'soap12';
  if (error.kind === 'fault' && error.source === source) return { binding, answers: true, message: `${name} answers.`, detail };
  if (error.kind === 'fault' && (error.source === 'soap11' || error.source === 'soap12')) {
    return { binding, answers: false, message: `${name} is not served: the service answered in ${error.source === 'soap11' ? 'SOAP 1.1' : 'SOAP 1.2'}.`, detail };
  }
  if (error.kind === 'fault' && error.source === 'http-text' && /request format is (?:invalid|unrecognized)/i.test(error.reason)) {
    return { binding, answers: false, message: `${name} is not served ("${error.reason}").`, detail };
  }
  if (status === 404 || status === 405 || status === 415) return { binding, answers: false, message: `${name} is not served (HTTP ${status}).`, detail };
  return { binding, answers: null, message: `${name}: the answer says nothing clear (HTTP ${status}).`, detail };
}
