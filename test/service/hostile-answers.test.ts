// Answers no honest server sends, from a loopback server: error bodies of megabytes, faults with
// huge details, a million elements, deep nesting, invalid UTF-8, endless headers. Each must become a
// typed error holding a few KB, quickly, without reading or building what it does not need.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createServiceClient, MAX_ERROR_BODY_BYTES } from '../../electron/core/service/client';
import type { Binding, CallError, CallResult } from '../../electron/core/service/types';
import { reply, rawServerPerFile, type RawReply, type RawServer } from './helpers/raw-server';

const NS = 'http://tempuri.org/';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
/** What one error may cost in the outbox journal, every field together. */
const ERROR_BUDGET = 12 * 1024;

let server: RawServer;
let next: RawReply;
rawServerPerFile(
  () => next,
  (started) => (server = started),
);

function client(binding: Binding, baseUrl = server.url) {
  return createServiceClient({
    connection: { baseUrl, servicePath: '/towercoverage.asmx', namespace: NS, binding },
    credentials: () => ({ account: '10001', key: 'hostile-test-key' }),
    timeoutMs: 15_000,
  });
}

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value).slice(0, 200)}`);
  return result.error;
}

const newSite = { name: 'Hill', height: 20, latitude: 1, longitude: 2 };

function expectSmall(error: CallError): void {
  expect(Buffer.byteLength(JSON.stringify(error))).toBeLessThan(ERROR_BUDGET);
  expect(error.message.length).toBeLessThan(800);
}

describe('huge error bodies', () => {
  it(`reads no more than ${MAX_ERROR_BODY_BYTES / 1024} KB of a 64 MB error, stops the download, and keeps a few KB of it`, async () => {
    let written = 0;
    let closed!: () => void;
    const done = new Promise<void>((resolve) => (closed = resolve));
    const streaming = http.createServer((_request, response) => {
      response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(64 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 'System.Exception: too much. ');
      const pump = () => {
        while (written < 64 * 1024 * 1024 && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => closed());
      pump();
    });
    await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = streaming.address() as AddressInfo;
      const error = failure(await client('http-post', `http://127.0.0.1:${port}`).saveSite(newSite));
      expect(error).toMatchObject({ kind: 'fault', source: 'http-text' });
      expectSmall(error);
      expect(error.detail).toMatch(/first [\d,]+ bytes read, [\d,]+ not shown; the rest was not read/);
      expect(error.detail).toContain("body cut short at the client's limit");
      await done;
      // The connection was dropped long before the end: socket buffers hold a few MB at most.
      expect(written).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await new Promise<void>((resolve) => streaming.close(() => resolve()));
    }
  });

  it('reads a SOAP 1.1 fault whose detail is 7.5 MB as the fault it is, from its first 64 KB', async () => {
    next = reply(
      500,
      'text/xml; charset=utf-8',
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Height must be a whole number of meters.</faultstring><detail><dump>${'0123456789abcdef&amp;'.repeat(375_000)}</dump></detail></soap:Fault></soap:Body></soap:Envelope>`,
    );
    const error = failure(await client('soap11').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'fault', code: 'soap:Client', source: 'soap11', reason: 'Height must be a whole number of meters.', retryable: false });
    expectSmall(error);
    expect(error.detail).toContain("body cut short at the client's limit");
  });

  it('keeps a few KB of a 7.5 MB fault detail that came with a 200', async () => {
    next = reply(
      200,
      'application/soap+xml; charset=utf-8',
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Database timeout</soap:Text></soap:Reason><soap:Detail>START${'x'.repeat(7_500_000)}END</soap:Detail></soap:Fault></soap:Body></soap:Envelope>`,
    );
    const error = failure(await client('soap12').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'fault', code: 'soap:Receiver', retryable: true });
    expectSmall(error);
    expect(error.detail).toMatch(/detail: STARTx*…\[7,500,008 bytes, 7,49\d,\d{3} not shown\]…x*END/);
  });

  it('keeps a few KB of an 8 MB result that reads as an error, and of an 8 MB proxy page', async () => {
    next = reply(200, 'text/xml; charset=utf-8', `<string xmlns="${NS}">Error: ${'e'.repeat(8_000_000)}</string>`);
    const result = failure(await client('http-get').saveSite({ siteId: '12', height: 30 }));
    expect(result).toMatchObject({ kind: 'fault', source: 'result' });
    expectSmall(result);
    next = reply(502, 'text/html', `<html><head><title>Bad gateway</title></head><body>${'<title>'.repeat(1_000_000)}</body></html>`);
    const started = performance.now();
    const page = failure(await client('http-post').saveSite(newSite));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(page).toMatchObject({ kind: 'http', status: 502, retryable: true });
    expectSmall(page);
  });

  it('bounds a redirect whose Location is kilobytes long', async () => {
    next = reply(302, 'text/html', '', { Location: `https://login.example/?${'q'.repeat(8000)}` });
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'http', status: 302 });
    expectSmall(error);
    expect(error.message.length).toBeLessThan(800);
  });
});

describe('answers with more structure than an operation can return', () => {
  it('refuses a list of a million empty elements before building it, with a sentence that says why', async () => {
    next = reply(200, 'text/xml; charset=utf-8', `<?xml version="1.0"?><ArrayOfRendering xmlns="${NS}">${'<a/>'.repeat(1_000_000)}</ArrayOfRendering>`);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const error = failure(await client('http-get').listRenderingQualities());
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    expect(error).toMatchObject({ kind: 'protocol', retryable: false });
    expect(error.message).toContain('the XML holds more than 40,256 elements, more than a list of 10,000 rendering qualities can hold');
    expectSmall(error);
  });

  it('reads a list of 10,000 rendering qualities and refuses one of 11,000', async () => {
    const list = (count: number) =>
      reply(
        200,
        'text/xml; charset=utf-8',
        `<?xml version="1.0"?><ArrayOfRendering xmlns="${NS}">${Array.from({ length: count }, (_, id) => `<Rendering><RenderingQualityid>${id}</RenderingQualityid><RenderingQualityname>Q${id}</RenderingQualityname><Error /></Rendering>`).join('')}</ArrayOfRendering>`,
      );
    next = list(10_000);
    const result = await client('http-post').listRenderingQualities();
    expect(result.ok && result.value.length).toBe(10_000);
    next = list(11_000);
    expect(failure(await client('http-post').listRenderingQualities())).toMatchObject({ kind: 'protocol' });
  });

  it('refuses a string answer nested ten thousand deep', async () => {
    next = reply(200, 'text/xml; charset=utf-8', `<string xmlns="${NS}">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</string>`);
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'protocol' });
    expect(error.detail).toContain('the XML nests elements more than 24 deep');
  });
});

describe('answers that are not valid UTF-8', () => {
  const invalid = (): RawReply => {
    const head = Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="${NS}">Site `);
    const body = Buffer.concat([head, Buffer.from([0xff, 0xfe]), Buffer.from(' updated.</string>')]);
    return { bytes: Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]) };
  };

  it('reports a raw call (sitewalk call) answered with invalid UTF-8 as a protocol error, not a success', async () => {
    next = invalid();
    const error = failure(await client('http-post').callRaw('SitesAPI', { Sitename: 'Hill', height: '20' }));
    expect(error).toMatchObject({ kind: 'protocol', retryable: true });
    expect(error.message).toContain('incomplete or unreadable');
    expect(error.detail).toMatch(/the answer is not valid UTF-8 \(the first bad byte is at offset \d+\)/);
  });

  it('reports it the same way for a site edit sent by sync', async () => {
    next = invalid();
    expect(failure(await client('http-get').saveSite({ siteId: '12', height: 30 }))).toMatchObject({ kind: 'protocol' });
  });
});

describe('removing the key from answers', () => {
  it('never breaks a success whose markup happens to contain the key', async () => {
    next = reply(200, 'text/xml; charset=utf-8', `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="${NS}">100026</string>`);
    const withKey = (key: string) =>
      createServiceClient({
        connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: NS, binding: 'http-post' },
        credentials: () => ({ account: '10001', key }),
      });
    expect(await withKey('string').saveSite(newSite)).toMatchObject({ ok: true, value: { siteId: '100026' } });
    next = reply(200, 'text/xml; charset=utf-8', `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="${NS}">Saved for key s3cr3t-k3y.</string>`);
    const echoed = await withKey('s3cr3t-k3y').callRaw('SitesAPI', { Sitename: 'Hill', height: '20' });
    expect(echoed).toEqual({ ok: true, value: { operation: 'SitesAPI', result: 'Saved for key [redacted].' } });
  });
});
