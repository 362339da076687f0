// Pooled keep-alive connections judged by the clock at the moment a request is written. undici's
// idle timers count the time the event loop ran, not the time that passed (its coarse timer adds a
// fixed step per tick), so after a long synchronous stretch — a 50,000-site save, a busy preview —
// a connection the server has dropped, or is dropping that very moment, still looks alive, and a
// request written to it fails as "other side closed" or a reset: for a create, an ambiguous result
// sent to review though the server never read it. The guard refuses to write a request to a reused
// connection idle for longer than the keep-alive time allows: it closes the connection and fails
// the request before a byte of it is written (StaleConnectionError, provably not sent), and the
// transport sends it again on another connection. A connection that fails after the request was
// written stays ambiguous: the request may have been read.
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

/**
 * How long an idle connection is kept. IIS keeps one for 120 s and says nothing; Node servers (the
 * sandbox) say `Keep-Alive: timeout=5`. Without a hint a connection is dropped after 4 s, well
 * inside both; with one, `marginMs` before the server's own limit (for the time the answer took to
 * arrive and the timers' coarseness), and never after `maxMs`. The pool's own timers get the same
 * numbers, so both agree on when a connection is too old.
 */
export const KEEP_ALIVE = { defaultMs: 4_000, marginMs: 2_000, maxMs: 60_000 } as const;

/** A request refused on a connection idle past its keep-alive time: nothing of it was written. */
export class StaleConnectionError extends Error {
  /** network-errors.ts reads this code as 'not sent'. */
  readonly code = 'SITEWALK_STALE_CONNECTION';
  constructor(origin: string, idleMs: number, limitMs: number) {
    super(`the connection to ${origin} had been idle for ${Math.round(idleMs)} ms (at most ${limitMs} ms are trusted); it was closed before the request was written`);
    this.name = 'StaleConnectionError';
  }
}

/** How long a connection may idle, from the server's `Keep-Alive` header (undici's own rule). */
export function keepAliveLimitMs(header: string | null | undefined): number {
  const hint = header ? /timeout=(\d+)/.exec(header) : null;
  if (!hint) return KEEP_ALIVE.defaultMs;
  return Math.min(Number(hint[1]) * 1000 - KEEP_ALIVE.marginMs, KEEP_ALIVE.maxMs);
}

type Connector = buildConnector.connector;

export interface IdleGuard {
  /** undici's `connect` option: the default connector, with each socket guarded. */
  readonly connect: Connector;
  /** The server's Keep-Alive header on an answer from `origin` (absent: the default limit). */
  noteAnswer(origin: string, keepAlive: string | null | undefined): void;
}

/** Origins whose limit is known: a handful per profile, bounded all the same. */
const MAX_ORIGINS = 256;

/** `now` is a monotonic clock in milliseconds (tests pass their own). */
export function createIdleGuard(now: () => number): IdleGuard {
  const limits = new Map<string, number>();
  const connectDefault = buildConnector({});

  function guard(socket: Socket, origin: string): void {
    let lastActive = now();
    let used = false;
    // Something arrived: the server's idle time starts once its answer has been sent.
    socket.on('readable', () => {
      lastActive = now();
    });
    const write = socket.write;
    // undici writes a request (head, then body) to the socket in one synchronous stretch, so the
    // first write of a request is the last moment it can still be taken back untouched.
    socket.write = function guardedWrite(this: Socket, ...args: Parameters<Socket['write']>): boolean {
      const at = now();
      const idle = at - lastActive;
      const limit = limits.get(origin) ?? KEEP_ALIVE.defaultMs;
      if (used && idle > limit) {
        socket.destroy();
        throw new StaleConnectionError(origin, idle, limit);
      }
      used = true;
      lastActive = at;
      return write.apply(this, args);
    } as Socket['write'];
  }

  const connect: Connector = (options, callback) =>
    connectDefault(options, (...result) => {
      // The pool is addressed by origin: undici hands its URL's protocol and host (port included).
      if (result[0] === null) guard(result[1], `${options.protocol}//${options.host ?? options.hostname}`);
      callback(...result);
    });

  return {
    connect,
    noteAnswer(origin, keepAlive) {
      const limit = keepAliveLimitMs(keepAlive);
      if (limits.get(origin) === limit) return;
      if (limits.size >= MAX_ORIGINS) limits.clear();
      limits.set(origin, limit);
    },
  };
}
