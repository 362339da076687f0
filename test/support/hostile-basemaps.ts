// Basemap files made to harm, generated here (no binary fixtures), each small on disk or sparse:
// read the way a careless reader reads them, every one would take more than 400 MB or abort Node.
//   entryOf2GiB      under 1 KB: one tile entry whose length is 2^31 (fs.read's int32 assertion)
//   leafBomb         ~400 KB: a gzip leaf directory that inflates to 100 million entries (400 MB)
//   gigabytePng      sparse 1 GiB + a bit: one "PNG" tile of 1 GiB
//   metadataBomb     ~400 KB: gzip metadata that inflates to 400 MB of JSON
//   mbtilesHugeTile  an MBTiles whose one tile is 128 MB
//   mbtilesEndlessView  an MBTiles whose `tiles` is a view: the good tile at once, HOSTILE_TILE only
//                    after a recursive CTE of 10^12 steps (hours of one core in SQLite)
// Gzip bombs are many copies of one small gzip member: gunzip reads concatenated members as one
// stream, so the bomb costs one compression of 1 MiB to make.
import { open, truncate, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { zxyToTileId } from 'pmtiles';
import { basemapTile, TEST_AREA, varint } from './basemap-files';

export interface RawEntry {
  tileId: number;
  /** 0: the entry points to a leaf directory. */
  runLength: number;
  offset: number;
  length: number;
}

/** A PMTiles directory, as the spec encodes it (offsets written explicitly, as offset + 1). */
export function encodeDirectory(entries: RawEntry[]): Buffer {
  const bytes: number[] = [...varint(entries.length)];
  let last = 0;
  for (const entry of entries) {
    bytes.push(...varint(entry.tileId - last));
    last = entry.tileId;
  }
  for (const entry of entries) bytes.push(...varint(entry.runLength));
  for (const entry of entries) bytes.push(...varint(entry.length));
  for (const entry of entries) bytes.push(...varint(entry.offset + 1));
  return Buffer.from(bytes);
}

export interface RawPmtiles {
  root: Buffer;
  leaves?: Buffer;
  metadata?: Buffer;
  tileData?: Buffer;
  /** Bytes of tile data the header claims beyond tileData (the file is extended, sparse). */
  sparseTileData?: number;
  internalCompression?: 'none' | 'gzip';
}

/** Lays out a PMTiles v3 archive from raw parts: header, root, metadata, leaves, tile data. */
export async function writeRawPmtiles(path: string, parts: RawPmtiles): Promise<void> {
  const metadata = parts.metadata ?? Buffer.from('{"name":"Hostile"}');
  const leaves = parts.leaves ?? Buffer.alloc(0);
  const tileData = parts.tileData ?? Buffer.alloc(0);
  const HEADER = 127;
  const rootOffset = HEADER;
  const metadataOffset = rootOffset + parts.root.length;
  const leafOffset = metadataOffset + metadata.length;
  const tileDataOffset = leafOffset + leaves.length;
  const tileDataLength = tileData.length + (parts.sparseTileData ?? 0);
  const header = Buffer.alloc(HEADER);
  header.write('PMTiles', 0, 'latin1');
  header[7] = 3;
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(rootOffset, 8);
  u64(parts.root.length, 16);
  u64(metadataOffset, 24);
  u64(metadata.length, 32);
  u64(leafOffset, 40);
  u64(leaves.length, 48);
  u64(tileDataOffset, 56);
  u64(tileDataLength, 64);
  header[96] = 1;
  header[97] = parts.internalCompression === 'gzip' ? 2 : 1;
  header[98] = 1;
  header[99] = 2; // png
  header[100] = 0;
  header[101] = 14;
  const [west, south, east, north] = TEST_AREA;
  header.writeInt32LE(Math.round(west * 1e7), 102);
  header.writeInt32LE(Math.round(south * 1e7), 106);
  header.writeInt32LE(Math.round(east * 1e7), 110);
  header.writeInt32LE(Math.round(north * 1e7), 114);
  await writeFile(path, Buffer.concat([header, parts.root, metadata, leaves, tileData]));
  if (parts.sparseTileData) await truncate(path, tileDataOffset + tileDataLength);
}

/** `total` bytes of `fill` (after `prefix`) as concatenated gzip members of 1 MiB each. */
export function gzipBomb(total: number, fill: number, prefix: Buffer = Buffer.alloc(0)): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024, fill), { level: 9 });
  const count = Math.ceil(total / (1024 * 1024));
  return Buffer.concat([gzipSync(prefix), ...Array.from({ length: count }, () => member)]);
}

/** The tile the hostile files claim: zoom 10 in the test area. */
export const HOSTILE_TILE = { z: 10, x: 195, y: 365 } as const;
/** A good tile beside it, at zoom 9. */
export const GOOD_TILE = { z: 9, x: 97, y: 182 } as const;
const hostileId = () => zxyToTileId(HOSTILE_TILE.z, HOSTILE_TILE.x, HOSTILE_TILE.y);

/** A real tile first (so the file opens as a raster basemap), then the claimed one of 2^31 bytes. */
export async function entryOf2GiB(path: string): Promise<void> {
  const good = basemapTile(GOOD_TILE.z, GOOD_TILE.x, GOOD_TILE.y);
  const root = encodeDirectory([
    { tileId: zxyToTileId(GOOD_TILE.z, GOOD_TILE.x, GOOD_TILE.y), runLength: 1, offset: 0, length: good.length },
    { tileId: hostileId(), runLength: 1, offset: 0, length: 2 ** 31 },
  ]);
  await writeRawPmtiles(path, { root, tileData: good, metadata: Buffer.from('{}') });
}

/** The root points the hostile tile to a leaf directory that inflates to 100 million entries. */
export async function leafBomb(path: string): Promise<void> {
  const entries = 100_000_000;
  const leaves = gzipBomb(entries * 4, 0x01, Buffer.from(varint(entries)));
  const root = gzipSync(encodeDirectory([{ tileId: hostileId(), runLength: 0, offset: 0, length: leaves.length }]));
  await writeRawPmtiles(path, { root, leaves, internalCompression: 'gzip', metadata: gzipSync(Buffer.from('{"name":"Leaf bomb"}')) });
}

/** One tile of 1 GiB, in a sparse file that really is that long. */
export async function gigabytePng(path: string): Promise<void> {
  const root = encodeDirectory([{ tileId: hostileId(), runLength: 1, offset: 0, length: 2 ** 30 }]);
  const head = basemapTile(HOSTILE_TILE.z, HOSTILE_TILE.x, HOSTILE_TILE.y).subarray(0, 64);
  await writeRawPmtiles(path, { root, tileData: head, sparseTileData: 2 ** 30 });
}

/** Metadata whose gzip inflates to 400 MB: `{"name":"` then spaces. */
export async function metadataBomb(path: string): Promise<void> {
  const good = basemapTile(HOSTILE_TILE.z, HOSTILE_TILE.x, HOSTILE_TILE.y);
  const root = gzipSync(encodeDirectory([{ tileId: hostileId(), runLength: 1, offset: 0, length: good.length }]));
  await writeRawPmtiles(path, { root, tileData: good, internalCompression: 'gzip', metadata: gzipBomb(400 * 1024 * 1024, 0x20, Buffer.from('{"name":"')) });
}

/** An MBTiles with a good tile and, at HOSTILE_TILE, one of `bytes` (128 MB by default). */
export async function mbtilesHugeTile(path: string, bytes = 128 * 1024 * 1024): Promise<void> {
  const db = new Database(path);
  db.exec('CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)');
  db.exec('CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)');
  db.exec('CREATE TABLE metadata (name TEXT, value TEXT)');
  const meta = db.prepare('INSERT INTO metadata VALUES (?, ?)');
  for (const [name, value] of [['name', 'Huge tile'], ['format', 'png'], ['minzoom', '9'], ['maxzoom', '10'], ['bounds', TEST_AREA.join(',')]]) meta.run(name, value);
  const { z, x, y } = HOSTILE_TILE;
  db.prepare('INSERT INTO tiles VALUES (?, ?, ?, ?)').run(GOOD_TILE.z, GOOD_TILE.x, 2 ** GOOD_TILE.z - 1 - GOOD_TILE.y, basemapTile(GOOD_TILE.z, GOOD_TILE.x, GOOD_TILE.y));
  // A PNG signature, then zeros: what a reader that trusts the file would load whole.
  db.prepare('INSERT INTO tiles VALUES (?, ?, ?, zeroblob(?))').run(z, x, 2 ** z - 1 - y, bytes);
  db.close();
}

/** The file's size on disk (blocks), to show a case stays small or sparse. */
export async function allocatedBytes(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    return (await handle.stat()).blocks * 512;
  } finally {
    await handle.close();
  }
}

/**
 * An MBTiles whose `tiles` is a view: the good tile comes from a table at once, HOSTILE_TILE from a
 * recursive CTE that counts to 10^12 first. better-sqlite3 runs it to its end whoever asks.
 */
export async function mbtilesEndlessView(path: string): Promise<void> {
  const db = new Database(path);
  db.exec('CREATE TABLE stored (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)');
  db.exec('CREATE TABLE metadata (name TEXT, value TEXT)');
  const meta = db.prepare('INSERT INTO metadata VALUES (?, ?)');
  for (const [name, value] of [['name', 'Endless view'], ['format', 'png'], ['minzoom', '9'], ['maxzoom', '10'], ['bounds', TEST_AREA.join(',')]]) meta.run(name, value);
  db.prepare('INSERT INTO stored VALUES (?, ?, ?, ?)').run(GOOD_TILE.z, GOOD_TILE.x, 2 ** GOOD_TILE.z - 1 - GOOD_TILE.y, basemapTile(GOOD_TILE.z, GOOD_TILE.x, GOOD_TILE.y));
  const { z, x, y } = HOSTILE_TILE;
  db.exec(
    `CREATE VIEW tiles AS SELECT * FROM stored UNION ALL SELECT ${z}, ${x}, ${2 ** z - 1 - y}, tile_data FROM stored, (WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000000) SELECT n FROM c WHERE n = 1000000000000)`,
  );
  db.close();
}
