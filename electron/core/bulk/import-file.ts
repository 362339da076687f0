// An import file previewed from where it lies (the CLI's argument, a file the host holds): a CSV is
// first streamed through the line-length bound, so a 200 MB file of one line is refused after its
// first megabyte instead of being read, decoded and cut into millions of cells; only a file that
// passes is read whole for the parse. Runs in the preview's worker (preview-thread.ts).
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { guessBomlessUtf16 } from '../../shared/bulk/decode';
import { formatFromFileName, previewImport, type ImportOptions } from '../../shared/bulk/import';
import { LineLengthGuard, overlongLineSentence } from '../../shared/bulk/limits';
import { buildPreview, type ImportPreview } from '../../shared/bulk/preview';

const HEAD_BYTES = 64 * 1024;
const PIECE_BYTES = 1024 * 1024;

export async function previewImportFile(path: string, options: ImportOptions): Promise<ImportPreview> {
  const head = await readHead(path);
  if (isCsv(head, options)) {
    const overlong = await firstOverlongLine(path, encodingOf(head));
    if (overlong !== null) {
      return buildPreview({ format: 'csv', columns: [], rows: [], decimalComma: false, notes: [], problems: [overlongLineSentence(overlong)], details: {} }, options);
    }
  }
  return previewImport(await readFile(path), options);
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** As readImportTable decides: the format asked for, else the extension, else what the text starts with. */
function isCsv(head: Uint8Array, options: ImportOptions): boolean {
  const format = options.format ?? formatFromFileName(options.fileName);
  if (format !== null) return format === 'csv';
  if (head[0] === 0x50 && head[1] === 0x4b) return false;
  const start = new TextDecoder(encodingOf(head)).decode(head.subarray(0, 4096)).replace(/^\uFEFF/, '').trimStart();
  return !start.startsWith('<') && !start.startsWith('{') && !start.startsWith('[');
}

/** Enough to count characters per line: UTF-16 by its mark or its zero bytes, else UTF-8 (a Windows-1252 byte is one character either way). */
function encodingOf(head: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return guessBomlessUtf16(head) ?? 'utf-8';
}

/** The first line over the bound, reading no further than it; null when every line is within it. */
async function firstOverlongLine(path: string, encoding: 'utf-8' | 'utf-16le' | 'utf-16be'): Promise<number | null> {
  const decoder = new TextDecoder(encoding);
  const guard = new LineLengthGuard();
  const stream = createReadStream(path, { highWaterMark: PIECE_BYTES });
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      const line = guard.push(decoder.decode(piece, { stream: true }));
      if (line !== null) return line;
    }
    return guard.push(decoder.decode());
  } finally {
    stream.destroy();
  }
}
