import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { previewImport } from '../../electron/shared/bulk/import';
import { fixture, messages, previewFixture, rowAt } from './helpers';

async function kmz(files: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const kmlText = new TextDecoder().decode(fixture('towers.kml'));

describe('KML and KMZ placemarks as sites', () => {
  it('turns point placemarks into sites with ExtendedData and SchemaData mapped through the alias table', async () => {
    const preview = await previewFixture('towers.kml');
    expect(preview.format).toBe('kml');
    expect(preview.problems).toEqual([]);
    expect(rowAt(preview, 1)).toMatchObject({
      label: 'Ridge Tower',
      action: 'create',
      ready: true,
      edit: { name: 'Ridge Tower', description: 'Lattice tower & shelter', height: 30, group: 'North', pinStyle: 3, latitude: 40.4461, longitude: -79.9822 },
    });
    // SchemaData names height_m and site_id; the CDATA HTML description becomes plain text.
    expect(rowAt(preview, 3)).toMatchObject({
      action: 'edit',
      ready: true,
      edit: { siteId: '100002', height: 18, latitude: 40.5012, longitude: -80.0105, description: 'Rooftop mount\nAccess: call & wait' },
    });
  });

  it('keeps lines and polygons in the preview as skipped rows, each with its reason', async () => {
    const preview = await previewFixture('towers.kml');
    expect(rowAt(preview, 2)).toMatchObject({ label: 'Backhaul path', action: 'skip', ready: false, skipReason: expect.stringMatching(/is a line/) });
    expect(rowAt(preview, 4)).toMatchObject({ label: 'Coverage area', action: 'skip', skipReason: expect.stringMatching(/area \(polygon\)/) });
    expect(preview.summary).toMatchObject({ total: 4, ready: 2, skipped: 2, invalid: 0 });
    expect(preview.notes.join(' ')).toMatch(/2 of 4 placemarks are not a single point/);
  });

  it('offers the placemark\'s folder as a column that can be mapped to the group', async () => {
    const preview = await previewFixture('towers.kml', { mapping: { Folder: 'group', Group: 'ignore' } });
    expect(rowAt(preview, 1).edit?.group).toBe('North sector');
    expect(rowAt(preview, 3).edit?.group).toBeUndefined();
  });

  it('opens a KMZ and reads its doc.kml', async () => {
    const bytes = await kmz({ 'doc.kml': kmlText, 'files/icon.png': new Uint8Array([1, 2, 3]) });
    const preview = await previewImport(bytes, { fileName: 'survey.kmz' });
    expect(preview.format).toBe('kmz');
    expect(preview.details.kml).toBe('doc.kml');
    expect(preview.summary).toMatchObject({ ready: 2, skipped: 2 });
  });

  it('reads the first .kml of a KMZ without doc.kml, says so, and recognises a KMZ by content', async () => {
    const bytes = await kmz({ 'export/towers.kml': kmlText });
    const preview = await previewImport(bytes, { fileName: 'download' });
    expect(preview.format).toBe('kmz');
    expect(preview.notes.join(' ')).toMatch(/no doc.kml; read export\/towers.kml instead/);
    expect(preview.summary.ready).toBe(2);
  });

  it('refuses a KMZ without a KML, and a .kmz that is not a zip', async () => {
    const empty = await previewImport(await kmz({ 'readme.txt': 'hi' }), { fileName: 'a.kmz' });
    expect(empty.problems).toEqual(['The KMZ holds no .kml file.']);
    const fake = await previewImport(new TextEncoder().encode(kmlText), { fileName: 'a.kmz' });
    expect(fake.problems.join(' ')).toMatch(/not a zip archive/);
  });

  it('refuses malformed XML and XML that is not KML with a clear message', async () => {
    const broken = await previewImport(new TextEncoder().encode('<kml><Placemark></kml>'), { fileName: 'a.kml' });
    expect(broken.problems.join(' ')).toMatch(/not well-formed XML/);
    const other = await previewImport(new TextEncoder().encode('<?xml version="1.0"?><gpx></gpx>'), { fileName: 'a.kml' });
    expect(other.problems.join(' ')).toMatch(/root element is <gpx>/);
  });

  it('recognises KML by content when the file has no useful extension', async () => {
    const preview = await previewImport(fixture('towers.kml'), { fileName: 'towers.xml' });
    expect(preview.format).toBe('kml');
  });
});

describe('GeoJSON points as sites', () => {
  it('reads a FeatureCollection: points become sites, [longitude, latitude] order, properties through the alias table', async () => {
    const preview = await previewFixture('towers.geojson');
    expect(preview.problems).toEqual([]);
    expect(rowAt(preview, 1).edit).toEqual({ name: 'Ridge Tower', height: 30, group: 'North', pinStyle: 2, description: 'Lattice', latitude: 40.4461, longitude: -79.9822 });
    // Another feature names its fields differently (title, site_id, height_m, color): used per feature.
    expect(rowAt(preview, 2).edit).toEqual({ siteId: '100002', name: 'Water tank', height: 18, pinStyle: 4, latitude: 40.5012, longitude: -80.0105 });
    expect(rowAt(preview, 3)).toMatchObject({ action: 'skip', skipReason: expect.stringMatching(/is a line/) });
  });

  it('treats a feature without geometry as an edit that keeps the position', async () => {
    const preview = await previewFixture('towers.geojson');
    expect(rowAt(preview, 4)).toMatchObject({ action: 'edit', ready: true, edit: { siteId: '100003', height: 44 } });
  });

  it('writes tiny coordinates without an exponent so the shared schema accepts them', async () => {
    const preview = await previewFixture('towers.geojson');
    expect(rowAt(preview, 5).edit).toMatchObject({ longitude: 1e-7, latitude: 0.5 });
  });

  it('reads a single Feature and a bare Point', async () => {
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [-93.1, 45.2] }, properties: { name: 'Lone', height: '40' } };
    const one = await previewImport(new TextEncoder().encode(JSON.stringify(feature)), { fileName: 'one.geojson' });
    expect(one.rows[0]?.edit).toMatchObject({ name: 'Lone', height: 40, latitude: 45.2, longitude: -93.1 });
    const bare = await previewImport(new TextEncoder().encode('{"type":"Point","coordinates":[-93.1,45.2]}'), { fileName: 'p.json', defaults: { height: '12' } });
    expect(bare.rows[0]?.edit).toMatchObject({ height: 12, latitude: 45.2, longitude: -93.1 });
  });

  it('says a new site without height is invalid, by the shared schema, and accepts a default height', async () => {
    const text = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { name: 'A' } }] });
    const bytes = new TextEncoder().encode(text);
    const without = await previewImport(bytes, { fileName: 'a.geojson' });
    expect(without.problems.join(' ')).toMatch(/No column gives the tower height/);
    const withDefault = await previewImport(bytes, { fileName: 'a.geojson', defaults: { height: '25' } });
    expect(withDefault.rows[0]).toMatchObject({ ready: true, edit: { height: 25 } });
  });

  it('rejects invalid JSON, JSON that is not GeoJSON, and a collection without features', async () => {
    const bad = await previewImport(new TextEncoder().encode('{"type": "FeatureCollection",'), { fileName: 'a.geojson' });
    expect(bad.problems.join(' ')).toMatch(/not valid JSON/);
    const other = await previewImport(new TextEncoder().encode('{"hello": 1}'), { fileName: 'a.json' });
    expect(other.problems.join(' ')).toMatch(/not GeoJSON/);
    const empty = await previewImport(new TextEncoder().encode('{"type":"FeatureCollection","features":[]}'), { fileName: 'a.geojson' });
    expect(empty.problems).toEqual(['The GeoJSON has no features.']);
  });

  it('reports coordinates that are not numbers through the shared schema', async () => {
    const text = JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: ['east', 95] }, properties: { height: 10 } });
    const preview = await previewImport(new TextEncoder().encode(text), { fileName: 'a.geojson' });
    expect(messages(preview.rows[0]!)).toMatch(/Longitude must be a number.*Latitude must be between -90 and 90|Latitude must be between -90 and 90.*Longitude must be a number/s);
  });
});
