// A CSV file previewed as it streams from disk, in the preview's worker: bytes → text (the encoding
// decided from the file's start as decodeText decides it for the whole, UTF-8 checked to the end and
// read again as Windows-1252 when it is not) → the line-length bound → DelimitedStream → one preview
// row at a time → the preview store. What stays in memory is a piece of the file, the unfinished
// record and the counts, whatever the file's size: 40 MB of 1.2 million rows is read at the pace of
// the disk and the row checks, not held.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { DelimitedStream, type TableHead } from '../../shared/bulk/csv-stream';
import {
  brokenUtf16Sentence,
  brokenUtf8WithBomSentence,
  decodeText,
  decodeWindows1252,
  doubleEncodedNote,
  firstInvalidUtf8Offset,
  guessBomlessUtf16,
  oddUtf16Sentence,
  windows1252Fallback,
  type TextEncodingName,
} from '../../shared/bulk/decode';
import type { ImportOptions } from '../../shared/bulk/import';
import { LineLengthGuard, overlongLineSentence } from '../../shared/bulk/limits';
import { previewContext, previewHead, type ImportPreview, type PreviewContext } from '../../shared/bulk/preview';
import type { PreviewStoreWriter } from './preview-store';

/** What decodeText is shown of a large file: its checks read the first 65,536 characters. */
export const HEAD_BYTES = 256 * 1024;
const PIECE_BYTES = 1024 * 1024;

type Head = Omit<ImportPreview, 'rows' | 'summary'>;

/** Why the text cannot be read on, found part-way (the file is refused with it). */
export class Unreadable extends Error {}
/** Not UTF-8 after all: read again as Windows-1252 from the start. */
export class NotUtf8 extends Error {
  constructor(readonly offset: number) {
    super('not utf-8');
  }
}

export interface Decoding {
  encoding: TextEncodingName;
  bom: boolean;
  notes: string[];
}

/** Previews the CSV at `path` into `store` (rows) and answers the preview's head. Never throws for the file's content. */
export async function previewCsvFile(path: string, options: ImportOptions, store: PreviewStoreWriter): Promise<Head> {
  const { size } = await stat(path);
  const start = await readStart(path, Math.min(size, HEAD_BYTES));
  const whole = size <= HEAD_BYTES;
  const decided = decodeText(whole ? start : cutToCharacter(start));
  if (!decided.ok) return refusedHead(options, decided.message);
  let decoding: Decoding = { encoding: decided.encoding, bom: decided.bom, notes: decided.notes };
  if (decoding.encoding.startsWith('utf-16') && size % 2 !== 0) return refusedHead(options, oddUtf16Sentence(decoding.encoding as 'utf-16le'));
  for (;;) {
    try {
      return await readRows(path, options, store, decoding);
    } catch (error) {
      store.clear();
      if (error instanceof Unreadable) return refusedHead(options, error.message);
      if (!(error instanceof NotUtf8)) throw error;
      if (decoding.bom) return refusedHead(options, brokenUtf8WithBomSentence(error.offset));
      const fallback = windows1252Fallback(decodeWindows1252(start), error.offset);
      if (!fallback.ok) return refusedHead(options, fallback.message);
      decoding = { encoding: 'windows-1252', bom: false, notes: fallback.notes };
    }
  }
}

export async function readStart(path: string, bytes: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The start of a file without a character cut at its end: half a UTF-16 unit or surrogate pair, UTF-8's lead and continuation bytes. */
export function cutToCharacter(bytes: Uint8Array): Uint8Array {
  const little = bytes[0] === 0xff && bytes[1] === 0xfe;
  const big = bytes[0] === 0xfe && bytes[1] === 0xff;
  const bomless = little || big ? null : guessBomlessUtf16(bytes);
  if (little || big || bomless) {
    let end = bytes.length & ~1;
    const unit = little || bomless === 'utf-16le' ? bytes[end - 2]! | (bytes[end - 1]! << 8) : (bytes[end - 2]! << 8) | bytes[end - 1]!;
    if (unit >= 0xd800 && unit <= 0xdbff) end -= 2;
    return bytes.subarray(0, end);
  }
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

/** A preview of no rows whose only problem is `message` (nothing of the file may be applied). */
function refusedHead(options: ImportOptions, message: string): Head {
  return previewHead(previewContext({ format: 'csv', columns: [], decimalComma: false, notes: [], problems: [message], details: {} }, options));
}

/** One decoded piece after another; a piece the encoding cannot read ends the reading with why. */
export async function* decodedPieces(path: string, decoding: Decoding): AsyncGenerator<string> {
  const skip = bomBytes(decoding);
  const stream = createReadStream(path, { highWaterMark: PIECE_BYTES, start: skip });
  try {
    yield* decodeBytePieces(stream as AsyncIterable<Uint8Array>, decoding, skip);
  } finally {
    stream.destroy();
  }
}

/** The byte-order mark's length, when the decoding found one. */
export function bomBytes(decoding: Decoding): number {
  return !decoding.bom ? 0 : decoding.encoding === 'utf-8' ? 3 : 2;
}

/**
 * Bytes that arrive in pieces (a file, an entry unpacked from a zip), the byte-order mark already
 * left out, decoded a piece at a time; `offset`: where the first piece starts, for the sentences.
 */
export async function* decodeBytePieces(pieces: AsyncIterable<Uint8Array>, decoding: Decoding, offset = 0): AsyncGenerator<string> {
  const decoder = decoding.encoding === 'windows-1252' ? null : new TextDecoder(decoding.encoding, { fatal: true, ignoreBOM: true });
  let tail: Uint8Array = new Uint8Array(0);
  for await (const piece of pieces) {
    const bytes = new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength);
    yield decoder ? decode(decoder, bytes, decoding.encoding, offset, tail) : decodeWindows1252(bytes);
    tail = bytes.subarray(Math.max(0, bytes.length - 3));
    offset += bytes.length;
  }
  if (decoder) yield decode(decoder, new Uint8Array(0), decoding.encoding, offset, tail, true);
}

function decode(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array, encoding: TextEncodingName, offset: number, tail: Uint8Array, last = false): string {
  try {
    return last ? decoder.decode() : decoder.decode(bytes, { stream: true });
  } catch {
    if (encoding !== 'utf-8') throw new Unreadable(brokenUtf16Sentence(encoding as 'utf-16le'));
    // Where in the file: the bytes before this piece that may begin its first character, then the piece.
    const joined = new Uint8Array(tail.length + bytes.length);
    joined.set(tail);
    joined.set(bytes, tail.length);
    throw new NotUtf8(offset - tail.length + firstInvalidUtf8Offset(joined));
  }
}

async function readRows(path: string, options: ImportOptions, store: PreviewStoreWriter, decoding: Decoding): Promise<Head> {
  const extraHeaders = [...(options.extraHeaders ?? []), ...Object.keys(options.mapping ?? {})];
  const reader = new DelimitedStream({ ...(options.delimiter ? { delimiter: options.delimiter } : {}), extraHeaders });
  const guard = new LineLengthGuard();
  const encoding = `${decoding.encoding}${decoding.bom ? ' with byte-order mark' : ''}`;
  const notes = [...decoding.notes];
  let saidTwice = notes.some((note) => note.startsWith('Some text looks converted twice'));
  const tableHead = (): TableHead => {
    const table = reader.table();
    return { ...table, notes: [...notes, ...table.notes], details: { encoding, ...table.details } };
  };
  let context: PreviewContext | null = null;
  const take = (rows: ReturnType<DelimitedStream['push']>) => {
    // The mapping needs the header, which the first row comes after.
    for (const tableRow of rows) store.check((context ??= previewContext(tableHead(), options)), tableRow);
  };
  for await (const text of decodedPieces(path, decoding)) {
    const overlong = guard.push(text);
    if (overlong !== null) throw new Unreadable(overlongLineSentence(overlong));
    // decodeText looks at the whole text for it; the head was only the start.
    if (decoding.encoding === 'utf-8' && !saidTwice) {
      const twice = doubleEncodedNote(text);
      if (twice) notes.push(twice);
      saidTwice = twice !== null;
    }
    take(reader.push(text));
    if (reader.refused) break;
  }
  take(reader.end());
  // The head from the whole file's findings (notes and problems found at the end), the mapping resolved again.
  const final = previewContext(tableHead(), options);
  final.decimalCommas = (context as PreviewContext | null)?.decimalCommas ?? 0;
  return previewHead(final);
}
