// An append-only journal of JSON records, one per line, each prefixed with the CRC-32 of its JSON:
// `1a2b3c4d {"t":"add",…}\n`. Appends are group-committed: every record handed to append() is on
// disk (written and fdatasync'ed) before its promise resolves, and records arriving while a flush
// runs share the next fsync. Compaction replaces the file with a snapshot atomically (temp file,
// fsync, rename, fsync of the folder), so a crash at any instant leaves either the old or the new
// file, never a mix.
// Reading back: bad bytes after the last good record are a torn tail (a write cut short by a crash)
// and are dropped; a bad record followed by good ones is corruption and is reported. Both are copied
// to `<file>.corrupt` before anything is dropped, so nothing is silently eaten.
import { crc32 } from 'node:zlib';
import { mkdir, open, readFile, rename, rm, appendFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

export const JOURNAL_FORMAT_VERSION = 1;

export interface JournalProblem {
  /** torn-tail: tolerated (a crash mid-write); corrupt-record: a damaged record between good ones. */
  kind: 'torn-tail' | 'corrupt-record';
  /** 1-based line number in the file as it was read. */
  line: number;
  /** Byte offset of the damaged bytes. */
  offset: number;
  /** How many bytes were set aside. */
  bytes: number;
  message: string;
}

export interface OpenedJournal {
  journal: Journal;
  /** Every good record in file order, header excluded. */
  records: unknown[];
  problems: JournalProblem[];
}

/** The journal was written by a newer Sitewalk or is not a journal at all: refuse rather than damage it. */
export class JournalFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalFormatError';
  }
}

interface Header {
  journal: string;
  version: number;
}

type Op =
  | { kind: 'append'; data: Buffer; count: number; resolve: () => void; reject: (error: unknown) => void }
  | { kind: 'compact'; snapshot: () => unknown[]; resolve: () => void; reject: (error: unknown) => void };

export function encodeRecord(record: unknown): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** The record of one line, or undefined when the line is damaged. */
export function decodeLine(line: string): unknown {
  if (line.length < 10 || line.charCodeAt(8) !== 32) return undefined;
  const json = line.slice(9);
  const sum = Number.parseInt(line.slice(0, 8), 16);
  if (!/^[0-9a-f]{8}$/.test(line.slice(0, 8)) || crc32(json) !== sum) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

export class Journal {
  private handle: FileHandle | null;
  private readonly ops: Op[] = [];
  private running = false;
  private closed = false;
  private sizeBytes: number;
  private recordsInFile: number;
  private written = 0;
  private syncs = 0;

  private constructor(
    readonly path: string,
    private readonly name: string,
    handle: FileHandle,
    size: number,
    records: number,
  ) {
    this.handle = handle;
    this.sizeBytes = size;
    this.recordsInFile = records;
  }

  /**
   * Opens (creating if needed) the journal at `path`; `name` is written in its header and checked on
   * open, so a journal of one kind is never read as another.
   */
  static async open(path: string, name: string): Promise<OpenedJournal> {
    await mkdir(dirname(path), { recursive: true });
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      bytes = Buffer.alloc(0);
    }
    // A crash during compaction can leave the temp file behind; the journal itself is intact.
    await rm(`${path}.compact`, { force: true });

    const { records, problems, goodEnd, header } = parse(bytes, name);
    if (header && header.version > JOURNAL_FORMAT_VERSION) {
      throw new JournalFormatError(
        `${basename(path)} was written by a newer Sitewalk (format ${header.version}); update Sitewalk to open this data folder.`,
      );
    }
    if (problems.length > 0) await quarantine(path, bytes, problems);

    const handle = await open(path, 'a+', 0o600);
    try {
      let size = bytes.length;
      if (goodEnd < bytes.length) {
        // Drop the torn tail so the next append starts on a clean line.
        await handle.truncate(goodEnd);
        await handle.datasync();
        size = goodEnd;
      }
      const journal = new Journal(path, name, handle, size, records.length);
      if (!header) {
        // A new (or entirely torn) file: start it with the header.
        if (size > 0) {
          await handle.truncate(0);
          journal.sizeBytes = 0;
        }
        await journal.appendNow(Buffer.from(encodeRecord({ journal: name, version: JOURNAL_FORMAT_VERSION } satisfies Header)));
      }
      return { journal, records, problems };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** Bytes in the file now. */
  get size(): number {
    return this.sizeBytes;
  }

  /** Records in the file now (header excluded): the owner compares it with its live count. */
  get recordCount(): number {
    return this.recordsInFile;
  }

  /** Bytes written since open, compactions included (for benchmarks). */
  get bytesWritten(): number {
    return this.written;
  }

  /** fdatasync calls since open (for benchmarks and tests of batching). */
  get syncCount(): number {
    return this.syncs;
  }

  /** Resolves once every record is durably on disk; records of one call land together, in order. */
  append(records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error(`The journal ${basename(this.path)} is closed.`));
    const data = Buffer.from(records.map(encodeRecord).join(''));
    return new Promise<void>((resolve, reject) => {
      this.ops.push({ kind: 'append', data, count: records.length, resolve, reject });
      void this.run();
    });
  }

  /**
   * Replaces the file with `snapshot()` — called when the compaction's turn comes, after every
   * append queued before it is on disk. Records appended later land after the snapshot, so replay
   * must treat records as absolute "set" operations (applying one twice changes nothing).
   */
  compact(snapshot: () => unknown[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The journal ${basename(this.path)} is closed.`));
    return new Promise<void>((resolve, reject) => {
      this.ops.push({ kind: 'compact', snapshot, resolve, reject });
      void this.run();
    });
  }

  /** Waits for queued work, then closes the file. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.drain();
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  /** Resolves when nothing is queued or being written. */
  async drain(): Promise<void> {
    while (this.running || this.ops.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.ops.length > 0) {
        const first = this.ops[0]!;
        if (first.kind === 'compact') {
          this.ops.shift();
          try {
            await this.compactNow(first.snapshot());
            first.resolve();
          } catch (error) {
            first.reject(error);
          }
          continue;
        }
        // Group commit: every append queued up to the next compaction shares one write and one fsync.
        const batch: Extract<Op, { kind: 'append' }>[] = [];
        while (this.ops.length > 0 && this.ops[0]!.kind === 'append') batch.push(this.ops.shift() as Extract<Op, { kind: 'append' }>);
        try {
          await this.appendNow(Buffer.concat(batch.map((op) => op.data)));
          this.recordsInFile += batch.reduce((sum, op) => sum + op.count, 0);
          for (const op of batch) op.resolve();
        } catch (error) {
          for (const op of batch) op.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async appendNow(data: Buffer): Promise<void> {
    const handle = this.handle;
    if (!handle) throw new Error(`The journal ${basename(this.path)} is closed.`);
    const before = this.sizeBytes;
    try {
      let offset = 0;
      while (offset < data.length) {
        const { bytesWritten } = await handle.write(data, offset, data.length - offset);
        offset += bytesWritten;
      }
      await handle.datasync();
      this.syncs++;
    } catch (error) {
      // A half-written batch (disk full…) must not stay in front of the next append, where it
      // would read as corruption: cut the file back to where this batch began.
      await handle.truncate(before).catch(() => undefined);
      throw error;
    }
    this.sizeBytes = before + data.length;
    this.written += data.length;
  }

  private async compactNow(records: unknown[]): Promise<void> {
    const temporary = `${this.path}.compact`;
    const text = encodeRecord({ journal: this.name, version: JOURNAL_FORMAT_VERSION } satisfies Header) + records.map(encodeRecord).join('');
    const data = Buffer.from(text);
    const out = await open(temporary, 'w', 0o600);
    try {
      await out.writeFile(data);
      await out.sync();
    } finally {
      await out.close();
    }
    const old = this.handle;
    this.handle = null;
    await old?.close();
    try {
      await rename(temporary, this.path);
      await syncFolder(dirname(this.path));
    } finally {
      // Whatever happened, keep appending to whichever file now has the journal's name.
      this.handle = await open(this.path, 'a+', 0o600);
    }
    const stat = await this.handle.stat();
    this.sizeBytes = stat.size;
    this.recordsInFile = records.length;
    this.written += data.length;
    this.syncs++;
  }
}

function parse(bytes: Buffer, name: string): { records: unknown[]; problems: JournalProblem[]; goodEnd: number; header: Header | null } {
  const records: unknown[] = [];
  const bad: Array<{ line: number; offset: number; bytes: number }> = [];
  let header: Header | null = null;
  let goodEnd = 0;
  let offset = 0;
  let lineNumber = 0;
  while (offset < bytes.length) {
    lineNumber++;
    const newline = bytes.indexOf(0x0a, offset);
    const end = newline < 0 ? bytes.length : newline + 1;
    const record = newline < 0 ? undefined : decodeLine(bytes.toString('utf8', offset, newline));
    if (record === undefined) {
      bad.push({ line: lineNumber, offset, bytes: end - offset });
    } else if (header === null && records.length === 0 && isHeader(record)) {
      if (record.journal !== name) {
        throw new JournalFormatError(`This file holds a "${record.journal}" journal, not "${name}".`);
      }
      header = record;
      goodEnd = end;
    } else {
      records.push(record);
      goodEnd = end;
    }
    offset = end;
  }
  if (header === null && records.length > 0) {
    // A damaged first line with good records after it is a damaged header, not a foreign file.
    if (bad[0]?.line !== 1) throw new JournalFormatError(`The journal has records but no header; it was not written by Sitewalk.`);
    header = { journal: name, version: JOURNAL_FORMAT_VERSION };
  }
  const problems: JournalProblem[] = [];
  for (const damaged of bad) {
    const tail = damaged.offset >= goodEnd;
    problems.push({
      kind: tail ? 'torn-tail' : 'corrupt-record',
      line: damaged.line,
      offset: damaged.offset,
      bytes: damaged.bytes,
      message: tail
        ? `An unfinished record at the end (line ${damaged.line}, ${damaged.bytes} bytes) was dropped: the app stopped while writing it.`
        : `Record ${damaged.line} is damaged (${damaged.bytes} bytes) and was set aside; the records around it were kept.`,
    });
  }
  return { records, problems, goodEnd, header };
}

function isHeader(record: unknown): record is Header {
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof (record as Header).journal === 'string' &&
    typeof (record as Header).version === 'number' &&
    Object.keys(record).length === 2
  );
}

/** Copies damaged bytes next to the journal, each with where it came from, before they are dropped. */
async function quarantine(path: string, bytes: Buffer, problems: JournalProblem[]): Promise<void> {
  const parts: string[] = [];
  const at = new Date().toISOString();
  for (const problem of problems) {
    const raw = bytes.subarray(problem.offset, problem.offset + problem.bytes);
    parts.push(`# ${at} ${problem.kind} line ${problem.line} offset ${problem.offset} (base64)\n${raw.toString('base64')}\n`);
  }
  await appendFile(`${path}.corrupt`, parts.join(''), { mode: 0o600 });
}

async function syncFolder(folder: string): Promise<void> {
  // Makes the rename itself durable. Windows cannot open a folder for syncing; its rename is durable
  // enough through NTFS's own journal.
  let handle: FileHandle | null = null;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
