// The KML reader's bounds on what it holds at once (issue 24): one run of text, comment or tag
// outside a placemark, one placemark's span and element count, the folders named after their
// placemarks and the characters of folder names. Each is counted as the text arrives and stops the
// reading there, with a sentence naming the limit and where; a long track within them is read.
import { describe, expect } from 'vitest';
import { KmlReader, type KmlEnd } from '../../electron/shared/bulk/kml';
import { MAX_KML_RUN_CHARS, MAX_LATE_NAMED_FOLDERS, MAX_PLACEMARK_CHARS, MAX_PLACEMARK_ELEMENTS, MAX_PLACEMARK_POINTS } from '../../electron/shared/bulk/limits';
import { it } from '../support/fixtures';

const START = '<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">\n<Document>\n';
const END = '</Document></kml>';

/**
 * Reads `head`, then `unit` repeated until `chars` characters of it were given (whole units, in
 * pieces of about 1 MB, as a file is read), then `tail`. Answers how the reading ended, how many features it handed
 * on, and how many characters of the repeated part it had been given when it stopped.
 */
function readRepeated(head: string, unit: string, chars: number, tail: string): { end: KmlEnd; features: number; given: number } {
  let features = 0;
  const reader = new KmlReader(() => features++);
  reader.push(START + head);
  const units = Math.ceil(chars / unit.length);
  const perPiece = Math.ceil((1024 * 1024) / unit.length);
  const piece = unit.repeat(perPiece);
  let given = 0;
  for (let sent = 0; sent < units && !reader.failed; sent += perPiece) {
    const next = sent + perPiece <= units ? piece : unit.repeat(units - sent);
    reader.push(next);
    given += next.length;
  }
  if (!reader.failed) reader.push(tail + END);
  return { end: reader.end(), features, given };
}

const problemOf = (end: KmlEnd) => (end.ok ? null : end.problem);

describe('the KML reader bounds what it holds', () => {
  it('refuses a text run past the limit outside a placemark, naming the limit and the line it starts on, without reading the rest', () => {
    const { end, given } = readRepeated('<name>Huge</name>\n\n<description>', 'Access road gated. ', 3 * MAX_KML_RUN_CHARS, '</description>');
    expect(problemOf(end)).toBe(
      'The KML has more than 10 million characters without markup from line 6 on (one text, comment or tag), which no export writes outside a placemark; it was not read (the file may be damaged or made to harm). Export it again from the mapping tool.',
    );
    expect(end.ok || end.final).toBe(true);
    expect(given).toBeLessThan(MAX_KML_RUN_CHARS + 2 * 1024 * 1024);
  });

  it('refuses a comment or a tag past the run limit too: saxes holds them whole as well', () => {
    expect(problemOf(readRepeated('<!--', 'no markup here ', MAX_KML_RUN_CHARS + 1, '-->').end)).toMatch(/^The KML has more than 10 million characters without markup from line 4 on/);
    expect(problemOf(readRepeated('<Style ', 'a="1" ', MAX_KML_RUN_CHARS + 1, '/>').end)).toMatch(/^The KML has more than 10 million characters without markup/);
  });

  it('reads a text run just under the limit outside a placemark', () => {
    const { end, features } = readRepeated('<description>', 'x', MAX_KML_RUN_CHARS - 1024 * 1024, '</description><Placemark><name>a</name><Point><coordinates>1,2</coordinates></Point></Placemark>');
    expect(end.ok).toBe(true);
    expect(features).toBe(1);
  });

  it('refuses a placemark longer than the limit, naming it by its line and name, while it is read', () => {
    const { end, features, given } = readRepeated('<Folder>\n<Placemark id="t">\n<name>Drive survey</name><description>', 'Access road gated. ', 5 * MAX_PLACEMARK_CHARS, '</description></Placemark></Folder>');
    expect(problemOf(end)).toBe(
      'The <Placemark> on line 5 ("Drive survey") is longer than 12 million characters, the most one placemark may be (a LineString of 250,000 points fits); it was not read (the file may be damaged or made to harm). Split it or simplify it in the mapping tool.',
    );
    expect(features).toBe(0);
    expect(given).toBeLessThan(MAX_PLACEMARK_CHARS + 2 * 1024 * 1024);
  });

  it('refuses a placemark of more points than the limit however short their text, before any is read', () => {
    // The run itself (4 million characters here) is bounded by the placemark's characters.
    const { end } = readRepeated('<Placemark><name>Dots</name><LineString><coordinates>', '1,2 ', 4 * MAX_PLACEMARK_POINTS * 4, '</coordinates></LineString></Placemark>');
    expect(problemOf(end)).toBe(
      'The <Placemark> on line 4 ("Dots") has more than 250,000 points in its coordinates, the most one placemark may have; it was not read (the file may be damaged or made to harm). Split it or simplify it in the mapping tool.',
    );
  });

  it('counts a description inside a placemark against the placemark, not the run limit', () => {
    const { end } = readRepeated('<Placemark><description>', 'word ', MAX_PLACEMARK_CHARS + 1, '</description></Placemark>');
    expect(problemOf(end)).toMatch(/^The <Placemark> on line 4 is longer than 12 million characters/);
  });

  it('refuses a placemark of more elements than the limit as they open', () => {
    const { end, given } = readRepeated('<Placemark><name>Wrapper</name><ExtendedData>', '<Data name="a"><value>1</value></Data>', 10 * MAX_PLACEMARK_ELEMENTS * 38, '</ExtendedData></Placemark>');
    expect(problemOf(end)).toBe(
      'The <Placemark> on line 4 ("Wrapper") holds more than 120,000 elements, the most one placemark may hold (a gx:Track of 59,000 points fits); it was not read (the file may be damaged or made to harm). Split it or simplify it in the mapping tool.',
    );
    // Two elements a unit of 38 characters: stopped at the limit, not at the end.
    expect(given).toBeLessThan((MAX_PLACEMARK_ELEMENTS / 2) * 38 + 2 * 1024 * 1024);
  });

  it('reads a gx:Track of 59,000 points and a LineString of 200,000 as one feature each', () => {
    const track = readRepeated('<Placemark><name>Track</name><gx:Track>', '<when>2026-06-01T10:00:00Z</when><gx:coord>-111.123456 45.123456 1200.0</gx:coord>\n', 59_000 * 83, '</gx:Track></Placemark>');
    expect(track.end.ok).toBe(true);
    expect(track.features).toBe(1);
    const line = readRepeated('<Placemark><name>Line</name><LineString><coordinates>', '-111.123456,45.123456,1200.0 ', 200_000 * 29, '</coordinates></LineString></Placemark>');
    expect(line.end.ok).toBe(true);
    expect(line.features).toBe(1);
  });

  it('refuses more folders named after their placemarks than the limit', () => {
    const folder = '<Folder><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark><name>Crew</name></Folder>\n';
    const { end, features } = readRepeated('', folder, (MAX_LATE_NAMED_FOLDERS + 10) * folder.length, '');
    expect(problemOf(end)).toBe(
      'The KML names more than 100,000 folders after the placemarks in them (each name is kept until the rows are written), which no export does; it was not read (the file may be damaged or made to harm). Export it again from the mapping tool.',
    );
    expect(features).toBeLessThan(MAX_LATE_NAMED_FOLDERS + 1_000);
    // As many named first are no bound at all.
    const early = readRepeated('', '<Folder><name>Crew</name><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></Folder>\n', (MAX_LATE_NAMED_FOLDERS + 10) * folder.length, '');
    expect(early.end.ok).toBe(true);
  });

  it('refuses folder names held together past the run limit, though each is short', () => {
    // A folder's name written after its placemarks, in 100-character pieces of markup.
    const name = `<b>${'n'.repeat(100)}</b>`;
    const { end } = readRepeated('<Folder><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark><name>', name, MAX_KML_RUN_CHARS * 1.2, '</name></Folder>');
    expect(problemOf(end)).toBe(
      "The KML's folder names come to more than 10 million characters, which no export writes; it was not read (the file may be damaged or made to harm). Export it again from the mapping tool.",
    );
  });
});
