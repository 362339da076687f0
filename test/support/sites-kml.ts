// A large, well-formed sites KML written to disk as it is made (never held whole): placemarks as
// Google Earth writes them — a name, a description, ExtendedData with a site ID and a height, a
// point — in folders of 1,000, 1,000 placemarks a write. Used by the streamed-KML tests.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Writes placemarks until the file passes `bytes`; answers how many. */
export async function writeSitesKml(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  out.write('<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document><name>Towers</name>\n');
  let placemarks = 0;
  while (out.bytesWritten + out.writableLength < bytes) {
    const lines = [`<Folder><name>Crew ${placemarks / 1000}</name>`];
    for (let n = placemarks; n < placemarks + 1000; n++) {
      lines.push(
        `<Placemark><name>Ridge ${n}</name><description>Access road gated; key at the ranch office.</description><ExtendedData><Data name="Siteid"><value>${300_000 + n}</value></Data><Data name="height"><value>${20 + (n % 80)}</value></Data></ExtendedData><Point><coordinates>${(-110 - (n % 97) / 100).toFixed(4)},${(45 + (n % 100) / 100).toFixed(4)},0</coordinates></Point></Placemark>`,
      );
    }
    lines.push('</Folder>\n');
    placemarks += 1000;
    if (!out.write(lines.join('\n'))) await once(out, 'drain');
  }
  out.end('</Document>\n</kml>\n');
  await once(out, 'finish');
  return placemarks;
}
