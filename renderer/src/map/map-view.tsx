// The map: a thin React wrapper that owns one Leaflet map imperatively. react-leaflet would re-render
// a component per pin; here site changes flow from the store straight into the canvas PinLayer, and
// React only renders the overlays (add-site hint, context menus, tooltip, legend, tile notice).
// Pins are fixed: dragging pans the map, a click selects; only the site in move mode (`movableId`)
// can be dragged, or nudged with the arrow keys (move-keys.ts). A right click or a long press on a pin
// opens its menu (Move, Edit…).
// Tiles of the configured server come through the host, which keeps them for offline use; when one
// cannot be had (offline and never seen, blocked) a coordinate grid shows.
// Readable at scale: pins cluster up to a zoom (a click on a cluster zooms in), names show from a
// zoom on, the map can show only what the list's search and filters show (`filter`), a scale bar
// in the user's units, the coordinates under the cursor, and a measure tool (two points or sites).
import { useEffect, useId, useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import L from 'leaflet';
import type { SettingsView, SiteView } from '../../../electron/shared/contract/index';
import { useAppState, type AppStore } from '../shared/store/app-store';
import { PinLayer, type ClusterMark, type MovePreview, type Pin } from './pins';
import { CursorCoordinates } from './cursor-coordinates';
import { MapLegend } from './map-legend';
import type { PickedFix } from '../shared/ui/ui-context';
import { PinTooltip } from './pin-tooltip';
import { toPin } from './site-pin';
import { MeasureResult, type MeasurePoint } from './measure-result';
import { siteMatcher, type SiteFilter } from '../shared/site-filter';
import { coordinateGrid, type CoordinateGridLayer } from './grid-layer';
import { readMapPalette, useResolvedTheme, type MapPalette } from '../shared/theme';
import { hostTileUrl } from './tile-url';
import { safeAttribution } from '../shared/format';
import { formatDecimal } from '../shared/coords';
import { basemapTileUrl, downloadAreaRefusal, isFileBasemap } from './basemaps';
import { userNavigated } from './navigation';
import { useMoveKeys } from './move-keys';
import { BoxSelect, boxContains } from './box-select';

const NONE_CHOSEN: ReadonlySet<string> = new Set();

export interface MapHandle {
  /** Pans (and zooms in if far out) to a site; false when it has no position. */
  showSite(localId: string): boolean;
  /** Pans to a site only when it is off screen or under the docked form. */
  ensureVisible(localId: string): void;
  center(): { lat: number; lng: number };
  fitAll(): void;
  /** The map element (focusable): where keyboard focus goes when nothing better is left. */
  element(): HTMLElement | null;
}

export interface MapViewProps {
  store: AppStore;
  settings: SettingsView;
  selectedId: string | null;
  /** Show only the sites this filter lets through (the list's), or every site when null. */
  filter: SiteFilter | null;
  addMode: boolean;
  /** The one site whose pin can be dragged (move mode), or null. */
  movableId: string | null;
  movePreview: MovePreview | null;
  /** A place for a new site (add mode, the map menu) or for the open form; `fix` when it is My location's. */
  onPick: (lat: number, lng: number, fix?: PickedFix) => void;
  onSelect: (localId: string) => void;
  /** Sites selected to act on together (a thin ring on their pins). */
  chosen?: ReadonlySet<string>;
  /** Shift or Ctrl/Cmd-click on a pin: add it to the selection, or take it out. */
  onToggleChosen?: (localId: string) => void;
  /** Shift-drag drew a box over these shown sites; `add` when Ctrl/Cmd was held too. */
  onBoxChosen?: (localIds: string[], add: boolean) => void;
  onDrop: (localId: string, lat: number, lng: number) => void;
  /** An arrow key nudged the pin in move mode to (lat, lng): shown there until Enter (a drop) or Esc. */
  onNudge: (localId: string, lat: number, lng: number) => void;
  /** "Move this site" in a pin's menu. */
  onStartMove: (localId: string) => void;
  /** "Edit this site" in a pin's menu. */
  onEdit: (localId: string) => void;
  onCancelAdd: () => void;
  /** Pixels on the right covered by the docked form: showing a site keeps it clear of them. */
  rightInset: number;
  /** "Download this area…" in the map's menu (offered only when the active basemap allows it). */
  onDownloadArea?: () => void;
  /** The shell's controls over the map's top (the basemap switcher and downloads), given the Leaflet map once it exists. */
  controls?: (map: L.Map | null) => ReactNode;
  /** What stacks at the map's bottom right (My location), given the Leaflet map once it exists. */
  bottomRight?: (map: L.Map | null) => ReactNode;
  /** Messages (the toasts), shown at the bottom left above the coordinates, clear of the map's other overlays. */
  messages?: ReactNode;
  handle: Ref<MapHandle>;
}

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

/** The open context menu: the map's (a place) or a pin's (a site). */
type MenuState = { kind: 'map'; x: number; y: number; lat: number; lng: number } | { kind: 'pin'; x: number; y: number; lat: number; lng: number; localId: string; title: string };

export function MapView(props: MapViewProps) {
  const { store, settings, selectedId, filter, addMode, movableId, movePreview, handle } = props;
  /** The filter (and the always-shown sites) the layer's pins were last chosen by: 'all' = every site. */
  const appliedRef = useRef('all');
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<PinLayer | null>(null);
  const { chosen } = props;
  const tilesRef = useRef<L.TileLayer | null>(null);
  const gridRef = useRef<CoordinateGridLayer | null>(null);
  /** The theme's colours for the canvases (pins, grid), read from the stylesheet once per theme change. */
  const paletteRef = useRef<MapPalette | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const [tilesFailing, setTilesFailing] = useState(false);
  // The basemap the map shows (tiles from /tiles/{id}/…); null on a host without basemaps (the Settings tile server).
  const activeBasemap = useAppState(store, (s) => s.basemaps.find((b) => b.active) ?? null);
  // The host answers /tiles/ only to this page: its first API answers give the browser the tile
  // cookie, so no tile is asked for before the page has loaded (a tile asked earlier is refused).
  const hostAnswered = useAppState(store, (s) => s.loaded);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const [hover, setHover] = useState<{ item: Pin | ClusterMark; x: number; y: number } | null>(null);
  const [leafletMap, setLeafletMap] = useState<L.Map | null>(null);
  // The measure tool: on or off, and the points clicked so far (a third click starts again).
  const [measuring, setMeasuring] = useState(false);
  const [measurePoints, setMeasurePoints] = useState<MeasurePoint[]>([]);
  const measuringRef = useRef(false);
  measuringRef.current = measuring;
  const addMeasurePoint = (point: MeasurePoint) => setMeasurePoints((points) => (points.length >= 2 ? [point] : [...points, point]));
  /** Which sites the map shows: the filter's, plus the selected site and the one being moved. */
  const shownRef = useRef<(site: SiteView) => boolean>(() => true);
  // Open where there is room for it beside the toolbar; a tap away otherwise.
  const menuRef = useRef<HTMLDivElement>(null);
  const bottomRef = useRef<HTMLDivElement>(null);
  const bottomRightRef = useRef<HTMLDivElement>(null);

  // How much of the map's right side the bottom-right stack takes up, from the bottom (My location's
  // panel grows): the compact layout's floating site card keeps above it (--map-bottom-right, app/compact.css).
  useEffect(() => {
    const bottom = bottomRef.current;
    const right = bottomRightRef.current;
    const holder = containerRef.current?.closest<HTMLElement>('.body') ?? document.documentElement;
    if (!bottom || !right) return;
    const publish = () => {
      const wrap = containerRef.current?.getBoundingClientRect();
      if (!wrap) return;
      holder.style.setProperty('--map-bottom-right', `${Math.max(0, Math.ceil(wrap.bottom - right.getBoundingClientRect().top))}px`);
    };
    const observer = new ResizeObserver(publish);
    observer.observe(bottom);
    observer.observe(right);
    publish();
    return () => {
      observer.disconnect();
      holder.style.removeProperty('--map-bottom-right');
    };
  }, []);

  // Create the map once.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, {
      center: [20, 0],
      zoom: 2,
      worldCopyJump: true,
      zoomControl: true,
      attributionControl: true,
      // Keyboard panning stays on (arrow keys) once the map has focus.
      keyboard: true,
      // The basemap's zoom range does not limit the map: outside it the map says so (BasemapControls).
      minZoom: 0,
    });
    map.attributionControl.setPrefix(false);
    mapRef.current = map;
    setLeafletMap(map);
    container.querySelector('.leaflet-control-zoom-in')?.setAttribute('aria-label', 'Zoom in');
    container.querySelector('.leaflet-control-zoom-out')?.setAttribute('aria-label', 'Zoom out');

    const layer = new PinLayer({
      onPinClick: (id, event) => {
        const pin = layer.getPin(id);
        // Shift or Ctrl/Cmd on a pin adds it to (or takes it from) the sites selected to act on together.
        if (event && (event.shiftKey || event.ctrlKey || event.metaKey) && !measuringRef.current) {
          callbacks.current.onToggleChosen?.(id);
          return;
        }
        if (measuringRef.current && pin) addMeasurePoint({ lat: pin.lat, lng: L.Util.wrapNum(pin.lng, [-180, 180], true), name: pin.title });
        else callbacks.current.onSelect(id);
      },
      onPinMenu: (id, point) => {
        const pin = layer.getPin(id);
        if (!pin) return;
        setHover(null);
        callbacks.current.onSelect(id);
        setMenu({ kind: 'pin', x: point.x, y: point.y, lat: pin.lat, lng: pin.lng, localId: id, title: pin.title });
      },
      onPinDrop: (id, latlng) => callbacks.current.onDrop(id, latlng.lat, L.Util.wrapNum(latlng.lng, [-180, 180], true)),
      onHover: (item, point) => setHover(item && point ? { item, x: point.x, y: point.y } : null),
      // What is on the canvas, readable from outside (the canvas itself is opaque to tests and tools).
      onDrawn: (info) => {
        container.dataset['pinsDrawn'] = String(info.drawn);
        container.dataset['pinsPending'] = String(info.marks.pending);
        container.dataset['pinsFailed'] = String(info.marks.failed);
        container.dataset['pinsReview'] = String(info.marks.review);
        container.dataset['pinsCompact'] = String(info.compact);
        container.dataset['clustersDrawn'] = String(info.clusters);
        container.dataset['pinsOnMap'] = String(layer.size);
      },
    });
    layer.addTo(map);
    layerRef.current = layer;
    // Shift-drag selects the sites shown in a box (Leaflet's box zoom gives up Shift-drag for it).
    const selectBox = new BoxSelect(map, {
      onBox: (bounds, add) => {
        const covered = [...store.getState().sites.values()]
          .filter((site) => site.latitude !== null && site.longitude !== null && shownRef.current(site) && boxContains(bounds, site.latitude, site.longitude))
          .map((site) => site.localId);
        callbacks.current.onBoxChosen?.(covered, add);
      },
    });
    selectBox.enable();

    map.on('click', (e: L.LeafletMouseEvent) => {
      setMenu(null);
      if (measuringRef.current) addMeasurePoint({ lat: e.latlng.lat, lng: L.Util.wrapNum(e.latlng.lng, [-180, 180], true), name: null });
      else if (callbacks.current.addMode) callbacks.current.onPick(e.latlng.lat, L.Util.wrapNum(e.latlng.lng, [-180, 180], true));
    });
    map.on('contextmenu', (e: L.LeafletMouseEvent) => {
      setMenu({ kind: 'map', x: e.containerPoint.x, y: e.containerPoint.y, lat: e.latlng.lat, lng: L.Util.wrapNum(e.latlng.lng, [-180, 180], true) });
    });
    map.on('movestart', () => {
      setHover(null);
      container.dataset['moving'] = '1';
    });
    map.on('moveend', () => {
      container.dataset['moving'] = '0';
    });

    // The map fits the sites at start. When there were none yet (a first run, an import elsewhere),
    // it fits them once they have arrived, unless the user has taken the map in hand meanwhile.
    let fitted = false;
    let fitTimer: ReturnType<typeof setTimeout> | undefined;
    const fitNow = (animate: boolean) => {
      const bounds = layer.getBounds();
      if (!bounds) return;
      map.fitBounds(bounds.pad(0.05), { maxZoom: 15, animate });
      fitted = true;
    };
    map.on('dragstart', () => {
      fitted = true;
      clearTimeout(fitTimer);
    });
    const stopSites = store.onSites((changed, removed, reset) => {
      const pins = changed.map((site) => (shownRef.current(site) ? toPin(site) : null));
      if (reset) {
        layer.setPins(pins.filter((p): p is Pin => p !== null));
        fitNow(fitted);
      } else {
        // A site that lost its position (or no longer passes the filter) leaves the map.
        const gone = [...removed, ...changed.filter((s, i) => pins[i] === null).map((s) => s.localId)];
        layer.update(pins.filter((p): p is Pin => p !== null), gone);
        if (!fitted && layer.size > 0) {
          clearTimeout(fitTimer);
          fitTimer = setTimeout(() => fitNow(true), 400);
        }
      }
    });
    // The store may have loaded before the map existed.
    const state = store.getState();
    if (state.loaded) {
      layer.setPins([...state.sites.values()].filter((site) => shownRef.current(site)).map(toPin).filter((p): p is Pin => p !== null));
      fitNow(false);
    }

    const resize = new ResizeObserver(() => map.invalidateSize({ pan: false }));
    resize.observe(container);
    return () => {
      stopSites();
      clearTimeout(fitTimer);
      resize.disconnect();
      map.remove();
      setLeafletMap(null);
      mapRef.current = null;
      layerRef.current = null;
      tilesRef.current = null;
      gridRef.current = null;
    };
  }, [store]);

  // Tiles follow the active basemap (or, on a host without basemaps, the settings), each with its own
  // attribution, zoom range and area; failures switch the grid on, a loaded tile switches it off.
  const tileSource: TileSource = activeBasemap
    ? {
        url: basemapTileUrl(activeBasemap),
        attribution: activeBasemap.attribution,
        minZoom: activeBasemap.minZoom,
        maxZoom: activeBasemap.maxZoom,
        bounds: activeBasemap.bounds,
        fileBasemap: isFileBasemap(activeBasemap) ? activeBasemap.name : null,
      }
    : { url: hostTileUrl(settings.tileUrl), attribution: settings.tileAttribution, minZoom: 0, maxZoom: 19, bounds: null, fileBasemap: null };
  const tileKey = JSON.stringify(tileSource);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !hostAnswered) return;
    const source = JSON.parse(tileKey) as TileSource;
    tilesRef.current?.remove();
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
      if (!gridRef.current) {
        gridRef.current = coordinateGrid(paletteRef.current ?? undefined);
        gridRef.current.addTo(map);
      }
      setTilesFailing(true);
    });
    tiles.on('tileload', (e: L.TileEvent) => {
      if (e.tile.src === EMPTY_TILE) return;
      setTilesFailing(false);
      gridRef.current?.remove();
      gridRef.current = null;
    });
    tiles.addTo(map);
    tilesRef.current = tiles;
    setTilesFailing(false);
    return () => {
      tiles.remove();
    };
  }, [tileKey, hostAnswered]);

  useEffect(() => {
    containerRef.current?.setAttribute('data-tiles', tilesFailing ? 'grid' : 'tiles');
  }, [tilesFailing]);

  // Night or sun: the canvases take the theme's colours once per change (App has put it on <html> already).
  const resolvedTheme = useResolvedTheme(settings.theme);
  useEffect(() => {
    const palette = readMapPalette();
    paletteRef.current = palette;
    layerRef.current?.setPalette(palette);
    gridRef.current?.setPalette(palette);
  }, [resolvedTheme, settings.theme, leafletMap]);

  // The map shows what the list shows: every site the filter lets through, and always the selected
  // site and the one being moved (so a move or a selection never loses its pin). A filter typed
  // letter by letter redraws once it rests.
  useEffect(() => {
    const layer = layerRef.current;
    const container = containerRef.current;
    if (!layer) return;
    const matches = filter ? siteMatcher(filter) : null;
    shownRef.current = (site) => !matches || matches(site) || site.localId === selectedId || site.localId === movableId;
    if (container) container.dataset['filtered'] = matches ? 'true' : 'false';
    // Without a filter every site is on the map already: a new selection changes nothing.
    const key = filter ? JSON.stringify([filter, selectedId, movableId]) : 'all';
    if (key === appliedRef.current) return;
    const apply = () => {
      appliedRef.current = key;
      const sites = store.getState().sites;
      layer.setPins([...sites.values()].filter((site) => shownRef.current(site)).map(toPin).filter((p): p is Pin => p !== null));
    };
    const timer = setTimeout(apply, matches ? 120 : 0);
    return () => clearTimeout(timer);
  }, [store, filter, selectedId, movableId]);

  // A scale bar in the user's units: metric for metres, imperial for feet.
  useEffect(() => {
    if (!leafletMap) return;
    const metric = settings.heightUnit !== 'ft';
    const scale = L.control.scale({ position: 'bottomleft', metric, imperial: !metric, maxWidth: 140 });
    scale.addTo(leafletMap);
    return () => {
      scale.remove();
    };
  }, [leafletMap, settings.heightUnit]);

  // The measure line and its ends, under the pins; Esc clears the points, then leaves the tool.
  useEffect(() => {
    if (!leafletMap || measurePoints.length === 0) return;
    const group = L.layerGroup();
    const latlngs = measurePoints.map((p) => L.latLng(p.lat, p.lng));
    if (latlngs.length === 2) {
      L.polyline(latlngs, { color: '#ffffff', weight: 7, opacity: 0.9, interactive: false }).addTo(group);
      L.polyline(latlngs, { color: '#111111', weight: 3, dashArray: '8 6', interactive: false }).addTo(group);
    }
    for (const ll of latlngs) L.circleMarker(ll, { radius: 6, color: '#111111', weight: 3, fillColor: '#ffd400', fillOpacity: 1, interactive: false }).addTo(group);
    group.addTo(leafletMap);
    return () => {
      group.remove();
    };
  }, [leafletMap, measurePoints]);

  useEffect(() => {
    containerRef.current?.classList.toggle('measuring', measuring);
    if (!measuring) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setMeasurePoints((points) => {
        if (points.length === 0) setMeasuring(false);
        return [];
      });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [measuring]);

  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [selectedId]);
  useEffect(() => {
    layerRef.current?.setChosen(chosen ?? NONE_CHOSEN);
  }, [chosen]);

  useMoveKeys({
    map: leafletMap,
    movableId,
    preview: movePreview,
    positionOf: (id) => {
      const pin = layerRef.current?.getPin(id);
      if (pin) return { lat: pin.lat, lng: pin.lng };
      const site = store.getState().sites.get(id);
      return site?.latitude != null && site.longitude != null ? { lat: site.latitude, lng: site.longitude } : null;
    },
    onNudge: (id, lat, lng) => callbacks.current.onNudge(id, lat, lng),
    onDrop: (id, lat, lng) => callbacks.current.onDrop(id, lat, lng),
  });

  // Both together: a drop always ends move mode, so the preview is set again after every drop (the
  // layer shows a dropped pin where it landed at once, and this puts it back if the move was refused).
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.setMovable(movableId);
    layer.setMovePreview(movePreview);
    const container = containerRef.current;
    if (container) container.dataset['movable'] = movableId ?? '';
  }, [movableId, movePreview]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    container.classList.toggle('adding', addMode);
    if (!addMode) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') callbacks.current.onCancelAdd();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [addMode]);

  // A context menu takes focus so it can be used from the keyboard (arrows, Home, End) and closed
  // with Escape, which puts focus back on the map.
  useEffect(() => {
    if (!menu) return;
    menuRef.current?.querySelector('button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        closeMenu(true);
        return;
      }
      const items = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
      const at = items.indexOf(document.activeElement as HTMLButtonElement);
      if (at < 0) return;
      const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      items[(next + items.length) % items.length]?.focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [menu]);

  /** A menu item's action: the menu closes first (focus goes where the action takes it). */
  function closeMenuThen(action: () => void): () => void {
    return () => {
      setMenu(null);
      action();
    };
  }

  /** Closes the menu; `refocus` when focus was in it (Escape, Close menu), so it does not fall to the page. */
  function closeMenu(refocus: boolean) {
    setMenu(null);
    if (refocus) containerRef.current?.focus({ preventScroll: true });
  }

  useImperativeHandle(
    handle,
    (): MapHandle => ({
      showSite(localId) {
        const map = mapRef.current;
        // The store's site: a filter may keep its pin off the map until it is selected.
        const site = store.getState().sites.get(localId);
        const pin = layerRef.current?.getPin(localId) ?? (site ? toPin(site) : null);
        if (!map || !pin) return false;
        const zoom = Math.max(map.getZoom(), 13);
        const inset = callbacks.current.rightInset;
        const center = map.unproject(map.project([pin.lat, pin.lng], zoom).add([inset / 2, 0]), zoom);
        userNavigated(map);
        map.setView(center, zoom, { animate: true });
        return true;
      },
      ensureVisible(localId) {
        const map = mapRef.current;
        const point = layerRef.current?.containerPointOf(localId);
        if (!map || !point) return;
        const size = map.getSize();
        const margin = 40;
        if (point.x < margin || point.y < margin + 50 || point.x > size.x - callbacks.current.rightInset - margin || point.y > size.y - margin) {
          this.showSite(localId);
        }
      },
      center() {
        const c = mapRef.current?.getCenter() ?? L.latLng(0, 0);
        return { lat: c.lat, lng: L.Util.wrapNum(c.lng, [-180, 180], true) };
      },
      fitAll() {
        const bounds = layerRef.current?.getBounds();
        const map = mapRef.current;
        if (!bounds || !map) return;
        userNavigated(map);
        map.fitBounds(bounds.pad(0.05), { maxZoom: 15 });
      },
      element() {
        return containerRef.current;
      },
    }),
    [],
  );

  return (
    <div className="map-wrap">
      <div ref={containerRef} className="map" role="application" aria-label="Map of sites. Use the site list to reach sites from the keyboard." tabIndex={0} data-testid="map" />

      {props.controls?.(leafletMap)}

      {menu && (
        <div ref={menuRef} className="context-menu" role="menu" aria-label={menu.kind === 'pin' ? `Actions for ${menu.title}` : 'Map actions'} style={{ left: menu.x, top: menu.y }}>
          {menu.kind === 'pin' ? (
            <>
              <MenuItem onSelect={closeMenuThen(() => callbacks.current.onStartMove(menu.localId))}>Move this site</MenuItem>
              <MenuItem onSelect={closeMenuThen(() => callbacks.current.onEdit(menu.localId))}>Edit this site</MenuItem>
            </>
          ) : (
            <>
              <MenuItem onSelect={closeMenuThen(() => callbacks.current.onPick(menu.lat, menu.lng))}>New site here</MenuItem>
              {/* Always offered, so a basemap that may not be downloaded says why instead of leaving the user to wonder. */}
              <MenuItem onSelect={closeMenuThen(() => callbacks.current.onDownloadArea?.())} disabledReason={downloadAreaRefusal(activeBasemap)}>
                Download this area…
              </MenuItem>
            </>
          )}
          <MenuItem
            onSelect={() => {
              closeMenu(true);
              void navigator.clipboard?.writeText(`${formatDecimal(menu.lat)}, ${formatDecimal(menu.lng)}`);
            }}
          >
            Copy coordinates ({formatDecimal(menu.lat)}, {formatDecimal(menu.lng)})
          </MenuItem>
          <MenuItem onSelect={() => closeMenu(true)}>Close menu</MenuItem>
        </div>
      )}

      {hover && !menu && <PinTooltip item={hover.item} x={hover.x} y={hover.y} />}

      <div className="map-measure">
        <button
          type="button"
          aria-pressed={measuring}
          onClick={() => {
            if (measuring) {
              setMeasuring(false);
              setMeasurePoints([]);
            } else {
              if (addMode) callbacks.current.onCancelAdd();
              setMeasuring(true);
            }
          }}
        >
          Measure
        </button>
        {measuring && <MeasureResult points={measurePoints} unit={settings.heightUnit} />}
      </div>

      {/* The bottom of the map: the left corner's stack (messages, the tile notice, the coordinates)
          and the right's (My location), each a column growing upwards side by side; when the map is
          too narrow for both (the form open), the right one goes above the left, never over it. */}
      <div ref={bottomRef} className="map-bottom">
        <div className="map-stack map-stack-left">
          {props.messages}
          {tilesFailing && (
            <div className="map-notice" role="note">
              {tileSource.fileBasemap
                ? `${tileSource.fileBasemap} has no tiles here — showing a coordinate grid.`
                : 'Map tiles cannot load here (offline or blocked) — showing a coordinate grid.'}
            </div>
          )}
          <CursorCoordinates map={leafletMap} />
        </div>
        <div ref={bottomRightRef} className="map-stack map-stack-right">
          {props.bottomRight?.(leafletMap)}
        </div>
      </div>

      <MapLegend />
    </div>
  );
}

/** One entry of the map's context menu (the menu's arrow keys move between these). */
function MenuItem({ onSelect, disabledReason = null, children }: { onSelect: () => void; disabledReason?: string | null; children: ReactNode }) {
  const reasonId = useId();
  if (disabledReason !== null) {
    // aria-disabled rather than disabled: the arrow keys still reach it, so its reason is read out.
    return (
      <button type="button" role="menuitem" aria-disabled="true" aria-describedby={reasonId} className="menu-disabled">
        {children}
        <span id={reasonId} className="menu-reason">
          {disabledReason}
        </span>
      </button>
    );
  }
  return (
    <button type="button" role="menuitem" onClick={onSelect}>
      {children}
    </button>
  );
}
