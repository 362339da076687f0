// XML in and out of the wire layer. Reading: fast-xml-parser for the syntax, then our own pass that
// resolves namespaces, so every lookup is by namespace URI and local name — never by prefix (soap:,
// s:, soapenv:, env: and default namespaces all read the same). No DTD is accepted and only the five
// predefined entities and character references are decoded: nothing a server sends can expand.
// Writing: element text escaped so that every XML 1.0 character arrives unchanged.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const SOAP11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export interface XmlElement {
  /** Namespace URI ('' when none). */
  ns: string;
  local: string;
  /** The name as written, prefix included (for messages only). */
  qname: string;
  /** Attribute values by name as written ("xml:lang"), entity-decoded. */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** This element's own character data (text and CDATA, not its children's), entity-decoded. */
  text: string;
}

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; reason: string };

type OrderedNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // We decode the predefined entities ourselves (below): fast-xml-parser only decodes character
  // references together with HTML entities, which XML does not have.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: false,
});

/** Parses a whole response body. Never throws; a failure says why in a support engineer's words. */
export function parseXml(input: string): XmlParseResult {
  // A UTF-8 BOM survives decoding in some transports; whitespace before the declaration is
  // technically an error but harmless, and proxies add it.
  const text = input.replace(/^\uFEFF+/, '').trimStart();
  if (text === '') return { ok: false, reason: 'the body is empty' };
  if (!text.startsWith('<')) return { ok: false, reason: 'the body is not XML (it does not start with "<")' };
  if (/<!DOCTYPE/i.test(text)) return { ok: false, reason: 'the body has a document type declaration, which SOAP and ASMX never send' };
  // XML 1.0 §2.11: a literal CR or CRLF reads as LF. A CR sent as &#xD; survives (decoded below).
  const normalized = text.replace(/\r\n?/g, '\n');
  const valid = XMLValidator.validate(normalized, { allowBooleanAttributes: false });
  if (valid !== true) {
    const unclosed = unclosedTags(valid.err.msg);
    if (unclosed) return { ok: false, reason: `the XML ends before ${unclosed} ${unclosed.includes(',') ? 'are' : 'is'} closed (the body was probably cut short)` };
    return { ok: false, reason: `the XML is malformed: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(normalized) as OrderedNode[];
  } catch (error) {
    return { ok: false, reason: `the XML could not be read: ${(error as Error).message}` };
  }
  const roots = nodes.filter((node) => elementName(node) !== null);
  const strayText = nodes.some((node) => typeof node['#text'] === 'string' && (node['#text'] as string).trim() !== '');
  if (roots.length !== 1 || strayText) return { ok: false, reason: `the document has ${roots.length} root elements instead of one` };
  try {
    return { ok: true, root: build(roots[0]!, new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]])) };
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
}

class XmlSyntaxError extends Error {}

// fast-xml-parser reports a document that ends inside elements as "Invalid '["a","b"]' found.".
function unclosedTags(message: string): string | null {
  const match = /^Invalid '(\[[\s\S]*\])' found\.?$/.exec(message);
  if (!match) return null;
  try {
    const names = JSON.parse(match[1]!) as unknown;
    if (!Array.isArray(names) || names.length === 0) return null;
    return names.map((name) => `<${String(name)}>`).join(', ');
  } catch {
    return null;
  }
}

function elementName(node: OrderedNode): string | null {
  for (const key of Object.keys(node)) {
    if (key !== ':@' && key !== '#text' && key !== '#cdata') return key;
  }
  return null;
}

function build(node: OrderedNode, inherited: Map<string, string>): XmlElement {
  const qname = elementName(node)!;
  const rawAttributes = (node[':@'] ?? {}) as Record<string, string>;
  let scope = inherited;
  const attributes: Record<string, string> = {};
  for (const [name, raw] of Object.entries(rawAttributes)) {
    const value = decodeEntities(String(raw));
    attributes[name] = value;
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (scope === inherited) scope = new Map(inherited);
      scope.set(name === 'xmlns' ? '' : name.slice(6), value);
    }
  }
  const colon = qname.indexOf(':');
  const prefix = colon >= 0 ? qname.slice(0, colon) : '';
  const local = colon >= 0 ? qname.slice(colon + 1) : qname;
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== '') throw new XmlSyntaxError(`the prefix "${prefix}" of <${qname}> is not bound to a namespace`);
  const element: XmlElement = { ns: ns ?? '', local, qname, attributes, children: [], text: '' };
  const content = (node[qname] ?? []) as OrderedNode[];
  const parts: string[] = [];
  for (const child of content) {
    if (typeof child['#text'] === 'string') parts.push(decodeEntities(child['#text']));
    else if (Array.isArray(child['#cdata'])) {
      for (const piece of child['#cdata'] as OrderedNode[]) if (typeof piece['#text'] === 'string') parts.push(piece['#text']);
    } else if (elementName(child) !== null) element.children.push(build(child, scope));
  }
  element.text = parts.join('');
  return element;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;\s&]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError(`a bare "&" appears in the text`);
    if (name.startsWith('#')) {
      const code = /^#x[0-9a-f]+$/i.test(name) ? parseInt(name.slice(2), 16) : /^#\d+$/.test(name) ? parseInt(name.slice(1), 10) : NaN;
      if (!isXmlChar(code)) throw new XmlSyntaxError(`the character reference &${name}; is not an XML character`);
      return String.fromCodePoint(code);
    }
    const value = PREDEFINED[name];
    if (value === undefined) throw new XmlSyntaxError(`the entity &${name}; is not defined in XML`);
    return value;
  });
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 || code === 0xa || code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** The first child with this local name, in this namespace (null: any namespace). */
export function childOf(element: XmlElement, ns: string | null, local: string): XmlElement | undefined {
  return element.children.find((child) => child.local === local && (ns === null || child.ns === ns));
}

export function childrenOf(element: XmlElement, ns: string | null, local: string): XmlElement[] {
  return element.children.filter((child) => child.local === local && (ns === null || child.ns === ns));
}

/** All character data below an element, in document order (for fault details). */
export function deepText(element: XmlElement): string {
  return [element.text, ...element.children.map(deepText)].join('');
}

/**
 * Element text as the wire must carry it. & < > are escaped; CR is written as a character
 * reference because a receiving parser turns a literal CR (or CRLF) into LF (XML 1.0 §2.11).
 * Quotes need no escaping in element text and attributes never carry user data here.
 */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#xD;'));
}

/** Escapes a value for a double-quoted attribute (namespace URIs in the envelope). */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#xA;').replace(/\t/g, '&#x9;');
}
