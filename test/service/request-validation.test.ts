// ASP.NET's front, as the client meets it: request validation on HTTP GET/POST and the GET query
// limit, against the sandbox (which enforces both like ASP.NET) over real HTTP on all four bindings.
// A call that would be refused goes over SOAP 1.1 (or HTTP POST for a GET that is only too long)
// and says so; with the fallback off it comes back as rejected input, never retryable; a refusal the
// client did not predict (a stricter server) is carried the same way. Plus the shared rule itself,
// the form's estimate of a query's length, and how such refusals are classified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox, SandboxSite } from '../../electron/sandbox/index';
import { createServiceClient } from '../../electron/core/service/client';
import { faultError, httpError } from '../../electron/core/service/errors';
import { httpGet } from '../../electron/core/service/http-get';
import { siteParams } from '../../electron/core/service/operations';
import { BINDINGS, type Binding, type CallError, type CallResult, type ServiceClient } from '../../electron/core/service/types';
import { dangerousIndex, firstDangerousValue, MAX_QUERY_STRING_LENGTH, predictRefusal } from '../../electron/shared/aspnet';
import { estimatedSiteQueryLength, siteRefusalWarnings } from '../../electron/shared/validation/request-validation';
import { parseSiteEdit } from '../../electron/shared/validation/site';
import { clientFor as sandboxClient, inspect, sandboxPerFile } from './helpers/sandbox';
import { reply, startRawServer, type RawServer } from './helpers/raw-server';

let sandbox: RunningSandbox;
sandboxPerFile((started) => (sandbox = started));

function clientFor(binding: Binding, bindingFallback?: boolean): ServiceClient {
  return sandboxClient(sandbox, binding, { bindingFallback });
}

function value<T>(result: CallResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** The bindings the sandbox saw SitesAPI arrive over, oldest first. */
function sitesApiCalls(): Array<{ binding: string; outcome: string; status: number | null }> {
  return sandbox.snapshot().calls.filter((call) => call.operation === 'SitesAPI').map(({ binding, outcome, status }) => ({ binding, outcome, status }));
}

const MARKUP = { name: 'Ridge <North> tower', description: 'Owner&#8217;s gate code: ask Dana', height: 45, latitude: 44.95, longitude: -93.09 };
/** 1,990 characters: within Sitewalk's limit, but its query is far over 2,048 characters once percent-encoded. */
const LONG_DESCRIPTION = 'Access road — gate 4, north side; '.repeat(60).slice(0, 1990);

describe.each(BINDINGS)('a site the service\'s ASP.NET front would refuse, on a %s profile', (binding) => {
  const form = binding === 'http-get' || binding === 'http-post';

  it('lands exactly as typed — over SOAP 1.1 when the profile\'s binding would be refused — and says which binding carried it', async () => {
    const saved = value(await clientFor(binding).saveSite(MARKUP));
    const site = await inspect<SandboxSite>(sandbox, `sites/${saved.siteId}`);
    expect(site).toMatchObject({ name: MARKUP.name, description: MARKUP.description });
    expect(sitesApiCalls()).toEqual([{ binding: form ? 'soap11' : binding, outcome: 'ok', status: 200 }]);
    if (form) {
      expect(saved.carriedBy).toMatchObject({ binding: 'soap11', instead: binding, reason: 'request-validation' });
      expect(saved.carriedBy?.message).toMatch(/Sent over SOAP 1\.1 instead of HTTP (GET|POST)\..*request validation.*"<N"/);
    } else {
      expect(saved.carriedBy).toBeUndefined();
    }
  });

  it('lands a 1,990-character description — over HTTP POST when the profile is HTTP GET', async () => {
    const saved = value(await clientFor(binding).saveSite({ name: 'Long notes', description: LONG_DESCRIPTION, height: 30, latitude: 45, longitude: -93 }));
    expect((await inspect<SandboxSite>(sandbox, `sites/${saved.siteId}`)).description).toBe(LONG_DESCRIPTION);
    expect(sitesApiCalls()).toEqual([{ binding: binding === 'http-get' ? 'http-post' : binding, outcome: 'ok', status: 200 }]);
    if (binding === 'http-get') expect(saved.carriedBy).toMatchObject({ binding: 'http-post', instead: 'http-get', reason: 'query-length' });
    else expect(saved.carriedBy).toBeUndefined();
  });

  it('with the fallback off, comes back as rejected input that is not retryable, and nothing changes', async () => {
    const sitesBefore = sandbox.snapshot().sites.length;
    const callsLeft = sandbox.snapshot().accounts.find((account) => account.id === sandbox.demo.account)?.callsLeft;
    const result = await clientFor(binding, false).saveSite(MARKUP);
    if (!form) {
      // SOAP bodies are never checked: nothing to refuse.
      expect(value(result).carriedBy).toBeUndefined();
      return;
    }
    const error = failure(result);
    expect(error).toMatchObject({ kind: 'fault', retryable: false, refusedBy: { rule: 'request-validation', parameter: 'Sitename', field: 'name', carrier: 'soap11' } });
    expect(error.message).toMatch(/request validation refused the site name.*SOAP 1\.1/);
    expect(error.carriedBy).toBeUndefined();
    expect(sitesApiCalls()).toEqual([{ binding, outcome: 'fault', status: 500 }]);
    expect(sandbox.snapshot().sites).toHaveLength(sitesBefore);
    expect(sandbox.snapshot().accounts.find((account) => account.id === sandbox.demo.account)?.callsLeft).toBe(callsLeft);
  });

  it('with the fallback off, a GET query over the limit comes back as rejected input naming HTTP POST', async () => {
    const result = await clientFor(binding, false).saveSite({ name: 'Long notes', description: LONG_DESCRIPTION, height: 30, latitude: 45, longitude: -93 });
    if (binding !== 'http-get') {
      expect(result.ok).toBe(true);
      return;
    }
    expect(failure(result)).toMatchObject({ kind: 'http', status: 400, retryable: false, refusedBy: { rule: 'query-length', carrier: 'http-post' } });
    expect(sandbox.snapshot().sites.some((site) => site.name === 'Long notes')).toBe(false);
  });
});

describe('a refusal the client did not predict', () => {
  let strict: RawServer;
  const NS = 'http://tempuri.org/';
  beforeAll(async () => {
    // Stricter than ASP.NET's defaults: every HTTP GET/POST call is refused by request validation.
    strict = await startRawServer((request) => {
      if (request.headers['content-type']?.startsWith('text/xml')) {
        return reply(200, 'text/xml; charset=utf-8', `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><SitesAPIResponse xmlns="${NS}"><SitesAPIResult>100123</SitesAPIResult></SitesAPIResponse></soap:Body></soap:Envelope>`);
      }
      const collection = request.method === 'GET' ? 'Request.QueryString' : 'Request.Form';
      return reply(500, 'text/plain; charset=utf-8', `System.Web.HttpRequestValidationException: A potentially dangerous ${collection} value was detected from the client (Sitename=&quot;North&quot;).\r\n   at System.Web.HttpRequest.ValidateString(String value, String collectionKey, RequestValidationSource requestCollection)`);
    });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it.each(['http-post', 'http-get'] as const)('over %s is sent once more over SOAP 1.1, since nothing ran', async (binding) => {
    strict.requests.length = 0;
    const client = createServiceClient({ connection: { baseUrl: strict.url, servicePath: '/towercoverage.asmx', namespace: NS, binding }, credentials: () => ({ account: '1', key: 'k' }) });
    const saved = value(await client.saveSite({ name: 'North', height: 10, latitude: 1, longitude: 2 }));
    expect(saved.siteId).toBe('100123');
    expect(saved.carriedBy).toMatchObject({ binding: 'soap11', instead: binding, reason: 'request-validation' });
    expect(strict.requests.map((request) => request.method + (request.headers.soapaction ? ' soap' : ''))).toEqual([binding === 'http-get' ? 'GET' : 'POST', 'POST soap']);
  });
});

describe('the rule, written once in electron/shared/aspnet.ts', () => {
  it('refuses "<" before a letter, "!", "/" or "?", and "&#", and lets "a < b", "AT&T" and "3<5" pass', () => {
    for (const refused of ['<North>', 'x<!-- y', '</b>', '<?php', 'Owner&#8217;s', 'a<Z']) expect(dangerousIndex(refused), refused).toBeGreaterThanOrEqual(0);
    for (const passes of ['a < b', 'AT&T', '3<5', '<', '& #', '<<', '<1st>']) expect(dangerousIndex(passes), passes).toBe(-1);
  });

  it('checks the collection as ASP.NET holds it: names without case, repeated values joined, "__" names and NULs skipped', () => {
    expect(firstDangerousValue([{ name: '__VIEWSTATE', value: '<b>' }])).toBeNull();
    expect(firstDangerousValue([{ name: 'a', value: '<' }, { name: 'A', value: 'b' }])).toBeNull();
    expect(firstDangerousValue([{ name: 'a', value: '&' }, { name: 'A', value: '#' }])).toBeNull();
    expect(firstDangerousValue([{ name: 'x', value: '<\0b' }])).toMatchObject({ name: 'x', index: 0 });
  });

  it('predicts a GET query over 2,048 characters as sent, percent-escapes included', () => {
    const params = (value: string) => [['Account', '1'], ['Description', value], ['key', 'k']] as const;
    // 'é' is 6 characters once escaped (%C3%A9).
    const fits = 'é'.repeat(Math.floor((MAX_QUERY_STRING_LENGTH - 'Account=1&Description=&key=k'.length) / 6));
    expect(predictRefusal('http-get', params(fits))).toBeNull();
    expect(predictRefusal('http-get', params(`${fits}é`))).toMatchObject({ rule: 'query-length', carrier: 'http-post' });
    expect(predictRefusal('http-post', params(`${fits}é`))).toBeNull();
    expect(predictRefusal('soap11', params('<b>'))).toBeNull();
  });

  it('lets the form estimate the query exactly as the client builds it', () => {
    const edit = parseSiteEdit({ siteId: '77', name: 'Ridge & Co', height: '45', latitude: '44.9537', longitude: '-93.09', description: 'Line 1\nLine 2 🗼', group: 'Backhaul', pinStyle: 3 });
    if (!edit.ok) throw new Error('fixture refused');
    const key = 'ABCDEF0123456789abcdef0123456789ABCD';
    const request = httpGet.build('SitesAPI', siteParams(edit.value, { account: '10001', key }), { baseUrl: 'https://x.test', servicePath: '/s.asmx', namespace: 'http://tempuri.org/', binding: 'http-get' });
    const query = request.url.slice(request.url.indexOf('?') + 1);
    expect(estimatedSiteQueryLength(edit.value, '10001', key.length)).toBe(query.length);
  });

  it('warns the form per field, saying whether Sitewalk will carry the site or the service will refuse it', () => {
    const edit = { name: 'Ridge <North> tower', description: 'fine', height: 30, latitude: 1, longitude: 2 };
    expect(siteRefusalWarnings(edit, { binding: 'soap11', bindingFallback: false })).toEqual([]);
    const refused = siteRefusalWarnings(edit, { binding: 'http-post', bindingFallback: false });
    expect(refused).toEqual([expect.objectContaining({ field: 'name', rule: 'request-validation', carried: false })]);
    expect(refused[0]!.message).toMatch(/"<N".*saving will fail/);
    expect(siteRefusalWarnings(edit, { binding: 'http-get', bindingFallback: true })[0]).toMatchObject({ carried: true, message: expect.stringMatching(/SOAP 1\.1 instead/) });
    const long = siteRefusalWarnings({ ...edit, name: 'ok', description: LONG_DESCRIPTION }, { binding: 'http-get', bindingFallback: false });
    expect(long).toEqual([expect.objectContaining({ field: '', rule: 'query-length', carried: false })]);
  });
});

describe('classification of ASP.NET\'s refusals', () => {
  it('reads request validation as rejected input that no retry fixes, naming the field and SOAP 1.1', () => {
    const error = faultError({
      code: 'System.Web.HttpRequestValidationException',
      reason: 'System.Web.HttpRequestValidationException: A potentially dangerous Request.Form value was detected from the client (Description="Owner&#8217;s gate...").',
      source: 'http-text',
      detail: '',
    });
    expect(error).toMatchObject({ kind: 'fault', retryable: false, quotaExhausted: false, authRejected: false, refusedBy: { rule: 'request-validation', parameter: 'Description', field: 'description', trigger: '&#', carrier: 'soap11' } });
  });

  it('reads the 400 "Runtime Error" page of an over-long GET query as rejected input naming HTTP POST', () => {
    const page = '<!DOCTYPE html><html><head><title>Runtime Error</title></head><body>…</body></html>\n<!--\n[HttpException]: The length of the query string for this request exceeds the configured maxQueryStringLength value.\n-->';
    const error = httpError({ status: 400, statusText: 'Bad Request', contentType: 'text/html', body: page, endpoint: 'https://x.test/s.asmx/SitesAPI' });
    expect(error).toMatchObject({ kind: 'http', retryable: false, refusedBy: { rule: 'query-length', carrier: 'http-post' } });
    expect(httpError({ status: 414, statusText: 'URI Too Long', contentType: 'text/html', body: '', endpoint: 'e' }).refusedBy?.rule).toBe('query-length');
    expect(httpError({ status: 400, statusText: 'Bad Request', contentType: 'text/html', body: '<title>Bad Request</title>', endpoint: 'e' }).refusedBy).toBeUndefined();
  });

  it('keeps an unknown server exception retryable (the outbox stops when it repeats word for word)', () => {
    const error = faultError({ code: 'soap:Server', reason: 'Server was unable to process request. ---> Object reference not set to an instance of an object.', source: 'soap11', detail: '' });
    expect(error).toMatchObject({ retryable: true });
    expect(error.refusedBy).toBeUndefined();
  });
});
