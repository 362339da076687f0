// The entry point of an import: file bytes (and the file's name, when there is one) → a table →
// the preview. Chooses the format by extension, or by content when the extension says nothing.
// Pure and browser-safe: the renderer can run `previewImport` in a Web Worker with the bytes of a
// dropped file and get plain data back; the CLI runs the same function in Node.
import { decodeText } from './decode';
import { parseDelimited, type Delimiter } from './csv';
import { parseGeoJson, parseKml, parseKmz } from './geo';
import { buildPreview, type ImportPreview, type PreviewOptions } from './preview';
import type { ImportFormat, ImportTable } from './table';

export interface ReadOptions {
  /** The file's name (only its extension is used). */
  fileName?: string;
  /** Force a format instead of guessing it. */
  format?: ImportFormat;
  /** Force a CSV separator instead of detecting it. */
  delimiter?: Delimiter;
  /** Column names the manual mapping mentions (helps find the header row of a CSV). */
  extraHeaders?: string[];
}

export type ImportOptions = ReadOptions & PreviewOptions;

/** Extensions we recognise, and what they mean. */
const BY_EXTENSION: Record<string, ImportFormat> = {
  csv: 'csv',
  tsv: 'csv',
  tab: 'csv',
  txt: 'csv',
  kml: 'kml',
  kmz: 'kmz',
  geojson: 'geojson',
  json: 'geojson',
};

export function formatFromFileName(fileName: string | undefined): ImportFormat | null {
  if (!fileName) return null;
  const match = /\.([a-z0-9]+)$/i.exec(fileName);
  return match ? (BY_EXTENSION[match[1]!.toLowerCase()] ?? null) : null;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];

/** Whether `bytes` start as a zip archive's first entry does (a KMZ). */
export function startsAsZip(bytes: Uint8Array): boolean {
  return ZIP.every((byte, index) => bytes[index] === byte);
}

/** Reads any supported file into a table. Never throws. */
export async function readImportTable(bytes: Uint8Array, options: ReadOptions = {}): Promise<ImportTable> {
  const isZip = startsAsZip(bytes);
  let format = options.format ?? formatFromFileName(options.fileName);
  if (isZip && (format === null || format === 'kmz' || format === 'kml')) format = 'kmz';
  if (format === 'kmz') {
    if (!isZip) return failed('kmz', 'The file is called .kmz but is not a zip archive; it may be a plain KML: rename it to .kml.');
    return parseKmz(bytes);
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return failed(format ?? 'csv', decoded.message);
  const notes = [...decoded.notes];
  const encoding = `${decoded.encoding}${decoded.bom ? ' with byte-order mark' : ''}`;
  if (format === null) format = sniff(decoded.text);
  let table: ImportTable;
  if (format === 'kml') table = parseKml(decoded.text, 'kml', notes);
  else if (format === 'geojson') table = parseGeoJson(decoded.text, notes);
  else {
    const readOptions: { delimiter?: Delimiter; extraHeaders?: string[] } = {};
    if (options.delimiter) readOptions.delimiter = options.delimiter;
    if (options.extraHeaders) readOptions.extraHeaders = options.extraHeaders;
    table = parseDelimited(decoded.text, readOptions);
    table.notes.unshift(...notes);
  }
  table.details = { encoding, ...table.details };
  return table;
}

function sniff(text: string): ImportFormat {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return 'kml';
  if (start.startsWith('{') || start.startsWith('[')) return 'geojson';
  return 'csv';
}

function failed(format: ImportFormat, message: string): ImportTable {
  return { format, columns: [], rows: [], decimalComma: false, notes: [], problems: [message], details: {} };
}

/** File bytes → preview (the dry run). Never throws; safe to run in a Web Worker. */
export async function previewImport(bytes: Uint8Array, options: ImportOptions = {}): Promise<ImportPreview> {
  const readOptions: ReadOptions = { ...options };
  if (options.mapping) readOptions.extraHeaders = [...(options.extraHeaders ?? []), ...Object.keys(options.mapping)];
  const table = await readImportTable(bytes, readOptions);
  return buildPreview(table, options);
}
