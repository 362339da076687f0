// The one tile route that serves every basemap: /tiles/{basemapId}/{z}/{x}/{y}, and /tiles/{z}/{x}/{y}
// (always the street map, so a URL always means the same tiles to the page's browser cache). A tile
// server's tiles come through the cache; a file's are read in place, the first read after opening
// guarded like the opening, and a read that breaks a limit turns the file off. Never throws.
import type { BasemapFiles } from './basemap-files';
import { STREET_ID, type BasemapStore } from './basemap-store';
import type { TileCache } from './cache';
import { inRange, tileRange, validCoords, type TileCoords } from './coords';
import { sniffImageType } from './files';
import { TileFileLimitError } from './limits';
import { MbtilesReaderUnavailable } from './mbtiles-pool';
import { miss, type TileAnswer } from './tile-answer';

/** How long the page's browser keeps a tile read from a file. */
const FILE_TILE_MAX_AGE_S = 300;

const TILE_ROUTE = /^\/tiles\/(?:([A-Za-z][A-Za-z0-9_-]{0,99})\/)?(\d{1,3})\/(\d{1,8})\/(\d{1,8})$/;

export interface BasemapRouteOptions {
  store: BasemapStore;
  files: BasemapFiles;
  cache: () => TileCache;
  isClosed: () => boolean;
  /** A file was turned off (the list changed). */
  onChange: () => void;
}

export function basemapRoute(options: BasemapRouteOptions): (path: string) => Promise<TileAnswer> {
  const { store, files } = options;
  return async function tileFor(path) {
    if (options.isClosed()) return miss(503, 'closed', 'Sitewalk is closing.', 'the basemaps are closed');
    const match = TILE_ROUTE.exec(path);
    if (!match) return miss(400, 'bad-coordinates', 'This is not a map tile address.', `expected /tiles/{basemap}/{z}/{x}/{y}, got ${path.slice(0, 80)}`);
    const coords: TileCoords = { z: Number(match[2]), x: Number(match[3]), y: Number(match[4]) };
    if (!validCoords(coords)) return miss(400, 'bad-coordinates', 'There is no map tile at these coordinates.', `z/x/y = ${coords.z}/${coords.x}/${coords.y}`);
    const basemapId = match[1] ?? STREET_ID;
    const stored = store.now();
    const source = store.sourceIn(stored, basemapId);
    if (!source) return miss(404, 'not-found', 'There is no such basemap.', `basemap ${basemapId.slice(0, 100)}`);
    if (coords.z < source.minZoom || coords.z > source.maxZoom) {
      return miss(404, 'not-found', 'This basemap has no tiles at this zoom.', `${basemapId}: zoom ${coords.z} outside ${source.minZoom}-${source.maxZoom}`);
    }
    if (source.kind === 'server') return options.cache().get(coords, { template: source.template });

    if (source.bounds && !inRange(tileRange(source.bounds, coords.z), coords)) {
      return miss(404, 'not-found', 'This basemap file has no tiles here.', `${basemapId}: ${coords.z}/${coords.x}/${coords.y} outside its bounds`);
    }
    const entry = stored.files.find((file) => file.id === basemapId)!;
    const state = await files.fileOf(entry);
    if (!state.file) return miss(404, 'file-problem', state.problem ?? 'The basemap file cannot be read.', entry.path);
    let bytes: Buffer | null;
    try {
      const file = state.file;
      if (state.fresh) {
        state.fresh = false;
        bytes = await files.guarded(entry.id, () => file.tile(coords));
      } else {
        bytes = await file.tile(coords);
      }
    } catch (error) {
      // The reader could not take this read: the file is fine as far as anyone knows; the map asks again later.
      if (error instanceof MbtilesReaderUnavailable) return miss(503, 'busy', error.message, entry.path);
      if (error instanceof TileFileLimitError && error.kind === 'limit') {
        files.disable(entry.id, error.sentence);
        await files.close(entry.id);
        options.onChange();
        return miss(404, 'file-problem', error.sentence, error.message);
      }
      // Damaged or cut short since it was opened: look at it again, and say so in the list.
      const again = await files.fileOf(entry, true);
      if (!again.file) return miss(404, 'file-problem', again.problem ?? 'The basemap file cannot be read.', error instanceof Error ? error.message : String(error));
      bytes = await again.file.tile(coords).catch((retryError: unknown) => {
        if (retryError instanceof TileFileLimitError && retryError.kind === 'limit') files.disable(entry.id, retryError.sentence);
        return null;
      });
    }
    if (!bytes) return miss(404, 'not-found', 'This basemap file has no tile here.', `${basemapId}: ${coords.z}/${coords.x}/${coords.y}`);
    const contentType = sniffImageType(bytes);
    if (!contentType) return miss(502, 'refused', 'This tile of the basemap file is not an image.', `${basemapId}: ${coords.z}/${coords.x}/${coords.y}`);
    return { ok: true, bytes, contentType, source: 'file', fetchedAt: state.file.info.mtimeMs, maxAgeSeconds: FILE_TILE_MAX_AGE_S };
  };
}
