// What ASP.NET does before ASMX reads a parameter, over real HTTP: request validation refuses a
// markup-like value on HTTP GET and POST (any parameter, known or not) with a 500 text/plain
// HttpRequestValidationException, spending nothing and changing nothing, while SOAP carries the
// same values; a query string over 2,048 characters gets a 400 "Runtime Error" page. Both go away
// with requestValidation: false or --no-request-validation, as on a service that turned them off.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  call,
  callsLeft,
  demoSandboxForFile,
  durableState,
  expectPlainError,
  formEncode,
  send,
  validFields,
  type Fields,
  type RawBinding,
} from './raw';

const sandbox = demoSandboxForFile();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const EXCEPTION = 'System.Web.HttpRequestValidationException';
const COLLECTION = { 'http-get': 'Request.QueryString', 'http-post': 'Request.Form' } as const;

function dangerous(binding: 'http-get' | 'http-post', shown: string): string {
  return `A potentially dangerous ${COLLECTION[binding]} value was detected from the client (${shown}).`;
}

function createSite(overrides: Record<string, string>): Fields {
  return validFields(sandbox, 'SitesAPI', overrides);
}

/** The call is refused with exactly this validation message; the state, the quota and the sites stay as they were. */
async function expectRefused(binding: 'http-get' | 'http-post', fields: Fields, shown: string): Promise<void> {
  const before = durableState(sandbox);
  const response = await call(sandbox, binding, 'SitesAPI', fields);
  expectPlainError(response, EXCEPTION, dangerous(binding, shown));
  expect(durableState(sandbox)).toEqual(before);
  expect(sandbox.snapshot().calls.at(-1)).toMatchObject({ binding, operation: 'SitesAPI', outcome: 'fault', status: 500, message: dangerous(binding, shown) });
}

describe.each(['http-get', 'http-post'] as const)('request validation over %s', (binding) => {
  it.each([
    ['a tag', { Sitename: '<b>Tower</b> North Ridge' }, 'Sitename="<b>Tower</b> North R..."'],
    ['an end tag', { Group: '</x>' }, 'Group="</x>"'],
    ['a comment or declaration opener', { Description: 'see <!-- here -->' }, 'Description="see <!-- here -->"'],
    ['a processing instruction opener', { Sitename: '<?php' }, 'Sitename="<?php"'],
    ['a character reference', { Sitename: 'Tom&#39;s mast' }, 'Sitename="Tom&#39;s mast"'],
    ['markup in the middle of a long value', { Description: 'Lattice tower, see <a href=x>map</a> today' }, 'Description="...ower, see <a href=x>map</a> to..."'],
  ])('refuses %s before the operation runs, quoting the value the way ASP.NET does', async (_label, overrides, shown) => {
    const quota = callsLeft(sandbox);
    await expectRefused(binding, createSite(overrides), shown);
    expect(callsLeft(sandbox)).toBe(quota);
  });

  it('HTML-encodes the quoted value in the text/plain body', async () => {
    const response = await call(sandbox, binding, 'SitesAPI', createSite({ Sitename: '<b>"Ridge"</b>' }));
    expect(response.status).toBe(500);
    expect(response.body.split('\r\n')[0]).toBe(`${EXCEPTION}: A potentially dangerous ${COLLECTION[binding]} value was detected from the client (Sitename=&quot;&lt;b&gt;&quot;Ridge&quot;&lt;/b&gt;&quot;).`);
  });

  it('checks every parameter, also one the operation does not take, naming it as sent', async () => {
    await expectRefused(binding, [...createSite({}), ['comment', '<script>alert(1)</script>']], 'comment="<script>alert(1)</sc..."');
  });

  it('refuses even a call that would fail anyway: validation comes before the key is checked', async () => {
    await expectRefused(binding, createSite({ key: 'wrong-key', Sitename: '<i>' }), 'Sitename="<i>"');
  });

  it('passes text that only looks close: a < b, AT&T, 3<5, a trailing <, &amp; and ASP.NET\'s own __ fields', async () => {
    const fields: Fields = [...createSite({ Sitename: 'a < b', Description: 'AT&T 3<5 &amp; 5 > 3 <', Group: '<3' }), ['__VIEWSTATE', '<b>']];
    const response = await call(sandbox, binding, 'SitesAPI', fields);
    expect(response.status).toBe(200);
    expect(sandbox.snapshot().sites.at(-1)).toMatchObject({ name: 'a < b', description: 'AT&T 3<5 &amp; 5 > 3 <', group: '<3' });
  });
});

describe.each(['soap11', 'soap12'] as const)('the same values over %s', (binding) => {
  it('are not validated: ASMX reads the envelope as XML, so the call runs and stores them as sent', async () => {
    const quota = callsLeft(sandbox);
    const values = { Sitename: '<b>Tower</b> North Ridge', Description: 'Tom&#39;s mast <!-- x --> <?php', Group: '</x>' };
    const response = await call(sandbox, binding, 'SitesAPI', createSite(values));
    expect(response.status).toBe(200);
    expect(sandbox.snapshot().sites.at(-1)).toMatchObject({ name: values.Sitename, description: values.Description, group: values.Group });
    expect(callsLeft(sandbox)).toBe(quota - 1);
  });
});

/** SitesAPI over HTTP GET with a Description long enough that the query string has exactly `length` characters. */
function queryOfLength(length: number): string {
  const base = formEncode(createSite({ Description: '' }));
  return `${sandbox.servicePath}/SitesAPI?${formEncode(createSite({ Description: 'x'.repeat(length - base.length) }))}`;
}

describe('the query-string length limit', () => {
  it('answers a GET whose query string is over 2,048 characters with 400 and ASP.NET\'s Runtime Error page, changing nothing', async () => {
    const before = durableState(sandbox);
    const path = queryOfLength(2049);
    expect(path.split('?')[1]).toHaveLength(2049);
    const response = await send(sandbox.url, { method: 'GET', path });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<title>Runtime Error</title>');
    expect(response.body).toContain("Server Error in '/' Application.");
    expect(response.body).toContain('maxQueryStringLength');
    expect(durableState(sandbox)).toEqual(before);
    expect(sandbox.snapshot().calls.at(-1)).toMatchObject({ binding: 'http-get', operation: 'SitesAPI', outcome: 'fault', status: 400 });
  });

  it('serves a query string of exactly 2,048 characters', async () => {
    const path = queryOfLength(2048);
    expect(path.split('?')[1]).toHaveLength(2048);
    expect((await send(sandbox.url, { method: 'GET', path })).status).toBe(200);
  });

  it('counts the query as sent, percent-escapes included', async () => {
    // 700 × "é" is 700 characters of text but 4,200 of query string (%C3%A9).
    const response = await call(sandbox, 'http-get', 'SitesAPI', createSite({ Description: 'é'.repeat(700) }));
    expect(response.status).toBe(400);
  });
});

describe('with request validation off', () => {
  const relaxed = demoSandboxForFile({ requestValidation: false });

  it.each(['http-get', 'http-post', 'soap11', 'soap12'] as RawBinding[])('accepts markup-like values over %s and stores them as sent', async (binding) => {
    const quota = callsLeft(relaxed);
    const values = { Sitename: '<b>Tower</b>', Description: 'Tom&#39;s mast', Group: '</x>' };
    const response = await call(relaxed, binding, 'SitesAPI', validFields(relaxed, 'SitesAPI', values));
    expect(response.status).toBe(200);
    expect(relaxed.snapshot().sites.at(-1)).toMatchObject({ name: values.Sitename, description: values.Description, group: values.Group });
    expect(callsLeft(relaxed)).toBe(quota - 1);
  });

  it('serves a query string over 2,048 characters', async () => {
    const description = 'é'.repeat(500);
    const response = await call(relaxed, 'http-get', 'SitesAPI', validFields(relaxed, 'SitesAPI', { Description: description }));
    expect(response.status).toBe(200);
    expect(relaxed.snapshot().sites.at(-1)!.description).toBe(description);
  });
});

describe('the --no-request-validation flag', () => {
  it('starts the sandbox from the command line with request validation off', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron', 'sandbox', 'cli.ts'), '--port', '0', '--quiet', '--no-request-validation'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = once(child, 'exit');
    try {
      await expect.poll(() => stdout, { timeout: 60_000, interval: 50 }).toContain('Press Ctrl-C to stop.');
      expect(stdout).toContain('Validation:   off (--no-request-validation)');
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)![1]!;
      const fields: Fields = [
        ['Account', '10001'], ['Sitename', '<b>Flag Ridge</b>'], ['Siteid', ''], ['height', '30'], ['Latitude', '45.1'], ['Longitude', '-111.2'],
        ['Description', ''], ['Group', ''], ['Pinstyle', ''], ['key', 'sandbox-demo-key'],
      ];
      const response = await send(base, { method: 'GET', path: `/towercoverage.asmx/SitesAPI?${formEncode(fields)}` });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});
