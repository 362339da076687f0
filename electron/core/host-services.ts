// The second half of the composition root (open-core.ts opens the core and exports this): the app's
// services on top of a core, as both hosts hold them — the settings, bulk runs, the GPS receiver, the
// basemaps and their tiles, area downloads — wired to each other and to the core. The CLI has none
// of them (no GPS reader, no tile cache): it opens the core alone.
import type { ApiEvent } from '../shared/contract/index';
import { BulkSession, type BulkSessionOptions } from './bulk/session';
import { HostGps, type GpsTuning } from './gps/host-gps';
import type { FetchLike } from './service/types';
import { Settings } from './settings';
import type { SitewalkCore } from './sitewalk-core';
import { createBasemaps, createDownloads, createOfflineTiles, type Basemaps, type BasemapsOptions, type Downloads, type OfflineTiles } from './tiles/index';

/** How a host's tiles reach the tile servers (Electron: net.fetch) and say who asks. */
export interface HostTileOptions {
  fetch?: FetchLike;
  userAgent?: string;
  /** Tile cache settings (tests shorten the back-off). */
  cache?: BasemapsOptions['cache'];
  /** Area download progress events at most this often (default 250 ms). */
  progressEveryMs?: number;
  /** How the process that reads MBTiles files starts (default: fork; Electron passes utilityProcess). */
  mbtilesProcess?: BasemapsOptions['mbtilesProcess'];
}

export interface HostServicesOptions {
  bulk?: BulkSessionOptions;
  gps?: GpsTuning;
  tiles?: HostTileOptions;
}

/** The events the host services emit (the core's own come from core.on). */
export type HostServiceEvent = Extract<ApiEvent, { type: 'settings' | 'bulk-run' | 'gps' | 'basemaps' | 'download' }>;

export interface HostServices {
  settings: Settings;
  bulk: BulkSession;
  /** "My location" from a receiver the host reads (gpsd or NMEA over TCP), following the settings. */
  gps: HostGps;
  /** Every basemap's tiles are served from `basemaps.tileFor` (/tiles/{basemapId}/{z}/{x}/{y}). */
  basemaps: Basemaps;
  offlineTiles: OfflineTiles;
  downloads: Downloads;
  /** Every HostServiceEvent, in order. Returns the unsubscribe. */
  on(listener: (event: HostServiceEvent) => void): () => void;
  /** Stops bulk runs, the GPS reader and downloads, then closes the basemaps' files and cache; safe twice. */
  close(): Promise<void>;
}

/** Settings, bulk runs, GPS, basemaps and area downloads for a host, wired to each other and to `core`. */
export function openHostServices(core: SitewalkCore, options: HostServicesOptions = {}): HostServices {
  const listeners = new Set<(event: HostServiceEvent) => void>();
  const tell = (event: HostServiceEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  const settings = new Settings(core.settings);
  const bulk = new BulkSession(core, (run) => tell({ type: 'bulk-run', run }), options.bulk);
  const gps = new HostGps((view) => tell({ type: 'gps', gps: view }), options.gps);
  gps.follow(settings.now());
  // Basemaps (the Settings tile server is the street one) and area downloads.
  const tiles = options.tiles ?? {};
  const tellBasemaps = () =>
    void basemaps.list().then(
      (list) => tell({ type: 'basemaps', basemaps: list }),
      () => undefined,
    );
  const basemaps = createBasemaps({
    dataDir: core.dataDir,
    settings: core.settings,
    street: () => settings.now(),
    saveStreet: async (tileUrl, tileAttribution) => settings.save({ tileUrl, tileAttribution }),
    ...(tiles.fetch ? { fetch: tiles.fetch } : {}),
    ...(tiles.userAgent ? { userAgent: tiles.userAgent } : {}),
    ...(tiles.cache ? { cache: tiles.cache } : {}),
    ...(tiles.mbtilesProcess ? { mbtilesProcess: tiles.mbtilesProcess } : {}),
    onChange: tellBasemaps,
  });
  const offlineTiles = createOfflineTiles(core.dataDir, core.settings);
  const downloads = createDownloads({
    source: (basemapId) => basemaps.source(basemapId),
    cache: () => basemaps.cache(),
    offline: () => offlineTiles.view(),
    onProgress: (download) => tell({ type: 'download', download }),
    ...(tiles.progressEveryMs === undefined ? {} : { progressEveryMs: tiles.progressEveryMs }),
  });
  settings.onChange((now, patch) => {
    if (patch.syncConcurrency !== undefined) core.sync.setConcurrency(now.syncConcurrency);
    tell({ type: 'settings', settings: now });
    if (patch.tileUrl !== undefined || patch.tileAttribution !== undefined) tellBasemaps();
    gps.follow(now);
  });
  let closing: Promise<void> | null = null;
  return {
    settings,
    bulk,
    gps,
    basemaps,
    offlineTiles,
    downloads,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      bulk.close();
      gps.close();
      return (closing ??= downloads.close().then(() => basemaps.close()));
    },
  };
}
