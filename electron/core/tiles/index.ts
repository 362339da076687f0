// Map tiles for both hosts: a disk cache in front of the tile servers, so tiles seen while online
// show offline; basemap files read in place; the basemap registry and its tile route; area downloads.
// Plain Node: the Electron host passes net.fetch as the transport.
export { createTileCache, templateFolder, tileForPath, tileHeaders, tileUserAgent, KEPT_TILES_FOLDER, TILE_CACHE_DEFAULTS, TILES_FOLDER } from './cache';
export type { TileAnswer, TileCache, TileCacheOptions, TileHit, TileHolding, TileMiss, TileMissReason, TileRequest, TileSource } from './cache';
export { fillTemplate, parseTilePath, tileRange, rangeCount, validCoords, MAX_TILE_ZOOM, type TileCoords, type TileRange } from './coords';
export { createBasemaps, serverTemplateIssue, BASEMAPS_SETTING_KEY, BASEMAPS_READING_KEY, STREET_ID, type Basemaps, type BasemapsOptions, type BasemapSource } from './basemaps';
export { openTileFile, sniffImageType, type OpenedTileFile, type TileFile, type TileFileInfo } from './files';
export { MbtilesPool, MbtilesReaderUnavailable, MBTILES_READ_DEADLINE_MS, MBTILES_QUEUE_LIMIT, type AsyncMbtilesReader, type MbtilesPoolOptions } from './mbtiles-pool';
export { forkReaderProcess } from './mbtiles-fork';
export { MAX_OPEN_MBTILES, type ReaderMessage, type ReaderProcess, type ReaderProcessEvents, type ReaderProcessStarter } from './mbtiles-process';
export { MAX_TILE_BYTES, MAX_DIRECTORY_BYTES, MAX_METADATA_BYTES, LEAF_CACHE_BYTES, LEAF_CACHE_ENTRIES, TileFileLimitError } from './limits';
export { createDownloads, diskBytes, DISK_BLOCK_BYTES, DEFAULT_TILE_BYTES, DOWNLOAD_CONCURRENCY, MAX_DOWNLOAD_TILES, MAX_FAILURES_IN_A_ROW, type Downloads } from './download';
export { downloadRefusal, isPublicOsmTemplate, OSM_REFUSAL } from './download-policy';
export { isLinkLocal, placeholderPlacementIssue, resolvedTemplateIssue, templateAddressIssue } from './template-policy';
export { allocatedBytes, createOfflineTiles, OFFLINE_LIMIT_SETTING_KEY, type OfflineTiles } from './offline-tiles';

import type { TileAnswer, TileCache } from './cache';
import { tileForPath } from './cache';

/** Anything that answers a path under /tiles/: the basemaps' route (or a bare cache, as older wiring and tests pass). */
export interface TileProvider {
  tileFor(path: string): Promise<TileAnswer>;
}

/** What a host answers for a path under /tiles/, from either a provider or a bare cache. */
export function answerTile(tiles: TileCache | TileProvider, path: string): Promise<TileAnswer> {
  return 'tileFor' in tiles ? tiles.tileFor(path) : tileForPath(tiles, path);
}
