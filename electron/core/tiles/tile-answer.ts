// What a tile request answers, from the cache or a basemap file: a hit with its bytes and where they
// came from, or a miss with the HTTP status the hosts send and two sentences (a technician's, a
// support engineer's). The headers of a hit are the same from both hosts.

/**
 * Where a tile came from: the server, the server confirming our copy, our fresh copy, our stale copy
 * because the server failed, or a basemap file on this computer.
 */
export type TileSource = 'network' | 'revalidated' | 'cache' | 'stale' | 'file';

export interface TileHit {
  ok: true;
  bytes: Buffer;
  contentType: string;
  source: TileSource;
  fetchedAt: number;
  /** How long the page's browser may keep it. */
  maxAgeSeconds: number;
}

export type TileMissReason =
  | 'bad-coordinates'
  | 'bad-template'
  | 'unreachable'
  | 'refused'
  | 'closed'
  | 'internal'
  /** No such basemap, or no tile there (outside a file's area or zoom range): Leaflet shows the grid. */
  | 'not-found'
  /** The basemap file cannot be read (moved, damaged). */
  | 'file-problem'
  /** The MBTiles reader has too many reads waiting, or cannot run: nothing is said about the file. */
  | 'busy';

export interface TileMiss {
  ok: false;
  /** What the hosts answer: 400 bad coordinates, 404 no tile there, 504 server unreachable, 502 server answered no tile. */
  status: 400 | 404 | 500 | 502 | 503 | 504;
  reason: TileMissReason;
  /** For a technician. */
  message: string;
  /** For a support engineer. */
  detail: string;
}

export type TileAnswer = TileHit | TileMiss;

export function miss(status: TileMiss['status'], reason: TileMissReason, message: string, detail: string): TileMiss {
  return { ok: false, status, reason, message, detail };
}

/** The headers of a tile answer, the same from both hosts. */
export function tileHeaders(hit: TileHit): Record<string, string> {
  return {
    'Content-Type': hit.contentType,
    'Content-Length': String(hit.bytes.length),
    'Cache-Control': `private, max-age=${hit.maxAgeSeconds}`,
  };
}
