// KML, KMZ and GeoJSON → ImportTable: every placemark or feature becomes a row whose position
// comes from its Point, and whose name, description, ExtendedData / properties become columns that
// the shared alias table maps (so "height", "Group", "Siteid", "pinstyle" work as in a CSV).
// Anything that is not a single point (lines, polygons, overlays, no geometry) stays in the table as
// a skipped row with its reason, so the preview accounts for every placemark. Browser-safe: saxes
// and fflate are pure JavaScript.
import { decodeText } from './decode';
import { readKmlFeatures, type FeatureEntry, type GeoFeature } from './kml';
import { KmzProblem, kmzChoiceNotes, kmzEntryBytes, listKmz } from './kmz-entry';
import { jsonTooDeep, MAX_COLUMNS, nestingSentence, tooManyColumnsSentence, yieldToLoop } from './limits';
import { valueToCell, numberToCell, type ImportTable, type TableRow } from './table';

/** The position columns every geo table starts with, filled from the geometry. */
export const GEO_LATITUDE_COLUMN = 'Latitude';
export const GEO_LONGITUDE_COLUMN = 'Longitude';
/** The innermost KML folder of a placemark (not mapped automatically: map it to group if it is one). */
export const KML_FOLDER_COLUMN = 'Folder';

// Properties the KML reader adds for styling and display (togeojson's names, kept by ./kml); they
// are not site data and would only clutter the column list.
const STYLE_PROPERTIES = new Set([
  'styleUrl',
  'styleHash',
  'styleMapHash',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'fill',
  'fill-opacity',
  'icon',
  'icon-color',
  'icon-opacity',
  'icon-scale',
  'icon-heading',
  'icon-offset',
  'icon-offset-units',
  'label-color',
  'label-opacity',
  'label-scale',
  'visibility',
  'open',
  'timespan',
  'timestamp',
  'coordTimes',
  '@geometry-type',
  'marker-color',
  'marker-size',
  'marker-symbol',
]);

/** Reads a KML document (one streaming pass, see ./kml). Never throws. */
export function parseKml(text: string, format: 'kml' | 'kmz' = 'kml', notes: string[] = []): ImportTable {
  const read = readKmlFeatures(text);
  if (!read.ok) return emptyTable(format, notes, [read.problem]);
  const failures: string[] = [];
  if (read.entries.length === 0) failures.push('The KML has no placemarks.');
  return featuresToTable(read.entries, format, notes, failures, 'Placemark');
}

/** Opens a KMZ (a zip holding doc.kml, or else its first .kml file) and reads that KML. */
export function parseKmz(bytes: Uint8Array): Promise<ImportTable> {
  return readKmz(bytes, parseKml);
}

/**
 * The KMZ half, with the KML reader to use inside it (the equivalence test passes the former one):
 * the entry chosen and unpacked as a file's is (kmz-entry.ts), from bytes already in memory.
 */
export async function readKmz(bytes: Uint8Array, readKml: typeof parseKml): Promise<ImportTable> {
  const listed = await listKmz(slices(bytes));
  if (!listed.ok) return emptyTable('kmz', [], [listed.problem]);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of kmzEntryBytes(slices(bytes), listed.choice)) {
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    if (error instanceof KmzProblem) return emptyTable('kmz', [], [error.message]);
    throw error;
  }
  const content = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    content.set(chunk, offset);
    offset += chunk.length;
  }
  const notes = kmzChoiceNotes(listed.choice);
  const decoded = decodeText(content);
  if (!decoded.ok) return emptyTable('kmz', notes, [decoded.message]);
  const table = readKml(decoded.text, 'kmz', [...notes, ...decoded.notes]);
  table.details = { ...table.details, kml: listed.choice.name };
  return table;
}

/** Archive bytes handed to the KMZ reader at a time. */
const SLICE_BYTES = 64 * 1024;
/** The event loop runs at least this often while a KMZ is unpacked (ms). */
const UNZIP_SLICE_MS = 20;

/** `bytes` a slice at a time, the event loop turning between slices at least every UNZIP_SLICE_MS. */
async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  let sliceStart = Date.now();
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    yield bytes.subarray(at, at + SLICE_BYTES);
    if (Date.now() - sliceStart > UNZIP_SLICE_MS) {
      await yieldToLoop();
      sliceStart = Date.now();
    }
  }
}

/** Reads GeoJSON: a FeatureCollection, a single Feature, a bare geometry or an array of features. Never throws. */
export function parseGeoJson(text: string, notes: string[] = []): ImportTable {
  if (jsonTooDeep(text)) return emptyTable('geojson', notes, [nestingSentence('GeoJSON')]);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return emptyTable('geojson', notes, [`The GeoJSON is not valid JSON (${error instanceof Error ? error.message : String(error)}).`]);
  }
  const entries: FeatureEntry[] = [];
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (Array.isArray(data)) {
    for (const item of data) entries.push({ feature: asFeature(item) });
  } else if (type === 'FeatureCollection') {
    const features = (data as { features?: unknown }).features;
    if (!Array.isArray(features)) return emptyTable('geojson', notes, ['The FeatureCollection has no "features" list.']);
    for (const item of features) entries.push({ feature: asFeature(item) });
  } else if (type === 'Feature') {
    entries.push({ feature: data as GeoFeature });
  } else if (typeof type === 'string' && GEOMETRY_TYPES.has(type)) {
    entries.push({ feature: { type: 'Feature', geometry: data, properties: {} } });
  } else {
    return emptyTable('geojson', notes, ['The file is JSON but not GeoJSON (expected a FeatureCollection, a Feature or a Point).']);
  }
  if (entries.length === 0) return emptyTable('geojson', notes, ['The GeoJSON has no features.']);
  return featuresToTable(entries, 'geojson', notes, [], 'Feature');
}

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

export function asFeature(item: unknown): GeoFeature {
  if (typeof item === 'object' && item !== null) return item as GeoFeature;
  return { type: typeof item };
}

type Position = { ok: true; longitude: unknown; latitude: unknown } | { ok: false; reason: string };

const SHAPE_NAMES: Record<string, string> = {
  LineString: 'a line',
  MultiLineString: 'several lines',
  Polygon: 'an area (polygon)',
  MultiPolygon: 'several areas',
  MultiPoint: 'several points',
  GeometryCollection: 'several shapes',
};

/** The one point of a feature, or why there is none. A collection of exactly one point counts as that point. */
function pointOf(feature: GeoFeature, noun: string): Position {
  if (feature.type !== 'Feature') return { ok: false, reason: `The ${noun.toLowerCase()} is not a GeoJSON Feature.` };
  const geometry = feature.geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown } | null | undefined;
  // No geometry at all is not a shape we cannot use: the row may still edit a site by its ID (an
  // edit may leave the position as it is); validation says so when it is a new site.
  if (!geometry) return { ok: true, longitude: undefined, latitude: undefined };
  let point = geometry;
  if ((geometry.type === 'MultiPoint') && Array.isArray(geometry.coordinates) && geometry.coordinates.length === 1) {
    point = { type: 'Point', coordinates: geometry.coordinates[0] };
  }
  if (geometry.type === 'GeometryCollection' && Array.isArray(geometry.geometries) && geometry.geometries.length === 1) {
    point = geometry.geometries[0] as typeof point;
  }
  if (point.type !== 'Point') {
    const shape = typeof point.type === 'string' ? (SHAPE_NAMES[point.type] ?? `a ${point.type}`) : 'no point';
    const properties = feature.properties as Record<string, unknown> | null | undefined;
    const overlay = properties?.['@geometry-type'] === 'groundoverlay';
    return { ok: false, reason: `Only points can become sites; this ${noun.toLowerCase()} is ${overlay ? 'an image overlay' : shape}.` };
  }
  const coordinates = point.coordinates;
  if (!Array.isArray(coordinates) || coordinates.length < 2) {
    return { ok: false, reason: `The ${noun.toLowerCase()}'s point has no coordinates.` };
  }
  // GeoJSON and KML both write longitude first.
  return { ok: true, longitude: coordinates[0], latitude: coordinates[1] };
}

export function featuresToTable(entries: FeatureEntry[], format: ImportTable['format'], notes: string[], problems: string[], noun: string): ImportTable {
  const table = new FeatureRows(noun, entries.some((entry) => entry.folder !== undefined));
  const rows = entries.map((entry) => table.add(entry));
  if (table.columnsProblem !== null) return emptyTable(format, notes, [...problems, table.columnsProblem]);
  const skipped = table.skippedNote();
  if (skipped) notes.push(skipped);
  return { format, columns: table.columns, rows, decimalComma: false, notes, problems, details: {} };
}

/**
 * Features made rows one at a time: the position columns, then a column per property name in the
 * order first seen (so two readings of the same features give the same columns), a row per feature
 * numbered from 1. A row holds the cells its feature has (never padded to the columns: a feature's
 * missing properties are holes, read as ''), so 2,000 features of 50 different names each cost what
 * their text costs, not 2,000 × 100,000 cells. Past MAX_COLUMNS names the file is refused
 * (`columnsProblem`); no name past it is kept.
 */
export class FeatureRows {
  readonly columns: string[] = [GEO_LATITUDE_COLUMN, GEO_LONGITUDE_COLUMN];
  /** Set once the features name more than MAX_COLUMNS columns: why the file is refused. */
  columnsProblem: string | null = null;
  private readonly columnIndex: Map<string, number>;
  private readonly propertyColumns = new Map<string, number>();
  private count = 0;
  private skipped = 0;

  constructor(
    private readonly noun: string,
    private readonly hasFolders: boolean,
  ) {
    if (hasFolders) this.columns.push(KML_FOLDER_COLUMN);
    this.columnIndex = new Map<string, number>(this.columns.map((name, index) => [name, index]));
  }

  add(entry: FeatureEntry): TableRow {
    const cells: string[] = [];
    const row: TableRow = { row: ++this.count, cells };
    const position = pointOf(entry.feature, this.noun);
    if (position.ok) {
      cells[0] = coordinateCell(position.latitude);
      cells[1] = coordinateCell(position.longitude);
    } else {
      row.skip = position.reason;
      this.skipped++;
    }
    if (this.hasFolders) cells[2] = entry.folder ?? '';
    const properties = entry.feature.properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
        if (STYLE_PROPERTIES.has(key)) continue;
        let at = this.propertyColumns.get(key);
        if (at === undefined) {
          if (this.columns.length >= MAX_COLUMNS) {
            this.columnsProblem ??= tooManyColumnsSentence(`The ${this.noun.toLowerCase()}s' ${this.noun === 'Placemark' ? 'ExtendedData' : 'properties'} name too many different fields (one column each)`);
            continue;
          }
          // A property spelled like a fixed column ("Latitude") gets its own column, so the mapping
          // can report it as a second source for the same field instead of overwriting the point.
          const name = this.columnIndex.has(key) ? `${key} (property)` : key;
          at = this.columns.length;
          this.columns.push(name);
          this.columnIndex.set(name, at);
          this.propertyColumns.set(key, at);
        }
        cells[at] = valueToCell(value);
      }
      const name = (properties as Record<string, unknown>).name;
      if (typeof name === 'string' && name.trim() !== '') row.label = name.trim();
    }
    return row;
  }

  get rowCount(): number {
    return this.count;
  }

  skippedNote(): string | null {
    const { skipped, count, noun } = this;
    if (skipped === 0) return null;
    return `${skipped} of ${count} ${noun.toLowerCase()}s ${skipped === 1 ? 'is' : 'are'} not a single point and will be skipped (reasons in the preview).`;
  }
}

function coordinateCell(value: unknown): string {
  if (typeof value === 'number') return numberToCell(value);
  return valueToCell(value);
}

export function emptyTable(format: ImportTable['format'], notes: string[], problems: string[]): ImportTable {
  return { format, columns: [], rows: [], decimalComma: false, notes, problems, details: {} };
}
