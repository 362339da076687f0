// What the client puts on the wire, read back by a loopback server: every parameter in the
// published order, exact names, headers per binding, escaping and encoding, plain-decimal
// coordinates, and nothing at all when the input is refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { createServiceClient } from '../../electron/core/service/client';
import { BINDINGS, type Binding, type ServiceClient } from '../../electron/core/service/types';
import { reply, startRawServer, type CapturedRequest, type RawServer } from './helpers/raw-server';

const NS = 'http://tempuri.org/';
let server: RawServer;

function answerFor(request: CapturedRequest) {
  const soap12 = (request.headers['content-type'] ?? '').startsWith('application/soap+xml');
  const soap = soap12 || request.headers['soapaction'] !== undefined;
  const body = request.body.toString('utf8');
  const operation = /(SitesAPI|GetRenderingQualityList|EusReprocessAPI)/.exec(soap ? body : request.url)?.[1] ?? 'SitesAPI';
  const inner = operation === 'GetRenderingQualityList' ? '<Rendering><RenderingQualityid>1</RenderingQualityid><RenderingQualityname>Low</RenderingQualityname><Error /></Rendering>' : '100001';
  if (soap) {
    const envNs = soap12 ? 'http://www.w3.org/2003/05/soap-envelope' : 'http://schemas.xmlsoap.org/soap/envelope/';
    return reply(200, soap12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8',
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}"><soap:Body><${operation}Response xmlns="${NS}"><${operation}Result>${inner}</${operation}Result></${operation}Response></soap:Body></soap:Envelope>`);
  }
  const root = operation === 'GetRenderingQualityList' ? 'ArrayOfRendering' : 'string';
  return reply(200, 'text/xml; charset=utf-8', `<?xml version="1.0" encoding="utf-8"?>\n<${root} xmlns="${NS}">${inner}</${root}>`);
}

beforeAll(async () => {
  server = await startRawServer(answerFor);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function client(binding: Binding, servicePath = '/towercoverage.asmx', options: { bindingFallback?: boolean } = {}): ServiceClient {
  return createServiceClient({
    connection: { baseUrl: `${server.url}/`, servicePath, namespace: NS, binding },
    credentials: () => ({ account: '10001', key: 'k+ey&<1>' }),
    ...options,
  });
}

/** [name, value] pairs as the server received them, in order, whatever the binding. */
function receivedParams(request: CapturedRequest, binding: Binding): Array<[string, string]> {
  if (binding === 'http-get') return [...new URL(request.url, 'http://x').searchParams.entries()];
  if (binding === 'http-post') return [...new URLSearchParams(request.body.toString('utf8')).entries()];
  // An independent, namespace-aware XML parser (xmldom): it applies XML's rules, so a literal CR
  // would arrive as LF and only a character reference keeps it.
  const doc = new DOMParser().parseFromString(request.body.toString('utf8'), 'text/xml');
  const operation = ['SitesAPI', 'GetRenderingQualityList', 'EusReprocessAPI']
    .map((name) => doc.getElementsByTagNameNS(NS, name)[0])
    .find((element) => element !== undefined)!;
  const params: Array<[string, string]> = [];
  for (let node = operation.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) {
      const element = node as unknown as { localName: string; namespaceURI: string | null; textContent: string | null };
      expect(element.namespaceURI).toBe(NS);
      params.push([element.localName, element.textContent ?? '']);
    }
  }
  return params;
}

describe.each(BINDINGS)('requests over %s', (binding) => {
  it('sends every SitesAPI parameter in the published order, blanks as empty strings', async () => {
    const result = await client(binding).saveSite({ name: 'North Ridge', height: 30, latitude: 45.1234567891, longitude: -93.00000004 });
    expect(result.ok).toBe(true);
    expect(receivedParams(server.requests[0]!, binding)).toEqual([
      ['Account', '10001'],
      ['Sitename', 'North Ridge'],
      ['Siteid', ''],
      ['height', '30'],
      ['Latitude', '45.1234568'],
      ['Longitude', '-93'],
      ['Description', ''],
      ['Group', ''],
      ['Pinstyle', ''],
      ['key', 'k+ey&<1>'],
    ]);
  });

  it('sends EusReprocessAPI parameters in the published order with emailsend as 1 or 0', async () => {
    await client(binding).reprocessEus({ processId: 'P-1', multiMapId: '4410', sendEmail: true });
    await client(binding).reprocessEus({ processId: 'P-2', multiMapId: '4410', sendEmail: false });
    expect(receivedParams(server.requests[0]!, binding)).toEqual([
      ['processid', 'P-1'], ['Account', '10001'], ['multicoverageid', '4410'], ['emailsend', '1'], ['key', 'k+ey&<1>'],
    ]);
    expect(receivedParams(server.requests[1]!, binding)).toContainEqual(['emailsend', '0']);
  });

  it('sends GetRenderingQualityList with Account and key only', async () => {
    const result = await client(binding).listRenderingQualities();
    expect(result).toEqual({ ok: true, value: [{ id: 1, name: 'Low', error: '' }] });
    expect(receivedParams(server.requests[0]!, binding)).toEqual([['Account', '10001'], ['key', 'k+ey&<1>']]);
  });

  it('delivers quotes, ampersands, plus signs, emoji, other scripts and line breaks unchanged', async () => {
    const description = 'Line 1 "quoted" & <tag> 50% + more\r\nLine 2 — 北塔 🗼\tend\nLast ]]> line';
    const name = 'O\'Brien & Sons + "Tower" <A> #1 / é ü ß 🙂';
    // The binding's own encoding, even for "<A>" and "<tag>" (which the real service's request
    // validation refuses over HTTP GET/POST; with the fallback on they would go over SOAP 1.1).
    await client(binding, undefined, { bindingFallback: false }).saveSite({ siteId: '77', name, description, group: 'a=b&c=d', height: 0, pinStyle: 4 });
    const params = Object.fromEntries(receivedParams(server.requests[0]!, binding));
    expect(params).toMatchObject({ Sitename: name, Description: description, Group: 'a=b&c=d', Siteid: '77', height: '0', Pinstyle: '4' });
  });

  it('refuses invalid input without sending anything', async () => {
    const result = await client(binding).saveSite({ name: 'x', height: 30.5, latitude: 91, longitude: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid-input');
    expect(result.error.kind === 'invalid-input' && result.error.issues.map((issue) => issue.field)).toEqual(['height', 'latitude']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('binding headers and paths', () => {
  it('posts SOAP 1.1 to the service path with a quoted SOAPAction and text/xml', async () => {
    await client('soap11').saveSite({ siteId: '1', height: 5 });
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/towercoverage.asmx');
    expect(request.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(request.headers['soapaction']).toBe('"http://tempuri.org/SitesAPI"');
    expect(Number(request.headers['content-length'])).toBe(request.body.length);
  });

  it('posts SOAP 1.2 without any SOAPAction header', async () => {
    await client('soap12').listRenderingQualities();
    const request = server.requests[0]!;
    expect(request.url).toBe('/towercoverage.asmx');
    expect(request.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(request.headerNames.map((name) => name.toLowerCase())).not.toContain('soapaction');
    expect(request.body.toString()).toContain('<soap:Envelope');
    expect(request.body.toString()).toContain('xmlns:soap="http://www.w3.org/2003/05/soap-envelope"');
  });

  it('posts a form to {servicePath}/{Operation} for HTTP POST', async () => {
    await client('http-post').reprocessEus({ processId: 'P 1+2', multiMapId: '3', sendEmail: false });
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/towercoverage.asmx/EusReprocessAPI');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(request.body.toString()).toBe('processid=P%201%2B2&Account=10001&multicoverageid=3&emailsend=0&key=k%2Bey%26%3C1%3E');
    expect(Number(request.headers['content-length'])).toBe(request.body.length);
  });

  it('sends HTTP GET parameters percent-encoded in the query, with no body', async () => {
    await client('http-get').listRenderingQualities();
    const request = server.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/towercoverage.asmx/GetRenderingQualityList?Account=10001&key=k%2Bey%26%3C1%3E');
    expect(request.body.length).toBe(0);
  });

  it('escapes markup and writes carriage returns as character references inside SOAP elements', async () => {
    await client('soap11').saveSite({ siteId: '1', height: 5, description: 'a & b < c > d\r\ne' });
    const body = server.requests[0]!.body.toString();
    expect(body).toContain('<Description>a &amp; b &lt; c &gt; d&#xD;\ne</Description>');
    expect(body).toContain('<Siteid>1</Siteid>');
    expect(body).toContain('<Latitude></Latitude>');
  });

  it('joins base URL and service path whatever the slashes', async () => {
    await client('http-post', 'towercoverage.asmx').listRenderingQualities();
    expect(server.requests[0]!.url).toBe('/towercoverage.asmx/GetRenderingQualityList');
  });
});

describe('callRaw', () => {
  it('sends the spec names as given, fills the missing ones with empty strings and keeps the order', async () => {
    const result = await client('http-post').callRaw('SitesAPI', { Pinstyle: '9', height: '30.5', Siteid: '12' });
    expect(result).toEqual({ ok: true, value: { operation: 'SitesAPI', result: '100001' } });
    expect(server.requests[0]!.body.toString()).toBe(
      'Account=10001&Sitename=&Siteid=12&height=30.5&Latitude=&Longitude=&Description=&Group=&Pinstyle=9&key=k%2Bey%26%3C1%3E',
    );
  });

  it('rejects a wrongly cased parameter name, suggesting the right one, without sending', async () => {
    const result = await client('soap11').callRaw('SitesAPI', { siteid: '12' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid-input');
    expect(result.error.message).toContain('did you mean "Siteid"?');
    expect(result.error.message).toContain('Sitename, Siteid, height');
    expect(server.requests).toHaveLength(0);
  });

  it('rejects characters XML cannot carry, even though raw values are otherwise the service\'s business', async () => {
    const result = await client('http-get').callRaw('EusReprocessAPI', { processid: 'P\u0007' });
    expect(result.ok || result.error.kind).toBe('invalid-input');
    expect(server.requests).toHaveLength(0);
  });
});

describe('before sending', () => {
  it('sends nothing when the caller has already cancelled, and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await client('http-post').listRenderingQualities({ signal: controller.signal });
    expect(result.ok || result.error).toMatchObject({ kind: 'network', sent: 'no', code: 'ABORTED' });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a profile without a key or with a base URL that is not a web address', async () => {
    const noKey = createServiceClient({
      connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: NS, binding: 'http-post' },
      credentials: () => ({ account: '10001', key: '  ' }),
    });
    const badUrl = createServiceClient({
      connection: { baseUrl: 'ftp://example', servicePath: '/towercoverage.asmx', namespace: NS, binding: 'http-post' },
      credentials: () => ({ account: '10001', key: 'k' }),
    });
    const keyResult = await noKey.listRenderingQualities();
    expect(!keyResult.ok && keyResult.error.kind === 'invalid-input' && keyResult.error.issues[0]?.field).toBe('key');
    const urlResult = await badUrl.listRenderingQualities();
    expect(!urlResult.ok && urlResult.error.kind === 'invalid-input' && urlResult.error.issues[0]?.field).toBe('baseUrl');
    expect(server.requests).toHaveLength(0);
  });

  it('turns a credentials store that throws into invalid input instead of a crash', async () => {
    const locked = createServiceClient({
      connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: NS, binding: 'soap11' },
      credentials: () => {
        throw new Error('keyring is locked');
      },
    });
    const result = await locked.listRenderingQualities();
    expect(result.ok || result.error).toMatchObject({ kind: 'invalid-input' });
    expect(!result.ok && result.error.message).toContain('keyring is locked');
  });
});
