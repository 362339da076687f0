// Bulk import benchmark: a 10,000-row CSV parsed, validated (mapping + the shared schema) and
// enqueued durably in one batch through the real core, each timed and together (target: under 1 s
// together, printed, not asserted); plus 10,000 KML placemarks and GeoJSON features to a preview,
// and KML at 10,000 and 100,000 placemarks with the streaming reader beside the previous DOM reader
// (xmldom + togeojson, test/bulk/reference) in the same run. Each figure is the median of a few runs
// after a warm-up, so one GC pause does not decide it. Then `sitewalk import` of a 40 MB CSV beside a
// 4 MB one (bulk-large.ts).
import { openCore } from '../../electron/core/open-core';
import { coreOutboxPort } from '../../electron/core/bulk/core-port';
import { exportGeoJson, exportKml, type ExportSite } from '../../electron/shared/bulk/export';
import { readImportTable } from '../../electron/shared/bulk/import';
import { decodeText } from '../../electron/shared/bulk/decode';
import { parseKml } from '../../electron/shared/bulk/geo';
import { buildPreview } from '../../electron/shared/bulk/preview';
import type { ImportTable } from '../../electron/shared/bulk/table';
import { referenceParseKml } from '../bulk/reference/togeojson-kml';
import type { BenchFigure } from './figures';
import { benchLargeCsv } from './bulk-large';
import { testCoreOptions } from '../support/core';
import { makeTempDir } from '../support/temp';

const ROWS = 10_000;
const RUNS = 5;

/** A spreadsheet the way an audit looks: every column, quoted descriptions with commas, Excel's BOM. */
export function auditCsv(rows: number): Uint8Array {
  const lines = ['Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle'];
  for (let i = 0; i < rows; i++) {
    const latitude = (40 + (i % 1000) / 1000).toFixed(6);
    const longitude = (-80 + Math.floor(i / 1000) / 100).toFixed(6);
    lines.push(`,Tower ${i + 1},${10 + (i % 90)},${latitude},${longitude},"Audit row ${i + 1}, lattice",Sector ${i % 12},${1 + (i % 4)}`);
  }
  return new TextEncoder().encode(`\uFEFF${lines.join('\r\n')}\r\n`);
}

function sites(count: number): ExportSite[] {
  return Array.from({ length: count }, (_, i) => ({
    siteId: String(200_000 + i),
    name: `Tower ${i + 1}`,
    height: 10 + (i % 90),
    latitude: 40 + (i % 1000) / 1000,
    longitude: -80 + Math.floor(i / 1000) / 100,
    description: `Audit row ${i + 1}`,
    group: `Sector ${i % 12}`,
    pinStyle: (1 + (i % 4)) as 1 | 2 | 3 | 4,
  }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

export async function benchBulk(): Promise<BenchFigure[]> {
  const csv = auditCsv(ROWS);
  const parse: number[] = [];
  const validate: number[] = [];
  // Warm-up run (JIT), then measured runs.
  buildPreview(await readImportTable(csv, { fileName: 'audit.csv' }));
  for (let run = 0; run < RUNS; run++) {
    const table = await timed(() => readImportTable(csv, { fileName: 'audit.csv' }));
    const preview = await timed(() => buildPreview(table.value));
    if (preview.value.summary.ready !== ROWS) throw new Error(`expected ${ROWS} ready rows, got ${preview.value.summary.ready}`);
    parse.push(table.ms);
    validate.push(preview.ms);
  }
  const enqueue = await benchEnqueue(csv);
  const parseMs = median(parse);
  const validateMs = median(validate);
  const figures: BenchFigure[] = [
    { name: `CSV ${ROWS.toLocaleString('en')} rows: parse`, value: round(parseMs), unit: 'ms', note: 'decode + separator detection + papaparse' },
    { name: `CSV ${ROWS.toLocaleString('en')} rows: map + validate`, value: round(validateMs), unit: 'ms', note: 'alias mapping + shared zod schema per row + duplicates' },
  ];
  {
    figures.push({ name: `CSV ${ROWS.toLocaleString('en')} rows: durable enqueue (one batch)`, value: round(enqueue.ms), unit: 'ms', note: enqueue.note });
    figures.push({
      name: `CSV ${ROWS.toLocaleString('en')} rows: parse + validate + enqueue`,
      value: round(parseMs + validateMs + enqueue.ms),
      unit: 'ms',
      baseline: 1000,
      ratio: round((parseMs + validateMs + enqueue.ms) / 1000, 3),
      note: 'target under 1 s (baseline = the target; ratio < 1 meets it)',
    });
  }

  const kml = new TextEncoder().encode(exportKml(sites(ROWS)).text);
  const geojson = new TextEncoder().encode(exportGeoJson(sites(ROWS)).text);
  const kmlTimes: number[] = [];
  const geoTimes: number[] = [];
  for (let run = 0; run < 3; run++) {
    kmlTimes.push((await timed(async () => buildPreview(await readImportTable(kml, { fileName: 'sites.kml' })))).ms);
    geoTimes.push((await timed(async () => buildPreview(await readImportTable(geojson, { fileName: 'sites.geojson' })))).ms);
  }
  figures.push({ name: `KML ${ROWS.toLocaleString('en')} placemarks: parse + validate`, value: round(median(kmlTimes)), unit: 'ms', note: `${Math.round(kml.length / 1024)} KiB, streaming reader (saxes)` });
  figures.push({ name: `GeoJSON ${ROWS.toLocaleString('en')} features: parse + validate`, value: round(median(geoTimes)), unit: 'ms', note: `${Math.round(geojson.length / 1024)} KiB` });
  figures.push(...benchKmlReaders(10_000, 3, 500), ...benchKmlReaders(100_000, 1));
  figures.push(...(await benchLargeCsv()));
  return figures;
}

type KmlReader = (text: string) => ImportTable;

/** Bytes → the import table with the given KML reader (the part the reader decides; mapping and validation are the same for both). */
function readKmlWith(reader: KmlReader, bytes: Uint8Array, placemarks: number): number {
  const start = performance.now();
  const decoded = decodeText(bytes);
  if (!decoded.ok) throw new Error(decoded.message);
  const table = reader(decoded.text);
  const ms = performance.now() - start;
  if (table.rows.length !== placemarks || table.problems.length > 0) throw new Error('the KML was not read');
  return ms;
}

/**
 * The streaming reader (value) beside the previous DOM reader (baseline), alternating run by run
 * on the same file so both see the same machine; ratio = streaming / DOM (smaller is better).
 */
function benchKmlReaders(placemarks: number, runs: number, targetMs?: number): BenchFigure[] {
  const bytes = new TextEncoder().encode(exportKml(sites(placemarks)).text);
  const streaming: number[] = [];
  const dom: number[] = [];
  readKmlWith(parseKml, bytes, placemarks);
  if (runs > 1) readKmlWith(referenceParseKml, bytes, placemarks);
  for (let run = 0; run < runs; run++) {
    streaming.push(readKmlWith(parseKml, bytes, placemarks));
    dom.push(readKmlWith(referenceParseKml, bytes, placemarks));
  }
  const value = median(streaming);
  const baseline = median(dom);
  const target = targetMs === undefined ? '' : `; target under ${targetMs} ms`;
  return [
    {
      name: `KML ${placemarks.toLocaleString('en')} placemarks: read (streaming)`,
      value: round(value),
      unit: 'ms',
      baseline: round(baseline),
      ratio: round(value / baseline, 3),
      note: `${Math.round(bytes.length / 1024)} KiB, decode + table; baseline = xmldom + togeojson (previous reader), median of ${runs}${target}`,
    },
  ];
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * The durable enqueue through the real core (one saveMany: one journal write + fsync), in a fresh
 * temporary data folder each run; the median of three.
 */
async function benchEnqueue(csv: Uint8Array): Promise<{ ms: number; note: string }> {
  const preview = buildPreview(await readImportTable(csv, { fileName: 'audit.csv' }));
  const edits = preview.rows.map((row) => row.edit!);
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const dir = await makeTempDir('sitewalk-bench-bulk-');
    try {
      const core = await openCore(testCoreOptions({ dataDir: dir.path, autoSync: false, sandbox: false }));
      try {
        const port = coreOutboxPort(core);
        const { ms, value } = await timed(() => port.enqueueSites(edits));
        if (!value.ok || value.entries.length !== ROWS) throw new Error('the batch was not queued');
        times.push(ms);
      } finally {
        await core.close();
      }
    } finally {
      await dir.remove();
    }
  }
  return { ms: median(times), note: 'core.sites.saveMany: one durable journal write, register updated' };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const figure of await benchBulk()) console.log(figure);
}
