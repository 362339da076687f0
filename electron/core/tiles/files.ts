// Raster basemap files made in the office, read where they are, at any size: MBTiles (SQLite, read-only
// through better-sqlite3, in the host's reader process with a deadline per read: mbtiles-pool.ts) and PMTiles v3 (our bounded reader over a file handle). Only raster tiles:
// a file of vector tiles, or anything else, is refused with a sentence that says what to do. Opening
// never throws: every outcome is an OpenedTileFile; a file that breaks a read limit (limits.ts) is
// refused with `limit: true`, and a tile read that breaks one throws a TileFileLimitError.
// MBTiles rows are TMS (row 0 at the south): tile() takes XYZ.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Bounds } from '../../shared/contract/basemaps';
import type { TileCoords } from './coords';
import { TileFileLimitError } from './limits';
import { sharedMbtilesPool } from './mbtiles-fork';
import { MbtilesReaderUnavailable, type AsyncMbtilesReader, type MbtilesPool } from './mbtiles-pool';
import { openPmtilesReader } from './pmtiles-reader';

export type TileFileKind = 'mbtiles' | 'pmtiles';

export interface TileFileInfo {
  kind: TileFileKind;
  /** The name stored in the file, else the file's name without its extension. */
  name: string;
  attribution: string;
  bounds: Bounds | null;
  minZoom: number;
  maxZoom: number;
  /** image/png, image/jpeg, image/webp or image/avif: what the file says its tiles are. */
  contentType: string;
  sizeBytes: number;
  /** When the file was last changed: a different one means the file was replaced. */
  mtimeMs: number;
}

export interface TileFile {
  readonly path: string;
  readonly info: TileFileInfo;
  /** The tile's bytes, or null when the file has none there. Throws when the file cannot be read. */
  tile(coords: TileCoords): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** `limit`: the file broke a read limit (limits.ts): the basemap is disabled until the user acts. */
export type OpenedTileFile = { ok: true; file: TileFile } | { ok: false; message: string; detail: string; limit?: boolean };

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const PMTILES_MAGIC = Buffer.from('PMTiles', 'latin1');

function refused(message: string, detail: string): OpenedTileFile {
  return { ok: false, message, detail };
}

/** An open file: tiles are read through `read` until close, which releases the file once. */
function opened(path: string, info: TileFileInfo, read: (coords: TileCoords) => Promise<Buffer | null>, release: () => unknown): OpenedTileFile {
  let open = true;
  return {
    ok: true,
    file: {
      path,
      info,
      async tile(coords) {
        if (!open) throw new Error('the basemap file is closed');
        return read(coords);
      },
      async close() {
        if (!open) return;
        open = false;
        await release();
      },
    },
  };
}

/** The media type of an image's bytes, from its first bytes (never from what the file claims). */
export function sniffImageType(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16));
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]$/.test(b.toString('latin1', 8, 12))) return 'image/avif';
  return null;
}

const VECTOR_SENTENCE =
  'holds vector tiles (map data drawn by a style), and Sitewalk shows raster basemaps only. Export the area as raster tiles (PNG, JPEG or WebP), for example with QGIS "Generate XYZ tiles (MBTiles)".';

/**
 * Opens a raster MBTiles or PMTiles file; the kind is read from the file's first bytes, not its name.
 * MBTiles files are read in `mbtiles`'s process (the basemaps' own pool; else one shared by the process).
 */
export async function openTileFile(path: string, mbtiles: MbtilesPool = sharedMbtilesPool()): Promise<OpenedTileFile> {
  const shown = basename(path);
  let size: number;
  let mtimeMs: number;
  let head: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile()) return refused(`"${shown}" is a folder, not a basemap file.`, path);
    size = info.size;
    mtimeMs = info.mtimeMs;
    const handle = await open(path, 'r');
    try {
      head = Buffer.alloc(Math.min(16, size));
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return refused(`There is no file at ${path}.`, 'ENOENT');
    if (code === 'EACCES' || code === 'EPERM') return refused(`Sitewalk may not read "${shown}" (no permission).`, String(code));
    return refused(`"${shown}" cannot be read.`, error instanceof Error ? error.message : String(error));
  }
  if (head.length >= SQLITE_MAGIC.length && head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    return openMbtiles(mbtiles, path, shown, size, mtimeMs);
  }
  if (head.length >= 8 && head.subarray(0, PMTILES_MAGIC.length).equals(PMTILES_MAGIC)) {
    if (head[7] !== 3) {
      return refused(`"${shown}" is a PMTiles file of version ${head[7] ?? '?'}; Sitewalk reads version 3. Convert it with "pmtiles convert".`, `spec version ${head[7] ?? '?'}`);
    }
    return openPmtiles(path, shown, size, mtimeMs);
  }
  if (head.length >= 2 && head[0] === 0x50 && head[1] === 0x4d) {
    return refused(`"${shown}" is an old PMTiles file (version 2); Sitewalk reads version 3. Convert it with "pmtiles convert".`, 'spec version 2');
  }
  return refused(`"${shown}" is not a basemap file: Sitewalk reads raster MBTiles (.mbtiles) and PMTiles (.pmtiles) files.`, `first bytes: ${head.toString('hex')}`);
}

function withoutExtension(name: string): string {
  return name.replace(/\.(mbtiles|pmtiles|sqlite|db)$/i, '') || name;
}

/** C0 controls and DEL become spaces: a file's text is shown, never interpreted. */
function withoutControls(text: string): string {
  return Array.from(text, (char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? ' ' : char)).join('');
}

/** Leaflet shows attribution as HTML: keep text and entities, drop tags (a file can say anything). */
function plainAttribution(value: unknown): string {
  if (typeof value !== 'string') return '';
  return withoutControls(value)
    .replace(/<[^>]*>/g, '')
    .replace(/[<>]/g, '')
    .trim()
    .slice(0, 500);
}

function plainName(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  const text = withoutControls(value).replace(/[<>]/g, ' ').trim().slice(0, 80);
  return text === '' ? fallback : text;
}

/** "w,s,e,n" (MBTiles) or numbers (PMTiles) as Bounds, clamped to the map; null when not usable. */
function toBounds(values: readonly number[]): Bounds | null {
  if (values.length !== 4 || !values.every((value) => Number.isFinite(value))) return null;
  const [west, south, east, north] = values as [number, number, number, number];
  const clamped: Bounds = [Math.max(-180, west), Math.max(-85.0511, south), Math.min(180, east), Math.min(85.0511, north)];
  if (clamped[0] >= clamped[2] || clamped[1] >= clamped[3]) return null;
  return clamped;
}

const FORMAT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', avif: 'image/avif' };

// ---------- MBTiles ----------

async function openMbtiles(pool: MbtilesPool, path: string, shown: string, size: number, mtimeMs: number): Promise<OpenedTileFile> {
  let reader: AsyncMbtilesReader;
  try {
    reader = await pool.open(path, shown);
  } catch (error) {
    return refusedFor(error, `"${shown}" cannot be opened as an MBTiles file (it may be damaged).`);
  }
  try {
    const { tables, metadata } = reader;
    if (!tables.has('tiles')) {
      await reader.close();
      return refused(`"${shown}" is a SQLite database but not an MBTiles basemap (it has no tiles table).`, `tables: ${[...tables].join(', ').slice(0, 200)}`);
    }
    const format = (metadata.get('format') ?? '').trim().toLowerCase();
    if (format === 'pbf' || format === 'mvt' || format === 'mlt') {
      await reader.close();
      return refused(`"${shown}" ${VECTOR_SENTENCE}`, `metadata format ${format}`);
    }
    const sample = await reader.anyTile();
    if (!sample) {
      await reader.close();
      return refused(`"${shown}" has no tiles.`, 'the tiles table is empty');
    }
    const sniffed = sniffImageType(sample);
    if (!sniffed) {
      await reader.close();
      const gzip = sample[0] === 0x1f && sample[1] === 0x8b;
      return gzip || format === '' ? refused(`"${shown}" ${VECTOR_SENTENCE}`, `first tile starts ${sample.subarray(0, 8).toString('hex')}`) : refused(`"${shown}" holds tiles that are not images Sitewalk can show (format "${format.slice(0, 20)}").`, `format ${format.slice(0, 20)}`);
    }
    let minZoom = Number.parseInt(metadata.get('minzoom') ?? '', 10);
    let maxZoom = Number.parseInt(metadata.get('maxzoom') ?? '', 10);
    if (!Number.isInteger(minZoom) || !Number.isInteger(maxZoom) || minZoom > maxZoom) {
      const range = await reader.zoomRange();
      minZoom = range.min;
      maxZoom = range.max;
    }
    const info: TileFileInfo = {
      kind: 'mbtiles',
      name: plainName(metadata.get('name'), withoutExtension(shown)),
      attribution: plainAttribution(metadata.get('attribution')),
      bounds: toBounds((metadata.get('bounds') ?? '').split(',').map((part) => Number.parseFloat(part))),
      minZoom: clampZoom(minZoom),
      maxZoom: clampZoom(maxZoom),
      contentType: FORMAT_TYPES[format] ?? sniffed,
      sizeBytes: size,
      mtimeMs,
    };
    return opened(path, info, (coords) => reader.tile(coords), () => reader.close());
  } catch (error) {
    await reader.close();
    return refusedFor(error, `"${shown}" cannot be read as an MBTiles file (it may be damaged).`);
  }
}

// ---------- PMTiles ----------

const PMTILES_RASTER: Partial<Record<number, string>> = { 2: 'image/png', 3: 'image/jpeg', 4: 'image/webp', 5: 'image/avif' };
const PMTILES_VECTOR = new Set([1, 6]);

async function openPmtiles(path: string, shown: string, size: number, mtimeMs: number): Promise<OpenedTileFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return refused(`"${shown}" cannot be read.`, error instanceof Error ? error.message : String(error));
  }
  try {
    const reader = await openPmtilesReader(handle, size, shown);
    const { header } = reader;
    if (PMTILES_VECTOR.has(header.tileType)) {
      await handle.close();
      return refused(`"${shown}" ${VECTOR_SENTENCE}`, `tile type ${header.tileType}`);
    }
    const contentType = PMTILES_RASTER[header.tileType];
    if (!contentType) {
      await handle.close();
      return refused(`"${shown}" does not say its tiles are images (PNG, JPEG, WebP or AVIF); Sitewalk shows raster basemaps only.`, `tile type ${header.tileType}`);
    }
    let metadata: Record<string, unknown> = {};
    try {
      const read = await reader.metadata();
      if (read && typeof read === 'object' && !Array.isArray(read)) metadata = read as Record<string, unknown>;
    } catch (error) {
      // Unreadable JSON costs the name and attribution only; a block over its limit refuses the file.
      if (error instanceof TileFileLimitError && error.kind === 'limit') throw error;
    }
    const info: TileFileInfo = {
      kind: 'pmtiles',
      name: plainName(metadata['name'], withoutExtension(shown)),
      attribution: plainAttribution(metadata['attribution']),
      bounds: toBounds([header.minLon, header.minLat, header.maxLon, header.maxLat]),
      minZoom: clampZoom(header.minZoom),
      maxZoom: clampZoom(header.maxZoom),
      contentType,
      sizeBytes: size,
      mtimeMs,
    };
    return opened(path, info, (coords) => reader.tile(coords), () => handle.close());
  } catch (error) {
    await handle.close().catch(() => undefined);
    return refusedFor(error, `"${shown}" cannot be read as a PMTiles file (it may be damaged or cut short).`);
  }
}

/** A limit broken is said as itself (and disables the basemap), as is a reader that cannot take the read; anything else with `sentence`. */
function refusedFor(error: unknown, sentence: string): OpenedTileFile {
  if (error instanceof TileFileLimitError) return { ok: false, message: error.sentence, detail: error.message, limit: error.kind === 'limit' };
  // The reader could not take it: said as such, the file not called damaged.
  if (error instanceof MbtilesReaderUnavailable) return refused(error.message, error.busy ? 'reader busy' : 'reader unavailable');
  return refused(sentence, error instanceof Error ? error.message : String(error));
}

function clampZoom(zoom: number): number {
  return Math.max(0, Math.min(22, Number.isFinite(zoom) ? Math.trunc(zoom) : 0));
}
