// The fast path for successes (electron/core/service/fast-read.ts) never reads an answer otherwise
// than the full XML parser: for generated answers — successes as ASMX and the sandbox write them with
// varied values (entities, quotes, markup, line ends, all of Unicode), and the same bent every way a
// server, proxy or cut connection bends them (whitespace, prefixes, attributes, headers, CDATA,
// character references, nil results, faults, truncation, stray bytes) — whenever the fast path
// answers, its answer is deep-equal to the full reader's. And it does answer the shapes the sandbox
// writes, so the property cannot hold by never answering.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../electron/core/service/codec';
import { fastRead } from '../../electron/core/service/fast-read';
import { readPlainFully } from '../../electron/core/service/plain';
import { createRedactor } from '../../electron/core/service/redact';
import { readSoapFully } from '../../electron/core/service/soap';
import { BINDINGS, OPERATIONS, type Binding, type Connection, type Operation } from '../../electron/core/service/types';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS } from '../../electron/core/service/xml';
import { plainResultDocument } from '../../electron/sandbox/bindings/reply';
import { soapResultReply } from '../../electron/sandbox/bindings/soap';

const KEY = 'fast-read-secret-key';
const redactKey = createRedactor([KEY]);
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XSD = 'http://www.w3.org/2001/XMLSchema';

function connectionFor(binding: Binding, namespace = 'http://tempuri.org/'): Connection {
  return { baseUrl: 'http://127.0.0.1:1', servicePath: '/towercoverage.asmx', namespace, binding };
}

/** An answer as the client hands it to a codec: the body as received, with the key's redactor. */
function answerOf(body: string, options: { status?: number; truncated?: boolean } = {}): Answer {
  return {
    status: options.status ?? 200,
    statusText: 'OK',
    contentType: 'text/xml; charset=utf-8',
    body,
    redact: redactKey,
    location: null,
    endpoint: 'http://127.0.0.1:1/towercoverage.asmx',
    truncated: options.truncated === true,
  };
}

function fullRead(binding: Binding, operation: Operation, answer: Answer, connection: Connection) {
  if (binding === 'soap11') return readSoapFully(SOAP11_ENVELOPE_NS, operation, answer, connection);
  if (binding === 'soap12') return readSoapFully(SOAP12_ENVELOPE_NS, operation, answer, connection);
  return readPlainFully(operation, answer, connection);
}

/** Asserts the invariant for one answer; true when the fast path answered. */
function agrees(binding: Binding, operation: Operation, answer: Answer, connection: Connection): boolean {
  const fast = fastRead(binding, operation, answer, connection);
  if (fast === undefined) return false;
  expect(fast).toStrictEqual(fullRead(binding, operation, answer, connection));
  return true;
}

// ---------------------------------------------------------------- values

const tricky = fc.constantFrom(
  '&', '<', '>', '"', "'", ']]', ' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\u0085', '🗼', '北', 'é',
  '&amp;', '&lt;', '&#38;', '&#x3C;', KEY, 'Site 12 created', '12', '-3',
);
/** What the fast path leaves to the full reader when it is in a text. */
const awkward = fc.constantFrom('\r', '\r\n', ']]>', '\u0001', '\u001f', '\u0000', '\ufffe', '\uffff', '\ud800', '\udc00');
const valueChar = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 6, arbitrary: tricky },
  { weight: 1, arbitrary: awkward },
);
const value = fc.array(valueChar, { maxLength: 24 }).map((parts) => parts.join(''));

/** How a value is written as element text: escaped as ASMX does, or otherwise (some of it malformed). */
const escaping = fc.oneof({ weight: 6, arbitrary: fc.constant('asmx') }, { weight: 1, arbitrary: fc.constantFrom('quotes', 'charrefs', 'cdata', 'raw', 'partial-cdata') });
function writeText(text: string, how: string): string {
  const asmx = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  switch (how) {
    case 'quotes':
      return asmx(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
    case 'charrefs':
      return text.replace(/[&<>"'\r]/g, (c) => (c.charCodeAt(0) % 2 === 0 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`));
    case 'cdata':
      return `<![CDATA[${text}]]>`;
    case 'partial-cdata':
      return `${asmx(text.slice(0, 3))}<![CDATA[${text.slice(3)}]]>`;
    case 'raw':
      return text;
    default:
      return asmx(text);
  }
}

/** Mostly the shape ASMX writes, now and then one of the others: bends one or two things per answer. */
function mostly<T>(usual: T, ...others: T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 14, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
}

const ws = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom('', '', '', ' ', '\n', '\r\n', '\t', '\r\n  ', '\n    ', ' \r', '\r') },
  { weight: 1, arbitrary: fc.constantFrom('\u00a0', '\ufeff', 'x', '\u2028') },
);

// ---------------------------------------------------------------- documents

const prologue = fc.record({
  bom: mostly('', '\ufeff', '\ufeff\ufeff', '\ufeff\ufeff'),
  lead: ws,
  declaration: mostly(
    '<?xml version="1.0" encoding="utf-8"?>',
    '',
    '<?xml version="1.0"?>',
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<?xml version='1.0' encoding='utf-8'?>",
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
    '<!-- proxy -->',
  ),
  after: ws,
});
type Prologue = typeof prologue extends fc.Arbitrary<infer T> ? T : never;
const writePrologue = (p: Prologue) => `${p.bom}${p.lead}${p.declaration}${p.after}`;

const envelopeAttributes = fc.record({
  order: fc.constantFrom('soap-first', 'soap-last', 'soap-middle'),
  extra: mostly('', ' xmlns:t="http://tempuri.org/"', ' foo="bar"', ' xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"', ' xmlns="http://tempuri.org/"', ' xmlns:x="a&amp;b"'),
  gap: mostly(' ', '  ', '\n  ', '\t'),
});

const resultShape = mostly('text', 'empty-space', 'empty', 'open-close', 'nil', 'missing', 'prefixed', 'child', 'comment', 'attribute', 'twice');
const entry = fc.record({
  id: fc.oneof(fc.integer({ min: -5, max: 100_000 }).map(String), value),
  name: fc.option(value, { nil: null }),
  error: fc.option(fc.oneof(fc.constant(''), value), { nil: null }),
  shape: mostly('asmx', 'reordered', 'extra-field', 'empty-no-space', 'nil-name', 'open-close-error'),
  gaps: fc.array(ws, { minLength: 5, maxLength: 5 }),
});
type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;

function writeEntry(e: Entry, how: string): string {
  const [g0, g1, g2, g3, g4] = e.gaps as [string, string, string, string, string];
  const field = (name: string, v: string | null): string => {
    if (v === null) return '';
    if (v === '') return e.shape === 'empty-no-space' ? `<${name}/>` : e.shape === 'open-close-error' ? `<${name}></${name}>` : `<${name} />`;
    return `<${name}>${writeText(v, how)}</${name}>`;
  };
  const id = `<RenderingQualityid>${writeText(e.id, how)}</RenderingQualityid>`;
  const name = e.shape === 'nil-name' ? '<RenderingQualityname xsi:nil="true" />' : field('RenderingQualityname', e.name);
  const error = field('Error', e.error);
  const fields = e.shape === 'reordered' ? [error, id, name] : e.shape === 'extra-field' ? [id, name, '<Other>1</Other>', error] : [id, name, error];
  return `<Rendering>${g0}${fields.filter(Boolean).join(g1)}${g2}</Rendering>${g3}${g4 === '' ? '' : ''}`;
}

const document = fc.record({
  binding: fc.constantFrom(...BINDINGS),
  operation: fc.constantFrom(...OPERATIONS),
  namespace: mostly('http://tempuri.org/', 'urn:towercoverage', 'http://a.example/?x=1&y=2', 'http://tempuri.org/"q'),
  responseNamespace: mostly('same', 'other', 'prefixed', 'unqualified'),
  envelopeVersion: mostly('own', 'other', 'none'),
  prefix: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('soap', 's', 'soapenv', 'env', 'SOAP-ENV', 'a.b-c') }, { weight: 1, arbitrary: fc.constantFrom('xml', 'xmlns', '1x', '') }),
  prologue,
  envelopeAttributes,
  header: mostly('', '<soap:Header />', '<soap:Header></soap:Header>'),
  gaps: fc.array(ws, { minLength: 10, maxLength: 10 }),
  text: value,
  how: escaping,
  result: resultShape,
  entries: fc.array(entry, { maxLength: 4 }),
  plainAttributes: mostly('asmx', 'reordered', 'extra', 'prefixed-root', 'double-space'),
  trailer: mostly('', '\r\n', '<!-- cached -->', 'x', '<string />'),
  fault: mostly(false, true),
});
type Doc = typeof document extends fc.Arbitrary<infer T> ? T : never;

/** The result element in the shape the document draws ('missing' writes nothing). */
function resultElement(result: Doc['result'], name: string, attributes: string, inner: string, namespace: string): string {
  switch (result) {
    case 'empty-space':
      return `<${name}${attributes} />`;
    case 'empty':
      return `<${name}${attributes}/>`;
    case 'open-close':
      return `<${name}${attributes}></${name}>`;
    case 'nil':
      return `<${name}${attributes} xmlns:xsi="${XSI}" xsi:nil="true" />`;
    case 'missing':
      return '';
    case 'prefixed':
      return `<t:${name} xmlns:t="${namespace}">${inner}</t:${name}>`;
    case 'child':
      return `<${name}${attributes}>${inner}<b>bold</b></${name}>`;
    case 'comment':
      return `<${name}${attributes}>${inner}<!-- c --></${name}>`;
    case 'attribute':
      return `<${name}${attributes} id="1">${inner}</${name}>`;
    case 'twice':
      return `<${name}${attributes}>${inner}</${name}><${name}${attributes}>x</${name}>`;
    default:
      return `<${name}${attributes}>${inner}</${name}>`;
  }
}

function writeDocument(d: Doc): string {
  const g = d.gaps as string[];
  const list = d.operation === 'GetRenderingQualityList';
  const resultName = `${d.operation}Result`;
  const inner = list ? d.entries.map((e) => writeEntry(e, d.how)).join(g[9]) : writeText(d.text, d.how);

  if (d.binding === 'soap11' || d.binding === 'soap12') {
    const own = d.binding === 'soap11' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS;
    const envelopeNs = d.envelopeVersion === 'own' ? own : d.envelopeVersion === 'other' ? (own === SOAP11_ENVELOPE_NS ? SOAP12_ENVELOPE_NS : SOAP11_ENVELOPE_NS) : 'urn:not-soap';
    const p = d.prefix;
    const a = d.envelopeAttributes;
    const soapAttribute = `xmlns:${p}="${envelopeNs}"`;
    const others = [`xmlns:xsi="${XSI}"`, `xmlns:xsd="${XSD}"`];
    const ordered = a.order === 'soap-first' ? [soapAttribute, ...others] : a.order === 'soap-last' ? [...others, soapAttribute] : [others[0], soapAttribute, others[1]];
    const open = `<${p}:Envelope${a.gap}${ordered.join(a.gap)}${a.extra}>`;
    const ns = d.namespace.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    let body: string;
    if (d.fault) {
      body =
        d.binding === 'soap11'
          ? `<${p}:Fault><faultcode>${p}:Server</faultcode><faultstring>${writeText(d.text, 'asmx')}</faultstring><detail /></${p}:Fault>`
          : `<${p}:Fault><${p}:Code><${p}:Value>${p}:Receiver</${p}:Value></${p}:Code><${p}:Reason><${p}:Text xml:lang="en">${writeText(d.text, 'asmx')}</${p}:Text></${p}:Reason></${p}:Fault>`;
    } else {
      const response =
        d.responseNamespace === 'prefixed'
          ? [`<r:${d.operation}Response xmlns:r="${ns}">`, `</r:${d.operation}Response>`]
          : d.responseNamespace === 'unqualified'
            ? [`<${d.operation}Response>`, `</${d.operation}Response>`]
            : [`<${d.operation}Response xmlns="${d.responseNamespace === 'other' ? 'urn:other' : ns}">`, `</${d.operation}Response>`];
      body = `${response[0]}${g[3]}${resultElement(d.result, resultName, '', inner, d.namespace)}${g[4]}${response[1]}`;
    }
    const header = d.header.replace(/soap:/g, `${p}:`);
    return (
      `${writePrologue(d.prologue)}${open}${g[0]}${header}${g[1]}<${p}:Body>${g[2]}${body}${g[5]}</${p}:Body>${g[6]}</${p}:Envelope>${g[7]}${d.trailer}`
    );
  }

  const ns = d.namespace.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const rootName = list ? 'ArrayOfRendering' : 'string';
  let attributes: string;
  switch (d.plainAttributes) {
    case 'reordered':
      attributes = list ? ` xmlns="${ns}" xmlns:xsd="${XSD}" xmlns:xsi="${XSI}"` : ` xmlns:xsi="${XSI}" xmlns="${ns}"`;
      break;
    case 'extra':
      attributes = ` xmlns="${ns}" lang="en"`;
      break;
    case 'double-space':
      attributes = `  xmlns="${ns}"`;
      break;
    case 'prefixed-root':
      return `${writePrologue(d.prologue)}<t:${rootName} xmlns:t="${ns}">${inner}</t:${rootName}>${g[7]}${d.trailer}`;
    default:
      attributes = list ? ` xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns="${ns}"` : ` xmlns="${ns}"`;
  }
  if (d.responseNamespace === 'other') attributes = attributes.replace(`xmlns="${ns}"`, 'xmlns="urn:other"');
  if (d.result === 'missing' || d.result === 'prefixed') return `${writePrologue(d.prologue)}${g[7]}${d.trailer}`;
  const wrapped = list ? `${g[8]}${inner}${g[9]}` : inner;
  // A plain document has one root: its 'twice' shape is written as a plain text result.
  const root = resultElement(d.result === 'twice' ? 'text' : d.result, rootName, attributes, wrapped, d.namespace);
  return `${writePrologue(d.prologue)}${root}${g[7]}${d.trailer}`;
}

/** What a connection or a proxy can still do to a document: cut it, drop or add a character. */
const damage = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'none' as const, at: 0, char: '' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), char: fc.constant('') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), char: fc.constant('') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom('<', '>', '&', '"', ' ', '/', '\r', '=', 'x', ':', '\u0000', ']]>') }) },
);
type Damage = typeof damage extends fc.Arbitrary<infer T> ? T : never;
function damaged(text: string, d: Damage): string {
  if (d.kind === 'none' || text.length === 0) return text;
  const at = d.at % (text.length + 1);
  if (d.kind === 'cut') return text.slice(0, at);
  if (d.kind === 'drop') return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + d.char + text.slice(at);
}

describe('the fast path for successes', () => {
  it('answers only as the full parser reads the same answer (generated answers, every binding and operation)', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(document, damage, fc.boolean(), (doc, harm, truncated) => {
        runs++;
        const text = damaged(writeDocument(doc), harm);
        const answer = answerOf(text, { truncated: truncated && harm.kind === 'cut' });
        if (agrees(doc.binding, doc.operation, answer, connectionFor(doc.binding, doc.namespace))) answered++;
      }),
      { numRuns: 6000 },
    );
    // Not vacuous: a good share of the generated answers are exact successes the fast path takes.
    expect(answered).toBeGreaterThan(runs / 20);
  });

  it('answers every success the sandbox writes, identically to the full parser', () => {
    const entries = fc.array(fc.record({ id: fc.integer({ min: 0, max: 1_000_000 }), name: fc.option(value, { nil: null }), error: fc.option(value, { nil: null }) }), { maxLength: 6 });
    fc.assert(
      fc.property(fc.constantFrom(...BINDINGS), fc.constantFrom(...OPERATIONS), value, entries, (binding, operation, text, list) => {
        // eslint-disable-next-line no-control-regex -- what XML 1.0 cannot carry is the point
        const clean = (t: string) => t.replace(/[\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|]]>/g, '');
        const result =
          operation === 'GetRenderingQualityList'
            ? { kind: 'renderings' as const, list: list.map((e) => ({ id: e.id, name: clean(e.name ?? ''), error: e.error === null ? null : clean(e.error) })) }
            : { kind: 'string' as const, text: clean(text) };
        const namespace = 'http://tempuri.org/';
        const body =
          binding === 'soap11' ? soapResultReply('1.1', namespace, operation, result).body : binding === 'soap12' ? soapResultReply('1.2', namespace, operation, result).body : plainResultDocument(namespace, result);
        expect(agrees(binding, operation, answerOf(body), connectionFor(binding, namespace))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('answers the published ASMX shapes, with the key removed from what it read', () => {
    const soap = `<?xml version="1.0" encoding="utf-8"?>\r\n<soap:Envelope xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns:soap="${SOAP11_ENVELOPE_NS}">\r\n  <soap:Body>\r\n    <SitesAPIResponse xmlns="http://tempuri.org/">\r\n      <SitesAPIResult>Site 42 created (key ${KEY}) &amp; saved</SitesAPIResult>\r\n    </SitesAPIResponse>\r\n  </soap:Body>\r\n</soap:Envelope>`;
    const answer = answerOf(soap);
    const fast = fastRead('soap11', 'SitesAPI', answer, connectionFor('soap11'));
    expect(fast).toMatchObject({ ok: true, element: { local: 'SitesAPIResult', text: 'Site 42 created (key [redacted]) & saved' } });
    expect(fast).toStrictEqual(readSoapFully(SOAP11_ENVELOPE_NS, 'SitesAPI', answer, connectionFor('soap11')));
    const list = `<?xml version="1.0" encoding="utf-8"?>\r\n<ArrayOfRendering xmlns:xsi="${XSI}" xmlns:xsd="${XSD}" xmlns="http://tempuri.org/">\r\n  <Rendering>\r\n    <RenderingQualityid>1</RenderingQualityid>\r\n    <RenderingQualityname>Fast</RenderingQualityname>\r\n    <Error />\r\n  </Rendering>\r\n</ArrayOfRendering>`;
    expect(agrees('http-get', 'GetRenderingQualityList', answerOf(list), connectionFor('http-get'))).toBe(true);
  });

  it('leaves faults, errors and cut answers to the full reader', () => {
    const fault = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>boom</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
    expect(fastRead('soap11', 'SitesAPI', answerOf(fault), connectionFor('soap11'))).toBeUndefined();
    expect(fastRead('soap11', 'SitesAPI', answerOf(fault, { status: 500 }), connectionFor('soap11'))).toBeUndefined();
    const ok = '<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">Site 1 updated.</string>';
    expect(fastRead('http-post', 'SitesAPI', answerOf(ok, { truncated: true }), connectionFor('http-post'))).toBeUndefined();
    expect(fastRead('http-post', 'SitesAPI', answerOf(ok.slice(0, -3)), connectionFor('http-post'))).toBeUndefined();
    expect(fastRead('http-post', 'SitesAPI', answerOf(ok), connectionFor('http-post'))).toMatchObject({ ok: true, element: { text: 'Site 1 updated.' } });
  });
});
