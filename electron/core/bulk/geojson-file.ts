// A GeoJSON FeatureCollection previewed as it streams from disk, in the preview's worker: its
// features are split out as they are read (shared/bulk/geojson-stream.ts) and parsed one at a time,
// twice — first for the columns (every property name, in the order first seen, as featuresToTable
// makes them), then for the rows, each checked and written to the preview store — so the file is
// never one tree in memory. Any other shape, a file not in UTF-8 or broken JSON answers null: the
// caller reads it whole, where each of those has its sentence.
import { stat } from 'node:fs/promises';
import { decodeText } from '../../shared/bulk/decode';
import { asFeature, FeatureRows } from '../../shared/bulk/geo';
import { FeatureSplitter } from '../../shared/bulk/geojson-stream';
import type { ImportOptions } from '../../shared/bulk/import';
import { previewContext, previewHead, type ImportPreview, type PreviewContext } from '../../shared/bulk/preview';
import type { GeoFeature } from '../../shared/bulk/kml';
import { cutToCharacter, decodedPieces, HEAD_BYTES, NotUtf8, readStart, type Decoding } from './csv-file';
import type { PreviewStoreWriter } from './preview-store';

type Head = Omit<ImportPreview, 'rows' | 'summary'>;

/** Stops a pass: the file is read whole instead. */
class ReadWhole extends Error {}

export async function previewGeoJsonFile(path: string, options: ImportOptions, store: PreviewStoreWriter): Promise<Head | null> {
  const { size } = await stat(path);
  const start = await readStart(path, Math.min(size, HEAD_BYTES));
  const decided = decodeText(size <= HEAD_BYTES ? start : cutToCharacter(start));
  if (!decided.ok || decided.encoding !== 'utf-8') return null;
  const decoding: Decoding = { encoding: 'utf-8', bom: decided.bom, notes: decided.notes };
  try {
    // First pass: the columns, and whether the file is a FeatureCollection that splits.
    const columns = new FeatureRows('Feature', false);
    const first = await split(path, decoding, (feature) => columns.add({ feature }));
    if (first.problem !== null) return limitHead(options, first.problem, decoding);
    if (columns.columnsProblem !== null) return limitHead(options, columns.columnsProblem, decoding);
    if (columns.rowCount === 0) return null;
    // Second pass: the same rows again, now with every column known, checked and written.
    const rows = new FeatureRows('Feature', false);
    const skipped = columns.skippedNote();
    const notes = [...decoding.notes, ...(skipped ? [skipped] : [])];
    const encoding = `utf-8${decoding.bom ? ' with byte-order mark' : ''}`;
    const context: PreviewContext = previewContext({ format: 'geojson', columns: columns.columns, decimalComma: false, notes, problems: [], details: { encoding } }, options);
    await split(path, decoding, (feature) => {
      store.check(context, rows.add({ feature }));
    });
    return previewHead(context);
  } catch (error) {
    if (error instanceof ReadWhole || error instanceof NotUtf8) {
      store.clear();
      return null;
    }
    throw error;
  }
}

/** One pass over the file's features; throws ReadWhole when it is not a FeatureCollection that splits. */
async function split(path: string, decoding: Decoding, onFeature: (feature: GeoFeature) => void): Promise<{ problem: string | null }> {
  const splitter = new FeatureSplitter((text) => {
    let item: unknown;
    try {
      item = JSON.parse(text);
    } catch {
      throw new ReadWhole();
    }
    onFeature(asFeature(item));
  });
  for await (const piece of decodedPieces(path, decoding)) {
    splitter.push(piece);
    if (splitter.problem !== null) return { problem: splitter.problem };
    if (splitter.whole) throw new ReadWhole();
  }
  const skeleton = splitter.end();
  if (skeleton === null) throw new ReadWhole();
  let outside: unknown;
  try {
    outside = JSON.parse(skeleton);
  } catch {
    throw new ReadWhole();
  }
  const top = outside as { type?: unknown; features?: unknown } | null;
  if (typeof top !== 'object' || top === null || top.type !== 'FeatureCollection' || !Array.isArray(top.features) || top.features.length !== 0) throw new ReadWhole();
  return { problem: null };
}

/** A preview of no rows whose only problem is a limit's sentence. */
function limitHead(options: ImportOptions, problem: string, decoding: Decoding): Head {
  const details = { encoding: `utf-8${decoding.bom ? ' with byte-order mark' : ''}` };
  return previewHead(previewContext({ format: 'geojson', columns: [], decimalComma: false, notes: [...decoding.notes], problems: [problem], details }, options));
}
