// Fault injection seen on the wire, below any client of ours (test/service/sandbox-faults.test.ts
// covers how our client reads them): what each mode puts on the socket over every binding, whether
// the call was applied, how rates draw from an injected random source, that /_sandbox/ is never
// faulted, and that the WSDL and help page meet only a proxy's 503 for the whole service (who may
// use /_sandbox/: inspect-access.test.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/index';
import { call, callsLeft, durableState, expectRejected, inspect, RAW_BINDINGS, send, validFields, type RawResponse, demoSandboxForFile } from './raw';

const sandbox = demoSandboxForFile();

const INJECTED =
  'Timeout expired.  The timeout period elapsed prior to completion of the operation or the server is not responding. (Injected by the sandbox: nothing was changed.)';

const createSite = (s: RunningSandbox, name: string) => validFields(s, 'SitesAPI', { Sitename: name });

async function lastCall(s: RunningSandbox): Promise<{ operation: string; outcome: string; status: number | null; binding: string }> {
  const { json } = await inspect<Array<{ operation: string; outcome: string; status: number | null; binding: string }>>(s, 'calls');
  return json.at(-1)!;
}

function sitesNamed(s: RunningSandbox, name: string): number {
  return s.snapshot().sites.filter((site) => site.name === name).length;
}

describe.each(RAW_BINDINGS)('fault modes over %s', (binding) => {
  it('failure: answers the binding\'s own server error and applies nothing', async () => {
    sandbox.setFaults({ failureRate: 1 });
    const before = durableState(sandbox);
    const response = await call(sandbox, binding, 'SitesAPI', createSite(sandbox, `Failed ${binding}`));
    expectRejected(binding, response, { exceptionType: 'System.Data.SqlClient.SqlException', message: INJECTED, phase: 'process' });
    expect(durableState(sandbox)).toEqual(before);
    expect(await lastCall(sandbox)).toMatchObject({ binding, operation: 'SitesAPI', outcome: 'injected-failure', status: 500 });
  });

  it('applyThenDrop: applies the call, spends one API call, then closes the socket without a byte of answer', async () => {
    sandbox.setFaults({ applyThenDropRate: 1 });
    const name = `Dropped ${binding}`;
    const spent = callsLeft(sandbox);
    const outcome = await call(sandbox, binding, 'SitesAPI', createSite(sandbox, name)).then(
      (response: RawResponse) => `answered ${response.status}`,
      (error: NodeJS.ErrnoException) => error.code ?? error.message,
    );
    expect(outcome).toMatch(/^(ECONNRESET|socket hang up)$/);
    expect(sitesNamed(sandbox, name)).toBe(1);
    expect(callsLeft(sandbox)).toBe(spent - 1);
    expect(await lastCall(sandbox)).toMatchObject({ outcome: 'dropped-after-apply', status: null });
  });

  it('hang: never answers and applies nothing', async () => {
    sandbox.setFaults({ hangRate: 1 });
    const before = durableState(sandbox);
    await expect(call(sandbox, binding, 'SitesAPI', createSite(sandbox, `Hung ${binding}`), { timeoutMs: 400 })).rejects.toThrow('no answer');
    expect(durableState(sandbox)).toEqual(before);
    expect(await lastCall(sandbox)).toMatchObject({ outcome: 'hang', status: null });
  });

  it('proxy503: answers a proxy\'s HTML 503 page with Retry-After and applies nothing', async () => {
    sandbox.setFaults({ proxy503Rate: 1 });
    const before = durableState(sandbox);
    const response = await call(sandbox, binding, 'SitesAPI', createSite(sandbox, `Proxied ${binding}`));
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['retry-after']).toBe('1');
    expect(response.body).toContain('<title>503 Service Temporarily Unavailable</title>');
    expect(response.body).not.toContain('soap:');
    expect(durableState(sandbox)).toEqual(before);
    // A maintenance window says how long: the Retry-After the config names.
    sandbox.setFaults({ proxy503Rate: 1, retryAfterSeconds: 600 });
    expect((await call(sandbox, binding, 'SitesAPI', createSite(sandbox, `Proxied ${binding}`))).headers['retry-after']).toBe('600');
  });
});

describe('latency', () => {
  it('delays the answer by at least the latency and then answers normally', async () => {
    sandbox.setFaults({ latencyMs: 300 });
    const started = performance.now();
    const response = await call(sandbox, 'http-get', 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(response.status).toBe(200);
    expect(response.body).toContain('<ArrayOfRendering ');
  });

  it('holds only service calls: /_sandbox/ answers while a call is still waiting', async () => {
    sandbox.setFaults({ latencyMs: 2_000 });
    let answered = false;
    const slow = call(sandbox, 'http-get', 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList')).then((response) => {
      answered = true;
      return response;
    });
    const state = await inspect<{ accounts: unknown[] }>(sandbox, 'state');
    expect(state.status).toBe(200);
    expect(answered).toBe(false);
    sandbox.setFaults({});
    expect((await slow).status).toBe(200);
  });
});

describe('faults limited to some operations', () => {
  it('leaves the other operations alone, for every mode and for latency', async () => {
    sandbox.setFaults({ failureRate: 1, latencyMs: 5_000, operations: ['EusReprocessAPI'] });
    const started = performance.now();
    const list = await call(sandbox, 'soap11', 'GetRenderingQualityList', validFields(sandbox, 'GetRenderingQualityList'));
    const site = await call(sandbox, 'http-post', 'SitesAPI', createSite(sandbox, 'Unfaulted'));
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(list.status).toBe(200);
    expect(site.status).toBe(200);
    expect(sitesNamed(sandbox, 'Unfaulted')).toBe(1);
  });

  it('faults the named operation', async () => {
    sandbox.setFaults({ proxy503Rate: 1, operations: ['SitesAPI'] });
    expect((await call(sandbox, 'http-get', 'SitesAPI', createSite(sandbox, 'Faulted'))).status).toBe(503);
    expect((await call(sandbox, 'http-get', 'EusReprocessAPI', validFields(sandbox, 'EusReprocessAPI'))).status).toBe(200);
  });
});

describe('fault rates drawn from the injected random source', () => {
  let seeded: RunningSandbox;
  let draws: number[] = [];

  beforeAll(async () => {
    seeded = await startSandbox({ port: 0, seed: 'demo', random: () => draws.shift() ?? 0.99 });
  });
  afterAll(async () => {
    await seeded?.close();
  });

  it('fails a call when the draw is under the rate and serves it when it is not', async () => {
    seeded.setFaults({ failureRate: 0.5 });
    draws = [0.49, 0.5];
    const fields = validFields(seeded, 'GetRenderingQualityList');
    expect((await call(seeded, 'http-get', 'GetRenderingQualityList', fields)).status).toBe(500);
    expect((await call(seeded, 'http-get', 'GetRenderingQualityList', fields)).status).toBe(200);
  });

  it('draws once per configured mode in a fixed order: hang, proxy503, failure, applyThenDrop', async () => {
    seeded.setFaults({ hangRate: 0.1, proxy503Rate: 0.1, failureRate: 0.1, applyThenDropRate: 0.1 });
    // Misses hang, proxy503 and failure, hits applyThenDrop.
    draws = [0.9, 0.9, 0.9, 0.05];
    await expect(call(seeded, 'http-get', 'SitesAPI', createSite(seeded, 'Fourth draw'))).rejects.toThrow();
    expect(sitesNamed(seeded, 'Fourth draw')).toBe(1);
    // Misses hang, hits proxy503.
    draws = [0.9, 0.05];
    expect((await call(seeded, 'http-get', 'SitesAPI', createSite(seeded, 'Second draw'))).status).toBe(503);
    expect(sitesNamed(seeded, 'Second draw')).toBe(0);
  });
});

describe('a hung call at close', () => {
  it('is ended by close(), which does not wait for it', async () => {
    const closing = await startSandbox({ port: 0, seed: 'demo', faults: { hangRate: 1 } });
    const hung = call(closing, 'soap12', 'GetRenderingQualityList', validFields(closing, 'GetRenderingQualityList'), { timeoutMs: 15_000 }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    // The call reaches the sandbox and is logged as hung before close.
    await vi.waitFor(() => expect(closing.snapshot().calls.at(-1)).toMatchObject({ outcome: 'hang' }), { timeout: 10_000, interval: 10 });
    const started = performance.now();
    await closing.close();
    expect(await hung).not.toBe('answered');
    expect(await hung).not.toBe('no answer');
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('/_sandbox/ under faults', () => {
  it('answers its endpoints, the WSDL and the help page while every service call hangs', async () => {
    sandbox.setFaults({ hangRate: 1, latencyMs: 5_000 });
    for (const path of ['state', 'calls', 'faults', 'mail', 'pushes', 'accounts/10001']) {
      expect((await inspect(sandbox, path)).status, path).toBe(200);
    }
    const wsdl = await send(sandbox.url, { method: 'GET', path: `${sandbox.servicePath}?WSDL`, timeoutMs: 3_000 });
    expect(wsdl.status).toBe(200);
    const help = await send(sandbox.url, { method: 'GET', path: sandbox.servicePath, timeoutMs: 3_000 });
    expect(help.status).toBe(200);
    expect(help.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('puts the proxy 503 in front of the WSDL and help page too, unless the fault is limited to some operations', async () => {
    sandbox.setFaults({ proxy503Rate: 1 });
    const wsdl = await send(sandbox.url, { method: 'GET', path: `${sandbox.servicePath}?WSDL`, timeoutMs: 3_000 });
    expect(wsdl.status).toBe(503);
    expect(wsdl.body).toMatch(/503 Service Temporarily Unavailable/);
    expect((await send(sandbox.url, { method: 'GET', path: sandbox.servicePath, timeoutMs: 3_000 })).status).toBe(503);
    sandbox.setFaults({ proxy503Rate: 1, operations: ['SitesAPI'] });
    expect((await send(sandbox.url, { method: 'GET', path: `${sandbox.servicePath}?WSDL`, timeoutMs: 3_000 })).status).toBe(200);
    sandbox.setFaults({});
    expect((await send(sandbox.url, { method: 'GET', path: `${sandbox.servicePath}?WSDL`, timeoutMs: 3_000 })).status).toBe(200);
  });

  it('sets and clears faults over PUT /_sandbox/faults, which replaces the whole configuration', async () => {
    const set = await inspect(sandbox, 'faults', { method: 'PUT', body: { proxy503Rate: 1, operations: ['SitesAPI'] } });
    expect(set).toEqual({ status: 200, json: { proxy503Rate: 1, operations: ['SitesAPI'] } });
    expect((await call(sandbox, 'http-get', 'SitesAPI', createSite(sandbox, 'Via PUT'))).status).toBe(503);
    expect((await inspect(sandbox, 'faults', { method: 'PUT', body: { latencyMs: 0 } })).json).toEqual({ latencyMs: 0 });
    expect((await call(sandbox, 'http-get', 'SitesAPI', createSite(sandbox, 'Via PUT'))).status).toBe(200);
  });

  it.each([
    [{ failureRate: 2 }, /failureRate/],
    [{ failurerate: 1 }, /failurerate/],
    [{ operations: ['DeleteEverything'] }, /operations/],
  ])('refuses the fault configuration %j with 400 and keeps the previous one', async (body, message) => {
    sandbox.setFaults({ latencyMs: 1 });
    const refused = await inspect<{ error: string }>(sandbox, 'faults', { method: 'PUT', body });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(message);
    expect((await inspect(sandbox, 'faults')).json).toEqual({ latencyMs: 1 });
  });
});
