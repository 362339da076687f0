import { kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { exportCsv, exportGeoJson, exportKml, guardFormula, unguardFormula, KML_PIN_COLOURS, type ExportSite } from '../../electron/shared/bulk/export';
import { previewImport } from '../../electron/shared/bulk/import';
import type { KnownSite } from '../../electron/shared/bulk/preview';

const SITES: ExportSite[] = [
  { siteId: '100001', name: 'Ridge', height: 30, latitude: 40.4461, longitude: -79.9822, description: 'Lattice, 3 legs\nshelter "A"', group: 'North', pinStyle: 1 },
  { siteId: '100002', name: '=HYPERLINK("http://evil")', height: 45, latitude: -33.8688, longitude: 151.2093, description: '-ground mount', group: '@ops', pinStyle: 2 },
  { siteId: '100003', name: 'Caf\u00e9 \u65e5\u672c', height: 0, latitude: 0.0000001, longitude: -0.5, description: '', group: '', pinStyle: 3 },
  { siteId: '100004', name: '+1 tower', height: 1000, latitude: 90, longitude: -180, description: null, group: null, pinStyle: 4 },
];

const encode = (text: string) => new TextEncoder().encode(text);
const asKnown = (sites: ExportSite[]): KnownSite[] => sites.map((site) => ({ ...site, siteId: site.siteId! }));

describe('exporting the register', () => {
  it('writes CSV with the canonical headers, CRLF line ends and quoting only where needed', () => {
    const { text, count } = exportCsv(SITES.slice(0, 1));
    expect(count).toBe(1);
    expect(text).toBe('Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle\r\n100001,Ridge,30,40.4461,-79.9822,"Lattice, 3 legs\nshelter ""A""",North,1\r\n');
  });

  it('guards text cells a spreadsheet would run as a formula, but leaves negative coordinates as numbers', () => {
    const rows = Papa.parse<string[]>(exportCsv(SITES).text, { skipEmptyLines: true }).data;
    expect(rows[2]).toEqual(['100002', "'=HYPERLINK(\"http://evil\")", '45', '-33.8688', '151.2093', "'-ground mount", "'@ops", '2']);
    expect(rows[4]?.[1]).toBe("'+1 tower");
    expect(rows[4]?.[4]).toBe('-180');
    expect(guardFormula('Ridge')).toBe('Ridge');
    expect(unguardFormula("'=x")).toBe('=x');
    expect(unguardFormula("'quoted")).toBe("'quoted");
  });

  it('adds a UTF-8 byte-order mark on request so Excel reads accents', () => {
    expect(exportCsv(SITES, { bom: true }).text.startsWith('\uFEFFSiteid,')).toBe(true);
    expect(exportCsv(SITES).text.startsWith('Siteid,')).toBe(true);
  });

  it('round-trips: the exported CSV imports as the same sites, every row unchanged against the register', async () => {
    const preview = await previewImport(encode(exportCsv(SITES, { bom: true }).text), { fileName: 'export.csv', known: asKnown(SITES) });
    expect(preview.problems).toEqual([]);
    expect(preview.rows.map((row) => row.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    const back = await previewImport(encode(exportCsv(SITES).text), { fileName: 'export.csv' });
    expect(back.rows.map((row) => row.edit)).toEqual([
      { siteId: '100001', name: 'Ridge', height: 30, latitude: 40.4461, longitude: -79.9822, description: 'Lattice, 3 legs\nshelter "A"', group: 'North', pinStyle: 1 },
      { siteId: '100002', name: '=HYPERLINK("http://evil")', height: 45, latitude: -33.8688, longitude: 151.2093, description: '-ground mount', group: '@ops', pinStyle: 2 },
      { siteId: '100003', name: 'Caf\u00e9 \u65e5\u672c', height: 0, latitude: 0.0000001, longitude: -0.5, pinStyle: 3 },
      { siteId: '100004', name: '+1 tower', height: 1000, latitude: 90, longitude: -180, pinStyle: 4 },
    ]);
    // And writing the imported values out again gives the same bytes.
    const again = back.rows.map((row) => ({ ...row.edit!, siteId: row.edit!.siteId! }));
    expect(exportCsv(again).text).toBe(exportCsv(SITES).text);
  });

  it('writes a site without a service ID with a blank Siteid and counts it', () => {
    const result = exportCsv([{ siteId: null, name: 'Pending', height: 10, latitude: 1, longitude: 2 }]);
    expect(result.withoutId).toBe(1);
    expect(result.text.split('\r\n')[1]).toBe(',Pending,10,1,2,,,');
  });

  it('writes KML with one tinted pin style per Pinstyle and ExtendedData that imports back', async () => {
    const result = exportKml(SITES);
    expect(result.count).toBe(4);
    const doc = new DOMParser().parseFromString(result.text, 'text/xml');
    const styles = Array.from(doc.getElementsByTagName('Style')).map((style) => [style.getAttribute('id'), style.getElementsByTagName('color')[0]?.textContent]);
    expect(styles).toEqual([
      ['pin-1', KML_PIN_COLOURS[1]],
      ['pin-2', KML_PIN_COLOURS[2]],
      ['pin-3', KML_PIN_COLOURS[3]],
      ['pin-4', KML_PIN_COLOURS[4]],
    ]);
    const features = kmlToGeoJson(doc).features;
    expect(features[1]).toMatchObject({
      geometry: { type: 'Point', coordinates: [151.2093, -33.8688, 0] },
      properties: { name: '=HYPERLINK("http://evil")', styleUrl: '#pin-2', Siteid: '100002', height: '45', Group: '@ops', Pinstyle: '2' },
    });
    const preview = await previewImport(encode(result.text), { fileName: 'sites.kml', known: asKnown(SITES) });
    expect(preview.problems).toEqual([]);
    expect(preview.rows.map((row) => row.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('leaves a site without a position out of the KML and says which', () => {
    const result = exportKml([{ siteId: '9', name: 'Nowhere', height: 10, latitude: null, longitude: null }, SITES[0]!]);
    expect(result.count).toBe(1);
    expect(result.omitted).toEqual([{ siteId: '9', name: 'Nowhere', reason: expect.stringMatching(/no position/) }]);
  });

  it('writes GeoJSON points in [longitude, latitude] order with the fields as properties, and imports back', async () => {
    const result = exportGeoJson([...SITES, { siteId: '9', name: 'Nowhere', height: 10, latitude: null, longitude: null, pinStyle: 1 }]);
    const data = JSON.parse(result.text) as { type: string; features: Array<{ id?: string; geometry: unknown; properties: Record<string, unknown> }> };
    expect(data.type).toBe('FeatureCollection');
    expect(data.features[0]).toEqual({
      type: 'Feature',
      id: '100001',
      geometry: { type: 'Point', coordinates: [-79.9822, 40.4461] },
      properties: { siteId: '100001', name: 'Ridge', height: 30, description: 'Lattice, 3 legs\nshelter "A"', group: 'North', pinStyle: 1, 'marker-color': '#d32f2f' },
    });
    expect(data.features[4]?.geometry).toBeNull();
    const known = asKnown([...SITES, { siteId: '9', name: 'Nowhere', height: 10, latitude: null, longitude: null, pinStyle: 1 }]);
    const preview = await previewImport(encode(result.text), { fileName: 'sites.geojson', known });
    expect(preview.rows.map((row) => row.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });
});
