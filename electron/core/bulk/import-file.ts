// An import file previewed from where it lies (the CLI's argument, a file the host holds) into a
// preview store (preview-store.ts), in the preview's worker (preview-thread.ts). A CSV streams
// (csv-file.ts: its lines bounded, its rows checked and written as they are read, so a 200 MB file
// of one line is refused after its first megabyte and 1.2 million rows never sit in memory at
// once); a GeoJSON FeatureCollection streams too, a feature at a time (geojson-file.ts), and so do
// KML and the KML inside a KMZ, a placemark at a time (kml-file.ts); other GeoJSON is read whole
// into a table within its own bounds (limits.ts), then each row is checked and written as the CSV's are.
import { open, readFile } from 'node:fs/promises';
import { guessBomlessUtf16 } from '../../shared/bulk/decode';
import { formatFromFileName, readImportTable, startsAsZip, type ImportOptions, type ReadOptions } from '../../shared/bulk/import';
import { previewContext, previewHead } from '../../shared/bulk/preview';
import type { ImportFormat, TableRow } from '../../shared/bulk/table';
import { previewCsvFile } from './csv-file';
import { previewGeoJsonFile } from './geojson-file';
import { previewKmlFile } from './kml-file';
import { PreviewStoreWriter } from './preview-store';

const SNIFF_BYTES = 4096;

/** The file's bytes, or where the worker reads them. */
export type PreviewSource = Uint8Array | { path: string };

/** Writes the preview of `source` to a new store at `storePath`. */
export async function previewToStore(source: PreviewSource, options: ImportOptions, storePath: string): Promise<void> {
  const store = new PreviewStoreWriter(storePath);
  if (!(source instanceof Uint8Array)) {
    const head = await readHead(source.path);
    const format = formatOf(head, options);
    if (format === 'csv') {
      store.finish(await previewCsvFile(source.path, options, store));
      return;
    }
    // As readImportTable decides: a zip called .kml is read as the KMZ it is.
    const zip = startsAsZip(head);
    if (format === 'kml' || format === 'kmz') {
      store.finish(await previewKmlFile(source.path, zip ? 'kmz' : format, zip, options, store));
      return;
    }
    // A FeatureCollection streams; anything else answers null and is read whole below.
    const streamed = format === 'geojson' ? await previewGeoJsonFile(source.path, options, store) : null;
    if (streamed) {
      store.finish(streamed);
      return;
    }
  }
  // Read whole within their bounds (limits.ts); the bytes and the text are let go once the table is
  // made, and its rows are checked and written one at a time, each let go once written.
  const table = await readImportTable(source instanceof Uint8Array ? source : await readFile(source.path), readOptions(options));
  const context = previewContext(table, options);
  const rows = table.rows;
  table.rows = [];
  for (let index = 0; index < rows.length; index++) {
    store.check(context, rows[index]!);
    rows[index] = EMPTY_ROW;
  }
  store.finish(previewHead(context));
}

const EMPTY_ROW: TableRow = { row: 0, cells: [] };

/** As previewImport reads: the manual mapping's columns help find a CSV's header. */
function readOptions(options: ImportOptions): ReadOptions {
  const read: ReadOptions = { ...options };
  if (options.mapping) read.extraHeaders = [...(options.extraHeaders ?? []), ...Object.keys(options.mapping)];
  return read;
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** As readImportTable decides: the format asked for, else the extension, else what the text starts with. */
function formatOf(head: Uint8Array, options: ImportOptions): ImportFormat {
  const format = options.format ?? formatFromFileName(options.fileName);
  if (format !== null) return format;
  if (head[0] === 0x50 && head[1] === 0x4b) return 'kmz';
  const start = new TextDecoder(encodingOf(head)).decode(head).replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return 'kml';
  return start.startsWith('{') || start.startsWith('[') ? 'geojson' : 'csv';
}

function encodingOf(head: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return guessBomlessUtf16(head) ?? 'utf-8';
}
