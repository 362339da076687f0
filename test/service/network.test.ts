// Whether a failed request may have reached the service, told apart on real loopback sockets:
// a refused port (never sent), a server that reads the request and drops the connection (maybe),
// a reset, an idle keep-alive socket the server closed, a server that never answers (timeout),
// and a caller who cancels. Name-resolution and Electron net.fetch failures go through an injected
// fetch that fails the way those transports do (no traffic leaves the machine).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../electron/core/service/client';
import { mayHaveBeenApplied, type Binding, type CallError, type CallResult, type FetchLike } from '../../electron/core/service/types';
import { reply, startRawServer, type RawReply, type RawServer } from './helpers/raw-server';

const connectionTo = (baseUrl: string, binding: Binding = 'http-post') => ({ baseUrl, servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', binding });
const credentials = () => ({ account: '10001', key: 'net-test-key' });
const create = { name: 'Hill', height: 20, latitude: 1, longitude: 2 };

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let server: RawServer;
let behaviour: () => RawReply;

beforeAll(async () => {
  server = await startRawServer(() => behaviour());
});
afterAll(async () => {
  await server.close();
});

describe('connection failures', () => {
  it('reports a refused connection as not sent, retryable, never applied', async () => {
    const port = await closedPort();
    const client = createServiceClient({ connection: connectionTo(`http://127.0.0.1:${port}`), credentials });
    const error = failure(await client.saveSite(create));
    expect(error).toMatchObject({ kind: 'network', sent: 'no', code: 'ECONNREFUSED', retryable: true });
    expect(error.message).toMatch(/refused the connection.*Nothing was sent/);
    expect(mayHaveBeenApplied(error)).toBe(false);
  });

  it('reports a connection dropped after the request was read as possibly applied', async () => {
    behaviour = () => ({ drop: true });
    const client = createServiceClient({ connection: connectionTo(server.url, 'soap11'), credentials });
    const error = failure(await client.saveSite(create));
    expect(error).toMatchObject({ kind: 'network', sent: 'maybe', retryable: true });
    expect(mayHaveBeenApplied(error)).toBe(true);
  });

  it('reports a TCP reset after the request as possibly applied', async () => {
    const resetter = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = resetter.address() as net.AddressInfo;
      const client = createServiceClient({ connection: connectionTo(`http://127.0.0.1:${port}`, 'http-get'), credentials });
      const error = failure(await client.listRenderingQualities());
      expect(error).toMatchObject({ kind: 'network', sent: 'maybe' });
      expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(error.kind === 'network' && error.code);
    } finally {
      await new Promise<void>((resolve) => resetter.close(() => resolve()));
    }
  });

  it('treats a pooled keep-alive socket closed by the server as possibly applied (it cannot be told apart)', async () => {
    // First answer keeps the socket open; the server then closes it silently the moment the next
    // request arrives on it — what a server whose idle timeout fires mid-request does.
    let served = 0;
    const sockets = new Set<net.Socket>();
    const keepAlive = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => {
        served += 1;
        if (served === 1) {
          const body = '<?xml version="1.0"?><string xmlns="http://tempuri.org/">Site 9 updated.</string>';
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${body.length}\r\nKeep-Alive: timeout=60\r\n\r\n${body}`);
        } else {
          socket.destroy();
        }
      });
    });
    await new Promise<void>((resolve) => keepAlive.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = keepAlive.address() as net.AddressInfo;
      const client = createServiceClient({ connection: connectionTo(`http://127.0.0.1:${port}`), credentials });
      expect((await client.saveSite({ siteId: '9', height: 10 })).ok).toBe(true);
      const error = failure(await client.saveSite({ siteId: '9', height: 11 }));
      expect(error).toMatchObject({ kind: 'network', sent: 'maybe' });
      expect(error.detail).toContain('possibly received');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => keepAlive.close(() => resolve()));
    }
  });
});

describe('time limits and cancellation', () => {
  it('gives up after the per-call time limit and says the request may have been applied', async () => {
    behaviour = () => ({ hang: true });
    const client = createServiceClient({ connection: connectionTo(server.url, 'soap12'), credentials, timeoutMs: 10_000 });
    const error = failure(await client.saveSite(create, { timeoutMs: 300 }));
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 300, retryable: true });
    expect(mayHaveBeenApplied(error)).toBe(true);
  });

  it('reports a cancel while waiting for the answer as possibly applied', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    behaviour = () => {
      arrived();
      return { hang: true };
    };
    const client = createServiceClient({ connection: connectionTo(server.url), credentials });
    const controller = new AbortController();
    const pending = client.reprocessEus({ processId: 'P-1', multiMapId: '1', sendEmail: true }, { signal: controller.signal });
    await requestArrived;
    controller.abort();
    const error = failure(await pending);
    expect(error).toMatchObject({ kind: 'network', sent: 'maybe', code: 'ABORTED' });
  });

  it('answers normally when the answer comes within the limit', async () => {
    behaviour = () => reply(200, 'text/xml; charset=utf-8', '<string xmlns="http://tempuri.org/">Site 3 updated.</string>');
    const client = createServiceClient({ connection: connectionTo(server.url), credentials, timeoutMs: 10_000 });
    expect(await client.saveSite({ siteId: '3', height: 3 })).toMatchObject({ ok: true, value: { siteId: '3' } });
  });
});

describe('transports that fail without a socket', () => {
  const failingWith = (error: unknown): FetchLike => async () => {
    throw error;
  };
  const nodeError = (code: string, message: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(message), { code }) });

  it('reports an unknown host name as not sent', async () => {
    const client = createServiceClient({
      connection: connectionTo('https://api.towercoverage.example'),
      credentials,
      fetch: failingWith(nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.towercoverage.example')),
    });
    const error = failure(await client.listRenderingQualities());
    expect(error).toMatchObject({ kind: 'network', sent: 'no', code: 'ENOTFOUND', retryable: true });
    expect(error.message).toContain('api.towercoverage.example could not be found');
  });

  it('reads Electron net.fetch codes from the message', async () => {
    const refused = createServiceClient({ connection: connectionTo('https://h.example'), credentials, fetch: failingWith(new Error('net::ERR_CONNECTION_REFUSED')) });
    const reset = createServiceClient({ connection: connectionTo('https://h.example'), credentials, fetch: failingWith(new Error('net::ERR_CONNECTION_RESET')) });
    const offline = createServiceClient({ connection: connectionTo('https://h.example'), credentials, fetch: failingWith(new Error('net::ERR_INTERNET_DISCONNECTED')) });
    expect(failure(await refused.listRenderingQualities())).toMatchObject({ kind: 'network', sent: 'no', code: 'net::ERR_CONNECTION_REFUSED' });
    expect(failure(await reset.listRenderingQualities())).toMatchObject({ kind: 'network', sent: 'maybe', code: 'net::ERR_CONNECTION_RESET' });
    expect(failure(await offline.listRenderingQualities())).toMatchObject({ kind: 'network', sent: 'no' });
  });

  it('does not retry a certificate failure, which no retry can fix', async () => {
    const client = createServiceClient({
      connection: connectionTo('https://h.example'),
      credentials,
      fetch: failingWith(nodeError('CERT_HAS_EXPIRED', 'certificate has expired')),
    });
    expect(failure(await client.listRenderingQualities())).toMatchObject({ kind: 'network', sent: 'no', retryable: false });
  });

  it('treats an unrecognised transport failure as possibly sent', async () => {
    const client = createServiceClient({ connection: connectionTo('https://h.example'), credentials, fetch: failingWith('something odd') });
    expect(failure(await client.saveSite(create))).toMatchObject({ kind: 'network', sent: 'maybe', code: 'UNKNOWN' });
  });
});
