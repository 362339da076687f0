// A preview made from a file on disk into a preview store (the CLI's and the host's path: a CSV
// streams, rows are written as they are read, the rows-together checks run on the store) equals the
// preview made whole from the same bytes: every fixture, Windows-1252 found after the first part of a
// file, and generated files with site IDs on several rows, creates at one position and the
// register's sites. Pages follow the filters the page offers; batches give back every row in order,
// and the dry-run report's lines, kept beside the rows, are the ones the whole preview's rows give.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { seededRandom } from '../../electron/core/clock';
import { previewGeoJsonFile } from '../../electron/core/bulk/geojson-file';
import { previewToStore } from '../../electron/core/bulk/import-file';
import { PreviewStoreWriter, StoredPreview } from '../../electron/core/bulk/preview-store';
import { previewImport, type ImportOptions } from '../../electron/shared/bulk/import';
import { rowMatches } from '../../electron/shared/bulk/preview-page';
import { dryRunReport } from '../../electron/shared/bulk/report';
import type { KnownSite } from '../../electron/shared/bulk/preview';
import { it } from '../support/fixtures';

const FIXTURES = join(__dirname, '../fixtures/bulk');
/** The register's sites the generated files edit, some without a change. */
const KNOWN = 3000;

async function stored(dir: string, name: string, bytes: Uint8Array, options: ImportOptions = {}): Promise<StoredPreview> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const storePath = join(dir, `${name}.db`);
  await previewToStore({ path }, { fileName: name, ...options }, storePath);
  return new StoredPreview(storePath);
}

async function expectSame(dir: string, name: string, bytes: Uint8Array, options: ImportOptions = {}): Promise<StoredPreview> {
  const whole = await previewImport(bytes, { fileName: name, ...options });
  const preview = await stored(dir, name, bytes, options);
  expect(await preview.whole()).toEqual(whole);
  // The report lines kept beside the rows are the ones the rows give, key for key (the CLI prints them as JSON).
  const report = [];
  for await (const batch of preview.reportBatches(700)) report.push(...batch);
  expect(report).toEqual(dryRunReport(whole));
  expect(JSON.stringify(report)).toBe(JSON.stringify(dryRunReport(whole)));
  return preview;
}

/** Rows with the cases that need the rows together: IDs on two or more rows, creates at one spot, known sites. */
function together(rows: number, random: () => number): string {
  const lines = ['Siteid,Sitename,height,Latitude,Longitude'];
  for (let n = 0; n < rows; n++) {
    const kind = Math.floor(random() * 8);
    if (kind === 0) lines.push(`${500 + Math.floor(random() * 20)},Twin ${n},30,45.1,-110.2`);
    else if (kind === 1) lines.push(`,Same spot ${n},30,45.${Math.floor(random() * 5)},-110.2`);
    else if (kind === 2 && n < KNOWN) lines.push(`${900 + n},Known ${n},${random() < 0.5 ? 30 : 31},45.5,-110.5`);
    else if (kind === 3) lines.push(`,At a known site ${n},30,45.9,-110.9`);
    else if (kind === 4) lines.push(`,Broken ${n},high,45.1,-110.2`);
    else lines.push(`${100_000 + n},Tower ${n},${20 + (n % 50)},45.${n % 1000},-110.${n % 997}`);
  }
  return `${lines.join('\n')}\n`;
}

const known: KnownSite[] = [
  ...Array.from({ length: KNOWN }, (_, n) => ({ siteId: String(900 + n), name: `Known ${n}`, height: 30, latitude: 45.5, longitude: -110.5, description: null, group: null, pinStyle: null })),
  { siteId: '777', name: 'Known spot', height: 30, latitude: 45.9, longitude: -110.9, description: null, group: null, pinStyle: null },
];

describe('a preview kept in a preview store', () => {
  const fixtures = readdirSync(FIXTURES).filter((name) => !name.startsWith('eus') && !name.startsWith('.'));
  for (const name of fixtures) {
    it(`equals the whole preview of ${name}`, async ({ tempDir }) => {
      const preview = await expectSame(tempDir, name, new Uint8Array(readFileSync(join(FIXTURES, name))));
      preview.drop();
    });
  }

  it('equals the whole preview when the rows need one another (duplicates, positions, the register) across write batches', async ({ tempDir }) => {
    const random = seededRandom(24);
    const bytes = new TextEncoder().encode(together(12_000, random));
    const preview = await expectSame(tempDir, 'together.csv', bytes, { known });
    expect(preview.head.summary.duplicates).toBeGreaterThan(100);
    expect(preview.head.summary.unchanged).toBeGreaterThan(10);
    preview.drop();
  });

  it('reads a file as Windows-1252 when a byte past its first part is not UTF-8, as the whole preview does', async ({ tempDir }) => {
    const rows = Array.from({ length: 30_000 }, (_, n) => `Tower ${n},30,45.1,-110.2`);
    rows.push('Caf\xe9 du Nord,30,45.1,-110.2');
    const text = `Sitename,height,Latitude,Longitude\n${rows.join('\n')}\n`;
    const bytes = Uint8Array.from(text, (char) => char.charCodeAt(0));
    expect(bytes.length).toBeGreaterThan(512 * 1024);
    const preview = await expectSame(tempDir, 'late-1252.csv', bytes);
    expect(preview.head.details.encoding).toBe('windows-1252');
    preview.drop();
  });

  it('refuses a line over the bound and keeps none of the rows read before it', async ({ tempDir }) => {
    const text = `Sitename,height,Latitude,Longitude\n${'A,30,1,1\n'.repeat(50_000)}${'x'.repeat(1_100_000)}\n`;
    const preview = await stored(tempDir, 'long.csv', new TextEncoder().encode(text));
    expect(preview.head.problems).toEqual([expect.stringMatching(/^Line 50002 of the file is longer than 1 million characters/)]);
    expect(preview.rowCount).toBe(0);
    expect(await preview.whole()).toMatchObject({ rows: [] });
    preview.drop();
  });

  it('equals the whole preview of a GeoJSON FeatureCollection read a feature at a time, across pieces of the file', async ({ tempDir }) => {
    const random = seededRandom(11);
    const features: string[] = [];
    for (let n = 0; n < 9000; n++) {
      const kind = Math.floor(random() * 9);
      const point = `{"type":"Point","coordinates":[${(-110 - n / 1e4).toFixed(4)},${(45 + n / 1e4).toFixed(4)}]}`;
      if (kind === 0) features.push(`{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"name":"Road ${n}"}}`);
      else if (kind === 1) features.push(`{"type":"Feature","geometry":null,"properties":{"Siteid":"${700_000 + n}","height":31}}`);
      else if (kind === 2) features.push('null');
      else if (kind === 3) features.push(`{ "type" : "Feature", "geometry" : ${point}, "properties" : { "name" : "Odd \\"}{[] \\u00e9 ${n}", "height" : 30, "tags" : [[1, {"a": [2]}]] } }`);
      else if (kind === 4 && n > 6000) features.push(`{"type":"Feature","geometry":${point},"properties":{"name":"Late ${n}","height":30,"Owner":"County"}}`);
      else features.push(`{"type":"Feature","geometry":${point},"properties":{"Siteid":"${100_000 + n}","name":"Tower ${n}","height":${20 + (n % 50)},"description":"${'notes '.repeat(40)}"}}`);
    }
    const text = `{"type":"FeatureCollection","name":"towers",\n"features":[\n${features.join(',\n')}\n],"crs":{"type":"name","properties":{"name":"EPSG:4326"}}}\n`;
    const bytes = new TextEncoder().encode(text);
    expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
    const preview = await expectSame(tempDir, 'towers.geojson', bytes, { known });
    // Read a feature at a time indeed, not whole.
    expect(await previewGeoJsonFile(join(tempDir, 'towers.geojson'), { fileName: 'towers.geojson' }, new PreviewStoreWriter(join(tempDir, 'check.db')))).not.toBeNull();
    expect(preview.head.columns.map((column) => column.header)).toContain('Owner');
    expect(preview.head.summary.skipped).toBeGreaterThan(1000);
    preview.drop();
  });

  it('reads other GeoJSON whole, as the whole preview does: a list of features, one feature, broken JSON, nesting past the bound', async ({ tempDir }) => {
    const feature = '{"type":"Feature","geometry":{"type":"Point","coordinates":[-110.1,45.1]},"properties":{"name":"A","height":30}}';
    const cases = {
      'list.geojson': `[${feature},${feature}]`,
      'one.geojson': feature,
      'broken.geojson': `{"type":"FeatureCollection","features":[${feature},{"type":}]}`,
      'deep.geojson': `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":${'['.repeat(150)}${']'.repeat(150)}}}]}`,
      'empty.geojson': '{"type":"FeatureCollection","features":[]}',
    };
    for (const [name, text] of Object.entries(cases)) {
      const preview = await expectSame(tempDir, name, new TextEncoder().encode(text));
      preview.drop();
      const streamed = await previewGeoJsonFile(join(tempDir, name), { fileName: name }, new PreviewStoreWriter(join(tempDir, `${name}.check.db`)));
      // Only the nesting is refused while splitting (with the same sentence); the rest is read whole.
      if (name === 'deep.geojson') expect(streamed?.problems).toEqual([expect.stringMatching(/nests more than 100 levels/)]);
      else expect(streamed, name).toBeNull();
    }
  });

  it('gives pages as the page filters them and every row in batches', async ({ tempDir }) => {
    const random = seededRandom(7);
    const bytes = new TextEncoder().encode(together(4_000, random));
    const whole = await previewImport(bytes, { fileName: 'pages.csv', known });
    const preview = await stored(tempDir, 'pages.csv', bytes, { known });
    const view = preview.view();
    expect(view.rowCounts.all).toBe(4000);
    expect(view.firstPage.filter).toBe('invalid');
    for (const filter of ['all', 'create', 'invalid', 'notes', 'unchanged'] as const) {
      const wanted = whole.rows.filter((row) => rowMatches(row, filter));
      expect(view.rowCounts[filter]).toBe(wanted.length);
      for (const offset of [0, Math.floor(wanted.length / 2), Math.max(0, wanted.length - 10)]) {
        const page = preview.page(filter, offset);
        expect(page.total).toBe(wanted.length);
        expect(page.rows).toEqual(wanted.slice(offset, offset + 100));
      }
    }
    const sizes: number[] = [];
    const rows = [];
    for await (const batch of preview.batches(1500)) {
      sizes.push(batch.length);
      rows.push(...batch);
    }
    expect(sizes).toEqual([1500, 1500, 1000]);
    expect(rows).toEqual(whole.rows);
    preview.drop();
  });
});
