// The map's tiles follow the active basemap (or, on a host without basemaps, the settings), each with
// its own attribution, zoom range and area; a tile that fails switches a coordinate grid on, a loaded
// tile switches it off. No tile is asked for before the host has answered the page's first calls
// (their answers give the browser the tile cookie; a tile asked for earlier is refused).
import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import type { SettingsView } from '../../../electron/shared/contract/index';
import { useAppState, type AppStore } from '../shared/store/app-store';
import { safeAttribution } from '../shared/format';
import type { MapPalette } from '../shared/theme';
import { basemapTileUrl, isFileBasemap } from './basemaps';
import { coordinateGrid, type CoordinateGridLayer } from './grid-layer';
import { hostTileUrl } from './tile-url';

// A 1×1 transparent GIF for tiles that failed, so the grid shows through instead of a broken image.
const EMPTY_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Where the tile layer's tiles come from, as plain data (its JSON is the layer's identity). */
interface TileSource {
  url: string;
  attribution: string;
  minZoom: number;
  maxZoom: number;
  bounds: [number, number, number, number] | null;
  /** The basemap's name when it is a file (the tile notice names it), else null. */
  fileBasemap: string | null;
}

export interface TileState {
  /** Tiles fail here: the grid shows instead. */
  failing: boolean;
  /** The file basemap's name when the active basemap is a file, else null. */
  fileBasemap: string | null;
  /** The coordinate grid while it shows (it takes the theme's colours). */
  grid: React.RefObject<CoordinateGridLayer | null>;
}

export function useTileLayer(map: L.Map | null, store: AppStore, settings: SettingsView, palette: React.RefObject<MapPalette | null>): TileState {
  const [failing, setFailing] = useState(false);
  const grid = useRef<CoordinateGridLayer | null>(null);
  const activeBasemap = useAppState(store, (s) => s.basemaps.find((b) => b.active) ?? null);
  const hostAnswered = useAppState(store, (s) => s.loaded);
  const source: TileSource = activeBasemap
    ? {
        url: basemapTileUrl(activeBasemap),
        attribution: activeBasemap.attribution,
        minZoom: activeBasemap.minZoom,
        maxZoom: activeBasemap.maxZoom,
        bounds: activeBasemap.bounds,
        fileBasemap: isFileBasemap(activeBasemap) ? activeBasemap.name : null,
      }
    : { url: hostTileUrl(settings.tileUrl), attribution: settings.tileAttribution, minZoom: 0, maxZoom: 19, bounds: null, fileBasemap: null };
  const key = JSON.stringify(source);

  useEffect(() => {
    if (!map || !hostAnswered) return;
    const source = JSON.parse(key) as TileSource;
    const [west, south, east, north] = source.bounds ?? [0, 0, 0, 0];
    const tiles = L.tileLayer(source.url, {
      attribution: safeAttribution(source.attribution),
      // Past its deepest zoom a basemap's tiles are shown enlarged; above its shallowest none are asked for.
      minZoom: source.minZoom,
      maxNativeZoom: source.maxZoom,
      maxZoom: Math.max(19, source.maxZoom),
      // Nothing is asked for outside a basemap's area (an area across the antimeridian is left whole).
      ...(source.bounds && west <= east ? { bounds: L.latLngBounds([south, west], [north, east]) } : {}),
      zIndex: 1,
      errorTileUrl: EMPTY_TILE,
    });
    tiles.on('tileerror', () => {
      if (!grid.current) {
        grid.current = coordinateGrid(palette.current ?? undefined);
        grid.current.addTo(map);
      }
      setFailing(true);
    });
    tiles.on('tileload', (e: L.TileEvent) => {
      if (e.tile.src === EMPTY_TILE) return;
      setFailing(false);
      grid.current?.remove();
      grid.current = null;
    });
    tiles.addTo(map);
    setFailing(false);
    return () => {
      tiles.remove();
    };
  }, [map, key, hostAnswered, palette]);

  // The map going away takes the grid with it.
  useEffect(() => {
    if (!map) return;
    return () => {
      grid.current = null;
    };
  }, [map]);

  useEffect(() => {
    map?.getContainer().setAttribute('data-tiles', failing ? 'grid' : 'tiles');
  }, [map, failing]);

  return { failing, fileBasemap: source.fileBasemap, grid };
}
