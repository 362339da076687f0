// The XML reader's bounds: structure is counted before any tree is built (comments, CDATA and
// quoted values do not count), and a fault cut at the client's read limit is closed where it was cut.
import { describe, expect, it } from 'vitest';
import { closeTruncated, parseXml } from '../../electron/core/service/xml';

describe('parseXml limits', () => {
  const limits = { maxElements: 5, maxDepth: 3 };

  it('reads a document within the limits, whatever its comments, CDATA and attribute values hold', () => {
    const text = '<a x="1 > 0"><!-- <b><b><b><b><b> --><b><![CDATA[<c><c><c><c><c>]]></b><?pi <d><d>?><c/></a>';
    const parsed = parseXml(text, limits);
    expect(parsed.ok).toBe(true);
  });

  it('refuses more elements than allowed, without building them', () => {
    const parsed = parseXml(`<a>${'<b/>'.repeat(5)}</a>`, limits);
    expect(parsed).toEqual({ ok: false, reason: 'the XML holds more than 5 elements', tooLarge: true });
  });

  it('refuses deeper nesting than allowed', () => {
    const parsed = parseXml('<a><b><c><d/></c></b></a>', { maxElements: 100, maxDepth: 3 });
    expect(parsed.ok).toBe(true);
    expect(parseXml('<a><b><c><d></d></c></b></a>', { maxElements: 100, maxDepth: 3 })).toMatchObject({ ok: false, reason: 'the XML nests elements more than 3 deep' });
  });
});

describe('closeTruncated', () => {
  it('closes a fault cut inside its detail, so its code and reason can be read', () => {
    const cut = '<s:Envelope xmlns:s="urn:s"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>Bad height</faultstring><detail><dump>abc &am';
    const closed = closeTruncated(cut)!;
    expect(closed).toBe('<s:Envelope xmlns:s="urn:s"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>Bad height</faultstring><detail><dump>abc </dump></detail></s:Fault></s:Body></s:Envelope>');
    expect(parseXml(closed).ok).toBe(true);
  });

  it('drops a tag cut in the middle', () => {
    expect(closeTruncated('<a><b>text</b><c attr="va')).toBe('<a><b>text</b></a>');
  });

  it('has nothing to close in a complete document or in text that is not XML', () => {
    expect(closeTruncated('<a><b/></a>')).toBeNull();
    expect(closeTruncated('System.Exception: no markup')).toBeNull();
  });
});
