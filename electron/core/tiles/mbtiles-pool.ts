// Every MBTiles file of a host is read in one process of its own (mbtiles-child.ts), one read at a
// time, each held to a deadline: a file made to make SQLite work without end (a `tiles` view that is
// a recursive CTE) cannot block the host, whose thread only waits for an answer.
//   deadline  the process is killed (SIGKILL reaches a query neither better-sqlite3 nor a worker's
//             terminate() can stop); the file being read is turned off with its sentence (a
//             TileFileLimitError, refused at once from then on); the reads queued behind it go to a
//             new process, which reopens their files as they are asked for.
//   crash     (the process ended on its own) a new one starts after a back-off; only the file being
//             read, if any, is blamed. A process that never says `ready` is not a crash of any file:
//             after START_FAILURES in a row the waiting reads fail with a plain error.
// Bounded: one process, one read in flight, at most `maxQueued` waiting (more are refused with a
// sentence), at most MAX_OPEN_MBTILES files open in the process. No file open: no process.
import type { TileCoords } from './coords';
import { TileFileLimitError } from './limits';
import type { MbtilesAnswer, MbtilesOp, ReaderMessage, ReaderProcess, ReaderProcessStarter } from './mbtiles-process';

/** One read (opening included); a well-made file answers in milliseconds. */
export const MBTILES_READ_DEADLINE_MS = 5000;
/** Reads waiting for the process; a map asks for a screenful (a few dozen) at a time. */
export const MBTILES_QUEUE_LIMIT = 256;
/** Starting the process (Node and its loader) on a busy machine. */
const START_LIMIT_MS = 30_000;
const START_FAILURES = 3;

/**
 * The reader's process could not take a read (none can start, or too many reads wait): nothing is
 * known to be wrong with the file, which is neither turned off nor called damaged. `message` is the sentence.
 */
export class MbtilesReaderUnavailable extends Error {
  constructor(
    message: string,
    /** Too many reads wait: asking again later may work. */
    readonly busy: boolean,
  ) {
    super(message);
    this.name = 'MbtilesReaderUnavailable';
  }
}

export interface AsyncMbtilesReader {
  tables: Set<string>;
  metadata: Map<string, string>;
  anyTile(): Promise<Buffer | null>;
  zoomRange(): Promise<{ min: number; max: number }>;
  tile(coords: TileCoords): Promise<Buffer | null>;
  close(): Promise<void>;
}

export interface MbtilesPoolOptions {
  /** How this host starts the reader's process; null where none can start (the reads fail with a sentence). */
  starter: ReaderProcessStarter | null;
  deadlineMs?: number;
  maxQueued?: number;
  /** Back-off after a crash: first and longest wait. */
  restartMs?: { first: number; max: number };
  log?: (line: string) => void;
}

interface Job {
  id: number;
  fileId: number;
  op: MbtilesOp;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Running {
  process: ReaderProcess;
  ready: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

interface KnownFile {
  path: string;
  shown: string;
  /** Why this file is read no more (its read hung or took the process down). */
  failure: Error | null;
}

export class MbtilesPool {
  private readonly deadlineMs: number;
  private readonly maxQueued: number;
  private readonly restartMs: { first: number; max: number };
  private readonly log: (line: string) => void;
  private readonly files = new Map<number, KnownFile>();
  private readonly queue: Job[] = [];
  private running: Running | null = null;
  private inFlight: Job | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private crashes = 0;
  private startFailures = 0;
  private nextId = 1;
  private nextFileId = 1;
  private closed = false;

  constructor(private readonly options: MbtilesPoolOptions) {
    this.deadlineMs = options.deadlineMs ?? MBTILES_READ_DEADLINE_MS;
    this.maxQueued = options.maxQueued ?? MBTILES_QUEUE_LIMIT;
    this.restartMs = options.restartMs ?? { first: 250, max: 10_000 };
    this.log = options.log ?? (() => undefined);
  }

  /** The reader's process id while one runs (tests count processes with it). */
  get pid(): number | undefined {
    return this.running?.process.pid;
  }

  /** The file being read right now (its shown name), or null. */
  get reading(): string | null {
    return this.inFlight && this.inFlight.op.op !== 'close' ? (this.files.get(this.inFlight.fileId)?.shown ?? null) : null;
  }

  /** Opens the file in the reader's process. Throws as openMbtilesReader does, or with a TileFileLimitError. */
  async open(path: string, shown: string): Promise<AsyncMbtilesReader> {
    const fileId = this.nextFileId++;
    this.files.set(fileId, { path, shown, failure: null });
    let opened: { tables: string[]; metadata: Array<[string, string]> };
    try {
      opened = (await this.call(fileId, { op: 'open' })) as typeof opened;
    } catch (error) {
      this.forget(fileId);
      throw error;
    }
    return {
      tables: new Set(opened.tables),
      metadata: new Map(opened.metadata),
      anyTile: () => this.call(fileId, { op: 'anyTile' }) as Promise<Buffer | null>,
      zoomRange: () => this.call(fileId, { op: 'zoomRange' }) as Promise<{ min: number; max: number }>,
      tile: ({ z, x, y }) => this.call(fileId, { op: 'tile', z, x, y }) as Promise<Buffer | null>,
      close: async () => this.forget(fileId),
    };
  }

  /** Stops the process and refuses every read from now on. */
  close(): void {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const closed = new Error('the basemap files are closed');
    for (const job of this.queue.splice(0)) job.reject(closed);
    this.settleInFlight()?.reject(closed);
    this.stopProcess();
    this.files.clear();
  }

  private call(fileId: number, op: MbtilesOp): Promise<unknown> {
    const file = this.files.get(fileId);
    if (this.closed || !file) return Promise.reject(new Error('the basemap file is closed'));
    if (file.failure) return Promise.reject(file.failure);
    if (this.queue.length >= this.maxQueued) {
      return Promise.reject(new MbtilesReaderUnavailable(`Sitewalk is still reading ${this.maxQueued} tiles from MBTiles files; this one was not asked for. Try again in a moment.`, true));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, fileId, op, resolve, reject });
      this.pump();
    });
  }

  /** A closed file leaves the process's files; the last one leaves no process behind. */
  private forget(fileId: number): void {
    const file = this.files.get(fileId);
    if (!file) return;
    this.files.delete(fileId);
    if (this.files.size === 0 && this.queue.length === 0 && !this.inFlight) {
      this.stopProcess();
      return;
    }
    if (this.running && !file.failure) this.queue.push({ id: this.nextId++, fileId, op: { op: 'close' }, resolve: () => undefined, reject: () => undefined });
    this.pump();
  }

  /** Sends the next read when the process is ready and nothing is being read; starts the process if there is none. */
  private pump(): void {
    if (this.closed || this.inFlight || this.queue.length === 0) return;
    if (!this.running) {
      if (!this.restartTimer) this.start();
      return;
    }
    if (!this.running.ready) return;
    const job = this.queue.shift()!;
    const file = this.files.get(job.fileId);
    // A close goes out even for a file already forgotten here; a read of a file gone or failed does not.
    if (job.op.op !== 'close' && (!file || file.failure)) {
      job.reject(file?.failure ?? new Error('the basemap file is closed'));
      return this.pump();
    }
    const path = file?.path ?? '';
    const shown = file?.shown ?? '';
    if (job.op.op === 'close' && !file && this.queue.length === 0 && this.files.size === 0) return this.stopProcess();
    this.inFlight = job;
    this.running.timer = setTimeout(() => this.overdue(), this.deadlineMs);
    this.running.process.send({ ...job.op, id: job.id, fileId: job.fileId, path, shown });
  }

  private start(): void {
    let running: Running | null = null;
    try {
      if (!this.options.starter) throw new Error('no process can be started for it here');
      const process = this.options.starter({
        message: (message) => running && this.running === running && this.heard(running, message),
        exit: (how) => running && this.running === running && this.ended(running, how),
      });
      running = { process, ready: false, timer: null };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.failWaiting(new MbtilesReaderUnavailable(`Sitewalk cannot read MBTiles files: ${why}.`, false));
      return;
    }
    this.running = running;
    running.timer = setTimeout(() => {
      this.log(`basemaps: the MBTiles reader did not start within ${START_LIMIT_MS / 1000} s`);
      running.process.kill();
    }, START_LIMIT_MS);
  }

  private heard(running: Running, message: ReaderMessage): void {
    if ('ready' in message) {
      if (running.timer) clearTimeout(running.timer);
      running.timer = null;
      running.ready = true;
      this.startFailures = 0;
      return this.pump();
    }
    if (!this.inFlight || this.inFlight.id !== message.id) return;
    const job = this.settleInFlight()!;
    this.crashes = 0;
    settle(job, message);
    this.pump();
  }

  /** The read in flight ran past its deadline: its file is treated as made to harm, and the process killed. */
  private overdue(): void {
    const job = this.settleInFlight();
    if (!job) return;
    const file = this.files.get(job.fileId);
    const seconds = Math.round(this.deadlineMs / 100) / 10;
    const failure = new TileFileLimitError(
      `"${file?.shown ?? 'the basemap file'}" was not read: reading from it took longer than ${seconds} s, which no usable basemap file needs (the file may be damaged or made to harm).`,
      `an MBTiles read ran past ${this.deadlineMs} ms`,
    );
    if (file) file.failure = failure;
    this.log(`basemaps: stopped the MBTiles reader: a read of "${file?.shown ?? '?'}" ran past ${seconds} s; the other files are read by a new one`);
    this.stopProcess();
    job.reject(failure);
    this.pump();
  }

  /** The process ended without being told to: a crash, or a start that failed. */
  private ended(running: Running, how: string): void {
    if (running.timer) clearTimeout(running.timer);
    this.running = null;
    this.dropCloses();
    const job = this.settleInFlight();
    if (!running.ready) {
      this.startFailures += 1;
      this.log(`basemaps: the MBTiles reader did not start (${how})`);
      if (this.startFailures >= START_FAILURES) {
        this.startFailures = 0;
        this.failWaiting(new MbtilesReaderUnavailable(`Sitewalk's MBTiles reader did not start (${how}).`, false));
        return;
      }
    } else if (job) {
      const file = this.files.get(job.fileId);
      const failure = new TileFileLimitError(
        `"${file?.shown ?? 'the basemap file'}" was not read: Sitewalk's reader of MBTiles files stopped while reading it (the file may be damaged or made to harm).`,
        `the MBTiles reader ended (${how}) during ${job.op.op}`,
      );
      if (file && job.op.op !== 'close') file.failure = failure;
      job.reject(failure);
      this.log(`basemaps: the MBTiles reader ended (${how}) while reading "${file?.shown ?? '?'}"`);
    } else {
      this.log(`basemaps: the MBTiles reader ended (${how})`);
    }
    this.crashes += 1;
    if (this.closed || this.queue.length === 0) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.pump();
    }, Math.min(this.restartMs.max, this.restartMs.first * 2 ** (this.crashes - 1)));
  }

  private settleInFlight(): Job | null {
    const job = this.inFlight;
    this.inFlight = null;
    if (this.running?.timer && this.running.ready) {
      clearTimeout(this.running.timer);
      this.running.timer = null;
    }
    return job;
  }

  /** Closes meant for a process that is gone: the next one has nothing open, and is not started for them. */
  private dropCloses(): void {
    const reads = this.queue.filter((job) => job.op.op !== 'close');
    this.queue.splice(0, this.queue.length, ...reads);
  }

  private failWaiting(error: Error): void {
    for (const job of this.queue.splice(0)) job.reject(error);
  }

  private stopProcess(): void {
    const running = this.running;
    this.running = null;
    this.dropCloses();
    if (!running) return;
    if (running.timer) clearTimeout(running.timer);
    running.process.kill();
  }
}

function settle(job: Job, answer: MbtilesAnswer): void {
  if (answer.ok) {
    const value = answer.value;
    return job.resolve(value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
  }
  job.reject(answer.limit ? new TileFileLimitError(answer.limit.sentence, answer.message, answer.limit.kind) : new Error(answer.message));
}
