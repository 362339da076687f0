// Real PNG images for tests (tile servers, basemap files): RGB, 8 bits, one colour with an optional
// border, and an optional tEXt comment that makes otherwise equal images differ byte for byte.
import { crc32, deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export interface PngOptions {
  /** Width and height in pixels; default 256 (a map tile). */
  size?: number;
  fill: Rgb;
  /** A 2-pixel border on the top and left edges, so tile edges show in screenshots. */
  border?: Rgb;
  /** Stored as a tEXt "Comment". */
  comment?: string;
}

export function rgbPng(options: PngOptions): Buffer {
  const size = options.size ?? 256;
  const row = size * 3 + 1;
  const pixels = Buffer.alloc(row * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) pixels.set(options.border && (x < 2 || y < 2) ? options.border : options.fill, y * row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter, no interlace
  const comment = options.comment === undefined ? [] : [chunk('tEXt', Buffer.from(`Comment\0${options.comment}`, 'latin1'))];
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), ...comment, chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
