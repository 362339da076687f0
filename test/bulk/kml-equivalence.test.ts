// The streaming KML reader (electron/shared/bulk/kml.ts, saxes) must give exactly the table the
// previous reader gave (xmldom + togeojson, kept in ./reference): same columns, cells, row order,
// labels, skip reasons, notes and problems. Compared over every KML/KMZ fixture, hand-picked odd
// documents, and generated files (entities, CDATA, nested folders, ExtendedData, 1–2,000 placemarks).
import fc from 'fast-check';
import JSZip from 'jszip';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKml, parseKmz } from '../../electron/shared/bulk/geo';
import type { ImportTable } from '../../electron/shared/bulk/table';
import { FIXTURES, fixture } from './helpers';
import { referenceParseKml, referenceParseKmz } from './reference/togeojson-kml';
import { kmlDocument, placemark, xmlText } from '../support/kml-documents';

/** The parsers' own wording of a syntax error differs; everything else must be identical. */
function comparable(table: ImportTable): ImportTable {
  return { ...table, problems: table.problems.map((problem) => problem.replace(/^(The KML is not well-formed XML) \(.*\)(\. Export it again)/s, '$1 (…)$2')) };
}

function expectSameKml(text: string): ImportTable {
  const streamed = parseKml(text);
  expect(comparable(streamed)).toEqual(comparable(referenceParseKml(text)));
  return streamed;
}

async function zipped(files: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const kmlFixtures = readdirSync(FIXTURES).filter((name) => /\.km[lz]$/i.test(name));

describe('the streaming KML reader gives the previous reader’s table', () => {
  it.each(kmlFixtures)('reads fixture %s exactly as before', async (name) => {
    const bytes = fixture(name);
    if (name.toLowerCase().endsWith('.kmz')) {
      expect(comparable(await parseKmz(bytes))).toEqual(comparable(await referenceParseKmz(bytes)));
    } else {
      const table = expectSameKml(new TextDecoder().decode(bytes));
      expect(table.rows.length).toBeGreaterThan(0);
      // Zipped, the same file goes through the KMZ path of both readers.
      const kmz = await zipped({ 'doc.kml': bytes, 'other.kml': bytes });
      expect(comparable(await parseKmz(kmz))).toEqual(comparable(await referenceParseKmz(kmz)));
    }
  });

  const odd: Record<string, string> = {
    'empty text': '',
    'not XML at all': 'Name,Latitude\nA,40',
    'XML that is not KML': '<?xml version="1.0"?><gpx><wpt lat="1" lon="2"/></gpx>',
    'a prefixed kml root': '<k:kml xmlns:k="http://www.opengis.net/kml/2.2"><k:Placemark><k:name>A</k:name></k:Placemark></k:kml>',
    'an unclosed tag': '<kml><Placemark><name>A</name></kml>',
    'an undefined entity': '<kml><Placemark><name>A&nbsp;B</name></Placemark></kml>',
    'text after the root': '<kml/>trailing',
    'no placemarks': '<kml><Document><name>Empty</name><Folder><name>F</name></Folder></Document></kml>',
    'a placemark without geometry': '<kml><Placemark><name> Edit only </name><ExtendedData><Data name="Siteid"><value>12</value></Data></ExtendedData></Placemark></kml>',
    'MultiGeometry with one and with two points': `<kml><Document>
      <Placemark><name>one</name><MultiGeometry><Point><coordinates>1,2</coordinates></Point></MultiGeometry></Placemark>
      <Placemark><name>two</name><MultiGeometry><Point><coordinates>1,2</coordinates></Point><Point><coordinates>3,4</coordinates></Point></MultiGeometry></Placemark>
      <Placemark><name>nested</name><MultiGeometry><MultiGeometry><Point><coordinates>5,6,7</coordinates></Point></MultiGeometry><LineString><coordinates>1,1 2,2 x,y</coordinates></LineString></MultiGeometry></Placemark>
    </Document></kml>`,
    'odd point coordinates': `<kml><Document>
      <Placemark><Point><coordinates> 1 , 2 , 3 , 4 </coordinates></Point></Placemark>
      <Placemark><Point><coordinates>1e-7,-2.5e3</coordinates></Point></Placemark>
      <Placemark><Point><coordinates>abc,2</coordinates></Point></Placemark>
      <Placemark><Point><coordinates>1,2 3,4</coordinates></Point></Placemark>
      <Placemark><Point><coordinates></coordinates></Point></Placemark>
      <Placemark><Point/></Placemark>
      <Placemark><Point><coordinates>1<!-- c -->0,<![CDATA[20]]></coordinates></Point></Placemark>
    </Document></kml>`,
    'names and descriptions with entities, CDATA and comments': `<kml><Document>
      <Placemark><name>A &amp; B &lt;C&gt; &#x263A; &#233;<!-- no --></name><description>plain &quot;text&quot;</description><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name><![CDATA[<b>bold</b> & co]]></name><description>before <![CDATA[<p>one</p>]]> between <![CDATA[<p>two</p>]]></description></Placemark>
      <Placemark><name>   </name><description><![CDATA[]]></description></Placemark>
      <Placemark><description>x<b>inner</b>y</description><name>late name</name></Placemark>
    </Document></kml>`,
    'folders: nested, unnamed, blank, named late, and features inside features': `<kml><Document>
      <Folder><name>Outer</name>
        <Folder><Placemark><name>in unnamed</name></Placemark></Folder>
        <Folder><name>  </name><Placemark><name>in blank</name></Placemark></Folder>
        <Folder><Placemark><name>named late</name></Placemark><name>Late</name></Folder>
        <Folder><name>A</name><name>B</name><Placemark/></Folder>
        <Placemark><name>outer</name><Folder><name>Inside</name><Placemark><name>inner</name></Placemark></Folder></Placemark>
      </Folder>
      <Placemark><name>top</name></Placemark>
    </Document></kml>`,
    'ExtendedData: Data, SimpleData, schema types declared after use, overrides': `<kml><Document>
      <Placemark><name>P</name><ExtendedData>
        <SchemaData><SimpleData name="h">30.50</SimpleData><SimpleData name="ok"></SimpleData><SimpleData name="flag">0</SimpleData></SchemaData>
        <Data name="name"><value>from data</value></Data><Data name="Latitude"><value>9</value></Data><Data><value>nameless</value></Data>
        <Data name="constructor"><value>c</value></Data><SimpleData name="description">typed</SimpleData>
        <Data name="empty"/><Data name="two"><value>1</value><value>2</value></Data>
      </ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><ExtendedData><SimpleData name="undeclared">007</SimpleData></ExtendedData></Placemark>
      <Schema><SimpleField name="h" type="double"/><SimpleField name="ok" type="bool"/><SimpleField name="flag" type="bool"/><SimpleField name="undeclared" type="nonsense"/></Schema>
    </Document></kml>`,
    'tracks, polygons, overlays and network links': `<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
      <Placemark><name>track</name><gx:Track><when>2020-01-01</when><gx:coord>1 2 3</gx:coord></gx:Track></Placemark>
      <Placemark><name>long track</name><gx:Track><when>a</when><when>b</when><gx:coord>1 2 3</gx:coord><gx:coord>4 5 6</gx:coord></gx:Track></Placemark>
      <Placemark><name>bad track</name><gx:Track><gx:coord></gx:coord></gx:Track></Placemark>
      <Placemark><name>ring</name><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,1 1,1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
      <Placemark><name>tiny ring</name><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,1</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
      <GroundOverlay><name>image</name><Icon><href>a.png</href></Icon><LatLonBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonBox></GroundOverlay>
      <GroundOverlay><name>image without box</name></GroundOverlay>
      <NetworkLink><name>link</name><flyToView>1</flyToView><Link><href>http://x/y.kml</href><refreshMode>onInterval</refreshMode></Link>
        <Region><LatLonAltBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonAltBox><Lod><minLodPixels>128</minLodPixels></Lod></Region></NetworkLink>
      <NetworkLink><name>link without region</name><Link><href>z.kml</href></Link></NetworkLink>
    </Document></kml>`,
    'styles and times (never columns)': `<kml><Document><Style id="s"><IconStyle><color>ff00ff00</color><scale>2</scale></IconStyle></Style>
      <StyleMap id="m"><Pair><styleUrl>#s</styleUrl></Pair></StyleMap>
      <Placemark><name>styled</name><styleUrl>#m</styleUrl><visibility>0</visibility><open>1</open><TimeStamp><when>2020</when></TimeStamp>
        <Style><LineStyle><width>3</width></LineStyle></Style><address>1 Main St</address><phoneNumber>555</phoneNumber><Point><coordinates>1,2</coordinates></Point></Placemark>
    </Document></kml>`,
    'an undeclared gx: prefix (refused by both)': '<kml><Placemark><gx:Track><gx:coord>1 2 3</gx:coord></gx:Track></Placemark></kml>',
    'slips the DOM reader let through: "]]>" in text, an unquoted attribute': '<kml><Placemark><name>a]]>b</name><ExtendedData><Data name=h><value>1</value></Data></ExtendedData></Placemark></kml>',
    'an XML declaration not at the start': ' <?xml version="1.0"?><kml/>',
    'CRLF line ends and attribute whitespace': '<kml>\r\n<Placemark><name>a\r\nb</name><ExtendedData><Data name="x\ty"><value>1\r2</value></Data></ExtendedData></Placemark></kml>',
  };

  it.each(Object.keys(odd))('reads %s exactly as before', (name) => {
    expectSameKml(odd[name]!);
  });

  it('reads a bare ampersand in hand-written text as text, where the DOM reader refused the file', () => {
    const text = `<kml><Document>
      <Placemark><name>Tom & Jerry &amp; co &#65;</name><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name><![CDATA[R&D &amp; more]]></name><ExtendedData><Data name="owner"><value>Smith & Sons</value></Data></ExtendedData></Placemark>
    </Document></kml>`;
    const table = parseKml(text);
    expect(table.problems).toEqual([]);
    expect(table.rows.map((row) => row.label)).toEqual(['Tom & Jerry & co A', 'R&D &amp; more']);
    expect(table.rows[1]!.cells).toContain('Smith & Sons');
  });

  it('types SimpleData by its own SimpleField only, never by an Object member of the same name', () => {
    // togeojson looked types up in a plain object: "toString" read as "[object Undefined]", and with a
    // SimpleField named "__proto__" the file could not be read at all.
    const text = `<kml><Document>
      <Schema><SimpleField name="__proto__" type="int"/><SimpleField name="h" type="constructor"/></Schema>
      <Placemark><name>A</name><ExtendedData><SimpleData name="toString">x</SimpleData><SimpleData name="h">7</SimpleData><SimpleData name="valueOf">y</SimpleData></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>
    </Document></kml>`;
    expect(referenceParseKml(text).problems).toEqual([expect.stringContaining('The KML could not be read')]);
    const table = parseKml(text);
    expect(table.problems).toEqual([]);
    const cells = Object.fromEntries(table.columns.map((column, index) => [column, table.rows[0]!.cells[index]]));
    expect(cells).toMatchObject({ toString: 'x', h: '7', valueOf: 'y' });
  });

  it('reads text after a CDATA section that ended early as text, bare ampersand and all', () => {
    // Found by the generated documents (seed 438946469): "]]>&a" inside a section ends it at the first
    // "]]>", leaving a bare "&a" (no ";"), which the DOM reader refused as an unfinished reference.
    const text = '<kml><Placemark><name>A</name><ExtendedData><Data name="x"><value><![CDATA[]]>&a]]></value></Data></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark></kml>';
    expect(referenceParseKml(text).problems).toHaveLength(1);
    const table = parseKml(text);
    expect(table.problems).toEqual([]);
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0]!.cells).toContain('&a]]>');
  });

  it('reads KMZ archives the same way: no doc.kml, several KML files, no KML, not a zip', async () => {
    const kml = '<kml><Placemark><name>A</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>';
    const archives = [
      await zipped({ 'sites.kml': kml }),
      await zipped({ 'a.kml': kml, 'DOC.KML': kml.replace('A', 'B') }),
      await zipped({ 'readme.txt': 'nothing' }),
      new TextEncoder().encode('not a zip'),
    ];
    for (const bytes of archives) expect(comparable(await parseKmz(bytes))).toEqual(comparable(await referenceParseKmz(bytes)));
  });
});

// ---- generated documents ------------------------------------------------------------------------

describe('generated KML', () => {
  it('gives the same table for documents with entities, CDATA, nested folders and ExtendedData', () => {
    fc.assert(
      fc.property(kmlDocument, (text) => {
        expectSameKml(text);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same table for large documents (up to 2,000 placemarks)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.array(placemark, { minLength: 1, maxLength: 20 }), fc.array(fc.option(xmlText), { minLength: 1, maxLength: 5 }), (count, kinds, folders) => {
        const items: string[] = [];
        for (let i = 0; i < count; i++) {
          const folderName = folders[i % folders.length];
          const item = kinds[i % kinds.length]!;
          items.push(i % 7 === 0 ? `<Folder>${folderName == null ? '' : `<name>${folderName}</name>`}${item}</Folder>` : item);
        }
        const table = expectSameKml(`<kml><Document>${items.join('\n')}</Document></kml>`);
        expect(table.rows).toHaveLength(count);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
