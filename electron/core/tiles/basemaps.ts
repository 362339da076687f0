// The basemaps the map can show, and the one tile route that serves them all. Kinds:
//   street     the Settings tile server (tileUrl/tileAttribution): nothing changes for existing users;
//              always listed, never removed.
//   satellite, topo, custom
//              tile servers the user configures. satellite and topo are not listed until configured
//              (a switcher entry that shows nothing helps nobody); saving one with no id gives it the
//              id 'satellite' / 'topo' when free.
//   mbtiles, pmtiles
//              raster files read in place (files.ts); one that vanishes or breaks keeps its entry with
//              a `problem` sentence and serves no tiles, until it is back or removed.
// This module puts the parts together: the stored list (basemap-store.ts), the open files
// (basemap-files.ts), the views (basemap-views.ts), the user's actions (basemap-actions.ts) and the
// route (basemap-route.ts). Servers share one tile cache, each template in its own folder.
import type { BasemapFileInput, BasemapSourceInput, BasemapView } from '../../shared/contract/basemaps';
import type { Result } from '../../shared/result';
import type { KeyValueStore } from '../profiles/kv';
import type { Clock } from '../clock';
import type { FetchLike } from '../service/types';
import { basemapActions } from './basemap-actions';
import { createBasemapFiles } from './basemap-files';
import { basemapRoute } from './basemap-route';
import { createBasemapStore, type BasemapSource } from './basemap-store';
import { listBasemaps } from './basemap-views';
import { createTileCache, type TileAnswer, type TileCache, type TileCacheOptions } from './cache';
import { nodeReaderStarter } from './mbtiles-fork';
import { MbtilesPool } from './mbtiles-pool';
import type { ReaderProcessStarter } from './mbtiles-process';

export { BASEMAPS_READING_KEY } from './basemap-files';
export { BASEMAPS_SETTING_KEY, STREET_ID, type BasemapSource } from './basemap-store';
export { sameAddress, serverTemplateIssue } from './basemap-actions';

export interface BasemapsOptions {
  dataDir: string;
  /** The core's settings store. */
  settings: KeyValueStore;
  /** The Settings tile server, read on every request: the street basemap. */
  street: () => { tileUrl: string; tileAttribution: string };
  /** Saves the street map's server through the Settings (their checks, their event). */
  saveStreet: (tileUrl: string, attribution: string) => Promise<Result<unknown>>;
  /** Transport to tile servers (the Electron host passes net.fetch). */
  fetch?: FetchLike;
  userAgent?: string;
  /** Tile cache settings (tests shorten the back-off). */
  cache?: Partial<Pick<TileCacheOptions, 'retryAfterMs' | 'maxAgeMs' | 'timeoutMs' | 'maxBytes' | 'subdomains'>>;
  /**
   * How the process that reads every MBTiles file is started: Node hosts fork it (the default);
   * Electron's main process passes a utilityProcess starter (electron/main).
   */
  mbtilesProcess?: ReaderProcessStarter;
  clock?: Pick<Clock, 'now'>;
  log?: (line: string) => void;
  /** The list changed (added, removed, switched, a file became unreadable or readable again). */
  onChange: () => void;
}

export interface Basemaps {
  list(): Promise<BasemapView[]>;
  use(basemapId: string): Promise<Result<BasemapView[]>>;
  saveSource(input: BasemapSourceInput): Promise<Result<BasemapView[]>>;
  addFile(input: BasemapFileInput): Promise<Result<BasemapView[]>>;
  remove(basemapId: string): Promise<Result<BasemapView[]>>;
  /** What a host answers for a path under /tiles/. Never throws. */
  tileFor(path: string): Promise<TileAnswer>;
  source(basemapId: string): BasemapSource | null;
  /** The cache the servers' tiles go through (created on first use). */
  cache(): TileCache;
  close(): Promise<void>;
}

export function createBasemaps(options: BasemapsOptions): Basemaps {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? { now: () => Date.now() };
  let tileCache: TileCache | null = null;
  let closed = false;
  const isClosed = () => closed;
  const streetTemplate = () => options.street().tileUrl;

  function cache(): TileCache {
    tileCache ??= createTileCache({
      dataDir: options.dataDir,
      template: streetTemplate,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      ...options.cache,
      log,
    });
    return tileCache;
  }

  const store = createBasemapStore({ settings: options.settings, streetTemplate, log });
  const mbtiles = new MbtilesPool({ starter: options.mbtilesProcess ?? nodeReaderStarter(), log });
  const files = createBasemapFiles({ store, settings: options.settings, mbtiles, clock, log, isClosed, onChange: options.onChange });
  const list = () => listBasemaps(store, files, options.street);
  const actions = basemapActions({
    store,
    files,
    mbtiles,
    cache,
    streetTemplate,
    saveStreet: options.saveStreet,
    async changed() {
      options.onChange();
      return { ok: true, value: await list() };
    },
  });

  return {
    list,
    ...actions,
    tileFor: basemapRoute({ store, files, cache, isClosed, onChange: options.onChange }),
    source: (basemapId) => store.sourceIn(store.now(), basemapId),
    cache,
    async close() {
      closed = true;
      await files.closeAll();
      mbtiles.close();
      await tileCache?.close();
    },
  };
}
