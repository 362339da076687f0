// MBTiles reads in a process of their own (mbtiles-child.ts), each held to a deadline: a file made to
// make SQLite work without end (a `tiles` view that is a recursive CTE) cannot block the host, whose
// thread only waits for an answer. Past the deadline the process is killed (SIGKILL reaches a query
// that neither better-sqlite3 nor a worker thread's terminate() can stop) and the read fails with a
// TileFileLimitError, so the basemap is turned off with its sentence as for any broken limit.
// Electron's main process reads in its own thread as before: its fuses forbid running the app as
// Node (what fork needs), and the core may not import Electron's utilityProcess.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TileCoords } from './coords';
import { TileFileLimitError } from './limits';
import { openMbtilesReader } from './mbtiles-reader';
import type { MbtilesAnswer, MbtilesCall, MbtilesRequest } from './mbtiles-child';

/** One read (opening included); a well-made file answers in milliseconds. */
export const MBTILES_READ_DEADLINE_MS = 5000;
/** Starting the reader's process (Node and its loader) on a busy machine. */
const START_LIMIT_MS = 30_000;

/** The browser host and the CLI run from source (tsx). */
const SOURCE = new URL('./mbtiles-child.ts', import.meta.url);

export interface AsyncMbtilesReader {
  tables: Set<string>;
  metadata: Map<string, string>;
  anyTile(): Promise<Buffer | null>;
  zoomRange(): Promise<{ min: number; max: number }>;
  tile(coords: TileCoords): Promise<Buffer | null>;
  close(): Promise<void>;
}

function startChild(): ChildProcess | null {
  const options = { serialization: 'advanced' as const, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] as ('ignore' | 'ipc')[] };
  if (process.versions.electron) return null;
  if (SOURCE.protocol === 'file:' && existsSync(fileURLToPath(SOURCE))) {
    // The loader the browser host and the CLI run under, found from here (not from the working folder).
    return fork(fileURLToPath(SOURCE), [], { ...options, execArgv: ['--import', import.meta.resolve('tsx')] });
  }
  return null;
}

/** Opens the file in a reader process, or in this thread where none can start. Throws as openMbtilesReader does. */
export async function openMbtiles(path: string, shown: string, deadlineMs = MBTILES_READ_DEADLINE_MS): Promise<AsyncMbtilesReader> {
  const child = startChild();
  if (!child) {
    const reader = openMbtilesReader(path, shown);
    return { tables: reader.tables, metadata: reader.metadata, anyTile: async () => reader.anyTile(), zoomRange: async () => reader.zoomRange(), tile: async (coords) => reader.tile(coords), close: async () => reader.close() };
  }
  const remote = new RemoteReader(child, shown, deadlineMs);
  try {
    const opened = (await remote.call({ op: 'open', path, shown }, START_LIMIT_MS + deadlineMs)) as { tables: string[]; metadata: Array<[string, string]> };
    return {
      tables: new Set(opened.tables),
      metadata: new Map(opened.metadata),
      anyTile: () => remote.call({ op: 'anyTile' }) as Promise<Buffer | null>,
      zoomRange: () => remote.call({ op: 'zoomRange' }) as Promise<{ min: number; max: number }>,
      tile: ({ z, x, y }) => remote.call({ op: 'tile', z, x, y }) as Promise<Buffer | null>,
      close: async () => remote.stop(),
    };
  } catch (error) {
    remote.stop();
    throw error;
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> };

class RemoteReader {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Why no call can be answered any more (the process was killed or died). */
  private failure: Error | null = null;

  constructor(
    private readonly child: ChildProcess,
    private readonly shown: string,
    private readonly deadlineMs: number,
  ) {
    child.on('message', (answer: MbtilesAnswer) => this.answer(answer));
    child.on('exit', (code, signal) => this.fail(this.failure ?? new Error(`the MBTiles reader stopped (${code ?? signal})`)));
    child.on('error', (error) => this.fail(error));
  }

  call(request: MbtilesRequest, deadlineMs = this.deadlineMs): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.overdue(), deadlineMs);
      this.pending.set(id, { resolve, reject, timer });
      this.child.send({ ...request, id } as MbtilesCall);
    });
  }

  private answer(answer: MbtilesAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    clearTimeout(waiting.timer);
    if (answer.ok) return waiting.resolve(answer.value instanceof Uint8Array ? Buffer.from(answer.value.buffer, answer.value.byteOffset, answer.value.byteLength) : answer.value);
    waiting.reject(answer.limit ? new TileFileLimitError(answer.limit.sentence, answer.message, answer.limit.kind) : new Error(answer.message));
  }

  /** A read ran past its deadline: the file is treated as made to harm, and its process killed. */
  private overdue(): void {
    const seconds = Math.round(this.deadlineMs / 100) / 10;
    this.fail(
      new TileFileLimitError(
        `"${this.shown}" was not read: reading from it took longer than ${seconds} s, which no usable basemap file needs (the file may be damaged or made to harm).`,
        `an MBTiles read ran past ${this.deadlineMs} ms`,
      ),
    );
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.child.kill('SIGKILL');
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(this.failure);
    }
    this.pending.clear();
  }

  stop(): void {
    this.failure ??= new Error('the basemap file is closed');
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
