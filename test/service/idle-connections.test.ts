// Keep-alive connections a server drops, on real loopback sockets. A create written to a connection
// the server is closing is ambiguous and goes to review; one that never left must not. The server is
// our own and hostile: it closes idle connections without a word — when told to, or, on the test's
// clock, when a request arrives on a connection idle past its time (its idle timer fired as the
// request came in: what a long synchronous stretch in the client makes likely). It answers with a
// Keep-Alive hint or none, and can close right after reading a request. No test waits for time to
// pass: the transport and the server share a manual clock, and the server's closes are its events.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, DEFAULT_RETRY } from '../../electron/core/outbox/policy';
import type { OutboxEntry } from '../../electron/core/outbox/types';
import { createServiceClient } from '../../electron/core/service/client';
import { StaleConnectionError } from '../../electron/core/service/idle-connections';
import { networkError } from '../../electron/core/service/network-errors';
import { createNodeTransport, type ClosableTransport } from '../../electron/core/service/node-transport';
import { mayHaveBeenApplied, type CallResult } from '../../electron/core/service/types';
import { create } from '../core/outbox-harness';

interface Served {
  /** Which connection carried it, numbered from 1 in the order the server accepted them. */
  connection: number;
  body: string;
}

interface IdleCloser {
  url: string;
  /** Every request read in full. */
  served: Served[];
  /** Requests that arrived on a connection past its idle time and were dropped unread. */
  droppedUnread: number;
  /** Closes every idle connection without notice; resolves once the server has seen them closed. */
  dropIdle(): Promise<void>;
  close(): Promise<void>;
}

interface IdleCloserOptions {
  now: () => number;
  /** An idle connection older than this (on `now`) when a request arrives is dropped unread. */
  idleCloseMs: number;
  /** The `Keep-Alive` header of each answer; none when absent (as IIS). */
  keepAlive?: string;
  /** Close right after reading this request (1-based), before answering. */
  closeAfterReading?: number;
}

async function startIdleCloser(options: IdleCloserOptions): Promise<IdleCloser> {
  const served: Served[] = [];
  const idle = new Map<net.Socket, number>();
  const open = new Set<net.Socket>();
  let connections = 0;
  let droppedUnread = 0;
  let siteIds = 500;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      idle.delete(socket);
    });
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      const idleSince = idle.get(socket);
      if (buffered === '' && idleSince !== undefined && options.now() - idleSince > options.idleCloseMs) {
        droppedUnread += 1;
        socket.destroy();
        return;
      }
      idle.delete(socket);
      buffered += chunk.toString('latin1');
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buffered.slice(0, headEnd))?.[1] ?? 0);
      if (buffered.length < headEnd + 4 + length) return;
      served.push({ connection, body: buffered.slice(headEnd + 4, headEnd + 4 + length) });
      buffered = '';
      if (served.length === options.closeAfterReading) {
        socket.destroy();
        return;
      }
      const body = `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="http://tempuri.org/">Site ${siteIds++} created.</string>`;
      const keepAlive = options.keepAlive ? `Keep-Alive: ${options.keepAlive}\r\n` : '';
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${keepAlive}\r\n${body}`);
      idle.set(socket, options.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const closeAll = (sockets: Iterable<net.Socket>) =>
    Promise.all([...sockets].map((socket) => new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    })));
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    get droppedUnread() {
      return droppedUnread;
    },
    dropIdle: async () => {
      await closeAll(idle.keys());
    },
    close: async () => {
      await closeAll(open);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The clock the transport and the server share; only the test moves it. */
function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setUp(options: Omit<IdleCloserOptions, 'now'>) {
  const clock = manualClock();
  const server = await startIdleCloser({ ...options, now: clock.now });
  const transport: ClosableTransport = createNodeTransport({ now: clock.now, connections: 1 });
  cleanups.push(() => transport.close(), () => server.close());
  const client = createServiceClient({
    connection: { baseUrl: server.url, servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', binding: 'http-post' },
    credentials: () => ({ account: '10001', key: 'idle-test-key' }),
    fetch: transport,
  });
  const createSite = (name: string) => client.saveSite({ name, height: 20, latitude: 45, longitude: -93 });
  return { clock, server, createSite };
}

function siteIdOf(result: CallResult<{ siteId: string | null }>): string | null {
  if (!result.ok) throw new Error(`expected the create to succeed: ${result.error.message} (${result.error.detail})`);
  return result.value.siteId;
}

/** Which connection each request the server read came on. */
const connectionsOf = (server: IdleCloser) => server.served.map((served) => served.connection);

describe('a create after a long pause', () => {
  it('goes on a new connection when the one it would reuse is past its keep-alive time by the clock, and is applied once', async () => {
    const { clock, server, createSite } = await setUp({ idleCloseMs: 5_000, keepAlive: 'timeout=5' });
    expect(siteIdOf(await createSite('Before the pause'))).toBe('500');
    // A long synchronous stretch: the pool's own timers did not run, the clock moved on.
    clock.advance(10_000);
    expect(siteIdOf(await createSite('After the pause'))).toBe('501');
    expect(server.droppedUnread).toBe(0);
    expect(connectionsOf(server)).toEqual([1, 2]);
    expect(server.served[1]!.body).toContain('Sitename=After%20the%20pause');
  });

  it("honours the server's Keep-Alive hint less a margin: reused within it, retired before the server would drop it", async () => {
    const { clock, server, createSite } = await setUp({ idleCloseMs: 60_000, keepAlive: 'timeout=60' });
    siteIdOf(await createSite('First'));
    clock.advance(30_000);
    siteIdOf(await createSite('Half a minute later'));
    clock.advance(59_000);
    siteIdOf(await createSite('A second before the server would drop it'));
    expect(connectionsOf(server)).toEqual([1, 1, 2]);
    expect(server.droppedUnread).toBe(0);
  });

  it('without a hint (as IIS, which keeps a connection 120 s) reuses a connection for 4 s at most', async () => {
    const { clock, server, createSite } = await setUp({ idleCloseMs: 120_000 });
    siteIdOf(await createSite('First'));
    clock.advance(3_000);
    siteIdOf(await createSite('Three seconds later'));
    clock.advance(4_500);
    siteIdOf(await createSite('Four and a half seconds later'));
    expect(connectionsOf(server)).toEqual([1, 1, 2]);
  });

  it('goes on a new connection when the server closed the idle one without notice just before', async () => {
    const { server, createSite } = await setUp({ idleCloseMs: 60_000 });
    siteIdOf(await createSite('First'));
    await server.dropIdle();
    // Sent as soon as the server's side is closed, before the client has had a turn to read the close.
    expect(siteIdOf(await createSite('Right after the close'))).toBe('501');
    expect(connectionsOf(server)).toEqual([1, 2]);
    expect(server.droppedUnread).toBe(0);
  });
});

describe('a connection closed after the request was read', () => {
  it('leaves the create possibly applied, so it waits for review and is not sent again', async () => {
    const { server, createSite } = await setUp({ idleCloseMs: 60_000, closeAfterReading: 2 });
    siteIdOf(await createSite('First'));
    const result = await createSite('Read, then the connection closed');
    if (result.ok) throw new Error('expected the create to fail');
    expect(result.error).toMatchObject({ kind: 'network', sent: 'maybe' });
    expect(mayHaveBeenApplied(result.error)).toBe(true);
    expect(connectionsOf(server)).toEqual([1, 1]);
    const entry = { ...create('local-read'), id: 'o1', seq: 1, state: 'sending', attempts: 1, createdAt: 0, updatedAt: 0, nextAttemptAt: null, result: null, problem: null, resultSiteId: null } as OutboxEntry;
    expect(decide(entry, result.error, DEFAULT_RETRY).state).toBe('needs-review');
  });
});

describe('a request refused on a stale connection', () => {
  it('is reported as never sent, so even a create may be sent again', () => {
    const error = networkError(new StaleConnectionError('http://127.0.0.1:1', 9_000, 4_000), 'http://127.0.0.1:1/towercoverage.asmx/SitesAPI', '127.0.0.1:1');
    expect(error).toMatchObject({ kind: 'network', sent: 'no', code: 'SITEWALK_STALE_CONNECTION', retryable: true });
    expect(error.message).toMatch(/closed before the request was written\. Nothing was sent\./);
    expect(mayHaveBeenApplied(error)).toBe(false);
  });
});
