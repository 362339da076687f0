// A KML file, or the KML inside a KMZ, previewed as it streams from disk, in the preview's worker:
// bytes (unpacked a step at a time for a KMZ: shared/bulk/kmz-entry.ts) → text (the encoding decided from the
// start as decodeText decides it, UTF-8 checked to the end and read again as Windows-1252 when it is
// not) → KmlReader (kml.ts) → one row per placemark → the preview store. What stays in memory is a
// piece of the file, the placemark being read and the counts, whatever the file's size.
// Read twice, as a GeoJSON FeatureCollection is: first for what only the whole file says — the
// columns (every property name, in the order first seen), whether a Folder column is needed, every
// <SimpleField> type (a <Schema> may follow the data it types) and the folders renamed after their
// placemarks — then for the rows, each typed, checked and written with all of that known, so the
// table is the one the whole-file reader makes, row for row.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { decodeText, decodeWindows1252, doubleEncodedNote, windows1252Fallback, oddUtf16Sentence, brokenUtf8WithBomSentence } from '../../shared/bulk/decode';
import { FeatureRows } from '../../shared/bulk/geo';
import type { ImportOptions } from '../../shared/bulk/import';
import { entryOf, folderLabel, KmlReader, type KmlEnd, type OnFeature } from '../../shared/bulk/kml';
import { finishFeature, type TypeConverter } from '../../shared/bulk/kml-feature';
import { previewContext, previewHead, type ImportPreview } from '../../shared/bulk/preview';
import { bomBytes, cutToCharacter, decodeBytePieces, HEAD_BYTES, NotUtf8, Unreadable, type Decoding } from './csv-file';
import { KmzProblem, kmzChoiceNotes, kmzEntryBytes, listKmz } from '../../shared/bulk/kmz-entry';
import type { PreviewStoreWriter } from './preview-store';

type Head = Omit<ImportPreview, 'rows' | 'summary'>;

const PIECE_BYTES = 1024 * 1024;

/** The KML's bytes from the start, each time they are asked for. */
type ByteSource = () => AsyncIterable<Uint8Array>;

interface Document {
  format: 'kml' | 'kmz';
  source: ByteSource;
  /** Said before the encoding's notes (a KMZ's choice of entry). */
  notes: string[];
  details: Record<string, string>;
}

function fileBytes(path: string): ByteSource {
  return () => createReadStream(path, { highWaterMark: PIECE_BYTES }) as AsyncIterable<Uint8Array>;
}

/**
 * Previews the KML or KMZ at `path` into `store` (rows) and answers the preview's head; `zip`: the
 * file starts as a zip archive (the caller has read its head). Never throws for the file's content.
 */
export async function previewKmlFile(path: string, format: 'kml' | 'kmz', zip: boolean, options: ImportOptions, store: PreviewStoreWriter): Promise<Head> {
  let document: Document;
  if (format === 'kml') {
    document = { format, source: fileBytes(path), notes: [], details: {} };
  } else if (!zip) {
    return refusedHead({ format, notes: [], details: {} }, options, [], 'The file is called .kmz but is not a zip archive; it may be a plain KML: rename it to .kml.');
  } else {
    const listed = await listKmz(fileBytes(path)());
    if (!listed.ok) return refusedHead({ format, notes: [], details: {} }, options, [], listed.problem);
    document = { format, source: () => kmzEntryBytes(fileBytes(path)(), listed.choice), notes: kmzChoiceNotes(listed.choice), details: { kml: listed.choice.name } };
    // Unpacked once without being read, so an entry past the bound (whatever its header claims) is
    // refused before any of it is parsed: the parser would hold a long text run meanwhile.
    try {
      for await (const piece of document.source()) void piece;
    } catch (error) {
      // As the whole-archive reader says it: before any note on the entry chosen.
      if (error instanceof KmzProblem) return refusedHead({ format, notes: [], details: {} }, options, [], error.message);
      throw error;
    }
  }
  try {
    return await previewDocument(document, options, store, format === 'kml' ? (await stat(path)).size : null);
  } catch (error) {
    if (error instanceof KmzProblem) {
      store.clear();
      return refusedHead({ format, notes: [], details: {} }, options, [], error.message);
    }
    throw error;
  }
}

async function previewDocument(document: Document, options: ImportOptions, store: PreviewStoreWriter, fileSize: number | null): Promise<Head> {
  const { bytes: start, whole } = await startOf(document.source);
  const decided = decodeText(whole ? start : cutToCharacter(start));
  if (!decided.ok) return refusedHead(document, options, [], decided.message);
  let decoding: Decoding = { encoding: decided.encoding, bom: decided.bom, notes: decided.notes };
  if (fileSize !== null && decoding.encoding.startsWith('utf-16') && (fileSize - bomBytes(decoding)) % 2 !== 0) {
    return refusedHead(document, options, [], oddUtf16Sentence(decoding.encoding as 'utf-16le'));
  }
  for (;;) {
    try {
      return await readRows(document, options, store, decoding);
    } catch (error) {
      store.clear();
      if (error instanceof Unreadable) return refusedHead(document, options, decoding.notes, error.message);
      if (!(error instanceof NotUtf8)) throw error;
      if (decoding.bom) return refusedHead(document, options, [], brokenUtf8WithBomSentence(error.offset));
      const fallback = windows1252Fallback(decodeWindows1252(start), error.offset);
      if (!fallback.ok) return refusedHead(document, options, [], fallback.message);
      decoding = { encoding: 'windows-1252', bom: false, notes: fallback.notes };
    }
  }
}

/** The first HEAD_BYTES of the source (decodeText's checks read its first 65,536 characters), and whether that is all of it. */
async function startOf(source: ByteSource): Promise<{ bytes: Uint8Array; whole: boolean }> {
  const pieces: Uint8Array[] = [];
  let size = 0;
  let whole = true;
  for await (const piece of source()) {
    pieces.push(piece);
    size += piece.length;
    if (size >= HEAD_BYTES) {
      whole = false;
      break;
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return { bytes: whole ? bytes : bytes.subarray(0, HEAD_BYTES), whole };
}

/** The source's bytes after the byte-order mark. */
async function* afterBom(source: ByteSource, skip: number): AsyncGenerator<Uint8Array> {
  for await (const piece of source()) {
    if (skip >= piece.length) {
      skip -= piece.length;
      continue;
    }
    yield skip > 0 ? piece.subarray(skip) : piece;
    skip = 0;
  }
}

/** One reading of the document: each feature to `onFeature`; `notes` gains what the text shows of itself. */
async function readOnce(document: Document, decoding: Decoding, onFeature: OnFeature, position: boolean, notes?: string[]): Promise<KmlEnd> {
  const reader = new KmlReader(onFeature, position);
  const skip = bomBytes(decoding);
  let saidTwice = false;
  for await (const text of decodeBytePieces(afterBom(document.source, skip), decoding, skip)) {
    // decodeText looks at the whole text for it; here each piece is looked at.
    if (notes && decoding.encoding === 'utf-8' && !saidTwice) {
      const twice = doubleEncodedNote(text);
      if (twice) notes.push(twice);
      saidTwice = twice !== null;
    }
    reader.push(text);
    if (reader.failed) break;
  }
  return reader.end();
}

// The first reading types nothing: types change values, never names.
const NO_SCHEMA: ReadonlyMap<string, TypeConverter> = new Map();

async function readRows(document: Document, options: ImportOptions, store: PreviewStoreWriter, decoding: Decoding): Promise<Head> {
  const encodingNotes = [...decoding.notes];
  // First reading: the columns both ways (whether a Folder column leads them is known at the end).
  const withFolders = new FeatureRows('Placemark', true);
  const withoutFolders = new FeatureRows('Placemark', false);
  const first = await readOnce(
    document,
    decoding,
    (pending) => {
      // Types change values, never names: the columns come out the same with the schema not yet whole.
      const feature = finishFeature(pending, NO_SCHEMA);
      withFolders.add({ feature });
      withoutFolders.add({ feature });
    },
    false,
    encodingNotes,
  );
  const details = document.format === 'kml' ? { encoding: `${decoding.encoding}${decoding.bom ? ' with byte-order mark' : ''}`, ...document.details } : document.details;
  const notes = [...document.notes, ...encodingNotes];
  if (!first.ok) {
    // Line and column cost a good part of a reading: only a file that fails is read again with them.
    const problem = first.final ? first.problem : await readOnce(document, decoding, () => {}, true).then((again) => (again.ok ? first.problem : again.problem));
    return refusedHead(document, options, encodingNotes, problem, details);
  }
  const columns = first.hasFolders ? withFolders : withoutFolders;
  if (columns.columnsProblem !== null) return refusedHead(document, options, encodingNotes, columns.columnsProblem, details);
  if (columns.rowCount === 0) {
    return previewHead(previewContext({ format: document.format, columns: new FeatureRows('Placemark', false).columns, decimalComma: false, notes, problems: ['The KML has no placemarks.'], details }, options));
  }
  const skipped = columns.skippedNote();
  const context = previewContext({ format: document.format, columns: columns.columns, decimalComma: false, notes: skipped ? [...notes, skipped] : notes, problems: [], details }, options);
  // Second reading: every row typed with the whole schema, in its final folder, checked and written.
  const rows = new FeatureRows('Placemark', first.hasFolders);
  const second = await readOnce(
    document,
    decoding,
    (pending, folder) => {
      store.check(context, rows.add(entryOf(finishFeature(pending, first.schema), folderLabel(folder, first.lateNames))));
    },
    false,
  );
  if (!second.ok || rows.rowCount !== columns.rowCount) {
    store.clear();
    return refusedHead(document, options, encodingNotes, second.ok ? 'The file changed while it was read; open it again.' : second.problem, details);
  }
  return previewHead(context);
}

/** A preview of no rows whose only problem is `problem` (nothing of the file may be applied). */
function refusedHead(document: Pick<Document, 'format' | 'notes' | 'details'>, options: ImportOptions, encodingNotes: string[], problem: string, details = document.details): Head {
  const notes = [...document.notes, ...encodingNotes];
  return previewHead(previewContext({ format: document.format, columns: [], decimalComma: false, notes, problems: [problem], details }, options));
}
