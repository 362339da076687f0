// Reading XML by namespace URI, whatever the prefixes, and refusing what a SOAP answer never holds
// (DTDs, undefined entities, unbound prefixes), so nothing a server sends can expand or mislead.
import { describe, expect, it } from 'vitest';
import { childOf, escapeXmlText, parseXml } from '../../electron/core/service/xml';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';

function root(text: string) {
  const parsed = parseXml(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.root;
}

describe('parseXml', () => {
  it.each(['soap', 's', 'soapenv', 'env', 'SOAP-ENV'])('finds the Body by namespace under the %s: prefix', (prefix) => {
    const envelope = root(`<${prefix}:Envelope xmlns:${prefix}="${SOAP11}"><${prefix}:Body><R xmlns="urn:x">ok</R></${prefix}:Body></${prefix}:Envelope>`);
    expect(envelope).toMatchObject({ ns: SOAP11, local: 'Envelope' });
    const body = childOf(envelope, SOAP11, 'Body')!;
    expect(childOf(body, 'urn:x', 'R')?.text).toBe('ok');
    expect(childOf(body, 'urn:other', 'R')).toBeUndefined();
  });

  it('reads a default namespace declared on an ancestor and redeclared on a child', () => {
    const doc = root('<a xmlns="urn:one"><b><c xmlns="urn:two">x</c></b></a>');
    const b = childOf(doc, 'urn:one', 'b')!;
    expect(childOf(b, 'urn:two', 'c')?.text).toBe('x');
  });

  it('skips a byte order mark, the declaration and indentation', () => {
    expect(root('\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n\r\n  <string xmlns="urn:x">v</string>\n').text).toBe('v');
  });

  it('decodes the predefined entities, character references and CDATA, and turns literal CRLF into LF', () => {
    expect(root('<a>&lt;&gt;&amp;&quot;&apos; &#65;&#x1F5FC; <![CDATA[<raw & kept>]]> x\r\ny&#xD;</a>').text).toBe('<>&"\' A🗼 <raw & kept> x\ny\r');
  });

  it('keeps surrounding whitespace of a text value as sent', () => {
    expect(root('<a>  two  spaces  </a>').text).toBe('  two  spaces  ');
  });

  it.each([
    ['an empty body', '', /empty/],
    ['plain text', 'Service Unavailable', /not XML/],
    ['a document type declaration', '<!DOCTYPE a [<!ENTITY x "boom">]><a>&x;</a>', /document type/],
    ['an undefined entity', '<a>&nbsp;</a>', /&nbsp;/],
    ['a reference to a forbidden character', '<a>&#0;</a>', /not an XML character/],
    ['an unbound prefix', '<p:a/>', /prefix "p"/],
    ['a cut-off document', '<a><b>text', /<a>, <b> are closed/],
    ['two root elements', '<a/><b/>', /2 root elements/],
  ])('refuses %s with a reason', (_label, text, reason) => {
    const parsed = parseXml(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });
});

describe('escapeXmlText', () => {
  it('escapes markup characters and carriage returns, and nothing else', () => {
    expect(escapeXmlText('a&b<c>d\r\n"e\'\t🙂')).toBe('a&amp;b&lt;c&gt;d&#xD;\n"e\'\t🙂');
  });

  it('round-trips through the reader', () => {
    const text = 'x & y < z > w\r\nline "two" \u00A0 é 北 🗼 ]]>';
    expect(root(`<a>${escapeXmlText(text)}</a>`).text).toBe(text);
  });
});
