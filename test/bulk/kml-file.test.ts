// A KML or KMZ previewed from disk (the CLI's and the host's path: read a piece at a time, each
// placemark checked and written to the preview store as it ends) equals the preview made from the
// whole bytes, which the equivalence test holds to the previous reader: the fixture, generated
// documents (a <Schema> after its data, folders named after their placemarks), other encodings,
// KMZ archives of every shape, and documents split into pieces at any character.
import fc from 'fast-check';
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { previewToStore } from '../../electron/core/bulk/import-file';
import { StoredPreview } from '../../electron/core/bulk/preview-store';
import { previewImport, type ImportOptions } from '../../electron/shared/bulk/import';
import { entryOf, folderLabel, KmlReader, readKmlFeatures, type FeatureEntry, type OnFeature } from '../../electron/shared/bulk/kml';
import { AmpersandEscaper, escapeBareAmpersands } from '../../electron/shared/bulk/kml-ampersand';
import { finishFeature } from '../../electron/shared/bulk/kml-feature';
import { kmzBomb, largeKml, nestedKml } from '../support/hostile-imports';
import { kmlDocument } from '../support/kml-documents';
import { it } from '../support/fixtures';

const TOWERS = readFileSync(join(__dirname, '../fixtures/bulk/towers.kml'));

async function fromDisk(dir: string, name: string, bytes: Uint8Array, options: ImportOptions = {}) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const storePath = join(dir, `${name}.db`);
  await previewToStore({ path }, { fileName: name, ...options }, storePath);
  const stored = new StoredPreview(storePath);
  try {
    return await stored.whole();
  } finally {
    stored.drop();
  }
}

async function expectSame(dir: string, name: string, bytes: Uint8Array, options: ImportOptions = {}) {
  const preview = await fromDisk(dir, name, bytes, options);
  expect(preview).toEqual(await previewImport(bytes, { fileName: name, ...options }));
  return preview;
}

async function zipped(files: Array<[string, string | Uint8Array]>, compression: 'DEFLATE' | 'STORE' = 'DEFLATE'): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of files) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array', compression });
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('a KML read from disk a placemark at a time', () => {
  it('gives the preview the whole file gives: the fixture, with a mapping and defaults', async ({ tempDir }) => {
    const preview = await expectSame(tempDir, 'towers.kml', TOWERS);
    expect(preview.rows.length).toBeGreaterThan(0);
    await expectSame(tempDir, 'towers.kml', TOWERS, { defaults: { height: '30' }, mapping: { Folder: 'group', Group: 'ignore' } });
  });

  it('gives the same preview for generated documents: entities, CDATA, nested folders, a schema after its data', async ({ tempDir }) => {
    await fc.assert(
      fc.asyncProperty(kmlDocument, async (text) => {
        await expectSame(tempDir, 'generated.kml', encode(text));
      }),
      { numRuns: 40 },
    );
  });

  it('puts each placemark in its folder by the folder’s final name, even one written after the placemarks', async ({ tempDir }) => {
    const text = `<kml><Document>
      <Folder><name>Early</name><Placemark><name>a</name><Point><coordinates>1,2</coordinates></Point></Placemark><name>Renamed</name></Folder>
      <Folder><Placemark><name>b</name><Point><coordinates>1,2</coordinates></Point></Placemark><name>  Late  </name>
        <Folder><name> </name><Placemark><name>c</name><Point><coordinates>1,2</coordinates></Point></Placemark></Folder></Folder>
      <Folder><name>Blanked</name><Placemark><name>d</name><Point><coordinates>1,2</coordinates></Point></Placemark><name/></Folder>
      <Schema><SimpleField name="height" type="int"/></Schema>
    </Document></kml>`;
    const preview = await expectSame(tempDir, 'late.kml', encode(text), { mapping: { Folder: 'group' } });
    expect(preview.rows.map((row) => row.input.group)).toEqual(['Renamed', 'Late', 'Late', undefined]);
  });

  it('reads UTF-16, Windows-1252 and a byte-order mark as the whole file is read, with the same notes', async ({ tempDir }) => {
    const text = '<?xml version="1.0"?><kml><Placemark><name>Tour Eiffel é ☺</name><ExtendedData><Data name="height"><value>30</value></Data></ExtendedData><Point><coordinates>2.29,48.85</coordinates></Point></Placemark></kml>';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect((await expectSame(tempDir, 'utf16.kml', utf16)).details.encoding).toBe('utf-16le with byte-order mark');
    const latin = Buffer.from(text.replace(' ☺', ''), 'latin1');
    const western = await expectSame(tempDir, 'western.kml', latin);
    expect(western.details.encoding).toBe('windows-1252');
    expect(western.rows[0]!.label).toBe('Tour Eiffel é');
    await expectSame(tempDir, 'bom.kml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    // Not UTF-8 only far past the start: read again from the start as Windows-1252.
    const far = Buffer.concat([largeKml(3000), Buffer.from('<!-- caf\xe9 -->', 'latin1')]);
    expect((await expectSame(tempDir, 'far.kml', far)).details.encoding).toBe('windows-1252');
  });

  it('refuses what the whole-file reader refuses, with the same sentence', async ({ tempDir }) => {
    for (const [name, text] of [
      ['broken.kml', '<kml><Placemark><name>A</name></kml>'],
      ['gpx.kml', '<?xml version="1.0"?><gpx><wpt lat="1" lon="2"/></gpx>'],
      ['empty.kml', '<kml><Document><name>Nothing</name></Document></kml>'],
      ['deep.kml', nestedKml(500).toString()],
      ['text.kml', ''],
    ] as const) {
      const preview = await fromDisk(tempDir, name, encode(text));
      const whole = await previewImport(encode(text), { fileName: name });
      expect(preview.problems.length, name).toBeGreaterThan(0);
      // Line and column are found by a second reading, as the whole-file reader finds them.
      expect(preview).toEqual(whole);
    }
  });

  it('reads a KML of many pieces: ampersands, CDATA and comments cut anywhere between two pieces', async ({ tempDir }) => {
    const placemarks: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      placemarks.push(`<Placemark><name>Tom & Jerry ${i} &amp; co</name><description><![CDATA[R&D <b>${i}</b>]]><!-- & --></description><Point><coordinates>-111.${i % 1000},45.${i % 997}</coordinates></Point></Placemark>`);
    }
    const text = `<kml><Document><Folder><name>Crew &amp; trucks</name>${placemarks.join('\n')}</Folder></Document></kml>`;
    // More than one of the pieces (1 MB) the file is read in.
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const preview = await expectSame(tempDir, 'pieces.kml', encode(text));
    expect(preview.rows).toHaveLength(12_000);
    expect(preview.rows[11_999]!.label).toBe('Tom & Jerry 11999 & co');
  });
});

describe('a KMZ read from disk, its KML unpacked as it is read', () => {
  it('gives the preview the whole archive gives: doc.kml, no doc.kml, several KML files, stored entries', async ({ tempDir }) => {
    const other = encode(new TextDecoder().decode(TOWERS).replace(/<name>/, '<name>Other '));
    const archives: Array<[string, Uint8Array]> = [
      ['plain.kmz', await zipped([['doc.kml', TOWERS]])],
      ['other-first.kmz', await zipped([['files/', ''], ['a.kml', other], ['DOC.KML', TOWERS], ['b.kml', other]])],
      ['no-doc.kmz', await zipped([['images/x.png', new Uint8Array(300)], ['sites.kml', TOWERS], ['more.kml', other]])],
      ['doc-twice.kmz', await zipped([['doc.kml', other], ['x.txt', 'x'], ['doc.kml', TOWERS]])],
      ['stored.kmz', await zipped([['doc.kml', TOWERS]], 'STORE')],
      ['zip-called-kml.kml', await zipped([['doc.kml', TOWERS]])],
    ];
    for (const [name, bytes] of archives) {
      const preview = await expectSame(tempDir, name, bytes);
      expect(preview.problems, name).toEqual([]);
    }
  });

  it('refuses what the whole-archive reader refuses: no KML, not a zip, cut short', async ({ tempDir }) => {
    const whole = await zipped([['doc.kml', TOWERS]]);
    for (const [name, bytes] of [
      ['none.kmz', await zipped([['readme.txt', 'nothing']])],
      ['text.kmz', encode('<kml/>')],
      ['cut.kmz', whole.subarray(0, Math.floor(whole.length / 2))],
    ] as const) {
      const preview = await fromDisk(tempDir, name, bytes);
      expect(preview.problems, name).toHaveLength(1);
      expect(preview).toEqual(await previewImport(bytes, { fileName: name }));
    }
  });

  it('stops unpacking a doc.kml that passes 64 MB, whatever its headers say, from disk and from bytes', async ({ tempDir }) => {
    for (const lie of [false, true]) {
      const bomb = await kmzBomb(65 * 1024 * 1024, lie);
      const preview = await fromDisk(tempDir, 'bomb.kmz', bomb);
      expect(preview.problems).toEqual(['doc.kml in the KMZ unpacks to more than 64 MB, which no site list needs; it was not read (the file may be damaged or made to harm).']);
      expect(preview.rows).toEqual([]);
      expect(await previewImport(bomb, { fileName: 'bomb.kmz' })).toMatchObject({ problems: preview.problems, rows: [] });
    }
  });
});

describe('the KML reader given pieces', () => {
  /** `text` cut at the given places. */
  function cut(text: string, at: number[]): string[] {
    const places = [...new Set(at.map((place) => place % (text.length + 1)))].sort((a, b) => a - b);
    const pieces: string[] = [];
    let from = 0;
    for (const place of places) {
      pieces.push(text.slice(from, place));
      from = place;
    }
    pieces.push(text.slice(from));
    return pieces;
  }

  function read(pieces: string[], onFeature: OnFeature) {
    const reader = new KmlReader(onFeature);
    for (const piece of pieces) reader.push(piece);
    return reader.end();
  }

  it('escapes bare ampersands the same wherever the text is cut', () => {
    const text = fc.array(fc.constantFrom('&', 'amp;', '#38;', '#x26;', 'a', ';', '<', '!', '[CDATA[', ']]>', '--', '>', '<!--', '-->', '<![CDATA['), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (whole, at) => {
        const pieces = cut(whole, at);
        const streaming = new AmpersandEscaper();
        expect(pieces.map((piece) => streaming.push(piece)).join('') + streaming.end()).toBe(escapeBareAmpersands(whole));
      }),
      { numRuns: 2000 },
    );
  });

  it('hands on the features the whole text gives, typed and foldered by what a first reading learnt', () => {
    fc.assert(
      fc.property(kmlDocument, fc.array(fc.nat(), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 8 }), (text, firstCuts, secondCuts) => {
        const whole = readKmlFeatures(text);
        const first = read(cut(text, firstCuts), () => {});
        expect(first.ok).toBe(whole.ok);
        if (!first.ok || !whole.ok) return;
        const entries: FeatureEntry[] = [];
        const second = read(cut(text, secondCuts), (pending, folder) => entries.push(entryOf(finishFeature(pending, first.schema), folderLabel(folder, first.lateNames))));
        expect(second.ok).toBe(true);
        expect(entries).toEqual(whole.entries);
        expect(first.hasFolders).toBe(whole.entries.some((entry) => entry.folder !== undefined));
      }),
      { numRuns: 300 },
    );
  });
});
