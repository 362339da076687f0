// Wide tables (issue 24): a row holds the cells it has, never padded to the columns, and a table has
// at most 16,384 columns (as a spreadsheet). A 950 KB CSV whose header named 120,000 columns above
// 5,000 short rows once padded every row to every column: 4.3 GB and out of memory. The same files
// through the browser host are in hostile-imports.heavy.test.ts.
import { describe, expect, it } from 'vitest';
import { parseDelimited } from '../../electron/shared/bulk/csv';
import { DelimitedStream } from '../../electron/shared/bulk/csv-stream';
import { readEusCsv, planReprocess } from '../../electron/shared/bulk/eus';
import { parseGeoJson, parseKml } from '../../electron/shared/bulk/geo';
import { previewImport } from '../../electron/shared/bulk/import';
import { MAX_COLUMNS } from '../../electron/shared/bulk/limits';
import type { TableRow } from '../../electron/shared/bulk/table';
import { manyFieldsKml, wideCsv } from '../support/hostile-imports';

const text = (bytes: Buffer) => bytes.toString('utf8');

/** The CSV read as the preview's worker reads a file: a piece at a time. */
function streamed(csv: string, piece = 64 * 1024) {
  const stream = new DelimitedStream();
  const rows: TableRow[] = [];
  for (let at = 0; at < csv.length; at += piece) rows.push(...stream.push(csv.slice(at, at + piece)));
  rows.push(...stream.end());
  return { ...stream.table(), rows };
}

describe('a CSV header', () => {
  it(`of ${MAX_COLUMNS.toLocaleString('en-US')} columns is read, and its short rows keep only the cells they have`, () => {
    const csv = text(wideCsv(MAX_COLUMNS, 3));
    for (const table of [parseDelimited(csv), streamed(csv)]) {
      expect(table.problems).toEqual([]);
      expect(table.columns).toHaveLength(MAX_COLUMNS);
      expect(table.rows).toHaveLength(3);
      for (const row of table.rows) expect(row.cells).toEqual([`S${row.row - 2}`, '45.1', '-93.1', '10']);
    }
  });

  it('of one column more is refused with a sentence naming the limit, and no row is read', () => {
    const csv = text(wideCsv(MAX_COLUMNS + 1, 3));
    for (const table of [parseDelimited(csv), streamed(csv)]) {
      expect(table.problems).toEqual([expect.stringMatching(/^The header names 16,385 columns; one table has at most 16,384 columns, as a spreadsheet, and it was not read/)]);
      expect(table.rows).toEqual([]);
      expect(table.columns).toEqual([]);
    }
  });

  it('of 120,000 columns above 5,000 rows is refused after the header, read a piece at a time', () => {
    const table = streamed(text(wideCsv(120_000, 5_000)));
    expect(table.problems).toEqual([expect.stringContaining('The header names 120,000 columns')]);
    expect(table.rows).toEqual([]);
  });
});

describe('rows shorter than the header', () => {
  it('read a missing cell as empty: a height the row lacks takes the default', async () => {
    const preview = await previewImport(new TextEncoder().encode('Name,Latitude,Longitude,Height,Group\nA,45.1,-93.1\nB,45.2,-93.2,20,North\n'), { fileName: 'sites.csv', defaults: { height: '12' } });
    expect(preview.problems).toEqual([]);
    expect(preview.rows.map((row) => [row.edit?.name, row.edit?.height, row.edit?.group ?? null])).toEqual([
      ['A', 12, null],
      ['B', 20, 'North'],
    ]);
  });
});

describe('KML and GeoJSON properties', () => {
  it('become columns up to the limit; a placemark without one of them reads it as empty', async () => {
    // 2,000 placemarks of 8 names each (16,000 columns beside the position and the name), then 500 with only the last.
    const kml = manyFieldsKml(2_000, 8, 500);
    const table = parseKml(text(kml));
    expect(table.problems).toEqual([]);
    expect(table.columns).toHaveLength(3 + 16_000);
    expect(table.rows).toHaveLength(2_500);
    // Cells are held only where a placemark has a value: the last rows hold four, not 16,003.
    const last = table.rows.at(-1)!;
    expect(last.cells.filter((cell) => cell !== undefined)).toEqual(['45.1', '-93.1', 'T499', 'v']);
    const preview = await previewImport(kml, { fileName: 'fields.kml', defaults: { height: '10' } });
    expect(preview.summary.ready).toBe(2_500);
  });

  it('past 16,384 different names refuse the file with a sentence naming the limit', () => {
    const kml = parseKml(text(manyFieldsKml(2_000, 50)));
    expect(kml.problems).toEqual([expect.stringMatching(/^The placemarks' ExtendedData name too many different fields \(one column each\); one table has at most 16,384 columns/)]);
    expect(kml.rows).toEqual([]);
    const features = Array.from({ length: 20 }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-93.1, 45.1] },
      properties: Object.fromEntries(Array.from({ length: 1_000 }, (_, j) => [`p${i}_${j}`, 'v'])),
    }));
    const geojson = parseGeoJson(JSON.stringify({ type: 'FeatureCollection', features }));
    expect(geojson.problems).toEqual([expect.stringMatching(/^The features' properties name too many different fields/)]);
  });
});

describe("a KML's schemas", () => {
  const declaring = (fields: number) =>
    `<kml><Document><Schema id="s">${Array.from({ length: fields }, (_, i) => `<SimpleField name="f${i}" type="int"/>`).join('')}</Schema><Placemark><name>A</name><ExtendedData><SchemaData schemaUrl="#s"><SimpleData name="f7">0042</SimpleData></SchemaData></ExtendedData><Point><coordinates>-93.1,45.1</coordinates></Point></Placemark></Document></kml>`;

  it(`declare up to ${MAX_COLUMNS.toLocaleString('en-US')} typed fields`, () => {
    const table = parseKml(declaring(MAX_COLUMNS));
    expect(table.problems).toEqual([]);
    expect(table.rows[0]!.cells[table.columns.indexOf('f7')]).toBe('42');
  });

  it('declaring more is refused with a sentence naming the limit (1.5 million took 617 MB and 48 s)', () => {
    const table = parseKml(declaring(MAX_COLUMNS + 1));
    expect(table.problems).toEqual([expect.stringMatching(/^The KML's schemas declare too many typed fields \(SimpleField, one column each\); one table has at most 16,384 columns/)]);
    expect(table.rows).toEqual([]);
  });
});

describe('an EUS download with short rows', () => {
  it('reads a value a row lacks as empty, even in a column named like an object property', () => {
    const table = readEusCsv(new TextEncoder().encode('Process ID,Multi Map,constructor\n101,North\n102,South,x\n'));
    expect(table.problems).toEqual([]);
    const expected: Array<Record<string, string>> = [{ 'Process ID': '101', 'Multi Map': 'North' }, { 'Process ID': '102', 'Multi Map': 'South', constructor: 'x' }];
    expect(table.rows.map((row) => row.values)).toEqual(expected);
    const plan = planReprocess(table, { multiMapId: '7', sendEmail: false, filters: [{ column: 'constructor', value: '' }] });
    expect(plan.rows.map((row) => row.processId)).toEqual(['101']);
  });
});
