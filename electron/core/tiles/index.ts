// Map tiles for both hosts: a disk cache in front of the configured tile server, so tiles seen while
// online show offline. Plain Node: the Electron host passes net.fetch as the transport.
export { createTileCache, templateFolder, tileForPath, tileHeaders, tileUserAgent, TILE_CACHE_DEFAULTS, TILES_FOLDER } from './cache';
export type { TileAnswer, TileCache, TileCacheOptions, TileHit, TileMiss, TileMissReason, TileSource } from './cache';
export { fillTemplate, parseTilePath, validCoords, MAX_TILE_ZOOM, type TileCoords } from './coords';
export { followTileUrl, type FollowedTileUrl } from './follow';
