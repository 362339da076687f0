// The map: a thin React wrapper that owns one Leaflet map imperatively. react-leaflet would re-render
// a component per pin; here site changes flow from the store straight into the canvas PinLayer
// (follow-sites.ts), tiles come from use-tile-layer.ts, and React only renders the overlays (the
// context menu, tooltip, legend, tile notice, the measure result and the shell's controls).
// What a click or a key does depends on the active tool (tools/: add, move, measure, download area,
// stake), which follows the interaction (tools/interaction.ts); with no tool a click selects a site.
// Pins are fixed: dragging pans the map; only the site in move mode can be dragged, or nudged with the
// arrow keys (tools/move-tool.ts). A right click or a long press on a pin opens its menu (Move, Edit…).
// Readable at scale: pins cluster up to a zoom (a click on a cluster zooms in), names show from a
// zoom on, the map can show only what the list's search and filters show (`filter`), a scale bar
// in the user's units, and the coordinates under the cursor.
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import L from 'leaflet';
import type { SettingsView, SiteView } from '../../../electron/shared/contract/index';
import { useAppState, type AppStore } from '../shared/store/app-store';
import type { PickedFix } from '../shared/ui/ui-context';
import { isEmptyFilter, siteMatcher, type SiteFilter } from '../shared/site-filter';
import { readMapPalette, useResolvedTheme, type MapPalette } from '../shared/theme';
import { PinLayer, type ClusterMark, type MovePreview, type Pin } from './pins';
import { CursorCoordinates } from './cursor-coordinates';
import { TileNotice } from './tile-notice';
import { MapLegend } from './map-legend';
import { PinTooltip } from './pin-tooltip';
import { MeasureResult } from './measure-result';
import { downloadAreaRefusal } from './basemaps';
import { MapMenu } from './map-menu';
import { followSites, showAll } from './follow-sites';
import { useTileLayer } from './use-tile-layer';
import { mapHandle, type MapHandle } from './map-handle';
import { PlaceMarker, type MapPlace } from './place-marker';

export type { MapHandle } from './map-handle';
import { useBottomInset } from './use-bottom-inset';
import { createTools } from './tools/tools';
import { BoxSelect, sitesInBox } from './box-select';
import { SelectControl } from './select-control';
import { wrapped, type ToolCallbacks } from './tools/map-tool';
import type { ToolRegistry } from './tools/registry';
import { moveModeOf } from './tools/interaction';
import { useInteraction, useOwnInteraction, type InteractionStore } from './tools/interaction-store';

export interface MapViewProps extends Omit<ToolCallbacks, 'onPick' | 'positionOf'> {
  store: AppStore;
  settings: SettingsView;
  selectedId: string | null;
  /** Show only the sites this filter lets through (the list's), or every site when null. */
  filter: SiteFilter | null;
  /** What the user is doing (the active tool, the menu); the map keeps its own when none is given. */
  interaction?: InteractionStore;
  movePreview: MovePreview | null;
  /** A place for a new site (add mode, the map menu) or for the open form; `fix` when it is My location's. */
  onPick: (lat: number, lng: number, fix?: PickedFix) => void;
  onSelect: (localId: string) => void;
  /** "Move this site" in a pin's menu. */
  onStartMove: (localId: string) => void;
  /** "Edit this site" in a pin's menu. */
  onEdit: (localId: string) => void;
  /** Pixels on the right covered by the docked form: showing a site keeps it clear of them. */
  rightInset: number;
  /** The place the open form names (a new site, or a site's new position): marked, and kept in view. */
  placing?: MapPlace | null;
  /** "Download this area…" in the map's menu (offered only when the active basemap allows it). */
  onDownloadArea?: () => void;
  /** The shell's controls over the map's top (the basemap switcher and downloads), given the Leaflet map once it exists. */
  controls?: (map: L.Map | null) => ReactNode;
  /** What stacks at the map's bottom right (My location), given the Leaflet map once it exists. */
  bottomRight?: (map: L.Map | null) => ReactNode;
  handle: Ref<MapHandle>;
  /** Sites selected to act on together (a thin ring on their pins). */
  chosen?: ReadonlySet<string>;
  /** Shift-drag (or the select tool's box) drew a box over these shown sites; `add` when Ctrl/Cmd was held too. */
  onBoxChosen?: (localIds: string[], add: boolean) => void;
}

const NONE_CHOSEN: ReadonlySet<string> = new Set();

export function MapView(props: MapViewProps) {
  const { store, settings, selectedId, filter, movePreview, handle, chosen } = props;
  const interaction = useOwnInteraction(props.interaction);
  const tool = useInteraction(interaction, (s) => s.tool);
  const menu = useInteraction(interaction, (s) => s.menu);
  const move = moveModeOf(tool);
  const movableId = move.phase === 'armed' ? move.localId : null;
  /** The filter (and the always-shown sites) the layer's pins were last chosen by: 'all' = every site. */
  const appliedRef = useRef('all');
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<PinLayer | null>(null);
  const toolsRef = useRef<ToolRegistry | null>(null);
  /** The theme's colours for the canvases (pins, grid), read from the stylesheet once per theme change. */
  const paletteRef = useRef<MapPalette | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const activeBasemap = useAppState(store, (s) => s.basemaps.find((b) => b.active) ?? null);
  const [hover, setHover] = useState<{ item: Pin | ClusterMark; x: number; y: number } | null>(null);
  const [leafletMap, setLeafletMap] = useState<L.Map | null>(null);
  /** Which sites the map shows: the filter's, plus the selected site and the one being moved. */
  const shownRef = useRef<(site: SiteView) => boolean>(() => true);
  const bottomRef = useRef<HTMLDivElement>(null);
  const bottomRightRef = useRef<HTMLDivElement>(null);
  useBottomInset(containerRef, bottomRef, bottomRightRef);
  const tiles = useTileLayer(leafletMap, store, settings, paletteRef);

  // Create the map, its pin layer and its tools once, before the browser first paints the page (a
  // layout effect, not an effect after the paint): the pins are drawn a frame sooner.
  useLayoutEffect(() => {
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
        if (pin && toolsRef.current?.pinClick(id, wrapped(L.latLng(pin.lat, pin.lng)), pin.title, event ? wrapped(map.mouseEventToLatLng(event)) : null)) return;
        // With no tool wanting it, Shift or Ctrl/Cmd on a pin adds it to (or takes it from) the selection.
        if (event && (event.shiftKey || event.ctrlKey || event.metaKey) && callbacks.current.onToggleChosen) return callbacks.current.onToggleChosen(id);
        callbacks.current.onSelect(id);
      },
      onPinMenu: (id, point) => {
        const pin = layer.getPin(id);
        if (!pin) return;
        setHover(null);
        callbacks.current.onSelect(id);
        interaction.dispatch({ type: 'open-menu', menu: { kind: 'pin', x: point.x, y: point.y, lat: pin.lat, lng: pin.lng, localId: id, title: pin.title } });
      },
      onPinDrop: (id, latlng) => callbacks.current.onDrop(id, latlng.lat, wrapped(latlng).lng),
      onHover: (item, point) => setHover(item && point ? { item, x: point.x, y: point.y } : null),
      // What is on the canvas, readable from outside (the canvas itself is opaque to tests and tools).
      onDrawn: (info) => {
        container.dataset['pinsDrawn'] = String(info.drawn);
        container.dataset['pinsPending'] = String(info.marks.pending);
        container.dataset['pinsFailed'] = String(info.marks.failed);
        container.dataset['pinsReview'] = String(info.marks.review);
        container.dataset['pinsCompact'] = String(info.compact);
        container.dataset['clustersDrawn'] = String(info.clusters);
        container.dataset['chosenInClusters'] = String(info.chosenInClusters);
        container.dataset['chosenTags'] = String(info.chosenTags);
        container.dataset['pinsOnMap'] = String(layer.size);
      },
    });
    layer.addTo(map);
    layerRef.current = layer;

    // A box (Shift-drag, or a drag with the select tool) selects the shown sites inside it.
    const onBox = (bounds: L.LatLngBounds, add: boolean) => callbacks.current.onBoxChosen?.(sitesInBox(store.getState().sites.values(), shownRef.current, bounds), add);
    const quickBox = new BoxSelect(map, { onBox, allowed: () => interaction.get().tool.id === null });
    quickBox.enable();
    const tools = createTools({
      map,
      pins: layer,
      interaction,
      callbacks: () => ({
        ...callbacks.current,
        onBox,
        onPick: (lat, lng) => callbacks.current.onPick(lat, lng),
        positionOf: (id) => {
          const pin = layer.getPin(id);
          if (pin) return { lat: pin.lat, lng: pin.lng };
          const site = store.getState().sites.get(id);
          return site?.latitude != null && site.longitude != null ? { lat: site.latitude, lng: site.longitude } : null;
        },
      }),
    });
    toolsRef.current = tools;
    tools.activate(interaction.get().tool.id);
    // The active tool hears the keys first, before Leaflet's keyboard panning and the page's own
    // listeners; an open dialog or menu keeps its keys.
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('dialog[open], [role="menu"]')) return;
      if (tools.key(e)) e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);

    map.on('click', (e: L.LeafletMouseEvent) => {
      interaction.dispatch({ type: 'close-menu' });
      tools.mapClick(wrapped(e.latlng));
    });
    map.on('contextmenu', (e: L.LeafletMouseEvent) => {
      interaction.dispatch({ type: 'open-menu', menu: { kind: 'map', x: e.containerPoint.x, y: e.containerPoint.y, lat: e.latlng.lat, lng: wrapped(e.latlng).lng } });
    });
    map.on('movestart', () => {
      setHover(null);
      container.dataset['moving'] = '1';
    });
    map.on('moveend', () => {
      container.dataset['moving'] = '0';
    });
    const stopFollowing = followSites(map, layer, store, () => shownRef.current);

    const resize = new ResizeObserver(() => map.invalidateSize({ pan: false }));
    resize.observe(container);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      tools.clear();
      stopFollowing();
      resize.disconnect();
      map.remove();
      setLeafletMap(null);
      mapRef.current = null;
      layerRef.current = null;
      toolsRef.current = null;
    };
  }, [store, interaction]);

  // One tool at a time: the one the interaction names.
  useEffect(() => {
    toolsRef.current?.activate(tool.id);
  }, [tool.id, leafletMap]);

  // Night or sun: the canvases take the theme's colours once per change (App has put it on <html> already).
  const resolvedTheme = useResolvedTheme(settings.theme);
  useEffect(() => {
    const palette = readMapPalette();
    paletteRef.current = palette;
    layerRef.current?.setPalette(palette);
    tiles.grid.current?.setPalette(palette);
  }, [resolvedTheme, settings.theme, leafletMap, tiles.grid]);

  // The map shows what the list shows: every site the filter lets through, and always the selected
  // site and the one being moved (so a move or a selection never loses its pin). A filter typed
  // letter by letter redraws once it rests.
  useEffect(() => {
    const layer = layerRef.current;
    const container = containerRef.current;
    if (!layer) return;
    const matches = filter && !isEmptyFilter(filter) ? siteMatcher(filter) : null;
    shownRef.current = (site) => !matches || matches(site) || site.localId === selectedId || site.localId === movableId;
    if (container) container.dataset['filtered'] = matches ? 'true' : 'false';
    // Without a filter (or one that lets every site through) every site is on the map already: a new selection changes nothing.
    const key = matches ? JSON.stringify([filter, selectedId, movableId]) : 'all';
    if (key === appliedRef.current) return;
    const apply = () => {
      appliedRef.current = key;
      showAll(layer, store, shownRef.current);
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

  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [selectedId]);
  useEffect(() => layerRef.current?.setChosen(chosen ?? NONE_CHOSEN), [chosen]);

  // Both together: a drop always ends move mode, so the preview is set again after every drop (the
  // layer shows a dropped pin where it landed at once, and this puts it back if the move was refused).
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.setMovable(movableId);
    layer.setMovePreview(movePreview);
    const container = containerRef.current;
    if (container) container.dataset['movable'] = movableId ?? '';
  }, [movableId, movePreview, leafletMap]);

  /** Closes the menu; `refocus` when focus was in it (Escape, Close menu), so it does not fall to the page. */
  const closeMenu = useCallback(
    (refocus: boolean) => {
      interaction.dispatch({ type: 'close-menu' });
      if (refocus) containerRef.current?.focus({ preventScroll: true });
    },
    [interaction],
  );

  useImperativeHandle(handle, (): MapHandle => mapHandle(mapRef, layerRef, containerRef, store, () => callbacks.current.rightInset), [store]);

  const measuring = tool.id === 'measure';
  return (
    <div className="map-wrap">
      <div ref={containerRef} className="map" role="application" aria-label="Map of sites. Use the site list to reach sites from the keyboard." tabIndex={0} data-testid="map" />

      {props.controls?.(leafletMap)}
      <PlaceMarker map={leafletMap} place={props.placing ?? null} rightInset={props.rightInset} />

      {menu && (
        <MapMenu
          menu={menu}
          onClose={closeMenu}
          actions={{
            onStartMove: (id) => callbacks.current.onStartMove(id),
            onEdit: (id) => callbacks.current.onEdit(id),
            onNewSite: (lat, lng) => callbacks.current.onPick(lat, lng),
            onDownloadArea: () => callbacks.current.onDownloadArea?.(),
            downloadRefusal: downloadAreaRefusal(activeBasemap),
          }}
        />
      )}

      {hover && !menu && <PinTooltip item={hover.item} x={hover.x} y={hover.y} />}

      <div className="map-measure">
        <button type="button" aria-pressed={measuring} onClick={() => interaction.dispatch(measuring ? { type: 'end', tool: 'measure' } : { type: 'start-measure' })}>
          Measure
        </button>
        {tool.id === 'measure' && <MeasureResult points={tool.points} unit={settings.heightUnit} />}
        {props.onBoxChosen && <SelectControl interaction={interaction} active={tool.id} />}
      </div>

      {/* The bottom of the map: the left corner's stack (the tile notice, the coordinates)
          and the right's (My location), each a column growing upwards side by side; when the map is
          too narrow for both (the form open), the right one goes above the left, never over it. */}
      <div ref={bottomRef} className="map-bottom">
        <div className="map-stack map-stack-left">
          {tiles.failing && (
            <TileNotice
              chip={tiles.fileBasemap ? 'No tiles here: grid' : 'No map tiles: grid'}
              message={tiles.fileBasemap ? `${tiles.fileBasemap} has no tiles here — showing a coordinate grid.` : 'Map tiles cannot load here (offline or blocked) — showing a coordinate grid.'}
            />
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
