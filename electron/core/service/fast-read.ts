// The fast path for reading a success: the exact shapes ASMX (and the sandbox) write for each
// operation and binding, matched directly over the text — no validation pass, no generic tree.
//   SOAP:  [BOM][ws][<?xml version="1.0" encoding="utf-8"?>][ws]<P:Envelope xmlns:…="…"…>[ws]<P:Body>[ws]
//          <OpResponse xmlns="NS">[ws]<OpResult>text</OpResult> | <OpResult />[ws]</OpResponse>[ws]
//          </P:Body>[ws]</P:Envelope>[ws]
//   GET/POST: the same prologue, then <string xmlns="NS">text</string> | <string xmlns="NS" />, or
//          <ArrayOfRendering xmlns:xsi="…" xmlns:xsd="…" xmlns="NS"> of <Rendering> entries.
//   A list entry: <Rendering>[ws]<RenderingQualityid>t</…>[ws][<RenderingQualityname>t</…> | <… />]
//          [ws][<Error>t</Error> | <Error />][ws]</Rendering>.
// Invariant: it answers only what the full reader (xml.ts through soap.ts / plain.ts) reads the same
// way, and builds the very element the full reader would (redacted alike); anything else — a fault,
// another prefix layout or attribute, a comment, CDATA, a character reference, a CR or control
// character in text, a null (xsi:nil) or missing result, a document cut short — is `undefined`, and
// the caller reads it the full way. test/service/fast-read.property.test.ts holds it to that.
import { answerLimits, type Answer, type ReadResult } from './codec';
import type { Binding, Connection, Operation } from './types';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type XmlElement } from './xml';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
/** In text: control characters (CR included), non-characters, "]]>"; anything else is read as it is. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const AWKWARD_TEXT = /[\u0000-\u0008\u000b-\u001f\ufffe\uffff]|]]>/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const AWKWARD_VALUE = /[\u0000-\u001f<&\ufffe\uffff]/;
const ENTITY = /&(?:(lt)|(gt)|(amp)|(quot)|(apos));/g;
const NAME = /[A-Za-z_][\w.-]*/y;
/** A list entry's fields after its ID, each optional (ASMX leaves out a null one), in this order. */
const OPTIONAL_FIELDS = ['RenderingQualityname', 'Error'] as const;

/**
 * The payload element of a success, read the fast way; undefined when the answer is not exactly
 * one of the shapes above (the caller then reads it with the full parser).
 */
export function fastRead(binding: Binding, operation: Operation, answer: Answer, connection: Connection): ReadResult | undefined {
  if (binding === 'soap11') return fastReadSoap(SOAP11_ENVELOPE_NS, operation, answer, connection);
  if (binding === 'soap12') return fastReadSoap(SOAP12_ENVELOPE_NS, operation, answer, connection);
  return fastReadPlain(operation, answer, connection);
}

export function fastReadSoap(envelopeNs: string, operation: Operation, answer: Answer, connection: Connection): ReadResult | undefined {
  const reader = readerFor(answer, connection);
  return reader && done(operation, reader.soap(envelopeNs, operation, connection.namespace));
}

export function fastReadPlain(operation: Operation, answer: Answer, connection: Connection): ReadResult | undefined {
  const reader = readerFor(answer, connection);
  return reader && done(operation, reader.plain(operation, connection.namespace));
}

function readerFor(answer: Answer, connection: Connection): Reader | undefined {
  if (answer.truncated || answer.status < 200 || answer.status >= 300) return undefined;
  const namespace = connection.namespace;
  if (AWKWARD_VALUE.test(namespace) || namespace.includes('"')) return undefined;
  return new Reader(answer.body, answer.redact ?? identity);
}

function done(operation: Operation, element: XmlElement | undefined): ReadResult | undefined {
  if (element === undefined) return undefined;
  // Room for the wrappers and four elements per entry, as the full reader counts them.
  if (operation === 'GetRenderingQualityList' && 4 + 4 * element.children.length > answerLimits(operation).maxElements) return undefined;
  return { ok: true, element };
}

const identity = (text: string): string => text;

/** Thrown inside the reader when the text leaves the expected shape: the answer is not fast-read. */
const MISS = Symbol('miss');

class Reader {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly redact: (text: string) => string,
  ) {}

  soap(envelopeNs: string, operation: Operation, namespace: string): XmlElement | undefined {
    try {
      this.prologue();
      const prefix = this.name();
      this.expect(':Envelope');
      const attributes = this.namespaceAttributes();
      if (attributes === null || attributes.get(`xmlns:${prefix}`) !== envelopeNs || prefix === 'xml' || prefix === 'xmlns') return undefined;
      this.expect('>');
      this.space();
      this.expect(`<${prefix}:Body>`);
      this.space();
      this.expect(`<${operation}Response xmlns="${namespace}">`);
      this.space();
      const result = this.payload(`${operation}Result`, namespace, operation === 'GetRenderingQualityList', {});
      this.space();
      this.expect(`</${operation}Response>`);
      this.space();
      this.expect(`</${prefix}:Body>`);
      this.space();
      this.expect(`</${prefix}:Envelope>`);
      this.end();
      return result;
    } catch (error) {
      if (error === MISS) return undefined;
      throw error;
    }
  }

  plain(operation: Operation, namespace: string): XmlElement | undefined {
    try {
      this.prologue();
      if (operation !== 'GetRenderingQualityList') {
        this.expect('string');
        const attributes = this.namespaceAttributes();
        if (attributes === null || attributes.size !== 1 || attributes.get('xmlns') !== namespace) return undefined;
        const element = this.payloadAfterName('string', namespace, false, { xmlns: this.redact(namespace) });
        this.end();
        return element;
      }
      this.expect('ArrayOfRendering');
      const attributes = this.namespaceAttributes();
      if (attributes === null || attributes.get('xmlns') !== namespace) return undefined;
      const shown: Record<string, string> = {};
      for (const [name, value] of attributes) shown[name] = this.redact(value);
      const element = this.payloadAfterName('ArrayOfRendering', namespace, true, shown);
      this.end();
      return element;
    } catch (error) {
      if (error === MISS) return undefined;
      throw error;
    }
  }

  /** BOM, leading whitespace and the XML declaration ASMX writes; then the "<" of the root. */
  private prologue(): void {
    while (this.text.charCodeAt(this.at) === 0xfeff) this.at++;
    this.space();
    if (this.text.startsWith('<?', this.at)) {
      this.expect(DECLARATION);
      this.space();
    }
    this.expect('<');
  }

  /** `<name` already matched is up to the caller; this reads one element from its "<". */
  private payload(name: string, ns: string, list: boolean, attributes: Record<string, string>): XmlElement {
    this.expect(`<${name}`);
    return this.payloadAfterName(name, ns, list, attributes);
  }

  /**
   * The rest of an element whose "<name" and attributes were read: " />", "/>", or ">" then its
   * content (text, or list entries) and its end tag.
   */
  private payloadAfterName(name: string, ns: string, list: boolean, attributes: Record<string, string>): XmlElement {
    const element: XmlElement = { ns, local: name, qname: name, attributes, children: [], text: '' };
    if (this.empty()) return element;
    this.expect('>');
    if (list) {
      let space = this.spaceText();
      while (this.text.startsWith('<Rendering>', this.at)) {
        element.text += space;
        element.children.push(this.rendering(ns));
        space = this.spaceText();
      }
      element.text = this.redact(element.text + space);
    } else {
      element.text = this.redact(this.characters());
    }
    this.expect(`</${name}>`);
    return element;
  }

  private rendering(ns: string): XmlElement {
    this.expect('<Rendering>');
    const entry: XmlElement = { ns, local: 'Rendering', qname: 'Rendering', attributes: {}, children: [], text: '' };
    let space = this.spaceText();
    entry.children.push(this.field('RenderingQualityid', ns));
    for (const name of OPTIONAL_FIELDS) {
      const before = this.at;
      const next = this.spaceText();
      if (this.text.startsWith(`<${name}`, this.at)) {
        space += next;
        entry.children.push(this.field(name, ns));
      } else {
        this.at = before;
      }
    }
    space += this.spaceText();
    this.expect('</Rendering>');
    entry.text = this.redact(space);
    return entry;
  }

  private field(name: string, ns: string): XmlElement {
    this.expect(`<${name}`);
    const element: XmlElement = { ns, local: name, qname: name, attributes: {}, children: [], text: '' };
    if (this.empty()) return element;
    this.expect('>');
    element.text = this.redact(this.characters());
    this.expect(`</${name}>`);
    return element;
  }

  /** " />" or "/>" closing an empty element. */
  private empty(): boolean {
    if (this.text.startsWith(' />', this.at)) {
      this.at += 3;
      return true;
    }
    if (this.text.startsWith('/>', this.at)) {
      this.at += 2;
      return true;
    }
    return false;
  }

  /**
   * ` xmlns:p="v"` / ` xmlns="v"` attributes up to the tag's end, by name; null when there is any
   * other attribute, a repeated one, or a value the full reader might read otherwise (an entity,
   * a control character).
   */
  private namespaceAttributes(): Map<string, string> | null {
    const found = new Map<string, string>();
    while (this.text.charCodeAt(this.at) === 0x20 && this.text.startsWith('xmlns', this.at + 1)) {
      this.at += 6;
      let name = 'xmlns';
      if (this.text.charCodeAt(this.at) === 0x3a /* : */) {
        this.at++;
        name = `xmlns:${this.name()}`;
      }
      this.expect('="');
      const close = this.text.indexOf('"', this.at);
      if (close < 0) throw MISS;
      const value = this.text.slice(this.at, close);
      if (AWKWARD_VALUE.test(value) || found.has(name)) return null;
      found.set(name, value);
      this.at = close + 1;
    }
    return found;
  }

  /** Character data up to the next "<", the five predefined entities decoded; MISS for anything else. */
  private characters(): string {
    const close = this.text.indexOf('<', this.at);
    if (close < 0) throw MISS;
    const raw = this.text.slice(this.at, close);
    // A CR (which the full reader turns into LF, XML 1.0 §2.11) or a control character: left to it.
    if (AWKWARD_TEXT.test(raw)) throw MISS;
    this.at = close;
    if (!raw.includes('&')) return raw;
    const decoded = raw.replace(ENTITY, (_whole, lt, gt, amp, quot) => (lt ? '<' : gt ? '>' : amp ? '&' : quot ? '"' : "'"));
    // Any other "&" (a character reference, an unknown or unterminated entity) goes the full way.
    if (raw.replace(ENTITY, '').includes('&')) throw MISS;
    return decoded;
  }

  /** Whitespace between elements, as the full reader keeps it in the parent's text (CR read as LF). */
  private spaceText(): string {
    const start = this.at;
    this.space();
    const space = this.text.slice(start, this.at);
    return space.includes('\r') ? space.replace(/\r\n?/g, '\n') : space;
  }

  private space(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at++;
    }
  }

  private name(): string {
    NAME.lastIndex = this.at;
    const match = NAME.exec(this.text);
    if (!match) throw MISS;
    this.at += match[0].length;
    return match[0];
  }

  private expect(token: string): void {
    if (!this.text.startsWith(token, this.at)) throw MISS;
    this.at += token.length;
  }

  /** Only whitespace may follow the root. */
  private end(): void {
    this.space();
    if (this.at !== this.text.length) throw MISS;
  }
}
