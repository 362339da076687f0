// KML files with one huge part, written to disk as they are made (never held whole): a text run
// of hundreds of MB, one placemark of millions of elements, hundreds of thousands of folders named
// after their placemarks, and the well-made long GPS tracks that must still be read. Used by the
// KML bounds tests.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

const KML_START = '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">\n<Document><name>Huge</name>\n';
const KML_END = '</Document>\n</kml>\n';
/** Characters of repeated units written at a time. */
const BLOCK_CHARS = 1024 * 1024;

/** `head`, then `unit(i)` for i from 0 until `count` units were written, then `tail`. */
async function writeKml(path: string, head: string, unit: (i: number) => string, count: number, tail: string): Promise<void> {
  const out = createWriteStream(path);
  out.write(KML_START + head);
  let block: string[] = [];
  let chars = 0;
  for (let i = 0; i < count; i++) {
    const text = unit(i);
    block.push(text);
    chars += text.length;
    if (chars >= BLOCK_CHARS || i === count - 1) {
      if (!out.write(block.join(''))) await once(out, 'drain');
      block = [];
      chars = 0;
    }
  }
  out.end(tail + KML_END);
  await once(out, 'finish');
}

const point = (i: number) => `${(-111 + (i % 10_000) / 100_000).toFixed(6)},${(45.5 + (i % 7_919) / 100_000).toFixed(6)},${1200 + (i % 300)}.0`;

/** One <description> of the Document (outside any placemark) of about `bytes` characters of prose. */
export function writeHugeDescription(path: string, bytes: number): Promise<void> {
  const words = 'Access road gated; key at the ranch office. ';
  return writeKml(path, '<description>', () => words, Math.ceil(bytes / words.length), '</description>\n<Placemark><name>Ridge</name><Point><coordinates>-111,45.7</coordinates></Point></Placemark>\n');
}

/** One Placemark whose LineString has `points` coordinates in one text run (a point is about 30 characters). */
export function writeLongLineString(path: string, points: number, name = 'Long track'): Promise<void> {
  return writeKml(path, `<Placemark><name>${name}</name>\n<LineString><coordinates>`, (i) => `${point(i)} `, points, '</coordinates></LineString></Placemark>\n');
}

/** One Placemark with a gx:Track of `points` points: a <when> and a <gx:coord> each (about 85 characters). */
export function writeLongTrack(path: string, points: number): Promise<void> {
  const start = Date.UTC(2026, 5, 1);
  return writeKml(
    path,
    '<Placemark><name>Drive survey</name>\n<gx:Track>\n',
    (i) => `<when>${new Date(start + i * 1000).toISOString()}</when><gx:coord>${point(i).replaceAll(',', ' ')}</gx:coord>\n`,
    points,
    '</gx:Track></Placemark>\n',
  );
}

/** One Placemark whose ExtendedData holds `count` <Data> elements (two elements each, about 40 characters). */
export function writeManyElements(path: string, count: number): Promise<void> {
  return writeKml(path, '<Placemark><name>Wrapper</name>\n<ExtendedData>', (i) => `<Data name="a${i % 10}"><value>${i}</value></Data>`, count, '</ExtendedData><Point><coordinates>-111,45.7</coordinates></Point></Placemark>\n');
}

/** `count` folders, each named after the placemark in it. */
export function writeLateNamedFolders(path: string, count: number): Promise<void> {
  return writeKml(path, '', (i) => `<Folder><Placemark><name>p${i}</name><Point><coordinates>-111,45.7</coordinates></Point></Placemark><name>Crew ${i}</name></Folder>\n`, count, '');
}
