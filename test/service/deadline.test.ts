// The per-call time limit is a deadline for the whole call — connection, headers and every byte of
// the body — kept by one shared timer (electron/core/service/deadline.ts) rather than a timer and an
// AbortController per call: a body trickled in forever is cut at the deadline, calls with different
// limits each end at their own, a transport without undici's timers (Electron's net.fetch) still gets
// an AbortSignal that fires, and nothing is left watched once the calls are over.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../electron/core/service/client';
import { watchedCount } from '../../electron/core/service/deadline';
import type { Binding, CallError, CallResult, Transport } from '../../electron/core/service/types';

const credentials = () => ({ account: '10001', key: 'deadline-test-key' });
const connectionTo = (baseUrl: string, binding: Binding = 'http-post') => ({ baseUrl, servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', binding });

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A loopback server that answers every request with `onRequest(socket)`. */
async function serve(onRequest: (socket: net.Socket) => void): Promise<string> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => onRequest(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('the time limit of a call', () => {
  it('cuts an answer whose body keeps trickling in past the deadline, though no gap between bytes is long', async () => {
    const url = await serve((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 100000\r\n\r\n<string xmlns="http://tempuri.org/">');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('x')), 40);
      socket.on('close', () => clearInterval(drip));
    });
    const client = createServiceClient({ connection: connectionTo(url), credentials });
    const started = performance.now();
    const error = failure(await client.saveSite({ siteId: '5', height: 10 }, { timeoutMs: 500 }));
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 500, retryable: true });
    expect(elapsed).toBeGreaterThanOrEqual(480);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('ends calls with different limits each at its own deadline', async () => {
    const url = await serve(() => {});
    const client = createServiceClient({ connection: connectionTo(url, 'soap11'), credentials, timeoutMs: 30_000 });
    const started = performance.now();
    const ended = (result: Promise<CallResult<unknown>>) => result.then((outcome) => ({ outcome, at: performance.now() - started }));
    const [long, short, middle] = await Promise.all([
      ended(client.listRenderingQualities({ timeoutMs: 900 })),
      ended(client.listRenderingQualities({ timeoutMs: 200 })),
      ended(client.listRenderingQualities({ timeoutMs: 500 })),
    ]);
    expect(failure(short.outcome)).toMatchObject({ kind: 'timeout', timeoutMs: 200 });
    expect(failure(middle.outcome)).toMatchObject({ kind: 'timeout', timeoutMs: 500 });
    expect(failure(long.outcome)).toMatchObject({ kind: 'timeout', timeoutMs: 900 });
    expect(short.at).toBeLessThan(middle.at);
    expect(middle.at).toBeLessThan(long.at);
    expect(short.at).toBeLessThan(450);
    expect(long.at).toBeGreaterThanOrEqual(880);
    expect(watchedCount()).toBe(0);
  });

  it('leaves nothing watched after calls that answered in time', async () => {
    const body = '<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">Site 3 updated.</string>';
    const url = await serve((socket) => socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`));
    const client = createServiceClient({ connection: connectionTo(url), credentials });
    const results = await Promise.all([1, 2, 3].map(() => client.saveSite({ siteId: '3', height: 3 })));
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    expect(watchedCount()).toBe(0);
  });

  it('gives a fetch-like transport a real AbortSignal that fires at the deadline', async () => {
    let seen: unknown;
    const hanging: Transport = (_url, init) =>
      new Promise((_resolve, reject) => {
        seen = init.signal;
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const client = createServiceClient({ connection: connectionTo('http://service.example'), credentials, fetch: hanging });
    const error = failure(await client.reprocessEus({ processId: 'P-1', multiMapId: '1', sendEmail: false }, { timeoutMs: 150 }));
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 150 });
  });
});
