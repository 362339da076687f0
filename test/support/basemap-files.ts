// Basemap files for tests, written from scratch: a raster MBTiles (a SQLite file, with better-sqlite3) and a
// PMTiles v3 archive (header, root directory and tile data laid out by hand after the spec,
// https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md). Every tile is a real 256 px PNG
// of one colour with a tEXt chunk naming it, so a browser draws it and a test can tell tiles apart:
// `basemapTile(z, x, y)` is the exact bytes stored for a tile.
//
//   await writeMbtiles(path, { bounds, minZoom: 8, maxZoom: 12 })          tiles for every z/x/y in bounds
//   await writePmtiles(path, { name: 'Hills', attribution: '&copy; Me' })   defaults: TEST_AREA, zoom 8-10
//   options.format 'pbf' (MBTiles) / tileType 'mvt' (PMTiles): vector files, for refusals
//   options.internalCompression 'gzip' (PMTiles): a gzip'd root directory and metadata
//   options.tiles: the exact tiles to write instead of every tile in the bounds
import { open, rm, truncate, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { rgbPng } from './png';
import { zxyToTileId } from 'pmtiles';
import { tileRange, type TileCoords } from '../../electron/core/tiles';

/** West, south, east, north: a valley near Bozeman, Montana (a few tiles per zoom at 8-12). */
export const TEST_AREA: [number, number, number, number] = [-111.2, 45.6, -110.9, 45.8];

export interface BasemapFileOptions {
  name?: string;
  attribution?: string;
  bounds?: [number, number, number, number];
  minZoom?: number;
  maxZoom?: number;
  /** Exactly these tiles (XYZ); default: every tile of bounds at each zoom. */
  tiles?: TileCoords[];
  /** The bytes stored for a tile; default basemapTile. */
  tileBytes?: (coords: TileCoords) => Buffer;
}

/** A valid 256×256 PNG of one colour (from z/x/y) with a tEXt comment "sitewalk z/x/y": unique per tile. */
export function basemapTile(z: number, x: number, y: number): Buffer {
  return rgbPng({ fill: [(40 + z * 20) % 256, (x * 37) % 256, (y * 53) % 256], comment: `sitewalk ${z}/${x}/${y}` });
}

/** Every tile the options describe, zoom by zoom. */
export function tilesFor(options: BasemapFileOptions): TileCoords[] {
  if (options.tiles) return options.tiles;
  const bounds = options.bounds ?? TEST_AREA;
  const tiles: TileCoords[] = [];
  for (let z = options.minZoom ?? 8; z <= (options.maxZoom ?? 10); z++) {
    const range = tileRange(bounds, z);
    for (let x = range.xMin; x <= range.xMax; x++) for (let y = range.yMin; y <= range.yMax; y++) tiles.push({ z, x, y });
  }
  return tiles;
}

export interface MbtilesOptions extends BasemapFileOptions {
  /** The metadata's format; 'pbf' makes a vector MBTiles. Default 'png'. */
  format?: string;
  /** Leave the metadata table out (bounds and zooms then come from the tiles). */
  withoutMetadata?: boolean;
}

/** Writes a raster MBTiles (rows stored TMS, as the spec says) and returns the tiles it holds. */
export async function writeMbtiles(path: string, options: MbtilesOptions = {}): Promise<TileCoords[]> {
  await rm(path, { force: true });
  const db = new Database(path);
  const tiles = tilesFor(options);
  const bytesOf = options.tileBytes ?? ((coords: TileCoords) => (options.format === 'pbf' ? gzipSync(Buffer.from(`vector ${coords.z}/${coords.x}/${coords.y}`)) : basemapTile(coords.z, coords.x, coords.y)));
  db.exec('CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)');
  db.exec('CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)');
  if (!options.withoutMetadata) {
    db.exec('CREATE TABLE metadata (name TEXT, value TEXT)');
    const bounds = options.bounds ?? TEST_AREA;
    const metadata: Record<string, string> = {
      name: options.name ?? 'Test basemap',
      format: options.format ?? 'png',
      bounds: bounds.join(','),
      minzoom: String(options.minZoom ?? 8),
      maxzoom: String(options.maxZoom ?? 10),
      type: 'baselayer',
      ...(options.attribution === undefined ? {} : { attribution: options.attribution }),
    };
    const insert = db.prepare('INSERT INTO metadata VALUES (?, ?)');
    for (const [key, value] of Object.entries(metadata)) insert.run(key, value);
  }
  const insert = db.prepare('INSERT INTO tiles VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const coords of tiles) insert.run(coords.z, coords.x, 2 ** coords.z - 1 - coords.y, bytesOf(coords));
  })();
  db.close();
  return tiles;
}

export interface PmtilesOptions extends BasemapFileOptions {
  /** The header's tile type; 'mvt' makes a vector archive. Default 'png'. */
  tileType?: 'png' | 'jpeg' | 'webp' | 'mvt';
  /** How the root directory and the metadata are stored. Default 'none'. */
  internalCompression?: 'none' | 'gzip';
}

const TILE_TYPES = { mvt: 1, png: 2, jpeg: 3, webp: 4 } as const;

/** A PMTiles directory varint: seven bits a byte, low bits first (the hostile archives write them too). */
export function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** Writes a PMTiles v3 archive (one root directory, no leaves) and returns the tiles it holds. */
export async function writePmtiles(path: string, options: PmtilesOptions = {}): Promise<TileCoords[]> {
  const tiles = tilesFor(options);
  const bytesOf = options.tileBytes ?? ((coords: TileCoords) => basemapTile(coords.z, coords.x, coords.y));
  const entries = tiles.map((coords) => ({ tileId: zxyToTileId(coords.z, coords.x, coords.y), data: bytesOf(coords) })).sort((a, b) => a.tileId - b.tileId);
  let offset = 0;
  const placed = entries.map((entry) => {
    const at = offset;
    offset += entry.data.length;
    return { ...entry, offset: at };
  });
  // The directory: count, tile ID deltas, run lengths, lengths, offsets (0 = right after the previous tile, else offset + 1).
  const directory: number[] = [...varint(placed.length)];
  let lastId = 0;
  for (const entry of placed) {
    directory.push(...varint(entry.tileId - lastId));
    lastId = entry.tileId;
  }
  for (const _entry of placed) directory.push(...varint(1));
  for (const entry of placed) directory.push(...varint(entry.data.length));
  placed.forEach((entry, index) => directory.push(...varint(index > 0 && entry.offset === placed[index - 1]!.offset + placed[index - 1]!.data.length ? 0 : entry.offset + 1)));
  const gzip = options.internalCompression === 'gzip';
  const rootDirectory = gzip ? gzipSync(Buffer.from(directory)) : Buffer.from(directory);
  const metadataJson = Buffer.from(JSON.stringify({ name: options.name ?? 'Test basemap', ...(options.attribution === undefined ? {} : { attribution: options.attribution }) }), 'utf8');
  const metadata = gzip ? gzipSync(metadataJson) : metadataJson;
  const tileData = Buffer.concat(placed.map((entry) => entry.data));

  const HEADER = 127;
  const rootOffset = HEADER;
  const metadataOffset = rootOffset + rootDirectory.length;
  const tileDataOffset = metadataOffset + metadata.length;
  const header = Buffer.alloc(HEADER);
  header.write('PMTiles', 0, 'latin1');
  header[7] = 3;
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(rootOffset, 8);
  u64(rootDirectory.length, 16);
  u64(metadataOffset, 24);
  u64(metadata.length, 32);
  u64(tileDataOffset + tileData.length, 40); // leaf directories: none
  u64(0, 48);
  u64(tileDataOffset, 56);
  u64(tileData.length, 64);
  u64(placed.length, 72); // addressed tiles
  u64(placed.length, 80); // tile entries
  u64(placed.length, 88); // tile contents
  header[96] = 1; // clustered
  header[97] = gzip ? 2 : 1; // internal compression
  header[98] = 1; // tile compression: none
  header[99] = TILE_TYPES[options.tileType ?? 'png'];
  const minZoom = options.minZoom ?? 8;
  const maxZoom = options.maxZoom ?? 10;
  header[100] = minZoom;
  header[101] = maxZoom;
  const [west, south, east, north] = options.bounds ?? TEST_AREA;
  header.writeInt32LE(Math.round(west * 1e7), 102);
  header.writeInt32LE(Math.round(south * 1e7), 106);
  header.writeInt32LE(Math.round(east * 1e7), 110);
  header.writeInt32LE(Math.round(north * 1e7), 114);
  header[118] = minZoom;
  header.writeInt32LE(Math.round(((west + east) / 2) * 1e7), 119);
  header.writeInt32LE(Math.round(((south + north) / 2) * 1e7), 123);
  await writeFile(path, Buffer.concat([header, rootDirectory, metadata, tileData]));
  return tiles;
}

/**
 * Makes an MBTiles larger than `size` bytes without writing them: the file is extended (sparse) and
 * its header told it has that many pages, then `later` tiles are inserted, so SQLite places them
 * after the hole, beyond `size`. The pages in the hole belong to nothing, which readers ignore.
 */
export async function growMbtilesSparse(path: string, size: number, later: TileCoords[]): Promise<void> {
  const handle = await open(path, 'r+');
  let fileSize: number;
  try {
    const header = Buffer.alloc(100);
    await handle.read(header, 0, 100, 0);
    const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
    const pages = Math.ceil(size / pageSize);
    // The in-header size counts only when "version-valid-for" (92) equals the change counter (24).
    if (header.readUInt32BE(92) !== header.readUInt32BE(24)) throw new Error('the header page count is not in use');
    const count = Buffer.alloc(4);
    count.writeUInt32BE(pages);
    await handle.write(count, 0, 4, 28);
    fileSize = pages * pageSize;
  } finally {
    await handle.close();
  }
  await truncate(path, fileSize);
  const db = new Database(path);
  const insert = db.prepare('INSERT INTO tiles VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const coords of later) insert.run(coords.z, coords.x, 2 ** coords.z - 1 - coords.y, basemapTile(coords.z, coords.x, coords.y));
  })();
  db.close();
}
