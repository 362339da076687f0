// Property: whatever the API key is, a server that echoes the whole request back (URL, headers,
// body) in its error cannot make the key reach any field of the CallError, in any encoding: not as
// a 500 text/plain exception (raw or HTML-encoded, as ASMX writes it), a SOAP 1.1 or 1.2 fault, a
// proxy's HTML page, a 200 result that reads as an error, nor a redirect quoting the URL — over all
// four bindings, for keys made of the characters encoders treat specially and of non-ASCII text.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../electron/core/service/client';
import { encodeParams } from '../../electron/core/service/plain';
import { BINDINGS, type Binding, type CallResult } from '../../electron/core/service/types';
import { escapeXmlText } from '../../electron/core/service/xml';
import { isXmlSafe } from '../../electron/shared/validation';
import { reply, startRawServer, type CapturedRequest, type RawReply, type RawServer } from './helpers/raw-server';

const NS = 'http://tempuri.org/';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const htmlEncode = (text: string) => xml(text).replace(/'/g, '&#39;');

/** The request exactly as it arrived, the way a debugging server or a careless proxy would quote it. */
function echo(request: CapturedRequest): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`).join('\r\n');
  return `ECHO ${request.method} ${request.url}\r\n${headers}\r\n\r\n${request.body.toString('utf8')}`;
}

const soapResult = (envelopeNs: string, inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envelopeNs}"><soap:Body><SitesAPIResponse xmlns="${NS}"><SitesAPIResult>${inner}</SitesAPIResult></SitesAPIResponse></soap:Body></soap:Envelope>`;

const ECHOES: Record<string, (request: CapturedRequest) => RawReply> = {
  'a 500 text/plain exception': (request) => reply(500, 'text/plain; charset=utf-8', `System.ArgumentException: ${echo(request)}\r\n   at Service.SitesAPI()`),
  'a 500 text/plain exception, HTML-encoded as ASMX writes it': (request) => reply(500, 'text/plain; charset=utf-8', htmlEncode(`Bad request: ${echo(request)}`)),
  'a SOAP 1.1 fault': (request) =>
    reply(
      500,
      'text/xml; charset=utf-8',
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to process request. ---&gt; ${xml(echo(request).slice(0, 300))}</faultstring><detail><request>${xml(echo(request))}</request></detail></soap:Fault></soap:Body></soap:Envelope>`,
    ),
  'a SOAP 1.2 fault': (request) =>
    reply(
      500,
      'application/soap+xml; charset=utf-8',
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${xml(echo(request))}</soap:Text></soap:Reason><soap:Detail>${xml(echo(request))}</soap:Detail></soap:Fault></soap:Body></soap:Envelope>`,
    ),
  "a proxy's HTML error page": (request) =>
    reply(502, 'text/html', `<html><head><title>502 ${htmlEncode(request.url)}</title></head><body><pre>${htmlEncode(echo(request))}</pre></body></html>`),
  'a 200 result that reads as an error': (request) => {
    const inner = `Error: ${escapeXmlText(echo(request))}`;
    if (request.headers['content-type']?.startsWith('text/xml')) return reply(200, 'text/xml; charset=utf-8', soapResult(SOAP11, inner));
    if (request.headers['content-type']?.startsWith('application/soap+xml')) return reply(200, 'application/soap+xml; charset=utf-8', soapResult(SOAP12, inner));
    return reply(200, 'text/xml; charset=utf-8', `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="${NS}">${inner}</string>`);
  },
  'a redirect to a login page quoting the URL': (request) => reply(302, 'text/html', `<a href="/login">${htmlEncode(echo(request))}</a>`, { Location: `/login?return=${encodeURIComponent(request.url)}` }),
};

const servers = new Map<string, RawServer>();

beforeAll(async () => {
  for (const [name, respond] of Object.entries(ECHOES)) servers.set(name, await startRawServer(respond));
});
afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
const wire = (key: string) => encodeParams([['key', key]]).slice(4);

/** Every way the key could be written in a text: what must appear in no field of an error. */
function encodingsOf(key: string): string[] {
  return [
    key,
    wire(key),
    lowerHex(wire(key)),
    encodeURIComponent(key),
    lowerHex(encodeURIComponent(key)),
    new URLSearchParams({ key }).toString().slice(4),
    encodeURIComponent(wire(key)),
    escapeXmlText(key),
    xml(key),
    htmlEncode(key),
    xml(xml(key)),
    JSON.stringify(key).slice(1, -1),
  ];
}

function texts(value: unknown, path = 'error'): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => texts(item, `${path}[${index}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([name, inner]) => texts(inner, `${path}.${name}`));
  return [];
}

// Characters encoders treat specially, markup, entity and escape starters, and non-ASCII text.
const special = fc.constantFrom('!', "'", '(', ')', '*', '&', '<', '>', '"', '+', ' ', '%', ';', '#', '=', '?', '/', '\\', '\u00a0', 'é', '北', '🗼', '%2A', '&amp;', '\\u0041');
const keyChar = fc.oneof(special, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));
const apiKey = fc
  .array(keyChar, { minLength: 3, maxLength: 24 })
  .map((parts) => parts.join(''))
  // Three characters (code points, as the redactor counts them: MIN_SECRET_LENGTH) after trimming, as sent.
  .filter((key) => isXmlSafe(key) && [...key.trim()].length >= 3);

describe('the API key, echoed back by a hostile server', () => {
  it('appears in no field of the error, in any encoding, over every binding and every kind of echo', async () => {
    await fc.assert(
      fc.asyncProperty(apiKey, fc.boolean(), async (key, raw) => {
        const calls: Array<Promise<{ binding: Binding; echo: string; result: CallResult<unknown> }>> = [];
        for (const binding of BINDINGS) {
          for (const [name, server] of servers) {
            const client = createServiceClient({
              connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: NS, binding },
              credentials: () => ({ account: '10001', key }),
              timeoutMs: 15_000,
            });
            // callRaw sends the key as typed; saveSite sends it trimmed.
            const result = raw ? client.callRaw('SitesAPI', { Sitename: 'Hill', height: '20' }) : client.saveSite({ name: 'Hill', height: 20, latitude: 1, longitude: 2 });
            calls.push(result.then((settled) => ({ binding, echo: name, result: settled })));
          }
        }
        for (const { binding, echo: name, result } of await Promise.all(calls)) {
          if (result.ok) throw new Error(`${binding}, ${name}: expected a failure`);
          const fields = texts(result.error);
          // The echo did reach the error (else this test could not fail).
          expect(fields.some(([, text]) => text.includes('ECHO') || text.includes('/login')), `${binding}, ${name}: ${JSON.stringify(result.error)}`).toBe(true);
          for (const form of encodingsOf(key).concat(encodingsOf(key.trim()))) {
            for (const [field, text] of fields) {
              if (text.includes(form)) throw new Error(`${binding}, ${name}: ${field} holds the key as ${JSON.stringify(form)}: ${JSON.stringify(text)}`);
            }
          }
        }
      }),
      { numRuns: 50 },
    );
  }, 120_000);
});
