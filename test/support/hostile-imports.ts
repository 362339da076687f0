// Import files made to harm, generated here: each would cost a careless reader minutes or
// gigabytes. The zip bomb is deflated as a stream, so making it holds no more than 1 MB at once.
import { once } from 'node:events';
import { createDeflateRaw, crc32 } from 'node:zlib';

/** KML with `levels` nested Folders (each named) and one placemark at the bottom. */
export function nestedKml(levels: number): Buffer {
  const open = '<Folder><name>f</name>'.repeat(levels);
  const close = '</Folder>'.repeat(levels);
  return Buffer.from(`<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${open}<Placemark><name>deep</name><Point><coordinates>-111,45.7</coordinates></Point></Placemark>${close}</Document></kml>`);
}

/** GeoJSON whose one feature carries a property of `levels` nested arrays. */
export function nestedGeoJson(levels: number): Buffer {
  return Buffer.from(`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-111,45.7]},"properties":{"name":"deep","x":${'['.repeat(levels)}${']'.repeat(levels)}}}]}`);
}

/** A CSV with a header and one line of `chars` characters (commas: millions of cells). */
export function overlongCsv(chars: number): Buffer {
  return Buffer.concat([Buffer.from('Name,Latitude,Longitude\n'), Buffer.alloc(chars, 'a,')]);
}

/** The deflated doc.kml of a bomb, by its unpacked size: made once, as both kinds of bomb share it. */
const bodies = new Map<number, Promise<{ data: Buffer; crc: number; written: number }>>();

/**
 * A CSV whose header names `columns` columns above `rows` short rows (name, position, height only).
 * Padded to the header, as the reader once did, 40,000 rows of 16,000 columns are 640 million cells.
 */
export function wideCsv(columns: number, rows: number): Buffer {
  const header = ['Name', 'Latitude', 'Longitude', 'Height', ...Array.from({ length: columns - 4 }, (_, i) => `c${i}`)].join(',');
  const lines = Array.from({ length: rows }, (_, i) => `S${i},45.1,-93.1,10`);
  return Buffer.from(`${header}\n${lines.join('\n')}\n`);
}

/**
 * KML whose first `named` placemarks each carry `fields` ExtendedData names of their own (named ×
 * fields columns in all), then `more` placemarks that carry only the last of those names.
 */
export function manyFieldsKml(named: number, fields: number, more = 0): Buffer {
  const data = (names: string[]) => `<ExtendedData>${names.map((name) => `<Data name="${name}"><value>v</value></Data>`).join('')}</ExtendedData>`;
  const placemark = (name: string, names: string[]) => `<Placemark><name>${name}</name>${data(names)}<Point><coordinates>-93.1,45.1</coordinates></Point></Placemark>`;
  const parts: string[] = [];
  for (let i = 0; i < named; i++) parts.push(placemark(`S${i}`, Array.from({ length: fields }, (_, j) => `f${i}_${j}`)));
  const last = `f${named - 1}_${fields - 1}`;
  for (let i = 0; i < more; i++) parts.push(placemark(`T${i}`, [last]));
  return Buffer.from(`<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${parts.join('')}</Document></kml>`);
}

/**
 * A KMZ whose doc.kml inflates to `bytes` bytes of spaces after a KML start. `lie`: its headers
 * claim 1 KB unpacked, so only a bound applied while inflating stops it.
 */
export async function kmzBomb(bytes: number, lie = false): Promise<Buffer> {
  let body = bodies.get(bytes);
  if (!body) {
    body = deflatedSpaces(bytes);
    bodies.set(bytes, body);
  }
  const { data, crc, written } = await body;
  const name = Buffer.from('doc.kml');
  const stated = lie ? 1024 : written;
  // [offset, width, value]: signature, version 2.0, method 8 (deflate), CRC-32, sizes, name length.
  const local = zipRecord(30, [[0, 4, 0x04034b50], [4, 2, 20], [8, 2, 8], [14, 4, crc], [18, 4, data.length], [22, 4, stated], [26, 2, name.length]]);
  const central = zipRecord(46, [[0, 4, 0x02014b50], [4, 2, 20], [6, 2, 20], [10, 2, 8], [16, 4, crc], [20, 4, data.length], [24, 4, stated], [28, 2, name.length]]);
  // One entry on this disk and in all; the directory's size and where it starts.
  const end = zipRecord(22, [[0, 4, 0x06054b50], [8, 2, 1], [10, 2, 1], [12, 4, central.length + name.length], [16, 4, local.length + name.length + data.length]]);
  return Buffer.concat([local, name, data, central, name, end]);
}

/** A KML start and spaces up to `bytes`, deflated as a stream (seconds of CPU for a gigabyte). */
async function deflatedSpaces(bytes: number): Promise<{ data: Buffer; crc: number; written: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  const head = Buffer.from('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>');
  const block = Buffer.alloc(1024 * 1024, ' ');
  let crc = crc32(head);
  deflate.write(head);
  let written = head.length;
  while (written < bytes) {
    const piece = block.subarray(0, Math.min(block.length, bytes - written));
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await once(deflate, 'drain');
    written += piece.length;
  }
  deflate.end();
  await once(deflate, 'end');
  return { data: Buffer.concat(parts), crc, written };
}

/** A ZIP header record of `size` bytes, zeros but for the little-endian fields given. */
function zipRecord(size: number, fields: ReadonlyArray<readonly [offset: number, width: 2 | 4, value: number]>): Buffer {
  const record = Buffer.alloc(size);
  for (const [offset, width, value] of fields) record.writeUIntLE(value, offset, width);
  return record;
}

/** A well-made KML of `count` placemarks (150,000 is about 25 MB): long to parse, nothing wrong with it. */
export function largeKml(count: number): Buffer {
  const parts = ['<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>'];
  for (let i = 0; i < count; i++) {
    parts.push(`<Placemark><name>Site ${i}</name><ExtendedData><Data name="height"><value>30</value></Data></ExtendedData><Point><coordinates>-111.${String(i % 1000).padStart(3, '0')},45.${String(i % 997).padStart(3, '0')}</coordinates></Point></Placemark>`);
  }
  parts.push('</Document></kml>');
  return Buffer.from(parts.join(''));
}
