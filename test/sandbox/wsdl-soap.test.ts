// The sandbox's WSDL as standard SOAP tooling reads it: the document itself (four ports,
// document/literal wrapped elements with minOccurs="0" string parameters, ArrayOfRendering and
// Rendering), then the `soap` npm package generating a client from it and calling every operation
// over SOAP 1.1 and SOAP 1.2, with the effects checked in the sandbox's state.
import { createClientAsync, type Client } from 'soap';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_PARAMS } from '../../electron/sandbox/index';
import { callsLeft, childElements, parseXml, send, demoSandboxForFile } from './raw';

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL_SOAP = 'http://schemas.xmlsoap.org/wsdl/soap/';
const WSDL_SOAP12 = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const WSDL_HTTP = 'http://schemas.xmlsoap.org/wsdl/http/';
const WSDL_MIME = 'http://schemas.xmlsoap.org/wsdl/mime/';
const XS = 'http://www.w3.org/2001/XMLSchema';
const TNS = 'http://tempuri.org/';
const OPERATIONS = ['SitesAPI', 'GetRenderingQualityList', 'EusReprocessAPI'] as const;

const sandbox = demoSandboxForFile();

const wsdlUrl = (): string => `${sandbox.url}${sandbox.servicePath}?WSDL`;

function all(root: Document | Element, ns: string, local: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(ns, local) as unknown as ArrayLike<Element>);
}

function named(root: Document | Element, ns: string, local: string, name: string): Element {
  const found = all(root, ns, local).filter((e) => e.getAttribute('name') === name);
  if (found.length !== 1) throw new Error(`expected one ${local} named ${name}, found ${found.length}`);
  return found[0]!;
}

describe('the WSDL document', () => {
  let doc: Document;

  beforeAll(async () => {
    const response = await send(sandbox.url, { method: 'GET', path: `${sandbox.servicePath}?WSDL` });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    doc = parseXml(response.body);
  });

  it('is also served for ?wsdl in lower case, as ASMX does', async () => {
    const response = await send(sandbox.url, { method: 'GET', path: `${sandbox.servicePath}?wsdl` });
    expect(response.status).toBe(200);
    expect(parseXml(response.body).documentElement.localName).toBe('definitions');
  });

  it('targets the service namespace', () => {
    expect(doc.documentElement.namespaceURI).toBe(WSDL);
    expect(doc.documentElement.getAttribute('targetNamespace')).toBe(TNS);
  });

  it('names four ports, each addressed at the service path of the host asked', () => {
    const service = named(doc, WSDL, 'service', 'TowerCoverage');
    const ports = childElements(service).filter((e) => e.localName === 'port');
    expect(ports.map((p) => [p.getAttribute('name'), p.getAttribute('binding')])).toEqual([
      ['TowerCoverageSoap', 'tns:TowerCoverageSoap'],
      ['TowerCoverageSoap12', 'tns:TowerCoverageSoap12'],
      ['TowerCoverageHttpGet', 'tns:TowerCoverageHttpGet'],
      ['TowerCoverageHttpPost', 'tns:TowerCoverageHttpPost'],
    ]);
    const addresses = ports.map((p) => childElements(p)[0]!);
    expect(addresses.map((a) => [a.namespaceURI, a.localName])).toEqual([
      [WSDL_SOAP, 'address'],
      [WSDL_SOAP12, 'address'],
      [WSDL_HTTP, 'address'],
      [WSDL_HTTP, 'address'],
    ]);
    for (const address of addresses) expect(address.getAttribute('location')).toBe(`${sandbox.url}${sandbox.servicePath}`);
  });

  it('binds SOAP 1.1 and 1.2 as document/literal with the namespace-plus-name SOAPAction', () => {
    for (const [binding, ns] of [
      ['TowerCoverageSoap', WSDL_SOAP],
      ['TowerCoverageSoap12', WSDL_SOAP12],
    ] as const) {
      const element = named(doc, WSDL, 'binding', binding);
      expect(all(element, ns, 'binding')[0]!.getAttribute('transport')).toBe('http://schemas.xmlsoap.org/soap/http');
      for (const operation of OPERATIONS) {
        const op = named(element, WSDL, 'operation', operation);
        const soapOperation = all(op, ns, 'operation')[0]!;
        expect(soapOperation.getAttribute('soapAction')).toBe(`${TNS}${operation}`);
        expect(soapOperation.getAttribute('style')).toBe('document');
        expect(all(op, ns, 'body').map((b) => b.getAttribute('use'))).toEqual(['literal', 'literal']);
      }
    }
  });

  it('describes each request as one wrapper element of optional strings in the published order', () => {
    for (const operation of OPERATIONS) {
      const message = named(doc, WSDL, 'message', `${operation}SoapIn`);
      expect(childElements(message).map((p) => [p.getAttribute('name'), p.getAttribute('element')])).toEqual([['parameters', `tns:${operation}`]]);
      const wrapper = all(doc, XS, 'element').find((e) => e.getAttribute('name') === operation && e.parentNode?.isSameNode(all(doc, XS, 'schema')[0]!))!;
      const params = all(wrapper, XS, 'element');
      expect(params.map((p) => p.getAttribute('name'))).toEqual([...OPERATION_PARAMS[operation]]);
      for (const param of params) {
        expect([param.getAttribute('minOccurs'), param.getAttribute('maxOccurs'), param.getAttribute('type')]).toEqual(['0', '1', 's:string']);
      }
    }
    expect(all(doc, XS, 'schema')[0]!.getAttribute('elementFormDefault')).toBe('qualified');
  });

  it('types the results: strings for SitesAPI and EusReprocessAPI, ArrayOfRendering of Rendering for the list', () => {
    const schema = all(doc, XS, 'schema')[0]!;
    const resultType = (operation: string): string | null =>
      all(named(schema, XS, 'element', `${operation}Response`), XS, 'element')
        .find((e) => e.getAttribute('name') === `${operation}Result`)!
        .getAttribute('type');
    expect(resultType('SitesAPI')).toBe('s:string');
    expect(resultType('EusReprocessAPI')).toBe('s:string');
    expect(resultType('GetRenderingQualityList')).toBe('tns:ArrayOfRendering');

    const array = named(schema, XS, 'complexType', 'ArrayOfRendering');
    const item = all(array, XS, 'element')[0]!;
    expect([item.getAttribute('name'), item.getAttribute('type'), item.getAttribute('minOccurs'), item.getAttribute('maxOccurs')]).toEqual(['Rendering', 'tns:Rendering', '0', 'unbounded']);
    const rendering = named(schema, XS, 'complexType', 'Rendering');
    expect(all(rendering, XS, 'element').map((e) => [e.getAttribute('name'), e.getAttribute('type'), e.getAttribute('minOccurs')])).toEqual([
      ['RenderingQualityid', 's:int', '1'],
      ['RenderingQualityname', 's:string', '0'],
      ['Error', 's:string', '0'],
    ]);
    // The HTTP GET/POST documents' roots.
    expect(named(schema, XS, 'element', 'string').getAttribute('type')).toBe('s:string');
    expect(named(schema, XS, 'element', 'ArrayOfRendering').getAttribute('type')).toBe('tns:ArrayOfRendering');
  });

  it('binds HTTP GET to query strings and HTTP POST to form bodies at /<Operation>, answering XML', () => {
    for (const [binding, verb] of [
      ['TowerCoverageHttpGet', 'GET'],
      ['TowerCoverageHttpPost', 'POST'],
    ] as const) {
      const element = named(doc, WSDL, 'binding', binding);
      expect(all(element, WSDL_HTTP, 'binding')[0]!.getAttribute('verb')).toBe(verb);
      for (const operation of OPERATIONS) {
        const op = named(element, WSDL, 'operation', operation);
        expect(all(op, WSDL_HTTP, 'operation')[0]!.getAttribute('location')).toBe(`/${operation}`);
        if (verb === 'GET') expect(all(op, WSDL_HTTP, 'urlEncoded')).toHaveLength(1);
        else expect(all(op, WSDL_MIME, 'content')[0]!.getAttribute('type')).toBe('application/x-www-form-urlencoded');
        expect(all(op, WSDL_MIME, 'mimeXml')[0]!.getAttribute('part')).toBe('Body');
      }
    }
  });
});

type Port = 'TowerCoverageSoap' | 'TowerCoverageSoap12';

/** Calls an operation on one port of a client generated from the WSDL. */
function invoke(client: Client, port: Port, operation: string, args: Record<string, string>): Promise<Record<string, unknown>> {
  const method = (client as unknown as Record<string, Record<string, Record<string, (a: unknown, cb: (e: unknown, r: Record<string, unknown>) => void) => void>>>).TowerCoverage![port]![operation]!;
  return new Promise((resolve, reject) => method(args, (error, result) => (error ? reject(error) : resolve(result))));
}

async function lastBinding(): Promise<string> {
  const response = await send(sandbox.url, { method: 'GET', path: '/_sandbox/calls' });
  return (JSON.parse(response.body) as Array<{ binding: string }>).at(-1)!.binding;
}

describe.each([
  ['SOAP 1.1', 'TowerCoverageSoap', false, 'soap11'],
  ['SOAP 1.2', 'TowerCoverageSoap12', true, 'soap12'],
] as const)('a client generated by the soap package, over %s', (_label, port, soap12, binding) => {
  let client: Client;
  const credentials = (): { Account: string; key: string } => ({ Account: sandbox.demo.account, key: sandbox.demo.key });

  beforeAll(async () => {
    client = await createClientAsync(wsdlUrl(), { forceSoap12Headers: soap12 });
  });

  it('finds both SOAP ports and all three operations', () => {
    const described = client.describe() as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(described.TowerCoverage!)).toEqual(['TowerCoverageSoap', 'TowerCoverageSoap12']);
    expect(Object.keys(described.TowerCoverage![port]!)).toEqual([...OPERATIONS]);
  });

  it('creates a site and then edits it with SitesAPI', async () => {
    const before = callsLeft(sandbox);
    const created = await invoke(client, port, 'SitesAPI', {
      ...credentials(),
      Sitename: 'Toolkit Tower',
      Siteid: '',
      height: '27',
      Latitude: '45.7',
      Longitude: '-111.1',
      Description: 'from the WSDL',
      Group: 'Toolkit',
      Pinstyle: '2',
    });
    expect(created).toEqual({ SitesAPIResult: '100026' });
    expect(await lastBinding()).toBe(binding);
    expect(client.lastRequestHeaders?.['Content-Type']).toMatch(soap12 ? /^application\/soap\+xml; charset=utf-8; action="http:\/\/tempuri\.org\/SitesAPI"$/ : /^text\/xml; charset=utf-8$/);
    expect(sandbox.snapshot().sites.find((s) => s.id === '100026')).toMatchObject({ name: 'Toolkit Tower', height: 27, latitude: 45.7, longitude: -111.1, group: 'Toolkit', pinStyle: 2 });

    const edited = await invoke(client, port, 'SitesAPI', { ...credentials(), Sitename: '', Siteid: '100026', height: '28', Latitude: '', Longitude: '', Description: '', Group: '', Pinstyle: '' });
    expect(edited).toEqual({ SitesAPIResult: 'Site 100026 updated.' });
    expect(sandbox.snapshot().sites.find((s) => s.id === '100026')).toMatchObject({ name: 'Toolkit Tower', height: 28 });
    expect(callsLeft(sandbox)).toBe(before - 2);
  });

  it('reads the rendering quality list as typed entries', async () => {
    const result = await invoke(client, port, 'GetRenderingQualityList', credentials());
    expect(result).toEqual({
      GetRenderingQualityListResult: {
        Rendering: [
          { RenderingQualityid: 1, RenderingQualityname: 'Low', Error: '' },
          { RenderingQualityid: 2, RenderingQualityname: 'Medium', Error: '' },
          { RenderingQualityid: 3, RenderingQualityname: 'High', Error: '' },
          { RenderingQualityid: 4, RenderingQualityname: 'Very High', Error: '' },
        ],
      },
    });
    expect(await lastBinding()).toBe(binding);
  });

  it('reprocesses a submission into another Multi Map with EusReprocessAPI', async () => {
    const result = await invoke(client, port, 'EusReprocessAPI', { processid: '880104', ...credentials(), multicoverageid: '4103', emailsend: '1' });
    expect(result).toEqual({ EusReprocessAPIResult: 'Submission 880104 reprocessed into Multi Map 4103. Email sent to 2 recipients.' });
    const state = sandbox.snapshot();
    expect(state.submissions.find((s) => s.processId === '880104')!.multiMapId).toBe('4103');
    expect(state.mail.map((m) => [m.processId, m.to])).toEqual([
      ['880104', 'noc@gallatinsky.example'],
      ['880104', 'installs@gallatinsky.example'],
    ]);
    expect(await lastBinding()).toBe(binding);
  });

  it('surfaces a refused call as a SOAP fault the toolkit can read, changing nothing', async () => {
    const before = callsLeft(sandbox);
    const error = (await invoke(client, port, 'GetRenderingQualityList', { Account: sandbox.demo.account, key: 'wrong' }).then(
      () => null,
      (e: unknown) => e,
    )) as { root?: { Envelope?: { Body?: { Fault?: Record<string, unknown> } } } } | null;
    expect(error).not.toBeNull();
    const fault = error!.root!.Envelope!.Body!.Fault!;
    if (soap12) {
      expect(fault).toMatchObject({ Code: { Value: 'soap:Receiver' }, Reason: { Text: { $value: 'Server was unable to process request. ---> Invalid account ID or API key.' } } });
    } else {
      expect(fault).toMatchObject({ faultcode: 'soap:Server', faultstring: 'Server was unable to process request. ---> Invalid account ID or API key.' });
    }
    expect(callsLeft(sandbox)).toBe(before);
  });
});
