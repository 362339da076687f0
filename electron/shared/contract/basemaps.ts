// Basemaps: the map's background, chosen from a switcher. Tile servers (street, satellite, topo — each a
// URL template the user configures) and raster tile files made in the office (MBTiles, PMTiles) that
// the host reads in place. Every tile reaches the page through the host's own tile route
// (/tiles/{basemapId}/{z}/{x}/{y}), so the page's content security policy never names a tile server.
// "Download this area" copies a server's tiles into the offline cache, only for servers whose terms
// allow it; the public OpenStreetMap servers never do.
import { z } from 'zod';

export const BASEMAP_KINDS = ['street', 'satellite', 'topo', 'custom', 'mbtiles', 'pmtiles'] as const;
export type BasemapKind = (typeof BASEMAP_KINDS)[number];

/** West, south, east, north in degrees (WGS 84), as MBTiles and PMTiles state them. */
export type Bounds = [west: number, south: number, east: number, north: number];

export interface BasemapView {
  /** Stable: names the basemap in the tile route and in settings. 'street' is the Settings tile URL. */
  id: string;
  name: string;
  kind: BasemapKind;
  /** The tile server's URL template for servers; null for files. */
  template: string | null;
  /** Shown by the map while this basemap is on (text with entities such as &copy;, never tags). */
  attribution: string;
  minZoom: number;
  maxZoom: number;
  /** Where it has tiles; null = the whole world. */
  bounds: Bounds | null;
  /** For files: the file's name and size on disk. */
  fileName: string | null;
  sizeBytes: number | null;
  /** The user marked this server as one whose terms allow copying an area for offline use. */
  allowsDownload: boolean;
  /** Why "Download this area" is not offered for this basemap (a sentence), or null when it is. */
  downloadRefusal: string | null;
  /** The basemap the map shows. Exactly one is active. */
  active: boolean;
  /** A file that can no longer be read (moved, damaged): the sentence to show; null when fine. */
  problem: string | null;
}

const name = z.string().trim().min(1).max(80);

/** A tile server the user adds or edits (files are added with addBasemapFile). */
export const basemapSourceInputSchema = z.object({
  /** Absent = a new source. */
  id: z.string().min(1).max(100).optional(),
  name,
  kind: z.enum(['street', 'satellite', 'topo', 'custom']),
  template: z.string().max(2000),
  attribution: z.string().max(500),
  minZoom: z.number().int().min(0).max(22).optional(),
  maxZoom: z.number().int().min(0).max(22).optional(),
  allowsDownload: z.boolean().optional(),
});
export type BasemapSourceInput = z.infer<typeof basemapSourceInputSchema>;

/** A raster MBTiles or PMTiles file, read where it is (a basemap of several GB is not copied). */
export const basemapFileInputSchema = z.object({
  path: z.string().min(1).max(4096),
  /** Defaults to the name stored in the file, else the file's name. */
  name: name.optional(),
});
export type BasemapFileInput = z.infer<typeof basemapFileInputSchema>;

const latitude = z.number().min(-85.0511).max(85.0511);
const longitude = z.number().min(-180).max(180);

/** An area to take along: the map's view when the user asked, and a zoom range. */
export const downloadAreaInputSchema = z.object({
  basemapId: z.string().min(1).max(100),
  bounds: z.tuple([longitude, latitude, longitude, latitude]),
  minZoom: z.number().int().min(0).max(22),
  maxZoom: z.number().int().min(0).max(22),
  /** Stop (and refuse to start) past this many bytes; the host caps it at MAX_DOWNLOAD_BYTES. */
  maxBytes: z.number().int().min(1).optional(),
});
export type DownloadAreaInput = z.infer<typeof downloadAreaInputSchema>;

/** The largest area download the host runs, whatever the user asks for. */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 ** 3;
export const DEFAULT_DOWNLOAD_CAP_BYTES = 500 * 1024 ** 2;

/** The one limit for every downloaded area together (tiles-offline/), on disk; the user sets it. */
export const DEFAULT_OFFLINE_TILES_BYTES = 2 * 1024 ** 3;
export const MAX_OFFLINE_TILES_BYTES = 64 * 1024 ** 3;

/** The downloaded tiles as a whole: what they take on disk and the limit the user set. */
export interface OfflineTilesView {
  bytesOnDisk: number;
  limitBytes: number;
}

/** The estimate shown before a download starts. */
export interface DownloadPlanView {
  basemapId: string;
  tiles: number;
  /** Already in the offline cache and fresh: not fetched again (a resumed download starts here). */
  tilesCached: number;
  estimatedBytes: number;
  capBytes: number;
  /** Why it cannot start (too large, not allowed, zoom range), or null. */
  refusal: string | null;
}

export const DOWNLOAD_STATES = ['running', 'cancelled', 'done', 'failed'] as const;
export type DownloadState = (typeof DOWNLOAD_STATES)[number];

export interface DownloadView {
  id: string;
  basemapId: string;
  state: DownloadState;
  tiles: number;
  /** Fetched or found already cached. */
  tilesDone: number;
  /** Tiles the server did not have or refused (counted, not retried forever). */
  tilesFailed: number;
  bytes: number;
  capBytes: number;
  /** For the user: what is happening or why it stopped. */
  message: string;
  /** Enough to start it again where it stopped (cached tiles are skipped). */
  area: DownloadAreaInput;
}
