// XML in and out for the SOAP bindings. In: fast-xml-parser with entity processing off, plus the
// checks it leaves to us (DTDs refused before parsing, found by the parser's own tokenization;
// forbidden characters, one root, undeclared entities and prefixes), then names resolved to
// namespace URIs so no caller ever looks at a prefix.
// Out: text escaped the way .NET's XmlWriter does it (& < > in text, also " in attributes).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { malformedXml } from './errors';

export interface XmlElement {
  type: 'element';
  local: string;
  ns: string;
  attributes: { local: string; ns: string; value: string }[];
  children: XmlNode[];
}
export type XmlNode = XmlElement | { type: 'text'; text: string };

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
});

/** "Line 3, position 7" of an index in the text (1-based, like .NET). */
function position(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function documentError(line: number, column: number, message: string): Error {
  return malformedXml(`There is an error in XML document (${line}, ${column}). ---> ${message}`);
}

/** Parses one XML document; throws a ServiceError (phase 'read') that says what is wrong and where. */
export function parseXml(source: string): XmlElement {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (text.trim() === '') throw malformedXml('Root element is missing.');

  const forbidden = FORBIDDEN_CHAR.exec(text);
  if (forbidden) {
    const { line, column } = position(text, forbidden.index);
    const hex = text.charCodeAt(forbidden.index).toString(16).toUpperCase().padStart(2, '0');
    throw documentError(line, column, `'\\u${hex.padStart(4, '0')}', hexadecimal value 0x${hex}, is an invalid character. Line ${line}, position ${column}.`);
  }

  // No DTD, ever: no internal subset, no entity declarations, no external fetches.
  const declaration = findDeclaration(text);
  if (declaration) {
    const { line, column } = position(text, declaration.index);
    const reason = declaration.inProlog ? 'For security reasons DTD is prohibited in this XML document.' : 'Unexpected DTD declaration.';
    throw documentError(line, column, `${reason} Line ${line}, position ${column}.`);
  }

  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    throw documentError(line, col, `${msg} Line ${line}, position ${col}.`);
  }

  let tree: unknown[];
  try {
    tree = parser.parse(text) as unknown[];
  } catch (error) {
    throw malformedXml(`There is an error in XML document. ---> ${(error as Error).message}`);
  }
  const roots = tree.filter((node) => elementName(node) !== null);
  const strayText = tree.some((node) => isTextNode(node) && textOf(node).trim() !== '');
  if (roots.length !== 1 || strayText) {
    throw malformedXml(roots.length === 0 ? 'Root element is missing.' : 'There is an error in XML document. ---> There are multiple root elements or text outside the root element.');
  }
  return resolve(roots[0]!, new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]]));
}

/**
 * Where a DTD declaration starts (<!DOCTYPE, or any other <! that opens neither a comment nor a
 * CDATA section), and whether it comes before the root element. The text is split exactly as
 * fast-xml-parser splits it (comments, CDATA sections, end tags, and processing instructions and
 * tags with their quoted values), so nothing inside one construct can hide a declaration that the
 * parser would read: the parser's own DOCTYPE handling is not observable from outside it.
 */
function findDeclaration(text: string): { index: number; inProlog: boolean } | null {
  let inProlog = true;
  for (let at = text.indexOf('<'); at >= 0;) {
    let end: number;
    if (text.startsWith('<!--', at)) end = endOf(text, '-->', at + 4);
    else if (text.startsWith('<![CDATA[', at)) end = endOf(text, ']]>', at + 9);
    else if (text.startsWith('<!', at)) return { index: at, inProlog };
    else if (text.startsWith('</', at)) end = endOf(text, '>', at + 2);
    else if (text.startsWith('<?', at)) end = endOfTag(text, '?>', at + 1);
    else {
      inProlog = false;
      end = endOfTag(text, '>', at + 1);
    }
    // An unclosed construct: the validator reports it, and the parser reads no further.
    if (end < 0) return null;
    at = text.indexOf('<', end);
  }
  return null;
}

/** The index just past `close`, searched from `from`; -1 when it never comes. */
function endOf(text: string, close: string, from: number): number {
  const found = text.indexOf(close, from);
  return found < 0 ? -1 : found + close.length;
}

/** The same for a tag or processing instruction, stepping over quoted values whole. */
function endOfTag(text: string, close: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === '"' || char === "'") {
      i = text.indexOf(char, i + 1);
      if (i < 0) return -1;
    } else if (text.startsWith(close, i)) {
      return i + close.length;
    }
  }
  return -1;
}

type RawNode = Record<string, unknown>;

function elementName(node: unknown): string | null {
  const keys = Object.keys(node as RawNode).filter((key) => key !== ':@');
  const key = keys[0];
  return key !== undefined && !key.startsWith('#') && !key.startsWith('?') ? key : null;
}

function isTextNode(node: unknown): boolean {
  return Object.prototype.hasOwnProperty.call(node, '#text');
}

function textOf(node: unknown): string {
  return String((node as RawNode)['#text'] ?? '');
}

function resolve(raw: unknown, inherited: Map<string, string>): XmlElement {
  const name = elementName(raw)!;
  const attributesRaw = ((raw as RawNode)[':@'] ?? {}) as Record<string, string>;
  const scope = new Map(inherited);
  for (const [attr, value] of Object.entries(attributesRaw)) {
    if (attr === 'xmlns') scope.set('', decodeEntities(value));
    else if (attr.startsWith('xmlns:')) scope.set(attr.slice(6), decodeEntities(value));
  }
  const [prefix, local] = splitName(name);
  const ns = scope.get(prefix);
  if (ns === undefined) throw malformedXml(`There is an error in XML document. ---> '${prefix}' is an undeclared prefix.`);

  const attributes: XmlElement['attributes'] = [];
  for (const [attr, value] of Object.entries(attributesRaw)) {
    if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
    const [attrPrefix, attrLocal] = splitName(attr);
    // Unprefixed attributes are in no namespace (XML Namespaces §6.2).
    const attrNs = attrPrefix === '' ? '' : scope.get(attrPrefix);
    if (attrNs === undefined) throw malformedXml(`There is an error in XML document. ---> '${attrPrefix}' is an undeclared prefix.`);
    attributes.push({ local: attrLocal, ns: attrNs, value: decodeEntities(value) });
  }

  const children: XmlNode[] = [];
  for (const child of ((raw as RawNode)[name] ?? []) as unknown[]) {
    if (elementName(child) !== null) children.push(resolve(child, scope));
    else if (isTextNode(child)) children.push({ type: 'text', text: decodeEntities(textOf(child)) });
    else if (Object.prototype.hasOwnProperty.call(child, '#cdata')) {
      const parts = ((child as RawNode)['#cdata'] ?? []) as unknown[];
      children.push({ type: 'text', text: parts.map(textOf).join('') });
    }
    // Comments and processing instructions carry nothing.
  }
  return { type: 'element', local, ns: ns ?? '', attributes, children };
}

function splitName(name: string): [string, string] {
  const colon = name.indexOf(':');
  return colon < 0 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)];
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** The five predefined entities and character references; anything else is an undeclared entity. */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&([^;&\s<]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';') || name === '') throw malformedXml("There is an error in XML document. ---> An '&' must start an entity or character reference (write it as &amp;).");
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const reference = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (!reference) throw malformedXml(`There is an error in XML document. ---> Reference to undeclared entity '${name}'.`);
    const code = reference[1] !== undefined ? parseInt(reference[1], 16) : parseInt(reference[2]!, 10);
    const valid = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
    if (!valid) throw malformedXml(`There is an error in XML document. ---> '&${name};' is a reference to a character that XML does not allow (hexadecimal value 0x${code.toString(16).toUpperCase()}).`);
    return String.fromCodePoint(code);
  });
}

/** Child elements only (text between them is layout). */
export function elementChildren(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => child.type === 'element');
}

/** The text content of an element that must hold text only. */
export function textContent(element: XmlElement): string {
  return element.children.map((child) => (child.type === 'text' ? child.text : '')).join('');
}

export function attribute(element: XmlElement, ns: string, local: string): string | undefined {
  return element.attributes.find((a) => a.ns === ns && a.local === local)?.value;
}
