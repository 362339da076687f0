// XML in and out of the wire layer. Reading: fast-xml-parser for the syntax, then our own pass that
// resolves namespaces, so every lookup is by namespace URI and local name — never by prefix (soap:,
// s:, soapenv:, env: and default namespaces all read the same). No DTD is accepted and only the five
// predefined entities and character references are decoded: nothing a server sends can expand.
// Memory is bounded before any tree is built: a cheap scan counts elements and nesting depth and
// refuses a document past the caller's limits (a million empty elements would otherwise cost
// hundreds of MB in the parser's object tree).
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

/** How much structure a document may have; checked before the parser builds anything. */
export interface XmlLimits {
  maxElements: number;
  maxDepth: number;
}

/** Generous for any SOAP fault or error document, far below what hurts. */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = { maxElements: 4096, maxDepth: 64 };

/** tooLarge: the document was refused for its element count or depth, not for its syntax. */
export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; reason: string; tooLarge?: boolean };

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
  // The scan below refuses deeper documents first; this is the parser's own guard behind it.
  maxNestedTags: 128,
});

/** Parses a whole response body. Never throws; a failure says why in a support engineer's words. */
export function parseXml(input: string, limits: Readonly<XmlLimits> = DEFAULT_XML_LIMITS): XmlParseResult {
  // A UTF-8 BOM survives decoding in some transports; whitespace before the declaration is
  // technically an error but harmless, and proxies add it.
  const text = input.replace(/^\uFEFF+/, '').trimStart();
  if (text === '') return { ok: false, reason: 'the body is empty' };
  if (!text.startsWith('<')) return { ok: false, reason: 'the body is not XML (it does not start with "<")' };
  if (/<!DOCTYPE/i.test(text)) return { ok: false, reason: 'the body has a document type declaration, which SOAP and ASMX never send' };
  // XML 1.0 §2.11: a literal CR or CRLF reads as LF. A CR sent as &#xD; survives (decoded below).
  const shape = scanShape(text, limits);
  if (shape) return { ok: false, reason: shape, tooLarge: true };
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

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;

type Markup = { kind: 'start' | 'empty' | 'end' | 'other'; end: number };

/**
 * The markup starting at the "<" at `at`: a start tag, an empty-element tag, an end tag, or anything
 * else (comment, CDATA, processing instruction, declaration); `end` is the index of its final ">".
 * null when it does not end (a cut document, or malformed: left to the validator).
 */
function markupAt(text: string, at: number): Markup | null {
  const next = text.charCodeAt(at + 1);
  const closing = (token: string, from: number, length: number): Markup | null => {
    const found = text.indexOf(token, from);
    return found === -1 ? null : { kind: 'other', end: found + length - 1 };
  };
  if (next === SLASH) {
    const end = text.indexOf('>', at);
    return end === -1 ? null : { kind: 'end', end };
  }
  if (next === 0x3f /* ? */) return closing('?>', at + 2, 2);
  if (text.startsWith('<!--', at)) return closing('-->', at + 4, 3);
  if (text.startsWith('<![CDATA[', at)) return closing(']]>', at + 9, 3);
  if (next === 0x21 /* ! */) return closing('>', at, 1);
  const end = tagEnd(text, at + 1);
  if (end === -1) return null;
  return { kind: text.charCodeAt(end - 1) === SLASH ? 'empty' : 'start', end };
}

/**
 * Counts elements and tracks nesting in one pass over the text, skipping comments, CDATA,
 * processing instructions and quoted attribute values; null when the document is within the
 * limits, else why not. Malformed input is left to the validator: the scan only stops early.
 */
function scanShape(text: string, limits: Readonly<XmlLimits>): string | null {
  let elements = 0;
  let depth = 0;
  for (let at = text.indexOf('<'); at !== -1;) {
    const markup = markupAt(text, at);
    if (!markup) return null;
    if (markup.kind === 'end') depth--;
    if (markup.kind === 'start' || markup.kind === 'empty') {
      elements++;
      if (elements > limits.maxElements) return `the XML holds more than ${new Intl.NumberFormat('en-US').format(limits.maxElements)} elements`;
      if (markup.kind === 'start' && ++depth > limits.maxDepth) return `the XML nests elements more than ${limits.maxDepth} deep`;
    }
    at = text.indexOf('<', markup.end + 1);
  }
  return null;
}

/**
 * A document cut short (an error body read up to the client's limit) closed where it was cut: an
 * unfinished tag or entity at the end is dropped and every element still open is closed, so that
 * what comes first — a fault's code and reason — can still be read. null when there is nothing to
 * close (the cut was elsewhere, or the document was not XML).
 */
export function closeTruncated(text: string): string | null {
  const open: string[] = [];
  let cut = text.length;
  for (let at = text.indexOf('<'); at !== -1;) {
    const markup = markupAt(text, at);
    if (!markup) {
      cut = at;
      break;
    }
    if (markup.kind === 'start') open.push(/^<([^\s/>]+)/.exec(text.slice(at, Math.min(markup.end + 1, at + 512)))?.[1] ?? '');
    else if (markup.kind === 'end') open.pop();
    at = text.indexOf('<', markup.end + 1);
  }
  if (open.length === 0 || open.some((name) => name === '')) return null;
  // Character data cut inside an entity ("&am") would read as a bare "&".
  const kept = text.slice(0, cut).replace(/&[^;<>&\s]{0,12}$/, '');
  return `${kept}${open.reverse().map((name) => `</${name}>`).join('')}`;
}

/** The index of the ">" closing the tag that starts at `from`, skipping quoted values; -1 if none. */
function tagEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === GT) return i;
    if (c === LT) return -1;
    if (c === 0x22 || c === 0x27) {
      const close = text.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close;
    }
  }
  return -1;
}

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
    if (!whole.endsWith(';')) throw new XmlSyntaxError('a bare "&" appears in the text');
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
