// One cached tile as a file: a magic line, one line of JSON (content type, when it was fetched, the
// validators to revalidate it with, the body's length and CRC-32), then the image bytes. The header
// makes a file self-describing, so a copy, a restore or a clock change cannot make a tile look
// fresher than it is, and a truncated or damaged file is recognised (decodeEntry says null) rather
// than served as a broken image.
import { crc32 } from 'node:zlib';

export interface TileEntry {
  /** A media type, lower case, without parameters: image/png, image/jpeg… */
  contentType: string;
  /** When the tile server last sent or confirmed these bytes (ms since the epoch). */
  fetchedAt: number;
  /** The server's validators, sent back when the tile is stale so an unchanged tile costs a 304. */
  etag: string | null;
  lastModified: string | null;
  bytes: Buffer;
}

/**
 * The image types kept and served: any image/* but SVG, which is a document that can carry script
 * and would be served from the app's own origin.
 */
export function isCacheableType(type: string): boolean {
  return /^image\/[a-z0-9.+-]+$/.test(type) && !type.includes('svg');
}

const MAGIC = Buffer.from('SWTILE1\n', 'ascii');
const MAX_HEADER_BYTES = 4096;

interface Header {
  type: string;
  fetchedAt: number;
  etag: string | null;
  lastModified: string | null;
  length: number;
  crc: number;
}

export function encodeEntry(entry: TileEntry): Buffer {
  const header: Header = {
    type: entry.contentType,
    fetchedAt: entry.fetchedAt,
    etag: entry.etag,
    lastModified: entry.lastModified,
    length: entry.bytes.length,
    crc: crc32(entry.bytes),
  };
  return Buffer.concat([MAGIC, Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), entry.bytes]);
}

/** The entry in a cache file's bytes, or null for anything that is not a whole, intact entry. */
export function decodeEntry(data: Buffer): TileEntry | null {
  if (data.length < MAGIC.length || !data.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const end = data.indexOf(0x0a, MAGIC.length);
  if (end === -1 || end - MAGIC.length > MAX_HEADER_BYTES) return null;
  let header: Partial<Header>;
  try {
    header = JSON.parse(data.subarray(MAGIC.length, end).toString('utf8')) as Partial<Header>;
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null) return null;
  const { type, fetchedAt, etag, lastModified, length, crc } = header;
  if (typeof type !== 'string' || !isCacheableType(type)) return null;
  if (typeof fetchedAt !== 'number' || !Number.isFinite(fetchedAt)) return null;
  if (!(etag === null || typeof etag === 'string') || !(lastModified === null || typeof lastModified === 'string')) return null;
  const bytes = data.subarray(end + 1);
  if (length !== bytes.length || length === 0 || crc !== crc32(bytes)) return null;
  return { contentType: type, fetchedAt, etag, lastModified, bytes };
}
