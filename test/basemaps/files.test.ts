// Basemap files read in place: MBTiles and PMTiles written from scratch (test/support/basemap-files)
// and read back the way the tile route reads them, and the files Sitewalk refuses, each with a
// sentence that says what to do.
import { stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tileIdToZxy, zxyToTileId } from 'pmtiles';
import { describe, expect } from 'vitest';
import { openTileFile, sniffImageType, tileRange, type TileFile } from '../../electron/core/tiles';
import { basemapTile, growMbtilesSparse, TEST_AREA, tilesFor, writeMbtiles, writePmtiles } from '../support/basemap-files';
import { encodeDirectory, writeRawPmtiles } from '../support/hostile-basemaps';
import { it } from '../support/fixtures';

async function opened(path: string): Promise<TileFile> {
  const result = await openTileFile(path);
  if (!result.ok) throw new Error(`expected the file to open: ${result.message} (${result.detail})`);
  return result.file;
}

async function refusal(path: string): Promise<string> {
  const result = await openTileFile(path);
  if (result.ok) {
    await result.file.close();
    throw new Error('expected a refusal');
  }
  return result.message;
}

describe.each([
  ['MBTiles', 'area.mbtiles', writeMbtiles],
  ['PMTiles', 'area.pmtiles', writePmtiles],
  ['PMTiles with a gzip directory', 'gz.pmtiles', (path: string, options: Parameters<typeof writePmtiles>[1]) => writePmtiles(path, { ...options, internalCompression: 'gzip' })],
] as const)('a raster %s file', (_label, fileName, write) => {
  it('says its name, attribution, bounds and zoom range, and gives each tile its own bytes', async ({ tempDir }) => {
    const path = join(tempDir, fileName);
    const tiles = await write(path, { name: 'Bozeman valley', attribution: '&copy; Valley GIS', minZoom: 8, maxZoom: 11 });
    const file = await opened(path);
    try {
      expect(file.info).toMatchObject({ name: 'Bozeman valley', attribution: '&copy; Valley GIS', minZoom: 8, maxZoom: 11, contentType: 'image/png' });
      expect(file.info.bounds).not.toBeNull();
      file.info.bounds!.forEach((value, index) => expect(value).toBeCloseTo(TEST_AREA[index]!, 5));
      expect(tiles.length).toBeGreaterThan(4);
      for (const { z, x, y } of tiles) expect(await file.tile({ z, x, y })).toEqual(basemapTile(z, x, y));
      // Row numbers are the map's (from the north): the same tile flipped (TMS) is not there.
      const range = tileRange(TEST_AREA, 11);
      const flipped = 2 ** 11 - 1 - range.yMin;
      expect(await file.tile({ z: 11, x: range.xMin, y: flipped })).toBeNull();
      // Outside the area and outside the zoom range: nothing.
      expect(await file.tile({ z: 9, x: 0, y: 0 })).toBeNull();
      expect(await file.tile({ z: 12, x: range.xMin * 2, y: range.yMin * 2 })).toBeNull();
    } finally {
      await file.close();
    }
  });
});

describe('a PMTiles with leaf directories', () => {
  it('finds tiles through a gzip leaf, a run of tiles sharing one image, and nothing where the leaf has none', async ({ tempDir }) => {
    const path = join(tempDir, 'leaves.pmtiles');
    const range = tileRange(TEST_AREA, 10);
    const first = basemapTile(10, range.xMin, range.yMin);
    const shared = basemapTile(9, 0, 0);
    const ids = [zxyToTileId(10, range.xMin, range.yMin), zxyToTileId(11, range.xMin * 2, range.yMin * 2)];
    // The second entry is a run of three consecutive tile IDs that share one image.
    const leaf = gzipSync(encodeDirectory([
      { tileId: ids[0]!, runLength: 1, offset: 0, length: first.length },
      { tileId: ids[1]!, runLength: 3, offset: first.length, length: shared.length },
    ]));
    const root = gzipSync(encodeDirectory([{ tileId: ids[0]!, runLength: 0, offset: 0, length: leaf.length }]));
    await writeRawPmtiles(path, { root, leaves: leaf, tileData: Buffer.concat([first, shared]), internalCompression: 'gzip', metadata: gzipSync('{"name":"Leaves"}') });
    const file = await opened(path);
    try {
      expect(await file.tile({ z: 10, x: range.xMin, y: range.yMin })).toEqual(first);
      for (let step = 0; step < 3; step++) {
        const [z, x, y] = tileIdToZxy(ids[1]! + step);
        expect(await file.tile({ z, x, y })).toEqual(shared);
      }
      const [z, x, y] = tileIdToZxy(ids[1]! + 3);
      expect(await file.tile({ z, x, y })).toBeNull();
      expect(await file.tile({ z: 5, x: 0, y: 0 })).toBeNull();
    } finally {
      await file.close();
    }
  });
});

describe('an MBTiles larger than 1 GiB', () => {
  it('is read in place, and serves tiles stored beyond its first gigabyte', async ({ tempDir }) => {
    const path = join(tempDir, 'county.mbtiles');
    const early = await writeMbtiles(path, { minZoom: 8, maxZoom: 9 });
    const later = tilesFor({ minZoom: 10, maxZoom: 11 });
    await growMbtilesSparse(path, 2 ** 30 + 64 * 1024 * 1024, later);
    const size = (await stat(path)).size;
    expect(size).toBeGreaterThan(2 ** 30);
    const file = await opened(path);
    try {
      expect(file.info).toMatchObject({ kind: 'mbtiles', sizeBytes: size, minZoom: 8, maxZoom: 9 });
      for (const { z, x, y } of [...early, ...later]) expect(await file.tile({ z, x, y })).toEqual(basemapTile(z, x, y));
    } finally {
      await file.close();
    }
  });
});

describe('what Sitewalk refuses', () => {
  it('refuses vector MBTiles and PMTiles, saying it shows raster basemaps only', async ({ tempDir }) => {
    await writeMbtiles(join(tempDir, 'v.mbtiles'), { format: 'pbf' });
    await writePmtiles(join(tempDir, 'v.pmtiles'), { tileType: 'mvt', tileBytes: () => Buffer.from('vector') });
    expect(await refusal(join(tempDir, 'v.mbtiles'))).toMatch(/vector tiles.*raster basemaps only/);
    expect(await refusal(join(tempDir, 'v.pmtiles'))).toMatch(/vector tiles.*raster basemaps only/);
  });

  it('refuses an MBTiles whose tiles are not images even when its metadata says nothing', async ({ tempDir }) => {
    await writeMbtiles(join(tempDir, 'quiet.mbtiles'), { withoutMetadata: true, tileBytes: () => Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]) });
    expect(await refusal(join(tempDir, 'quiet.mbtiles'))).toMatch(/vector tiles/);
  });

  it('refuses a file that is no tile file, a missing file and a PMTiles cut short', async ({ tempDir }) => {
    await writeFile(join(tempDir, 'notes.txt'), 'meeting notes\n');
    expect(await refusal(join(tempDir, 'notes.txt'))).toMatch(/not a basemap file: Sitewalk reads raster MBTiles \(\.mbtiles\) and PMTiles/);
    expect(await refusal(join(tempDir, 'absent.pmtiles'))).toMatch(/There is no file at/);
    await writePmtiles(join(tempDir, 'cut.pmtiles'));
    await truncate(join(tempDir, 'cut.pmtiles'), 100);
    expect(await refusal(join(tempDir, 'cut.pmtiles'))).toMatch(/"cut\.pmtiles" is cut short/);
  });

  it('refuses a SQLite database that is not an MBTiles', async ({ tempDir }) => {
    const path = join(tempDir, 'other.mbtiles');
    await writeMbtiles(path, { withoutMetadata: true, tiles: [] });
    expect(await refusal(path)).toMatch(/has no tiles/);
  });
});

describe('image types', () => {
  it('recognises PNG, JPEG and WebP from their first bytes, and nothing else', () => {
    expect(sniffImageType(basemapTile(1, 0, 0))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});
