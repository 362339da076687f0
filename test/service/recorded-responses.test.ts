// The client against recorded responses of shapes the sandbox does not produce: other SOAP
// prefixes, a BOM, proxy pages, .NET stack traces, login redirects, results that read as errors.
// Each is served byte for byte from a loopback server, so the real fetch and socket are in the loop.
import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../../electron/core/service/client';
import { mayHaveBeenApplied, type Binding, type CallError, type CallResult, type ServiceClient } from '../../electron/core/service/types';
import { fixtureReply, rawServerPerFile, type RawReply, type RawServer } from './helpers/raw-server';

let server: RawServer;
let next: RawReply;
rawServerPerFile(
  () => next,
  (started) => (server = started),
);

function client(binding: Binding, key = 'fixture-secret-key'): ServiceClient {
  return createServiceClient({
    connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', binding },
    credentials: () => ({ account: '10001', key }),
    timeoutMs: 15_000,
  });
}

function serving(name: string): void {
  next = fixtureReply(name);
}

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const newSite = { name: 'North Ridge', height: 30, latitude: 45.1, longitude: -93.2 };

describe('successful answers in shapes other servers use', () => {
  it('reads a created site ID from a SOAP 1.1 answer that uses the s: prefix', async () => {
    serving('soap11-s-prefix-site-created');
    const result = await client('soap11').saveSite(newSite);
    expect(result).toEqual({ ok: true, value: { siteId: '100026', message: 'Site created; the service gave it ID 100026.', raw: '100026' } });
  });

  it('reads a reprocess result from an indented soapenv: answer with prefixed body elements', async () => {
    serving('soap11-soapenv-prefix-reprocessed');
    const result = await client('soap11').reprocessEus({ processId: 'P-7781', multiMapId: '4410', sendEmail: true });
    expect(result.ok && result.value.message).toBe('Submission P-7781 reprocessed into Multi Map 4410. Email sent to 2 recipients.');
  });

  // Rendering-quality lists: each recorded answer read over its binding into the same list shape.
  const lists: Array<{ name: string; fixture: string; binding: Binding; qualities: unknown[] }> = [
    {
      name: 'reads a SOAP 1.2 list under the env: prefix, keeping an absent Error (null) apart from an empty one',
      fixture: 'soap12-env-prefix-list',
      binding: 'soap12',
      qualities: [
        { id: 1, name: 'Draft & quick', error: null },
        { id: 3, name: 'High <30 m>', error: '' },
      ],
    },
    {
      name: 'reads an ArrayOfRendering in the default namespace over HTTP GET',
      fixture: 'http-list-default-namespace',
      binding: 'http-get',
      qualities: [
        { id: 2, name: 'Standard', error: '' },
        { id: 4, name: 'Best (slow)', error: null },
      ],
    },
  ];
  for (const { name, fixture, binding, qualities } of lists) {
    it(name, async () => {
      serving(fixture);
      const result = await client(binding).listRenderingQualities();
      expect(result).toEqual({ ok: true, value: qualities });
    });
  }

  it('reads an HTTP answer that starts with a UTF-8 byte order mark', async () => {
    serving('http-bom-string');
    const result = await client('http-post').saveSite({ siteId: '100031', height: 42 });
    expect(result).toEqual({ ok: true, value: { siteId: '100031', message: 'Site 100031 updated.', raw: 'Site 100031 updated.' } });
  });

  it('treats a SOAP response without a result element as a create with no ID rather than as damage', async () => {
    serving('soap11-null-result');
    const result = await client('soap11').saveSite(newSite);
    expect(result.ok && result.value.siteId).toBeNull();
  });
});

describe('proxy and gateway answers', () => {
  it('turns an nginx 502 page into a retryable http error that may have been applied', async () => {
    serving('proxy-502-html');
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'http', status: 502, contentType: 'text/html', retryable: true, quotaExhausted: false, authRejected: false });
    expect(error.message).toMatch(/gateway/i);
    expect(error.detail).toContain('page title: 502 Bad Gateway');
    expect(mayHaveBeenApplied(error)).toBe(true);
  });

  it('turns a 503 with an empty body into a retryable http error that says when to come back', async () => {
    serving('proxy-503-empty');
    const error = failure(await client('soap12').listRenderingQualities());
    // Its Retry-After: 30, which the outbox's hold waits out (outbox-hold.test.ts).
    expect(error).toMatchObject({ kind: 'http', status: 503, body: '', retryable: true, retryAfterMs: 30_000 });
    expect(error.detail).toContain('(empty body)');
  });

  it('reports a 302 to a login page as a redirect, never followed, not retried and never applied', async () => {
    serving('redirect-to-login');
    const before = server.requests.length;
    const error = failure(await client('soap11').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'http', status: 302, retryable: false });
    expect(error.message).toMatch(/redirected.*login page/i);
    expect(error.message).toContain('https://login.guest-wifi.example/portal');
    expect(mayHaveBeenApplied(error)).toBe(false);
    expect(server.requests.length - before).toBe(1);
  });

  it('says the address is wrong on a 404 page', async () => {
    serving('not-found-404-html');
    const error = failure(await client('http-get').listRenderingQualities());
    expect(error).toMatchObject({ kind: 'http', status: 404, retryable: false });
    expect(error.message).toMatch(/base URL and service path/);
  });

  it('reports a captive portal page served with 200 as a web page, not as the service', async () => {
    serving('ok-captive-portal-page');
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'protocol', retryable: false });
    expect(error.message).toContain('Guest Wi-Fi – Sign in');
  });
});

describe('damaged answers', () => {
  it('reports an empty 200 body as a retryable protocol error that may have been applied', async () => {
    serving('ok-empty-body');
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'protocol', retryable: true });
    expect(error.detail).toContain('the body is empty');
    expect(mayHaveBeenApplied(error)).toBe(true);
  });

  it('reports truncated XML as a protocol error naming the unclosed elements', async () => {
    serving('ok-truncated-xml');
    const error = failure(await client('soap11').saveSite(newSite));
    expect(error.kind).toBe('protocol');
    expect(error.detail).toMatch(/<SitesAPIResult> is closed|<SitesAPIResult> are closed|cut short/);
    expect(error.retryable).toBe(true);
  });

  it('reports a connection that dies in the middle of the body as a protocol error keeping what arrived', async () => {
    serving('ok-cut-mid-body');
    const error = failure(await client('http-post').saveSite({ siteId: '100031', height: 42 }));
    expect(error).toMatchObject({ kind: 'protocol', retryable: true });
    expect(error.detail).toContain('connection broke while the answer was read');
    expect(error.kind === 'protocol' && error.body).toContain('<?xml');
  });

  it('rejects a RenderingQualityid that is not a number', async () => {
    serving('list-non-numeric-id');
    const error = failure(await client('http-post').listRenderingQualities());
    expect(error).toMatchObject({ kind: 'protocol', retryable: false });
    expect(error.detail).toContain('RenderingQualityid "high"');
  });

  it('names both namespaces when the answer is in another namespace than the profile says', async () => {
    serving('http-wrong-namespace');
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error.kind).toBe('protocol');
    expect(error.detail).toContain('"http://towercoverage.com/api/"');
    expect(error.detail).toContain('"http://tempuri.org/"');
  });
});

describe('faults and exception texts', () => {
  it('strips the .NET exception type and stack trace from the message and keeps them in the detail', async () => {
    serving('dotnet-500-stack-trace');
    const error = failure(await client('http-post').saveSite(newSite));
    expect(error).toMatchObject({ kind: 'fault', source: 'http-text', code: 'System.ArgumentException', retryable: false });
    if (error.kind !== 'fault') throw new Error('unreachable');
    expect(error.reason).toBe('Height must be a whole number of meters. Parameter name: height');
    expect(error.message).not.toMatch(/System\.|\s{3}at /);
    expect(error.detail).toContain('at TowerCoverage.Api.SiteService.ParseHeight');
  });

  it('reads the HTML-encoded message ASMX writes into a text/plain exception as plain text', async () => {
    serving('http-html-encoded-message');
    const error = failure(await client('http-post').saveSite({ siteId: '12', height: 10 }));
    if (error.kind !== 'fault') throw new Error(`expected a fault, got ${error.kind}`);
    expect(error.reason).toBe("Site '12' was not found & cannot be edited <here>.");
    expect(error.message).toContain("Site '12' was not found");
  });

  it('retries an unknown server exception such as a database deadlock', async () => {
    serving('dotnet-500-transient');
    const error = failure(await client('http-get').saveSite({ siteId: '7', height: 10 }));
    expect(error).toMatchObject({ kind: 'fault', source: 'http-text', code: 'System.Data.SqlClient.SqlException', retryable: true });
    expect(mayHaveBeenApplied(error)).toBe(false);
  });

  it('reads a SOAP 1.2 fault, prefers the English reason and drops the ASMX prefix', async () => {
    serving('soap12-fault-sender');
    const error = failure(await client('soap12').saveSite({ siteId: '123', height: 10 }));
    expect(error).toMatchObject({ kind: 'fault', source: 'soap12', code: 'soap:Sender', reason: 'Site 123 was not found.', retryable: false });
    expect(error.message).toContain('Site 123 was not found.');
    expect(error.message).not.toContain('Server was unable to process request');
  });

  it('recognises a quota message in a soap:Server fault under a SOAP-ENV prefix and does not retry it', async () => {
    serving('soap11-fault-quota');
    const error = failure(await client('soap11').listRenderingQualities());
    expect(error).toMatchObject({ kind: 'fault', code: 'soap:Server', quotaExhausted: true, authRejected: false, retryable: false });
    expect(error.message).toMatch(/no API calls left/);
  });

  it('retries a soap:Server fault whose message is neither validation, quota nor auth', async () => {
    serving('soap11-fault-transient');
    const error = failure(await client('soap11').saveSite({ siteId: '5', height: 12 }));
    expect(error).toMatchObject({ kind: 'fault', code: 'soap:Server', retryable: true, quotaExhausted: false });
  });

  it('reads a fault even when it arrives with status 200, and recognises a rejected key', async () => {
    serving('soap11-fault-with-200');
    const error = failure(await client('soap11').reprocessEus({ processId: 'P-1', multiMapId: '9', sendEmail: false }));
    expect(error).toMatchObject({ kind: 'fault', code: 'soap:Client', authRejected: true, retryable: false });
  });

  it('turns a 200 result that reads as an error into a fault with source result', async () => {
    serving('ok-result-reads-as-error');
    const error = failure(await client('http-post').saveSite({ siteId: '555', height: 12 }));
    expect(error).toMatchObject({ kind: 'fault', source: 'result', retryable: false, reason: 'Error: Site 555 not found in account 10001' });
    expect(mayHaveBeenApplied(error)).toBe(false);
  });

  it('turns a list whose every entry carries an error into an auth fault', async () => {
    serving('list-every-entry-an-error');
    const error = failure(await client('http-get').listRenderingQualities());
    expect(error).toMatchObject({ kind: 'fault', source: 'result', authRejected: true, reason: 'Invalid API key.' });
  });

  it('never repeats the API key, even when the service echoes it back', async () => {
    serving('http-key-echoed-in-error');
    const error = failure(await client('http-post').listRenderingQualities());
    expect(JSON.stringify(error)).not.toContain('fixture-secret-key');
    expect(error.detail).toContain('key=[redacted]');
  });
});
