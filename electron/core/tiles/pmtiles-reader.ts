// A PMTiles v3 reader that trusts nothing in the file (spec:
// https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md). Every offset and length is
// checked against its section, the file's size and the limits in limits.ts before a byte is read;
// directories and metadata inflate through a limit; decoded leaf directories live in typed arrays
// (24 bytes an entry) in a cache bounded by count and bytes. What breaks a rule throws a
// TileFileLimitError, which disables the basemap; an I/O error throws as itself.
import type { FileHandle } from 'node:fs/promises';
import { zxyToTileId } from 'pmtiles';
import type { TileCoords } from './coords';
import { inflateBounded, LEAF_CACHE_BYTES, LEAF_CACHE_ENTRIES, MAX_DIRECTORY_BYTES, MAX_METADATA_BYTES, MAX_TILE_BYTES, mib, TileFileLimitError, type BlockCompression } from './limits';

export const PMTILES_HEADER_BYTES = 127;
/** Root, then at most three levels of leaves: the depth the spec's writers use and pmtiles reads. */
const MAX_DEPTH = 4;

export interface PmtilesHeader {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leafOffset: number;
  leafLength: number;
  tileDataOffset: number;
  tileDataLength: number;
  internalCompression: BlockCompression | 'unsupported';
  tileCompression: BlockCompression | 'unsupported';
  /** 1 mvt, 2 png, 3 jpeg, 4 webp, 5 avif, 6 mlt; 0 unknown. */
  tileType: number;
  minZoom: number;
  maxZoom: number;
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** A decoded directory: entry i is tileIds[i], runLengths[i] (0: a leaf directory), offsets[i], lengths[i]. */
interface Directory {
  tileIds: Float64Array;
  offsets: Float64Array;
  lengths: Uint32Array;
  runLengths: Uint32Array;
  bytes: number;
}

function compressionOf(code: number): BlockCompression | 'unsupported' {
  // 0 is "unknown": readers treat it as none, as the pmtiles package does.
  if (code === 0 || code === 1) return 'none';
  if (code === 2) return 'gzip';
  if (code === 3) return 'brotli';
  return 'unsupported';
}

/** Reads the header's numbers; any that is past 2^53, or outside the file, is refused. */
export function parseHeader(bytes: Buffer, fileSize: number, shown: string): PmtilesHeader {
  const damaged = (detail: string) => new TileFileLimitError(`"${shown}" is cut short or damaged: its header points past the end of the file.`, detail, 'damage');
  if (bytes.length < PMTILES_HEADER_BYTES) throw new TileFileLimitError(`"${shown}" is cut short: it ends inside its header.`, `${bytes.length} bytes`, 'damage');
  const u64 = (at: number, name: string) => {
    const value = bytes.readBigUInt64LE(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged(`${name} = ${value}`);
    return Number(value);
  };
  const header: PmtilesHeader = {
    rootOffset: u64(8, 'root offset'),
    rootLength: u64(16, 'root length'),
    metadataOffset: u64(24, 'metadata offset'),
    metadataLength: u64(32, 'metadata length'),
    leafOffset: u64(40, 'leaf offset'),
    leafLength: u64(48, 'leaf length'),
    tileDataOffset: u64(56, 'tile data offset'),
    tileDataLength: u64(64, 'tile data length'),
    internalCompression: compressionOf(bytes[97]!),
    tileCompression: compressionOf(bytes[98]!),
    tileType: bytes[99]!,
    minZoom: bytes[100]!,
    maxZoom: bytes[101]!,
    minLon: bytes.readInt32LE(102) / 1e7,
    minLat: bytes.readInt32LE(106) / 1e7,
    maxLon: bytes.readInt32LE(110) / 1e7,
    maxLat: bytes.readInt32LE(114) / 1e7,
  };
  const sections: [string, number, number][] = [
    ['root directory', header.rootOffset, header.rootLength],
    ['metadata', header.metadataOffset, header.metadataLength],
    ['leaf directories', header.leafOffset, header.leafLength],
    ['tile data', header.tileDataOffset, header.tileDataLength],
  ];
  for (const [name, offset, length] of sections) {
    if (offset + length > fileSize) throw damaged(`${name}: ${offset}+${length} > file size ${fileSize}`);
  }
  return header;
}

/** An unsigned LEB128 varint; refused past 2^53 or past the end (a damaged or hostile directory). */
class VarintReader {
  position = 0;
  constructor(
    private readonly bytes: Buffer,
    private readonly shown: string,
  ) {}

  remaining(): number {
    return this.bytes.length - this.position;
  }

  next(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.position >= this.bytes.length) throw new TileFileLimitError(`"${this.shown}" is damaged: a directory ends early.`, 'varint past the end');
      const byte = this.bytes[this.position++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    throw new TileFileLimitError(`"${this.shown}" is damaged: a directory holds a number too large to be an offset.`, 'varint over 56 bits');
  }
}

/** Decodes a directory in one pass; work and memory are linear in its (bounded) size. */
export function decodeDirectory(bytes: Buffer, shown: string): Directory {
  const reader = new VarintReader(bytes, shown);
  const count = reader.next();
  // Each entry takes at least four bytes (one per column): a count beyond that is a lie.
  if (count * 4 > reader.remaining()) {
    throw new TileFileLimitError(`"${shown}" is damaged: a directory claims more entries than it holds.`, `${count} entries in ${bytes.length} bytes`);
  }
  const directory: Directory = {
    tileIds: new Float64Array(count),
    offsets: new Float64Array(count),
    lengths: new Uint32Array(count),
    runLengths: new Uint32Array(count),
    bytes: count * 24,
  };
  let last = 0;
  for (let i = 0; i < count; i++) {
    const delta = reader.next();
    if (i > 0 && delta === 0) throw new TileFileLimitError(`"${shown}" is damaged: its directory is out of order.`, `entry ${i} repeats tile ${last}`);
    last += delta;
    directory.tileIds[i] = last;
  }
  const u32 = (value: number, what: string) => {
    if (value > 0xffffffff) throw new TileFileLimitError(`"${shown}" is damaged: a directory entry's ${what} is impossible.`, `${what} ${value}`);
    return value;
  };
  for (let i = 0; i < count; i++) directory.runLengths[i] = u32(reader.next(), 'run length');
  for (let i = 0; i < count; i++) directory.lengths[i] = u32(reader.next(), 'length');
  for (let i = 0; i < count; i++) {
    const value = reader.next();
    if (value === 0 && i === 0) throw new TileFileLimitError(`"${shown}" is damaged: its first directory entry has no offset.`, 'offset 0 at entry 0');
    directory.offsets[i] = value === 0 ? directory.offsets[i - 1]! + directory.lengths[i - 1]! : value - 1;
  }
  return directory;
}

/** The entry for tileId: the tile's run, or the leaf directory that may hold it; -1 when none. */
function findEntry(directory: Directory, tileId: number): number {
  let low = 0;
  let high = directory.tileIds.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const id = directory.tileIds[middle]!;
    if (id < tileId) low = middle + 1;
    else if (id > tileId) high = middle - 1;
    else return middle;
  }
  if (high < 0) return -1;
  if (directory.runLengths[high] === 0) return high;
  return tileId - directory.tileIds[high]! < directory.runLengths[high]! ? high : -1;
}

/** One positioned read of exactly `length` bytes (length already bounded by the caller). */
async function readExactly(handle: FileHandle, offset: number, length: number, shown: string): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
    if (bytesRead === 0) throw new TileFileLimitError(`"${shown}" is cut short: it ends before the data it points to.`, `read ${offset}+${length} ended at ${offset + filled}`, 'damage');
    filled += bytesRead;
  }
  return buffer;
}

export interface PmtilesReader {
  readonly header: PmtilesHeader;
  metadata(): Promise<unknown>;
  tile(coords: TileCoords): Promise<Buffer | null>;
}

/** Reads the header and root directory of an open file; tiles and leaves are read on demand. */
export async function openPmtilesReader(handle: FileHandle, fileSize: number, shown: string): Promise<PmtilesReader> {
  const header = parseHeader(await readExactly(handle, 0, Math.min(PMTILES_HEADER_BYTES, fileSize), shown), fileSize, shown);
  if (header.internalCompression === 'unsupported') {
    throw new TileFileLimitError(`"${shown}" compresses its directories with zstd, which Sitewalk does not read; write it again with gzip ("pmtiles convert").`, 'internal compression zstd');
  }
  const internal = header.internalCompression;

  /** A block inside [sectionOffset, sectionOffset + sectionLength): checked, read, inflated through a limit. */
  async function block(sectionOffset: number, sectionLength: number, offset: number, length: number, limit: number, what: string, compression: BlockCompression): Promise<Buffer> {
    if (length > limit) throw new TileFileLimitError(`"${shown}" was not read: ${what} in it is ${mib(length)}, over the ${mib(limit)} Sitewalk reads at once (the file may be damaged or made to harm).`, `${what}: ${length} > ${limit}`);
    if (offset + length > sectionLength || sectionOffset + offset + length > fileSize) {
      // Past its section is a lie; past the end of the file may be a copy not yet finished.
      const pastEnd = sectionOffset + offset + length > fileSize;
      throw new TileFileLimitError(
        pastEnd ? `"${shown}" is cut short: it ends before the data it points to.` : `"${shown}" is damaged: ${what} lies outside its part of the file.`,
        `${what}: ${sectionOffset}+${offset}+${length} outside section ${sectionLength} / file ${fileSize}`,
        pastEnd ? 'damage' : 'limit',
      );
    }
    return inflateBounded(await readExactly(handle, sectionOffset + offset, length, shown), compression, limit, what, shown);
  }

  const root = decodeDirectory(await block(header.rootOffset, header.rootLength, 0, header.rootLength, MAX_DIRECTORY_BYTES, 'the root directory', internal), shown);

  // Decoded leaves, least recently used first; a load in flight is shared by the tiles that wait for it.
  const leaves = new Map<number, Directory>();
  const loading = new Map<number, Promise<Directory>>();
  let leafBytes = 0;

  async function leaf(offset: number, length: number): Promise<Directory> {
    const kept = leaves.get(offset);
    if (kept) {
      leaves.delete(offset);
      leaves.set(offset, kept);
      return kept;
    }
    const pending = loading.get(offset);
    if (pending) return pending;
    const load = (async () => {
      const directory = decodeDirectory(await block(header.leafOffset, header.leafLength, offset, length, MAX_DIRECTORY_BYTES, 'a leaf directory', internal), shown);
      if (directory.bytes <= LEAF_CACHE_BYTES) {
        leaves.set(offset, directory);
        leafBytes += directory.bytes;
        for (const [key, old] of leaves) {
          if (leaves.size <= LEAF_CACHE_ENTRIES && leafBytes <= LEAF_CACHE_BYTES) break;
          leaves.delete(key);
          leafBytes -= old.bytes;
        }
      }
      return directory;
    })();
    loading.set(offset, load);
    try {
      return await load;
    } finally {
      loading.delete(offset);
    }
  }

  return {
    header,
    async metadata() {
      if (header.metadataLength === 0) return {};
      const bytes = await block(header.metadataOffset, header.metadataLength, 0, header.metadataLength, MAX_METADATA_BYTES, 'the metadata', internal);
      return JSON.parse(bytes.toString('utf8')) as unknown;
    },
    async tile({ z, x, y }) {
      if (z > 26) return null;
      const tileId = zxyToTileId(z, x, y);
      let directory = root;
      for (let depth = 0; depth < MAX_DEPTH; depth++) {
        const index = findEntry(directory, tileId);
        if (index === -1) return null;
        const offset = directory.offsets[index]!;
        const length = directory.lengths[index]!;
        if (directory.runLengths[index]! > 0) {
          if (length === 0) return null;
          if (header.tileCompression === 'unsupported') throw new TileFileLimitError(`"${shown}" compresses its tiles with zstd, which Sitewalk does not read.`, 'tile compression zstd');
          return block(header.tileDataOffset, header.tileDataLength, offset, length, MAX_TILE_BYTES, 'a tile', header.tileCompression);
        }
        directory = await leaf(offset, length);
      }
      throw new TileFileLimitError(`"${shown}" is damaged: its leaf directories nest deeper than PMTiles allows.`, `depth > ${MAX_DEPTH}`);
    },
  };
}
