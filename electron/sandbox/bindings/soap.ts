// The SOAP 1.1 and 1.2 bindings: route the request the way ASMX does (1.1 by the SOAPAction header,
// checked before the body is read; 1.2 by the content type's action= or else the body element),
// read the wrapper element's parameters by namespace URI (absent or xsi:nil = null; a duplicate is
// refused), and write results and faults in ASMX's exact one-line envelope.
import { framework, malformedXml, ServiceError, unreadable } from '../errors';
import { isOperationName, OPERATION_PARAMS, type OperationName, type OperationResult, type Params } from '../operations';
import { attribute, elementChildren, escapeAttribute, escapeText, parseXml, textContent, XSI_NS, type XmlElement } from '../xml';
import { ok, renderingXml, serverError, SOAP12_XML, TEXT_XML, XML_DECLARATION, XSD, XSI, type Reply } from './reply';

export type SoapVersion = '1.1' | '1.2';

export const SOAP11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';

const ENVELOPE_NS: Record<SoapVersion, string> = { 1.1: SOAP11_ENVELOPE_NS, 1.2: SOAP12_ENVELOPE_NS };
const ROUTE_AT = 'System.Web.Services.Protocols.Soap11ServerProtocolHelper.RouteRequest()';

export interface SoapRequest {
  operation: OperationName;
  params: Params;
}

/** SOAP 1.1 routing happens on the header alone, before the body is read (as in ASMX). */
export function routeSoap11(soapAction: string | undefined, namespace: string): OperationName {
  const value = soapAction ?? '';
  const quoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  // ASMX URL-decodes the header before comparing it.
  let unquoted = quoted;
  try {
    unquoted = decodeURIComponent(quoted);
  } catch {
    // Not percent-encoding after all: compared as sent.
  }
  if (unquoted.startsWith(namespace)) {
    const name = unquoted.slice(namespace.length);
    if (isOperationName(name)) return name;
  }
  throw framework(`Server did not recognize the value of HTTP Header SOAPAction: ${unquoted}.`, ROUTE_AT);
}

/** SOAP 1.2's action= content-type parameter names the operation when it is one; otherwise the body element decides (as in ASMX). */
export function routeSoap12Action(action: string | undefined, namespace: string): OperationName | null {
  if (action === undefined) return null;
  if (action.startsWith(namespace) && isOperationName(action.slice(namespace.length))) return action.slice(namespace.length) as OperationName;
  return null;
}

/** The body's text in its declared charset (UTF-8 when none); bytes that are not that charset are a Client fault (400). */
export function decodeSoapBody(raw: Buffer, charset: string | undefined): string {
  let decoder: InstanceType<typeof TextDecoder>;
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

/** Reads the envelope; `routed` is the operation already chosen by SOAPAction/action=, if any. */
export function readSoapRequest(version: SoapVersion, xml: string, namespace: string, routed: OperationName | null): SoapRequest {
  const envelope = parseXml(xml);
  const envelopeNs = ENVELOPE_NS[version];
  if (envelope.local !== 'Envelope' || (envelope.ns !== SOAP11_ENVELOPE_NS && envelope.ns !== SOAP12_ENVELOPE_NS)) {
    throw unreadable(`The root element is <${envelope.local} xmlns='${envelope.ns}'>, not a SOAP Envelope.`);
  }
  if (envelope.ns !== envelopeNs) {
    throw new ServiceError(
      `Possible SOAP version mismatch: Envelope namespace ${envelope.ns} was unexpected. Expecting ${envelopeNs}.`,
      'System.Web.Services.Protocols.SoapException',
      'route',
      'VersionMismatch',
    );
  }
  const parts = elementChildren(envelope);
  const header = parts.find((part) => part.local === 'Header' && part.ns === envelopeNs);
  for (const block of header ? elementChildren(header) : []) {
    const mustUnderstand = attribute(block, envelopeNs, 'mustUnderstand');
    if (mustUnderstand === '1' || mustUnderstand === 'true') {
      throw new ServiceError(`SOAP header ${block.local} was not understood.`, 'System.Web.Services.Protocols.SoapHeaderException', 'route', 'MustUnderstand');
    }
  }
  const body = parts.find((part) => part.local === 'Body' && part.ns === envelopeNs);
  if (!body) throw unreadable('The SOAP Envelope has no Body element.');
  const wrappers = elementChildren(body);
  if (wrappers.length === 0) throw unreadable('The SOAP Body is empty: it must hold one element named after the operation.');
  if (wrappers.length > 1) throw unreadable(`The SOAP Body holds ${wrappers.length} elements; send one operation per request.`);
  const wrapper = wrappers[0]!;

  let operation: OperationName;
  if (routed) {
    if (wrapper.local !== routed || wrapper.ns !== namespace) {
      throw unreadable(`There is an error in XML document. ---> <${wrapper.local} xmlns='${wrapper.ns}'> was not expected: the action asks for <${routed} xmlns='${namespace}'>.`);
    }
    operation = routed;
  } else if (wrapper.ns === namespace && isOperationName(wrapper.local)) {
    operation = wrapper.local;
  } else {
    throw framework('Unable to handle request without a valid action parameter. Please supply a valid soap action.', ROUTE_AT);
  }
  return { operation, params: readWrapperParams(operation, wrapper, namespace) };
}

function readWrapperParams(operation: OperationName, wrapper: XmlElement, namespace: string): Params {
  const wanted = new Set(OPERATION_PARAMS[operation]);
  const params: Record<string, string | null> = {};
  for (const name of wanted) params[name] = null;
  const seen = new Set<string>();
  for (const child of elementChildren(wrapper)) {
    // Elements in another namespace or with unknown names are skipped, as XmlSerializer does.
    if (child.ns !== namespace || !wanted.has(child.local)) continue;
    if (seen.has(child.local)) throw unreadable(`Element ${child.local} appears more than once in ${operation}; send each parameter once.`);
    seen.add(child.local);
    const nil = attribute(child, XSI_NS, 'nil');
    if (nil === 'true' || nil === '1') continue;
    if (elementChildren(child).length > 0) throw unreadable(`Element ${child.local} must hold text only, not child elements.`);
    params[child.local] = textContent(child);
  }
  return params;
}

function envelope(version: SoapVersion, body: string): string {
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}" xmlns:xsi="${XSI}" xmlns:xsd="${XSD}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

export function soapContentType(version: SoapVersion): string {
  return version === '1.1' ? TEXT_XML : SOAP12_XML;
}

export function soapResultReply(version: SoapVersion, namespace: string, operation: OperationName, result: OperationResult): Reply {
  const ns = escapeAttribute(namespace);
  let inner: string;
  if (result.kind === 'string') {
    inner = `<${operation}Result>${escapeText(result.text)}</${operation}Result>`;
  } else if (result.list.length === 0) {
    inner = `<${operation}Result />`;
  } else {
    inner = `<${operation}Result>${result.list.map((entry) => renderingXml(entry, '', '')).join('')}</${operation}Result>`;
  }
  return ok(soapContentType(version), envelope(version, `<${operation}Response xmlns="${ns}">${inner}</${operation}Response>`));
}

const SOAP12_CODES = { Client: 'Sender', Server: 'Receiver', VersionMismatch: 'VersionMismatch', MustUnderstand: 'MustUnderstand' } as const;

export function soapFaultReply(version: SoapVersion, error: ServiceError): Reply {
  const text = escapeText(error.soapText);
  const fault =
    version === '1.1'
      ? `<soap:Fault><faultcode>soap:${error.code}</faultcode><faultstring>${text}</faultstring><detail /></soap:Fault>`
      : `<soap:Fault><soap:Code><soap:Value>soap:${SOAP12_CODES[error.code]}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason><soap:Detail /></soap:Fault>`;
  return { ...serverError(soapContentType(version), envelope(version, fault)), status: error.soapStatus };
}
