// MBTiles (a SQLite file) read in place, read-only, through better-sqlite3: any size, nothing of it
// held in memory beyond SQLite's page cache. The file is untrusted: SQLite is opened with the
// settings its "defense against the dark arts" page gives for attacker-made databases (no schema
// trust, cell checks, no memory map), and every value's size is asked of SQLite (length() and
// octet_length() do not load a blob's or text's content) before the value itself is read.
import Database from 'better-sqlite3';
import type { TileCoords } from './coords';
import { MAX_METADATA_VALUE_BYTES, MAX_TILE_BYTES, mib, TileFileLimitError } from './limits';

/** Metadata names Sitewalk reads; anything else in the table is never loaded. */
const METADATA_NAMES = ['name', 'format', 'bounds', 'minzoom', 'maxzoom', 'attribution'] as const;
/** Metadata rows looked at; a well-made file has a dozen. */
const METADATA_ROWS = 1000;

export interface MbtilesReader {
  tables: Set<string>;
  metadata: Map<string, string>;
  /** The bytes of one tile anywhere in the file (the sniffing sample), or null when it has none. */
  anyTile(): Buffer | null;
  /** MIN/MAX zoom of the stored tiles, for files whose metadata does not say. */
  zoomRange(): { min: number; max: number };
  tile(coords: TileCoords): Buffer | null;
  close(): void;
}

type SizedTile = { size: number | null; data: Buffer | null };

export function openMbtilesReader(path: string, shown: string): MbtilesReader {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('trusted_schema = OFF');
    db.pragma('cell_size_check = ON');
    db.pragma('mmap_size = 0');
    db.pragma('query_only = ON');
    const tables = new Set(db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') LIMIT 1000").all().map((row) => row.name));
    const metadata = tables.has('metadata') ? readMetadata(db) : new Map<string, string>();
    // The tile's size first; its bytes only when they are within the limit.
    const tileQuery = tables.has('tiles')
      ? db.prepare<[number, number, number, number], SizedTile>(
          'SELECT length(tile_data) AS size, CASE WHEN length(tile_data) <= ? THEN tile_data END AS data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1',
        )
      : null;
    const sized = (row: SizedTile | undefined, where: string): Buffer | null => {
      if (!row || row.size === null || row.size === 0) return null;
      if (row.size > MAX_TILE_BYTES) {
        throw new TileFileLimitError(
          `"${shown}" was not read: a tile in it (${where}) is ${mib(row.size)}, over the ${mib(MAX_TILE_BYTES)} Sitewalk reads for one tile (the file may be damaged or made to harm).`,
          `tile ${where}: ${row.size} bytes > ${MAX_TILE_BYTES}`,
        );
      }
      return Buffer.isBuffer(row.data) ? row.data : null;
    };
    return {
      tables,
      metadata,
      anyTile() {
        if (!tables.has('tiles')) return null;
        const first = db.prepare<[], { z: number; x: number; y: number }>('SELECT zoom_level AS z, tile_column AS x, tile_row AS y FROM tiles WHERE tile_data IS NOT NULL LIMIT 1').get();
        if (!first) return null;
        return sized(tileQuery!.get(MAX_TILE_BYTES, first.z, first.x, first.y), `${first.z}/${first.x}/${first.y}`);
      },
      zoomRange() {
        const row = db.prepare<[], { min: number | null; max: number | null }>('SELECT MIN(zoom_level) AS min, MAX(zoom_level) AS max FROM tiles').get();
        return { min: Number(row?.min ?? 0), max: Number(row?.max ?? 0) };
      },
      tile({ z, x, y }) {
        if (!tileQuery) return null;
        // MBTiles counts rows from the south (TMS); the map counts from the north.
        const row = 2 ** z - 1 - y;
        return sized(tileQuery.get(MAX_TILE_BYTES, z, x, row), `${z}/${x}/${y}`);
      },
      close() {
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The metadata Sitewalk shows, each value read only when its size is known to be small. */
function readMetadata(db: Database.Database): Map<string, string> {
  const metadata = new Map<string, string>();
  let rows: { id: number; nameBytes: number | null; valueBytes: number | null }[];
  try {
    rows = db
      .prepare<[number], { id: number; nameBytes: number | null; valueBytes: number | null }>('SELECT rowid AS id, octet_length(name) AS nameBytes, octet_length(value) AS valueBytes FROM metadata LIMIT ?')
      .all(METADATA_ROWS);
  } catch {
    // A metadata view without rowids: the file's zooms and bounds then come from its tiles.
    return metadata;
  }
  const read = db.prepare<[number], { name: unknown; value: unknown }>('SELECT name, value FROM metadata WHERE rowid = ?');
  for (const row of rows) {
    if ((row.nameBytes ?? 0) > 64 || (row.valueBytes ?? 0) > MAX_METADATA_VALUE_BYTES) continue;
    const found = read.get(row.id);
    if (!found || typeof found.name !== 'string') continue;
    const name = found.name.trim().toLowerCase();
    if ((METADATA_NAMES as readonly string[]).includes(name) && !metadata.has(name)) metadata.set(name, String(found.value ?? ''));
  }
  return metadata;
}
