// The app's path (profile → queue → sync) against a service that behaves like ASP.NET on IIS, over
// real HTTP on all four bindings: the sandbox (request validation and the GET query limit, as
// ASP.NET does them) and, for answers the sandbox does not give, a loopback proxy in front of it
// that throws the same exception for one site every time, or answers 503 for a while. Good sites
// land once, with the binding that carried them recorded on the entry; a site the service refuses
// fails as rejected input when the profile forbids another binding; a site the service throws on
// fails within four tries and the sync settles; a flapping 503 is ridden out as before (the queue held,
// no try of the edit spent on it).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect } from 'vitest';
import type { SitewalkCore } from '../../electron/core/open-core';
import { decide, DEFAULT_RETRY, SAME_ANSWER_LIMIT } from '../../electron/core/outbox/policy';
import type { OutboxEntry } from '../../electron/core/outbox/types';
import { faultError, httpError, timeoutError } from '../../electron/core/service/errors';
import { BINDINGS, type Binding } from '../../electron/core/service/types';
import { siteRefusalWarnings } from '../../electron/shared/validation/request-validation';
import { useService } from '../support/core';
import { it } from '../support/fixtures';
import { serviceCalls, serviceSites } from '../support/service-state';

const MARKUP = { name: 'Ridge <North> tower', description: 'Owner&#8217;s gate code: ask Dana', height: 45, latitude: 44.95, longitude: -93.09 };
const LONG = { name: 'Long notes', description: 'Access road — gate 4, north side; '.repeat(60).slice(0, 1990), height: 30, latitude: 45, longitude: -93 };
const isForm = (binding: Binding) => binding === 'http-get' || binding === 'http-post';

async function save(core: SitewalkCore, input: Parameters<SitewalkCore['sites']['save']>[0]): Promise<{ entryId: string; localId: string }> {
  const saved = await core.sites.save(input);
  if (!saved.ok) throw new Error(`the site was refused: ${JSON.stringify(saved.issues)}`);
  return { entryId: saved.value.entry.id, localId: saved.value.site.localId };
}

function entry(core: SitewalkCore, id: string) {
  const found = core.outbox.get(id);
  if (!found) throw new Error(`no entry ${id}`);
  return found;
}

// ---------- a proxy in front of the sandbox, answering some calls itself ----------

interface Proxy {
  url: string;
  /** Calls the proxy answered itself. */
  answered: number;
  close(): Promise<void>;
}

/** The exception a service bug throws, in each binding's words (ASMX's formats). */
function exception(request: { contentType: string }): { status: number; contentType: string; body: string } {
  const message = 'Object reference not set to an instance of an object.';
  if (request.contentType.startsWith('text/xml')) {
    return {
      status: 500,
      contentType: 'text/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request. ---&gt; ${message}</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`,
    };
  }
  if (request.contentType.startsWith('application/soap+xml')) {
    return {
      status: 500,
      contentType: 'application/soap+xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Server was unable to process request. ---&gt; ${message}</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>`,
    };
  }
  return { status: 500, contentType: 'text/plain; charset=utf-8', body: `System.NullReferenceException: ${message}\r\n   at TowerCoverage.Api.Sites.Save(String name)\r\n   at TowerCoverage.SitesAPI(String Account, String Sitename)` };
}

const PROXY_503 = { status: 503, contentType: 'text/html', body: '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>' };

/** Forwards to `target`, except the calls `answer` answers itself (it sees the call as sent). */
async function startProxy(target: string, answer: (call: { text: string; contentType: string }) => { status: number; contentType: string; body: string } | null): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const proxy: Proxy = { url: '', answered: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      const own = /\/SitesAPI|SitesAPI/.test(`${req.url ?? ''} ${body.toString('utf8')}`) ? answer({ text: `${decodeURIComponent(req.url ?? '')} ${body.toString('utf8')}`, contentType }) : null;
      if (own) {
        proxy.answered++;
        res.writeHead(own.status, { 'Content-Type': own.contentType });
        res.end(own.body);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'soapaction', 'accept']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      void fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }) }).then(
        async (upstream) => {
          res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'text/plain' });
          res.end(Buffer.from(await upstream.arrayBuffer()));
        },
        () => res.destroy(),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

// ---------- the app's path ----------

describe.each(BINDINGS)('sync against an ASP.NET service, on a %s profile', (binding) => {
  it('lands a name with markup, a description with "&#8217;" and a 1,990-character description once each, recording which binding carried them', async ({ sandbox, openCore }) => {
    const core = await openCore({ sandbox: false });
    await useService(core, sandbox.url, { binding });
    const markup = await save(core, MARKUP);
    const long = await save(core, LONG);
    const settled = await core.sync.untilSettled();
    expect(settled.blocked).toBeNull();
    expect(settled.counts).toMatchObject({ done: 2, failed: 0, pending: 0 });

    const sites = await serviceSites(sandbox.url);
    expect(sites.filter((site) => site.name === MARKUP.name).map((site) => site.description)).toEqual([MARKUP.description]);
    expect(sites.filter((site) => site.name === LONG.name).map((site) => site.description)).toEqual([LONG.description]);
    expect(core.sites.get(markup.localId)).toMatchObject({ name: MARKUP.name, syncState: 'synced' });

    const markupEntry = entry(core, markup.entryId);
    const longEntry = entry(core, long.entryId);
    expect(markupEntry.attempts).toBe(1);
    expect(longEntry.attempts).toBe(1);
    if (isForm(binding)) {
      expect(markupEntry.carriedBy).toMatchObject({ binding: 'soap11', instead: binding, reason: 'request-validation' });
      expect(markupEntry.summary).toMatch(/ · via SOAP 1\.1$/);
    } else {
      expect(markupEntry.carriedBy ?? null).toBeNull();
    }
    if (binding === 'http-get') expect(longEntry.carriedBy).toMatchObject({ binding: 'http-post', instead: 'http-get', reason: 'query-length' });
    else expect(longEntry.carriedBy ?? null).toBeNull();
    const carriers = (await serviceCalls(sandbox.url)).filter((call) => call.operation === 'SitesAPI').map((call) => call.binding).sort();
    expect(carriers).toEqual([isForm(binding) ? 'soap11' : binding, binding === 'http-get' ? 'http-post' : binding].sort());
  });

  it('keeps the carrier on the entry across a restart', async ({ sandbox, openCore, tempDir }) => {
    const first = await openCore({ sandbox: false });
    await useService(first, sandbox.url, { binding });
    const markup = await save(first, MARKUP);
    await first.sync.untilSettled();
    const before = entry(first, markup.entryId).carriedBy ?? null;
    await first.close();
    const second = await openCore({ sandbox: false, dataDir: tempDir });
    expect(entry(second, markup.entryId).carriedBy ?? null).toEqual(before);
  });

  it('with the fallback off, warns in the form and fails the site as rejected input on its first try', async ({ sandbox, openCore }) => {
    const core = await openCore({ sandbox: false });
    const profile = await useService(core, sandbox.url, { binding });
    const off = await core.profiles.update(profile.id, { bindingFallback: false });
    if (!off.ok) throw new Error('the profile was refused');
    expect(off.value.bindingFallback).toBe(false);

    const warnings = siteRefusalWarnings(MARKUP, { binding: off.value.binding, bindingFallback: off.value.bindingFallback, account: off.value.account });
    const saved = await save(core, MARKUP);
    const settled = await core.sync.untilSettled();
    const result = entry(core, saved.entryId);
    if (!isForm(binding)) {
      expect(warnings).toEqual([]);
      expect(result.state).toBe('done');
      return;
    }
    expect(warnings.map((warning) => [warning.field, warning.carried])).toEqual([['name', false], ['description', false]]);
    expect(settled.counts).toMatchObject({ failed: 1, pending: 0 });
    expect(result).toMatchObject({ state: 'failed', attempts: 1, problem: { kind: 'fault', retryable: false, issues: [{ field: 'name' }] } });
    expect(result.problem?.message).toMatch(/request validation refused the site name/);
    expect(result.carriedBy ?? null).toBeNull();
    expect((await serviceSites(sandbox.url)).some((site) => site.name === MARKUP.name)).toBe(false);
  });

  it('fails a site the service throws on every time within four tries, while the others land once, and the sync settles', async ({ sandbox, openCore }) => {
    const proxy = await startProxy(sandbox.url, (call) => (call.text.includes('Cursed') ? exception(call) : null));
    try {
      const core = await openCore({ sandbox: false });
      await useService(core, proxy.url, { binding });
      const good = [await save(core, { name: 'North Ridge', height: 30, latitude: 45, longitude: -93 }), await save(core, { ...MARKUP })];
      const cursed = await save(core, { name: 'Cursed tower', height: 30, latitude: 45.1, longitude: -93.1 });
      const settled = await core.sync.untilSettled();

      expect(settled.counts).toMatchObject({ done: 2, failed: 1, pending: 0, sending: 0 });
      const failed = entry(core, cursed.entryId);
      expect(failed).toMatchObject({ state: 'failed', attempts: SAME_ANSWER_LIMIT, problem: { kind: 'gave-up', retryable: false, repeats: SAME_ANSWER_LIMIT } });
      expect(failed.problem?.message).toMatch(/^The service keeps answering: "Object reference not set to an instance of an object\."/);
      expect(proxy.answered).toBe(SAME_ANSWER_LIMIT);
      for (const { entryId } of good) expect(entry(core, entryId)).toMatchObject({ state: 'done', attempts: 1 });
      const sites = await serviceSites(sandbox.url);
      expect(sites.filter((site) => site.name === 'North Ridge')).toHaveLength(1);
      expect(sites.filter((site) => site.name === MARKUP.name)).toHaveLength(1);
      expect(sites.some((site) => site.name === 'Cursed tower')).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it('keeps retrying a flapping 503 past four tries, as before, until it goes through', async ({ sandbox, openCore }) => {
    let refusals = 6;
    const proxy = await startProxy(sandbox.url, () => (refusals-- > 0 ? PROXY_503 : null));
    try {
      const core = await openCore({ sandbox: false });
      await useService(core, proxy.url, { binding });
      const siteId = (await serviceSites(sandbox.url))[0]!.id;
      const edit = await save(core, { siteId, height: 77 });
      const settled = await core.sync.untilSettled();
      expect(settled.counts).toMatchObject({ done: 1, failed: 0 });
      // Six "unavailable" answers cost the edit no try towards giving up (the queue was held meanwhile).
      expect(entry(core, edit.entryId)).toMatchObject({ state: 'done', attempts: 1, totalAttempts: 7 });
      expect((await serviceSites(sandbox.url)).find((site) => site.id === siteId)?.height).toBe(77);
    } finally {
      await proxy.close();
    }
  });
});

// ---------- the policy on its own ----------

describe('policy: an answer that comes back word for word', () => {
  const base = { kind: 'site', id: 'o1', seq: 1, profileId: 'p', localId: 'l1', op: 'edit', payload: { siteId: '9', height: 3 }, resultSiteId: null, state: 'sending', createdAt: 0, updatedAt: 0, nextAttemptAt: null, result: null } as const;
  const bug = () => faultError({ code: 'soap:Server', reason: 'Server was unable to process request. ---> Object reference not set to an instance of an object.', source: 'soap11', detail: '' });
  const other = () => faultError({ code: 'soap:Server', reason: 'Server was unable to process request. ---> Transaction (Process ID 71) was deadlocked.', source: 'soap11', detail: '' });

  /** Runs `errors` through decide as the engine would: each decision's problem becomes the entry's. */
  function run(errors: Array<ReturnType<typeof bug>>, attemptsBefore = 0) {
    let current = { ...base, attempts: attemptsBefore, problem: null } as unknown as OutboxEntry;
    const states: string[] = [];
    for (const error of errors) {
      current = { ...current, attempts: current.attempts + 1 };
      const decision = decide(current, error, DEFAULT_RETRY);
      states.push(decision.state);
      current = { ...current, problem: decision.problem };
    }
    return { states, problem: current.problem };
  }

  it('retries the same exception three more times, then fails with "The service keeps answering"', () => {
    const { states, problem } = run([bug(), bug(), bug(), bug()]);
    expect(states).toEqual(['pending', 'pending', 'pending', 'failed']);
    expect(problem).toMatchObject({ kind: 'gave-up', repeats: 4, retryable: false });
    expect(problem?.message).toMatch(/^The service keeps answering: "Object reference not set/);
  });

  it('counts again when the words change, and stops counting at the attempt limit as before', () => {
    expect(run([bug(), bug(), other(), bug(), bug(), bug()]).states).toEqual(['pending', 'pending', 'pending', 'pending', 'pending', 'pending']);
  });

  it('gives a user\'s retry a fresh count', () => {
    const previous = run([bug(), bug(), bug(), bug()]).problem;
    // userRetry sets attempts to 0; the problem stays on the entry.
    const retried = { ...base, attempts: 1, problem: previous } as unknown as OutboxEntry;
    expect(decide(retried, bug(), DEFAULT_RETRY)).toMatchObject({ state: 'pending', problem: { repeats: 1 } });
  });

  it('counts a 500 error page the same way, but neither a 503 nor a timeout', () => {
    const page = () => httpError({ status: 500, statusText: 'Internal Server Error', contentType: 'text/html', body: '<title>Runtime Error</title>', endpoint: 'https://x.test/s.asmx/SitesAPI' });
    expect(run([page(), page(), page(), page()]).states.at(-1)).toBe('failed');
    const gateway = () => httpError({ status: 503, statusText: 'Service Unavailable', contentType: 'text/html', body: '', endpoint: 'https://x.test/s.asmx/SitesAPI' });
    expect(run([gateway(), gateway(), gateway(), gateway(), gateway()]).states).toEqual(Array(5).fill('pending'));
    const slow = () => timeoutError(30_000, 'https://x.test/s.asmx/SitesAPI');
    expect(run([slow(), slow(), slow(), slow(), slow()]).states).toEqual(Array(5).fill('pending'));
  });
});
