// Receivers for the GPS tests: the recorded walk (test/fixtures/gps) replayed over a plain TCP socket
// as an NMEA stream, a server that accepts and says nothing, and Debian's real gpsd fed the same log
// by gpsfake. Without gpsfake the gpsd tests skip and say why; under CI that is a failure (the CI
// script installs gpsd and gpsd-clients, so a missing one is a broken install, never a green run).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { GpsReader, type GpsReaderOptions, type GpsReaderView } from '../../electron/core/gps/reader';

export const WALK_LOG = fileURLToPath(new URL('../fixtures/gps/walk-bozeman-hill.nmea', import.meta.url));
/** The log's sentences, one per line without the CR LF. */
export const WALK_SENTENCES = readFileSync(WALK_LOG, 'latin1').split('\r\n').filter(Boolean);
/** The log's first fix and its last (README.md next to it). */
export const WALK_FIRST = { lat: 45.630009, lon: -111.0249865 };
export const WALK_LAST = { lat: 45.6304392, lon: -111.024402 };

export interface TestServer {
  port: number;
  /** Sockets open now. */
  connections(): number;
  close(): Promise<void>;
}

/** Serves `server` on a loopback port (or `port`), and closes it and every open socket on close(). */
async function serve(server: Server, port = 0): Promise<TestServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    connections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An NMEA stream: each connection gets `sentences` (the walk by default), `perEpoch` sentences every
 * `epochMs`, looping when `loop` (a receiver never stops talking).
 */
export function nmeaStream(options: { sentences?: readonly string[]; epochMs?: number; loop?: boolean; port?: number } = {}): Promise<TestServer> {
  const sentences = options.sentences ?? WALK_SENTENCES;
  const epochMs = options.epochMs ?? 20;
  const server = createServer((socket) => {
    let at = 0;
    const timer = setInterval(() => {
      // One epoch: everything up to and including the next GSV page that ends it (or the next RMC).
      let chunk = '';
      do {
        chunk += `${sentences[at]!}\r\n`;
        at++;
        if (at >= sentences.length) {
          if (!options.loop) break;
          at = 0;
        }
      } while (!sentences[at]!.slice(3, 6).startsWith('RMC'));
      socket.write(chunk);
      if (at >= sentences.length) clearInterval(timer);
    }, epochMs);
    socket.on('close', () => clearInterval(timer));
  });
  return serve(server, options.port);
}

/** A server that accepts connections and sends nothing (a receiver unplugged behind a serial bridge). */
export function silentServer(): Promise<TestServer> {
  return serve(createServer(() => undefined));
}

/** A server that sends whatever `write` writes to each connection. */
export function rawServer(write: (socket: Socket) => void, port = 0): Promise<TestServer> {
  return serve(createServer(write), port);
}

/** Why gpsd cannot be tested here, or null: both gpsd and gpsfake must be installed. */
export const GPSFAKE_SKIP_REASON: string | null = (() => {
  const missing = ['gpsd', 'gpsfake'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  return missing.length === 0 ? null : `${missing.join(' and ')} not installed (apt-get install gpsd gpsd-clients)`;
})();

export interface Gpsfake {
  port: number;
  output(): string;
  /** Stops and resumes gpsfake alone (SIGSTOP/SIGCONT): gpsd stays up, its receiver falls silent. */
  pause(): void;
  resume(): void;
  /** Ends gpsfake and the gpsd it started (the whole process group); safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Debian's gpsd on `port`, fed `log` by gpsfake through a pseudo-terminal once a client connects
 * (gpsfake waits for one), one sentence every `cycle` seconds, the log looping unless `once`.
 * Its own process group, so stop() ends gpsd with it even when a test failed half-way.
 */
export function startGpsfake(port: number, options: { log?: string; cycle?: number; once?: boolean } = {}): Gpsfake {
  const args = ['-q', '-P', String(port), '-c', String(options.cycle ?? 0.02), ...(options.once ? ['-1'] : []), options.log ?? WALK_LOG];
  const child: ChildProcess = spawn('gpsfake', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').catch(() => undefined);
  let stopping: Promise<void> | null = null;
  return {
    port,
    output: () => output,
    pause: () => child.pid && process.kill(child.pid, 'SIGSTOP'),
    resume: () => child.pid && process.kill(child.pid, 'SIGCONT'),
    stop: () =>
      (stopping ??= (async () => {
        const group = (signal: NodeJS.Signals) => {
          try {
            if (child.pid) process.kill(-child.pid, signal);
          } catch {
            // The group is gone already.
          }
        };
        // gpsfake tidies its pty and control socket on SIGTERM; it does not always exit, so SIGKILL follows.
        group('SIGCONT');
        group('SIGTERM');
        const timer = setTimeout(() => group('SIGKILL'), 1_000);
        if (child.exitCode === null && child.signalCode === null) await exited;
        clearTimeout(timer);
        group('SIGKILL');
        // gpsfake leaves its control socket behind when it is signalled rather than done.
        if (child.pid) for (const dir of new Set([tmpdir(), '/tmp'])) await rm(join(dir, `gpsfake-${child.pid}.sock`), { force: true });
      })()),
  };
}

/** Every view a reader emitted, with the time it came. */
export function recorder(): { views: Array<GpsReaderView & { at: number }>; onView: (view: GpsReaderView) => void; last(): GpsReaderView | undefined } {
  const views: Array<GpsReaderView & { at: number }> = [];
  return { views, onView: (view) => views.push({ ...view, at: Date.now() }), last: () => views.at(-1) };
}

/** Debian's gpsd on `port` with no device at all (as after `gpsdctl remove`, or started before the receiver was plugged in). */
export function startBareGpsd(port: number): { stop(): Promise<void> } {
  // gpsd will not run with neither a device nor a control socket: give it a socket of its own.
  const control = join(tmpdir(), `sitewalk-gpsd-${port}.sock`);
  const child = spawn('gpsd', ['-N', '-n', '-S', String(port), '-F', control], { stdio: 'ignore' });
  const exited = once(child, 'exit').catch(() => undefined);
  return {
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(control, { force: true });
    },
  };
}

type ReaderOptions = Pick<GpsReaderOptions, 'source' | 'port'> & Partial<GpsReaderOptions>;

/**
 * Call at a test file's top level. `reader` starts a GpsReader with short timings (so a test takes a
 * few seconds) on top of `defaults`, recording its views; it and everything pushed on `cleanups` is
 * undone after each test, last first.
 */
export function readersForEachTest(defaults: Partial<GpsReaderOptions> = {}): {
  cleanups: Array<() => unknown>;
  reader(options: ReaderOptions): { reader: GpsReader } & ReturnType<typeof recorder>;
} {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const undo of cleanups.splice(0).reverse()) await undo();
  });
  return {
    cleanups,
    reader(options) {
      const rec = recorder();
      const r = new GpsReader({ host: '127.0.0.1', silentMs: 1_000, retryMinMs: 50, retryMaxMs: 300, ...defaults, ...options, onView: rec.onView });
      cleanups.push(() => r.close());
      r.start();
      return { reader: r, ...rec };
    },
  };
}
