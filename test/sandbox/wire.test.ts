// The sandbox on the wire, seen by a client that is not ours: hand-built SOAP 1.1/1.2 envelopes,
// query strings and form bodies for all twelve operation × binding pairs, and the answers compared
// byte for byte with what ASMX writes (status, Content-Type, Cache-Control, XML declaration,
// envelope, namespaces, CRLF line ends). Then the failures each binding shows — missing and
// miscased parameters, SOAPAction routing — each leaving the state and the quota exactly as they
// were (auth, quota and validation refusals: wire-refusals.test.ts).
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../electron/sandbox/index';
import {
  call,
  callsLeft,
  childElements,
  durableState,
  expectPlainError,
  expectSoapFault,
  only,
  parseXml,
  RAW_BINDINGS,
  SOAP11_NS,
  SOAP12_NS,
  validFields,
  XSD_NS,
  XSI_NS,
  type Fields,
  type RawBinding,
  type RawResponse,
  demoSandboxForFile,
} from './raw';

const sandbox = demoSandboxForFile();

const TNS = 'http://tempuri.org/';
const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** The first site ID a create hands out after reset('demo') (25 seeded sites from 100001). */
const NEXT_SITE_ID = '100026';

const RENDERINGS = [
  [1, 'Low'],
  [2, 'Medium'],
  [3, 'High'],
  [4, 'Very High'],
] as const;

/** HTTP GET/POST documents as XmlSerializer writes them on IIS: indented, CRLF line ends. */
const PLAIN_LIST = [
  DECLARATION,
  `<ArrayOfRendering xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}" xmlns="${TNS}">`,
  ...RENDERINGS.flatMap(([id, name]) => [
    '  <Rendering>',
    `    <RenderingQualityid>${id}</RenderingQualityid>`,
    `    <RenderingQualityname>${name}</RenderingQualityname>`,
    '    <Error />',
    '  </Rendering>',
  ]),
  '</ArrayOfRendering>',
].join('\r\n');

const SOAP_LIST = RENDERINGS.map(([id, name]) => `<Rendering><RenderingQualityid>${id}</RenderingQualityid><RenderingQualityname>${name}</RenderingQualityname><Error /></Rendering>`).join('');

function plainString(text: string): string {
  return `${DECLARATION}\r\n<string xmlns="${TNS}">${text}</string>`;
}

function soapResponse(binding: 'soap11' | 'soap12', operation: string, resultXml: string): string {
  const ns = binding === 'soap11' ? SOAP11_NS : SOAP12_NS;
  return (
    `${DECLARATION}<soap:Envelope xmlns:soap="${ns}" xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}"><soap:Body>` +
    `<${operation}Response xmlns="${TNS}"><${operation}Result>${resultXml}</${operation}Result></${operation}Response>` +
    '</soap:Body></soap:Envelope>'
  );
}

function expectedBody(binding: RawBinding, operation: string, result: { text: string } | 'renderings'): string {
  if (binding === 'http-get' || binding === 'http-post') return result === 'renderings' ? PLAIN_LIST : plainString(result.text);
  return soapResponse(binding, operation, result === 'renderings' ? SOAP_LIST : result.text);
}

/** A success exactly as ASMX sends it, plus the structure read by namespace (what a toolkit sees). */
function expectSuccess(binding: RawBinding, operation: string, response: RawResponse, result: { text: string } | 'renderings'): void {
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe(binding === 'soap12' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8');
  expect(response.headers['cache-control']).toBe('private, max-age=0');
  expect(response.headers['content-length']).toBe(String(response.bytes.length));
  expect(response.headers['transfer-encoding']).toBeUndefined();
  expect(response.body).toBe(expectedBody(binding, operation, result));

  const root = parseXml(response.body).documentElement;
  if (binding === 'http-get' || binding === 'http-post') {
    expect(response.body.split('\n').slice(0, -1).every((line) => line.endsWith('\r'))).toBe(true);
    expect(root.namespaceURI).toBe(TNS);
    if (result === 'renderings') {
      expect(root.localName).toBe('ArrayOfRendering');
      expect(root.getAttribute('xmlns:xsi')).toBe(XSI_NS);
      expect(root.getAttribute('xmlns:xsd')).toBe(XSD_NS);
      expectRenderings(root);
    } else {
      expect(root.localName).toBe('string');
      expect(root.textContent).toBe(result.text);
    }
    return;
  }
  const envelopeNs = binding === 'soap11' ? SOAP11_NS : SOAP12_NS;
  expect([root.namespaceURI, root.localName]).toEqual([envelopeNs, 'Envelope']);
  const wrapper = only(only(root, envelopeNs, 'Body'), TNS, `${operation}Response`);
  const resultElement = only(wrapper, TNS, `${operation}Result`);
  if (result === 'renderings') expectRenderings(resultElement);
  else expect(resultElement.textContent).toBe(result.text);
}

function expectRenderings(list: Element): void {
  const entries = childElements(list);
  expect(entries.map((e) => [e.namespaceURI, e.localName])).toEqual(RENDERINGS.map(() => [TNS, 'Rendering']));
  entries.forEach((entry, i) => {
    expect(childElements(entry).map((e) => e.localName)).toEqual(['RenderingQualityid', 'RenderingQualityname', 'Error']);
    expect(only(entry, TNS, 'RenderingQualityid').textContent).toBe(String(RENDERINGS[i]![0]));
    expect(only(entry, TNS, 'RenderingQualityname').textContent).toBe(RENDERINGS[i]![1]);
    const error = only(entry, TNS, 'Error');
    expect(error.childNodes.length).toBe(0);
  });
}

function without(fields: Fields, name: string): Fields {
  return fields.filter(([n]) => n !== name);
}

function renamed(fields: Fields, from: string, to: string): Fields {
  return fields.map(([n, v]) => [n === from ? to : n, v]);
}

describe.each(RAW_BINDINGS)('a successful call over %s', (binding) => {
  it('edits an existing site with SitesAPI, answers "Site <id> updated." and keeps blank fields', async () => {
    const before = callsLeft(sandbox);
    const original = sandbox.snapshot().sites.find((s) => s.id === '100001')!;
    const fields = validFields(sandbox, 'SitesAPI', { Siteid: '100001', Sitename: '', height: '33', Latitude: '', Longitude: '' });
    const response = await call(sandbox, binding, 'SitesAPI', fields);
    expectSuccess(binding, 'SitesAPI', response, { text: 'Site 100001 updated.' });
    const edited = sandbox.snapshot().sites.find((s) => s.id === '100001')!;
    expect(edited).toMatchObject({ height: 33, name: original.name, latitude: original.latitude, longitude: original.longitude, pinStyle: original.pinStyle });
    expect(sandbox.snapshot().sites).toHaveLength(25);
    expect(callsLeft(sandbox)).toBe(before - 1);
  });

  it('lists the rendering qualities with GetRenderingQualityList, each with an empty <Error />, spending one API call', async () => {
    const before = callsLeft(sandbox);
    const response = await call(sandbox, binding, 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList'));
    expectSuccess(binding, 'GetRenderingQualityList', response, 'renderings');
    expect(callsLeft(sandbox)).toBe(before - 1);
  });

  it('reprocesses a submission with EusReprocessAPI into another Multi Map and answers the documented result', async () => {
    const before = callsLeft(sandbox);
    expect(sandbox.snapshot().submissions.find((s) => s.processId === '880101')!.multiMapId).toBe('4102');
    const response = await call(sandbox, binding, 'EusReprocessAPI', validFields(sandbox, 'EusReprocessAPI'));
    expectSuccess(binding, 'EusReprocessAPI', response, { text: 'Submission 880101 reprocessed into Multi Map 4101. No email sent.' });
    const after = sandbox.snapshot();
    expect(after.submissions.find((s) => s.processId === '880101')!.multiMapId).toBe('4101');
    expect(after.submissions).toHaveLength(50);
    expect(after.mail).toEqual([]);
    expect(callsLeft(sandbox)).toBe(before - 1);
  });
});

describe.each(['http-get', 'http-post'] as const)('%s parameter reading', (binding) => {
  it.each([
    ['SitesAPI', 'height'],
    ['SitesAPI', 'Description'],
    ['GetRenderingQualityList', 'key'],
    ['EusReprocessAPI', 'emailsend'],
  ] as const)('refuses %s without %s as "Missing parameter", changing nothing', async (operation, name) => {
    const before = durableState(sandbox);
    const response = await call(sandbox, binding, operation, without(validFields(sandbox, operation), name));
    expectPlainError(response, 'System.InvalidOperationException', `Missing parameter: ${name}.`);
    expect(durableState(sandbox)).toEqual(before);
  });

  it('reads parameter names case-sensitively: siteid is not Siteid', async () => {
    const before = durableState(sandbox);
    const fields = renamed(validFields(sandbox, 'SitesAPI', { Siteid: '100001' }), 'Siteid', 'siteid');
    const response = await call(sandbox, binding, 'SitesAPI', fields);
    expectPlainError(response, 'System.InvalidOperationException', 'Missing parameter: Siteid.');
    expect(durableState(sandbox)).toEqual(before);
  });

  it('ignores an extra parameter it does not know, as ASMX does', async () => {
    const response = await call(sandbox, binding, 'GetRenderingQualityList', [...validFields(sandbox, 'GetRenderingQualityList'), ['debug', '1']]);
    expect(response.status).toBe(200);
  });

  it('answers an unknown method name with "<name> Web Service method name is not valid."', async () => {
    const before = durableState(sandbox);
    const response = await call(sandbox, binding, 'Foo', validFields(sandbox, 'GetRenderingQualityList'));
    expectPlainError(response, 'System.InvalidOperationException', 'Foo Web Service method name is not valid.');
    expect(durableState(sandbox)).toEqual(before);
  });
});

describe.each(['soap11', 'soap12'] as const)('%s parameter reading', (binding) => {
  const version = binding === 'soap11' ? '1.1' : '1.2';

  it('treats an absent element as no value: the operation itself refuses a missing height', async () => {
    const before = durableState(sandbox);
    const response = await call(sandbox, binding, 'SitesAPI', without(validFields(sandbox, 'SitesAPI'), 'height'));
    expectSoapFault(version, response, { code: 'Server', text: 'Server was unable to process request. ---> Height is required: a whole number of meters, like 30.' });
    expect(durableState(sandbox)).toEqual(before);
  });

  it('reads element names case-sensitively: <siteid> is skipped, so the call is a create that lacks coordinates', async () => {
    const before = durableState(sandbox);
    const fields = renamed(validFields(sandbox, 'SitesAPI', { Siteid: '100001', Latitude: '', Longitude: '' }), 'Siteid', 'siteid');
    const response = await call(sandbox, binding, 'SitesAPI', fields);
    expectSoapFault(version, response, {
      code: 'Server',
      text: 'Server was unable to process request. ---> Latitude is required for a new site: decimal degrees, like 45.6770.',
    });
    expect(durableState(sandbox)).toEqual(before);
  });
});

describe.each(['soap11', 'soap12'] as const)('%s envelopes written differently', (binding) => {
  const envelopeNs = binding === 'soap11' ? SOAP11_NS : SOAP12_NS;

  it('reads other prefixes, prefixed parameters, a leading BOM and no indentation by namespace', async () => {
    const body =
      `\uFEFF<?xml version="1.0" encoding="utf-8"?><env:Envelope xmlns:env="${envelopeNs}"><env:Header/><env:Body>` +
      `<t:GetRenderingQualityList xmlns:t="${TNS}"><t:Account>${sandbox.demo.account}</t:Account><t:key>${sandbox.demo.key}</t:key></t:GetRenderingQualityList>` +
      '</env:Body></env:Envelope>';
    const response = await call(sandbox, binding, 'GetRenderingQualityList', [], { body });
    expectSuccess(binding, 'GetRenderingQualityList', response, 'renderings');
  });

  it('takes xsi:nil as no value, so a nil Siteid creates a site', async () => {
    const body = soapEnvelopeWithRaw(binding, 'SitesAPI', validFields(sandbox, 'SitesAPI').filter(([n]) => n !== 'Siteid'), '<Siteid xsi:nil="true" />');
    const response = await call(sandbox, binding, 'SitesAPI', [], { body });
    expectSuccess(binding, 'SitesAPI', response, { text: NEXT_SITE_ID });
  });

  it('does not read parameters left out of the service namespace: the call has no credentials', async () => {
    const before = durableState(sandbox);
    const inner = validFields(sandbox, 'GetRenderingQualityList')
      .map(([n, v]) => `<${n} xmlns="">${v}</${n}>`)
      .join('');
    const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envelopeNs}"><soap:Body><GetRenderingQualityList xmlns="${TNS}">${inner}</GetRenderingQualityList></soap:Body></soap:Envelope>`;
    const response = await call(sandbox, binding, 'GetRenderingQualityList', [], { body });
    expectSoapFault(binding === 'soap11' ? '1.1' : '1.2', response, { code: 'Server', text: 'Server was unable to process request. ---> Invalid account ID or API key.' });
    expect(durableState(sandbox)).toEqual(before);
  });
});

function soapEnvelopeWithRaw(binding: 'soap11' | 'soap12', operation: string, fields: Fields, raw: string): string {
  const ns = binding === 'soap11' ? SOAP11_NS : SOAP12_NS;
  const children = fields.map(([n, v]) => `<${n}>${v}</${n}>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}" xmlns:xsi="${XSI_NS}"><soap:Body><${operation} xmlns="${TNS}">${children}${raw}</${operation}></soap:Body></soap:Envelope>`;
}

describe('SOAP 1.1 routing by SOAPAction', () => {
  const body = (s: RunningSandbox) => validFields(s, 'GetRenderingQualityList');

  it.each([
    ['an operation the service does not have', '"http://tempuri.org/Foo"', 'http://tempuri.org/Foo'],
    ['the right operation in another namespace', '"http://example.com/GetRenderingQualityList"', 'http://example.com/GetRenderingQualityList'],
    ['an empty value', '""', ''],
  ])('refuses %s with "Server did not recognize the value of HTTP Header SOAPAction"', async (_label, header, shown) => {
    const before = durableState(sandbox);
    const response = await call(sandbox, 'soap11', 'GetRenderingQualityList', body(sandbox), { soapAction: header });
    expectSoapFault('1.1', response, { code: 'Client', text: `Server did not recognize the value of HTTP Header SOAPAction: ${shown}.` });
    expect(durableState(sandbox)).toEqual(before);
  });

  it('accepts a percent-encoded SOAPAction, decoding it like ASMX', async () => {
    const response = await call(sandbox, 'soap11', 'GetRenderingQualityList', body(sandbox), { soapAction: '"http%3A%2F%2Ftempuri.org%2FGetRenderingQualityList"' });
    expectSuccess('soap11', 'GetRenderingQualityList', response, 'renderings');
  });

  it('accepts a SOAPAction without the quotes', async () => {
    const response = await call(sandbox, 'soap11', 'GetRenderingQualityList', body(sandbox), { soapAction: 'http://tempuri.org/GetRenderingQualityList' });
    expectSuccess('soap11', 'GetRenderingQualityList', response, 'renderings');
  });
});

describe('SOAP 1.2 routing', () => {
  it('falls back to the body element when action= names no operation', async () => {
    const response = await call(sandbox, 'soap12', 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList'), {
      contentType: 'application/soap+xml; charset=utf-8; action="http://tempuri.org/Unknown"',
    });
    expectSuccess('soap12', 'GetRenderingQualityList', response, 'renderings');
  });

  it('accepts an action= that names the operation', async () => {
    const response = await call(sandbox, 'soap12', 'EusReprocessAPI', validFields(sandbox, 'EusReprocessAPI'), {
      contentType: 'application/soap+xml; charset=utf-8; action="http://tempuri.org/EusReprocessAPI"',
    });
    expectSuccess('soap12', 'EusReprocessAPI', response, { text: 'Submission 880101 reprocessed into Multi Map 4101. No email sent.' });
  });

  it('refuses a body element that is no operation as a Sender fault, changing nothing', async () => {
    const before = durableState(sandbox);
    const response = await call(sandbox, 'soap12', 'Foo', validFields(sandbox, 'GetRenderingQualityList'));
    expectSoapFault('1.2', response, { code: 'Client', text: 'Unable to handle request without a valid action parameter. Please supply a valid soap action.' });
    expect(durableState(sandbox)).toEqual(before);
  });
});

// ASP.NET's request validation refuses markup-like values on HTTP GET/POST (request-validation.test.ts).
// These send such values on purpose, to check escaping end to end on every binding, so they run
// against a sandbox with validation off, as a service that turned it off answers.
describe('markup-like values, with request validation off', () => {
  const sandbox = demoSandboxForFile({ requestValidation: false });

  describe.each(RAW_BINDINGS)('over %s', (binding) => {
    it('creates a site with SitesAPI and answers its new ID, spending one API call', async () => {
      const before = callsLeft(sandbox);
      const fields = validFields(sandbox, 'SitesAPI', { Sitename: `Ridge & <Co> ${binding}`, height: '42', Pinstyle: '3', Group: 'Wire', Description: 'Built by hand' });
      const response = await call(sandbox, binding, 'SitesAPI', fields);
      expectSuccess(binding, 'SitesAPI', response, { text: NEXT_SITE_ID });
      expect(sandbox.snapshot().sites.find((s) => s.id === NEXT_SITE_ID)).toMatchObject({
        account: '10001',
        name: `Ridge & <Co> ${binding}`,
        height: 42,
        latitude: 45.677,
        longitude: -111.0429,
        description: 'Built by hand',
        group: 'Wire',
        pinStyle: 3,
      });
      expect(callsLeft(sandbox)).toBe(before - 1);
    });
  });

  describe.each(['http-get', 'http-post'] as const)('over %s', (binding) => {
    it('HTML-encodes the message of a text/plain error body', async () => {
      const response = await call(sandbox, binding, 'SitesAPI', validFields(sandbox, 'SitesAPI', { height: '<b>&"' }));
      expect(response.status).toBe(500);
      expect(response.body.split('\r\n')[0]).toBe('System.ArgumentException: Height must be a whole number of meters, like 30; &#39;&lt;b&gt;&amp;&quot;&#39; is not.');
    });
  });
});
