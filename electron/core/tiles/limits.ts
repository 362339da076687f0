// The limits every read of a basemap file is held to, and the error that says a file broke one.
// A basemap file is untrusted input: a length or offset in it is checked against these and against
// the file before any byte is read, and compressed blocks are inflated through a limit (zlib stops
// at maxOutputLength while inflating, on the thread pool, so the event loop never waits on a bomb).
// GDAL refuses any single PMTiles read over 10 MB; raster tiles are far smaller than these limits.
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';

/** One tile, as stored and after inflating. A 512 px satellite JPEG is a few hundred KB. */
export const MAX_TILE_BYTES = 4 * 1024 * 1024;
/** One PMTiles directory (root or leaf), as stored and after inflating. */
export const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;
/** The metadata block (PMTiles JSON), as stored and after inflating; raster metadata is a few KB. */
export const MAX_METADATA_BYTES = 1024 * 1024;
/** One MBTiles metadata value read (name, attribution, bounds…); longer values are left out. */
export const MAX_METADATA_VALUE_BYTES = 64 * 1024;
/** Leaf directories kept decoded: at most this many, and at most this many bytes in all. */
export const LEAF_CACHE_ENTRIES = 64;
export const LEAF_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * A basemap file broke a rule that a well-made file never breaks (a length past its end, a block
 * that inflates past its limit). The basemap is disabled with `message`, not retried per tile.
 */
export class TileFileLimitError extends Error {
  constructor(
    /** The sentence the user reads. */
    readonly sentence: string,
    detail: string,
    /**
     * 'damage': the file ends before what it points to, as a copy still being written does; it is
     * refused now and looked at again when it changes, not turned off.
     */
    readonly kind: 'limit' | 'damage' = 'limit',
  ) {
    super(detail);
    this.name = 'TileFileLimitError';
  }
}

const gunzipAsync = promisify(gunzip);
const brotliAsync = promisify(brotliDecompress);

export type BlockCompression = 'none' | 'gzip' | 'brotli';

/**
 * Inflates `data` and stops as soon as the output would pass `limit` bytes (never inflates whole,
 * then measures). `what` names the block in the sentence ("a directory", "the metadata").
 */
export async function inflateBounded(data: Uint8Array, compression: BlockCompression, limit: number, what: string, shown: string): Promise<Buffer> {
  if (data.byteLength > limit) throw new TileFileLimitError(tooLarge(shown, what, limit), `${what}: ${data.byteLength} bytes stored > ${limit}`);
  if (compression === 'none') return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  try {
    const options = { maxOutputLength: limit };
    return compression === 'gzip' ? await gunzipAsync(data, options) : await brotliAsync(data, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new TileFileLimitError(tooLarge(shown, what, limit), `${what}: inflates past ${limit} bytes`);
    }
    throw new TileFileLimitError(`"${shown}" is damaged: ${what} cannot be decompressed.`, `${what}: ${error instanceof Error ? error.message : String(error)}`, 'damage');
  }
}

function tooLarge(shown: string, what: string, limit: number): string {
  return `"${shown}" was not read: ${what} in it is larger than ${mib(limit)}, which no usable basemap needs (the file may be damaged or made to harm).`;
}

export function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
