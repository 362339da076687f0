// An append-only journal of JSON records, one per line, each prefixed with the CRC-32 of its JSON:
// `1a2b3c4d {"t":"add",…}\n`. Appends are group-committed: every record handed to append() is on
// disk (written and fdatasync'ed) before its promise resolves, and records arriving while a flush
// runs share the next fsync. Compaction replaces the file with a snapshot atomically (temp file,
// fsync, rename, fsync of the folder), so a crash at any instant leaves either the old or the new
// file, never a mix.
// Reading back: bad bytes after the last good record are a torn tail (a write cut short by a crash)
// and are dropped; a bad record followed by good ones is corruption and is reported. Both are copied
// to `<file>.corrupt` before anything is dropped, so nothing is silently eaten.
// Size: the file is read as a stream of lines, never whole, so no size makes it unopenable (a line too
// long to hold is set aside as damaged). Writing is bounded: a record over maxRecordBytes, or an append
// taking the file past maxFileBytes, is refused (JournalLimitError) and nothing is written. `size`
// (exact), `baseSize` and `compactionDue()` let the owner compact by size as well as by count;
// `estimateSnapshotBytes` and SETTLED_COMPACTION let it compact by waste once bulk work has settled
// (an import then its sync leaves two or three records per live one: the file is read at every start).
import { crc32 } from 'node:zlib';
import { appendFile, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/**
 * The header's `version` when the owner names none: the format of one JSON record per line, read by
 * every Sitewalk. An owner whose records change in a way older readers cannot take passes its own
 * (JournalOpenOptions.version): it is written in the header of a new file and of every compaction,
 * and a file whose header names a newer version than the reader's is refused (JournalFormatError)
 * before anything is handed on, set aside, cut or rewritten.
 */
export const JOURNAL_FORMAT_VERSION = 1;

const MiB = 1024 * 1024;

export interface JournalLimits {
  /** One record whose line is longer than this (bytes) is refused by append(). */
  maxRecordBytes: number;
  /** An append that would take the file past this many bytes is refused; compaction always runs. */
  maxFileBytes: number;
  /** A file larger than this when opened is reported (problem 'oversized') so its owner compacts it. */
  reportAboveBytes: number;
  /** A line longer than this is not read into memory: it is set aside as damaged (its head kept). */
  maxLineBytes: number;
}

// A record is a site or an outbox entry with its last problem: a few KB. The file stays far below
// 2 GiB (the most Node reads into one buffer), so every tool and every older Sitewalk can open it.
export const JOURNAL_LIMITS: Readonly<JournalLimits> = Object.freeze({ maxRecordBytes: MiB, maxFileBytes: 1024 * MiB, reportAboveBytes: 256 * MiB, maxLineBytes: 64 * MiB });

/**
 * When the owner's bulk work has settled (a sync went idle, an import ended): compact once the file is
 * more than `factor` times what a snapshot of the live records would take, and over `minBytes`. The
 * rules checked on every write stay looser (3-4×), so compaction never runs over and over mid-sync.
 */
export const SETTLED_COMPACTION = Object.freeze({ factor: 1.5, minBytes: MiB, minRecords: Number.POSITIVE_INFINITY });

/** At most this much of one damaged line is copied to `<file>.corrupt` (a torn tail can be gigabytes of zeros). */
const QUARANTINE_BYTES = 4 * MiB;
const READ_CHUNK = MiB;

export interface JournalProblem {
  /** torn-tail: tolerated (a crash mid-write); corrupt-record: a damaged (or unreadably long) record
   * between good ones; oversized: the file is larger than it should ever grow (compact it). */
  kind: 'torn-tail' | 'corrupt-record' | 'oversized';
  /** 1-based line number in the file as it was read (0 for the whole file). */
  line: number;
  /** Byte offset of the damaged bytes. */
  offset: number;
  /** How many bytes were set aside (for oversized: the file's size). */
  bytes: number;
  message: string;
}

export interface OpenedJournal {
  journal: Journal;
  /** Every good record in file order, header excluded (empty when open() was given onRecord). */
  records: unknown[];
  problems: JournalProblem[];
}

export interface JournalOpenOptions {
  limits?: Partial<JournalLimits>;
  /** Receives each good record in file order instead of `records` collecting them all: an owner that
   * replays records as "set" operations then holds only its live state, whatever the file size. */
  onRecord?: (record: unknown) => void;
  /** The format this owner writes in the header (of a new file, of each compaction) and the newest it
   * reads; default JOURNAL_FORMAT_VERSION. A file keeps the version it was opened with until compacted. */
  version?: number;
}

/** The journal was written by a newer Sitewalk or is not a journal at all: refuse rather than damage it. */
export class JournalFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalFormatError';
  }
}

/** An append refused for its size; nothing of it was written and the journal is unchanged. */
export class JournalLimitError extends Error {
  /** limit: 'record' when one record is over maxRecordBytes, 'file' when the file would pass maxFileBytes. */
  constructor(readonly limit: 'record' | 'file', readonly file: string, readonly bytes: number, readonly maxBytes: number) {
    super(
      limit === 'record'
        ? `A record of ${count(bytes)} bytes was not written to ${file}: one record may take at most ${count(maxBytes)} bytes.`
        : `${file} has reached its size limit (${count(maxBytes)} bytes), so ${count(bytes)} more bytes were not written; it must be compacted first.`,
    );
    this.name = 'JournalLimitError';
  }
}

type Header = { journal: string; version: number };

type AppendOp = { kind: 'append'; data: Buffer; count: number; resolve: () => void; reject: (error: unknown) => void };
type Op = AppendOp | { kind: 'compact'; snapshot: () => unknown[]; resolve: () => void; reject: (error: unknown) => void };

const count = (n: number): string => new Intl.NumberFormat('en-US').format(n);

export function encodeRecord(record: unknown): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** The value of one hex digit (a character code), or -1. Lower case only: encodeRecord writes lower case. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/**
 * decodeLine on the line's bytes (`bytes[start, end)`, without its newline): the checksum is taken on
 * the bytes as they are, so only a good record's JSON is ever turned into a string. Same answers as
 * decodeLine(bytes.toString('utf8', start, end)) for every well-formed line.
 */
export function decodeLineBytes(bytes: Buffer, start: number, end: number): unknown {
  if (end - start < 10 || bytes[start + 8] !== 32) return undefined;
  let sum = 0;
  for (let index = start; index < start + 8; index++) {
    const digit = hexDigit(bytes[index]!);
    if (digit < 0) return undefined;
    sum = sum * 16 + digit;
  }
  if (crc32(bytes.subarray(start + 9, end)) !== sum) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8', start + 9, end)) as unknown;
  } catch {
    return undefined;
  }
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
  private compaction: Promise<void> | null = null;
  private sizeBytes: number;
  private base: number;
  private recordsInFile: number;
  private written = 0;
  private syncs = 0;

  private constructor(
    readonly path: string,
    private readonly name: string,
    private readonly version: number,
    handle: FileHandle,
    size: number,
    records: number,
    readonly limits: Readonly<JournalLimits>,
  ) {
    this.handle = handle;
    this.sizeBytes = size;
    this.base = size;
    this.recordsInFile = records;
  }

  /** Bytes one record takes in the file (its line): what an owner sums to know its live size. */
  static encodedSize(record: unknown): number {
    return Buffer.byteLength(encodeRecord(record), 'utf8');
  }

  /**
   * About how many bytes a snapshot of `count` live items would take: the encoded size of up to
   * `samples` of them, spread evenly, times the count. Costs a few dozen encodings, whatever the count.
   */
  static estimateSnapshotBytes<T>(items: Iterable<T>, count: number, toRecord: (item: T) => unknown, samples = 64): number {
    if (count <= 0) return 0;
    const step = Math.max(1, Math.floor(count / samples));
    let index = 0;
    let measured = 0;
    let bytes = 0;
    for (const item of items) {
      if (index++ % step !== 0) continue;
      bytes += Journal.encodedSize(toRecord(item));
      measured++;
      if (measured >= samples) break;
    }
    return measured === 0 ? 0 : Math.round((bytes / measured) * count);
  }

  /**
   * Opens (creating if needed) the journal at `path`; `name` is written in its header and checked on
   * open, so a journal of one kind is never read as another.
   */
  static async open(path: string, name: string, options: JournalOpenOptions = {}): Promise<OpenedJournal> {
    const limits: Readonly<JournalLimits> = Object.freeze({ ...JOURNAL_LIMITS, ...options.limits });
    await mkdir(dirname(path), { recursive: true });
    // A crash during compaction can leave the temp file behind; the journal itself is intact.
    await rm(`${path}.compact`, { force: true });

    const collected: unknown[] = [];
    const version = options.version ?? JOURNAL_FORMAT_VERSION;
    const scanned = await scan(path, name, version, limits, options.onRecord ?? ((record) => collected.push(record)));
    const { header, goodEnd, bad } = scanned;
    if (header && header.version > version) {
      throw new JournalFormatError(`${basename(path)} was written by a newer Sitewalk (format ${header.version}); update Sitewalk to open this data folder.`);
    }
    const problems = describe(bad, goodEnd, limits);
    if (problems.length > 0) await quarantine(path, problems);
    if (scanned.size > limits.reportAboveBytes) {
      const message = `${basename(path)} is ${count(scanned.size)} bytes, more than the ${count(limits.reportAboveBytes)} it should ever reach; it was read in full and should be compacted.`;
      problems.push({ kind: 'oversized', line: 0, offset: 0, bytes: scanned.size, message });
    }

    const handle = await open(path, 'a+', 0o600);
    try {
      if (goodEnd < scanned.size) {
        // Drop the torn tail so the next append starts on a clean line.
        await handle.truncate(goodEnd);
        await handle.datasync();
      }
      const size = (await handle.stat()).size;
      const journal = new Journal(path, name, version, handle, size, scanned.records, limits);
      if (!header) {
        // A new (or entirely torn) file: start it with the header.
        if (size > 0) {
          await handle.truncate(0);
          journal.sizeBytes = 0;
        }
        await journal.appendNow(Buffer.from(encodeRecord({ journal: name, version } satisfies Header)));
        journal.base = journal.sizeBytes;
      }
      return { journal, records: collected, problems };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** Bytes in the file now: exact after open, every append and every compaction. */
  get size(): number {
    return this.sizeBytes;
  }

  /** Bytes the file had right after the last compaction (or when it was opened). */
  get baseSize(): number {
    return this.base;
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

  /** Whether to compact: `factor` times more records than live ones (and over minRecords); or over
   * minBytes and `factor` times the live size (liveBytes: Journal.encodedSize summed over the snapshot)
   * or the size after the last compaction; or over half of maxFileBytes, well before appends fail. */
  compactionDue(liveRecords: number, options: { liveBytes?: number; factor?: number; minRecords?: number; minBytes?: number } = {}): boolean {
    const { factor = 4, minRecords = 4096, minBytes = 8 * MiB } = options;
    if (this.recordsInFile > minRecords && this.recordsInFile > factor * Math.max(1, liveRecords)) return true;
    if (this.sizeBytes > minBytes && this.sizeBytes > factor * Math.max(1, options.liveBytes ?? this.base)) return true;
    return this.sizeBytes > this.limits.maxFileBytes / 2;
  }

  /** Resolves once every record is durably on disk; records of one call land together, in order.
   * Rejects with a JournalLimitError, writing nothing of the call, when a record is over
   * maxRecordBytes or the file would grow past maxFileBytes. */
  append(records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error(`The journal ${basename(this.path)} is closed.`));
    const lines: Buffer[] = [];
    for (const record of records) {
      const line = Buffer.from(encodeRecord(record), 'utf8');
      if (line.length > this.limits.maxRecordBytes) {
        return Promise.reject(new JournalLimitError('record', basename(this.path), line.length, this.limits.maxRecordBytes));
      }
      lines.push(line);
    }
    return new Promise<void>((resolve, reject) => {
      this.ops.push({ kind: 'append', data: Buffer.concat(lines), count: records.length, resolve, reject });
      void this.run();
    });
  }

  /**
   * Replaces the file with `snapshot()` — called when the compaction's turn comes, after every
   * append queued before it is on disk. Records appended later land after the snapshot, so replay
   * must treat records as absolute "set" operations (applying one twice changes nothing).
   */
  compact(snapshot: () => unknown[]): Promise<void> {
    if (this.compaction) return this.compaction;
    if (this.closed) return Promise.reject(new Error(`The journal ${basename(this.path)} is closed.`));
    const run = new Promise<void>((resolve, reject) => {
      this.ops.push({ kind: 'compact', snapshot, resolve, reject });
      void this.run();
    }).finally(() => {
      this.compaction = null;
    });
    this.compaction = run;
    return run;
  }

  /** The compaction queued or running (a second compact() joins it rather than queueing another), or null. */
  get compacting(): Promise<void> | null {
    return this.compaction;
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
    while (this.running || this.ops.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.ops.length > 0) {
        const first = this.ops[0]!;
        if (first.kind === 'compact') {
          this.ops.shift();
          // snapshot() runs inside the promise: if it throws, the compaction is rejected, not the loop.
          await Promise.resolve().then(() => this.compactNow(first.snapshot())).then(first.resolve, first.reject);
          continue;
        }
        // Group commit: every append queued up to the next compaction shares one write and one fsync,
        // except those that would take the file past its limit (refused, in order).
        const batch: AppendOp[] = [];
        let bytes = 0;
        while (this.ops.length > 0 && this.ops[0]!.kind === 'append') {
          const op = this.ops.shift() as AppendOp;
          if (this.sizeBytes + bytes + op.data.length > this.limits.maxFileBytes) {
            op.reject(new JournalLimitError('file', basename(this.path), op.data.length, this.limits.maxFileBytes));
            continue;
          }
          bytes += op.data.length;
          batch.push(op);
        }
        if (batch.length === 0) continue;
        try {
          await this.appendNow(Buffer.concat(batch.map((op) => op.data)));
          this.recordsInFile += batch.reduce((sum, op) => sum + op.count, 0);
          batch.forEach((op) => op.resolve());
        } catch (error) {
          batch.forEach((op) => op.reject(error));
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
      await writeAll(handle, data);
      await handle.datasync();
      this.syncs++;
    } catch (error) {
      // A half-written batch (disk full…) must not stay in front of the next append, where it
      // would read as corruption: cut the file back to where this batch began.
      await handle.truncate(before).catch(() => undefined);
      // Keep the size exact even if the cut failed.
      this.sizeBytes = await handle.stat().then((stat) => stat.size, () => before);
      throw error;
    }
    this.sizeBytes = before + data.length;
    this.written += data.length;
  }

  private async compactNow(records: unknown[]): Promise<void> {
    const temporary = `${this.path}.compact`;
    const out = await open(temporary, 'w', 0o600);
    let written = 0;
    try {
      // Written in pieces: a snapshot is never one string (Node's strings stop at ~512 MB).
      let lines = [encodeRecord({ journal: this.name, version: this.version } satisfies Header)];
      let length = lines[0]!.length;
      for (let index = 0; index <= records.length; index++) {
        if (index < records.length) {
          lines.push(encodeRecord(records[index]));
          length += lines[lines.length - 1]!.length;
          if (length < 4 * MiB) continue;
        }
        written += await writeAll(out, Buffer.from(lines.join(''), 'utf8'));
        lines = [];
        length = 0;
      }
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
      this.sizeBytes = (await this.handle.stat()).size;
    }
    this.base = this.sizeBytes;
    this.recordsInFile = records.length;
    this.written += written;
    this.syncs++;
  }
}

/** A damaged line; tooLong: longer than maxLineBytes, so not read. */
type Damaged = { line: number; offset: number; bytes: number; tooLong: boolean };
/** goodEnd: the offset just past the last good line; size: bytes read, the file's size. */
type Scanned = { records: number; bad: Damaged[]; goodEnd: number; header: Header | null; size: number };

/** Reads the file line by line in fixed-size chunks; memory is one chunk plus one line. */
async function scan(path: string, name: string, version: number, limits: Readonly<JournalLimits>, onRecord: (record: unknown) => void): Promise<Scanned> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { records: 0, bad: [], goodEnd: 0, header: null, size: 0 };
  }
  const out: Scanned = { records: 0, bad: [], goodEnd: 0, header: null, size: 0 };
  let lineNumber = 0;
  let lineStart = 0;
  // The start of the current line when it spans chunks (copied: the read buffer is reused).
  let pieces: Buffer[] = [];
  let lineBytes = 0;
  // line: the line's bytes without its newline, as [bytes, from, to); null when it was too long to
  // read or has no newline.
  const endLine = (end: number, line: [Buffer, number, number] | null) => {
    lineNumber++;
    const record = line === null ? undefined : decodeLineBytes(line[0], line[1], line[2]);
    if (record === undefined) {
      out.bad.push({ line: lineNumber, offset: lineStart, bytes: end - lineStart, tooLong: lineBytes > limits.maxLineBytes });
    } else if (out.header === null && out.records === 0 && isHeader(record)) {
      if (record.journal !== name) throw new JournalFormatError(`This file holds a "${record.journal}" journal, not "${name}".`);
      out.header = record;
      out.goodEnd = end;
    } else {
      out.records++;
      onRecord(record);
      out.goodEnd = end;
    }
    lineStart = end;
    pieces = [];
    lineBytes = 0;
  };
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  try {
    for (let bytesRead = -1; bytesRead !== 0; out.size += bytesRead) {
      bytesRead = (await handle.read(buffer, 0, READ_CHUNK, out.size)).bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      for (let from = 0; from < bytesRead;) {
        const newline = chunk.indexOf(0x0a, from);
        const stop = newline === -1 ? bytesRead : newline + 1;
        lineBytes += stop - from;
        const tooLong = lineBytes > limits.maxLineBytes;
        if (tooLong) pieces = [];
        if (newline === -1) {
          if (!tooLong) pieces.push(Buffer.from(chunk.subarray(from)));
          break;
        }
        let line: [Buffer, number, number] | null = null;
        if (!tooLong) {
          if (pieces.length === 0) line = [chunk, from, newline];
          else {
            const joined = Buffer.concat([...pieces, chunk.subarray(from, newline)]);
            line = [joined, 0, joined.length];
          }
        }
        endLine(out.size + stop, line);
        from = stop;
      }
    }
    // Bytes after the last newline: a record whose write was cut short.
    if (out.size > lineStart) endLine(out.size, null);
  } finally {
    await handle.close();
  }
  if (out.header === null && out.records > 0) {
    // A damaged first line with good records after it is a damaged header, not a foreign file.
    if (out.bad[0]?.line !== 1) throw new JournalFormatError('The journal has records but no header; it was not written by Sitewalk.');
    out.header = { journal: name, version };
  }
  return out;
}

function describe(bad: Damaged[], goodEnd: number, limits: Readonly<JournalLimits>): JournalProblem[] {
  return bad.map(({ line, offset, bytes, tooLong }) => {
    const kind = offset >= goodEnd ? 'torn-tail' : 'corrupt-record';
    const what = tooLong ? ` is too long to read (${count(bytes)} bytes; the limit is ${count(limits.maxLineBytes)})` : ` is damaged (${bytes} bytes)`;
    const message =
      kind === 'corrupt-record'
        ? `Record ${line}${what} and was set aside; the records around it were kept.`
        : tooLong
          ? `The last record (line ${line})${what} and was dropped; its start was kept aside.`
          : `An unfinished record at the end (line ${line}, ${bytes} bytes) was dropped: the app stopped while writing it.`;
    return { kind, line, offset, bytes, message };
  });
}

function isHeader(record: unknown): record is Header {
  const header = record as Header;
  return typeof record === 'object' && record !== null && typeof header.journal === 'string' && typeof header.version === 'number' && Object.keys(record).length === 2;
}

/** Copies damaged bytes next to the journal with where they came from, before they are dropped (at
 * most QUARANTINE_BYTES of each: a torn tail can be gigabytes of zeros after a power cut). */
async function quarantine(path: string, problems: JournalProblem[]): Promise<void> {
  const parts: string[] = [];
  const at = new Date().toISOString();
  const handle = await open(path, 'r');
  try {
    for (const problem of problems) {
      const length = Math.min(problem.bytes, QUARANTINE_BYTES);
      const raw = Buffer.alloc(length);
      const { bytesRead } = await handle.read(raw, 0, length, problem.offset);
      const kept = length < problem.bytes ? `, first ${length} of ${problem.bytes} bytes` : '';
      parts.push(`# ${at} ${problem.kind} line ${problem.line} offset ${problem.offset} (base64${kept})\n${raw.subarray(0, bytesRead).toString('base64')}\n`);
    }
  } finally {
    await handle.close();
  }
  await appendFile(`${path}.corrupt`, parts.join(''), { mode: 0o600 });
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<number> {
  for (let offset = 0; offset < data.length;) offset += (await handle.write(data, offset, data.length - offset)).bytesWritten;
  return data.length;
}

/** Makes a rename durable. Best effort: Windows cannot open a folder (NTFS journals the rename itself). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  await handle?.sync().catch(() => undefined);
  await handle?.close().catch(() => undefined);
}
