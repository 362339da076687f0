// A large, well-formed sites CSV written to disk as it is made (never held whole): `rows` sites of
// about 33 bytes each, each with its own site ID, 10,000 lines a write. Used by the streamed-import
// tests and the bulk bench, which need files of up to 1.23 million rows.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Writes the file; answers its size in bytes. */
export async function writeSitesCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  out.write('Siteid,Sitename,height,Latitude,Longitude\n');
  for (let start = 0; start < rows; start += 10_000) {
    const lines: string[] = [];
    for (let n = start; n < Math.min(rows, start + 10_000); n++) lines.push(`${300_000 + n},S${n},${20 + (n % 80)},${(45 + (n % 100) / 100).toFixed(4)},${(-110 - (n % 97) / 100).toFixed(4)}`);
    if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return out.bytesWritten;
}
