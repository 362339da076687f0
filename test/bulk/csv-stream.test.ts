// The streamed CSV reader gives the table the whole-text reader gives, however the text is cut into
// pieces: every fixture and generated files with quoted line breaks, blank rows, title rows, extra
// cells and broken quotes, cut at seeded random places (a \r\n split between two pieces included).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../electron/core/clock';
import { parseDelimited } from '../../electron/shared/bulk/csv';
import { DelimitedStream, MAX_RECORD_CHARS } from '../../electron/shared/bulk/csv-stream';
import { decodeText } from '../../electron/shared/bulk/decode';
import type { TableRow } from '../../electron/shared/bulk/table';

const FIXTURES = join(__dirname, '../fixtures/bulk');

function streamed(text: string, cuts: number[], options = {}) {
  const stream = new DelimitedStream(options);
  const rows: TableRow[] = [];
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    rows.push(...stream.push(text.slice(at, cut)));
    at = cut;
  }
  rows.push(...stream.end());
  return { ...stream.table(), rows };
}

function randomCuts(text: string, random: () => number, pieces: number): number[] {
  return Array.from({ length: pieces }, () => Math.floor(random() * text.length)).sort((a, b) => a - b);
}

/** A file of `rows` rows with the awkward parts office tools write, over several of the reader's head sizes. */
function awkward(rows: number, random: () => number): string {
  const lines = ['Export of towers,,,', '', 'Siteid,Sitename,height,Latitude,Longitude,Description,'];
  for (let n = 0; n < rows; n++) {
    const kind = Math.floor(random() * 10);
    if (kind === 0) lines.push('');
    else if (kind === 1) lines.push(`${n},"Tower ""${n}""",30,45.1,-110.2,"two\r\nlines",`);
    else if (kind === 2) lines.push(`${n},Tower ${n},30,45.1,-110.2,x,y,z`);
    else if (kind === 3) lines.push(`${n},Tow"er ${n},30,45.1,-110.2,,`);
    else lines.push(`${n},Tower ${n},${20 + (n % 50)},45.${n % 1000},-110.${n % 997},,`);
  }
  return lines.join(random() < 0.5 ? '\r\n' : '\n') + '\r\n';
}

describe('the streamed CSV reader', () => {
  const fixtures = readdirSync(FIXTURES).filter((name) => /\.(csv|tsv|txt)$/.test(name) && !name.startsWith('eus'));
  it.each(fixtures)('reads %s as the whole-text reader does, in any pieces', (name) => {
    const decoded = decodeText(new Uint8Array(readFileSync(join(FIXTURES, name))));
    if (!decoded.ok) return;
    const whole = parseDelimited(decoded.text);
    const random = seededRandom(name.length * 7919);
    for (let round = 0; round < 20; round++) {
      expect(streamed(decoded.text, randomCuts(decoded.text, random, round % 6))).toEqual(whole);
    }
  });

  it('reads generated files with quoted line breaks, blank rows, a title row and broken rows as the whole-text reader does', () => {
    const random = seededRandom(20_261_125);
    for (const rows of [5, 3_000, 40_000]) {
      const text = awkward(rows, random);
      const whole = parseDelimited(text);
      expect(whole.rows.length).toBeGreaterThan(rows / 2);
      expect(streamed(text, randomCuts(text, random, 40))).toEqual(whole);
      // \r and \n in two pieces.
      const crlf = text.indexOf('\r\n', text.length >> 1);
      expect(streamed(text, [crlf + 1])).toEqual(whole);
    }
  });

  it('refuses an unclosed quote as the whole-text reader does, and a quoted value that never ends while reading it', () => {
    const text = 'Sitename,height,Latitude,Longitude\nA,30,1,1\n"B,30,1,1\nC,30,1,1\n';
    expect(streamed(text, [10, 30]).problems).toEqual(parseDelimited(text).problems);

    const stream = new DelimitedStream();
    stream.push('Sitename,height,Latitude,Longitude\nA,30,1,1\n"B');
    const piece = 'x'.repeat(1024 * 1024);
    let pushed = 0;
    while (!stream.refused && pushed < 2 * MAX_RECORD_CHARS) {
      stream.push(piece);
      pushed += piece.length;
    }
    expect(stream.refused).toBe(true);
    expect(pushed).toBeLessThanOrEqual(MAX_RECORD_CHARS + piece.length);
    expect(stream.table().problems.join(' ')).toMatch(/Row 3 opens a quoted value that is never closed/);
  });
});
