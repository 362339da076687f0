// The map: a thin React wrapper that owns one Leaflet map imperatively. react-leaflet would re-render
// a component per pin; here site changes flow from the store straight into the canvas PinLayer, and
// React only renders the overlays (add-site hint, context menus, tooltip, legend, tile notice).
// Pins are fixed: dragging pans the map, a click selects; only the site in move mode (`movableId`)
// can be dragged. A right click or a long press on a pin opens its menu (Move, Edit…).
// Tiles of the configured server come through the host, which keeps them for offline use; when one
// cannot be had (offline and never seen, blocked) a coordinate grid shows.
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import L from 'leaflet';
import type { SettingsView, SiteView } from '../../../electron/shared/contract/index';
import { PIN_STYLES } from '../../../electron/shared/domain';
import type { AppStore } from '../store';
import { PinLayer, type MovePreview, type Pin } from './pins';
import { coordinateGrid } from './gridLayer';
import { hostTileUrl } from './tileUrl';
import { BADGE_URLS, PIN_NAMES, PIN_URLS } from './sprites';
import { SYNC_LABELS, markFor, safeAttribution, siteTitle } from '../lib/format';
import { formatDecimal } from '../lib/coords';

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
  addMode: boolean;
  /** The one site whose pin can be dragged (move mode), or null. */
  movableId: string | null;
  movePreview: MovePreview | null;
  onPick: (lat: number, lng: number) => void;
  onSelect: (localId: string) => void;
  onDrop: (localId: string, lat: number, lng: number) => void;
  /** "Move this site" in a pin's menu. */
  onStartMove: (localId: string) => void;
  /** "Edit this site" in a pin's menu. */
  onEdit: (localId: string) => void;
  onCancelAdd: () => void;
  /** Pixels on the right covered by the docked form: showing a site keeps it clear of them. */
  rightInset: number;
  handle: Ref<MapHandle>;
}

// A 1×1 transparent GIF for tiles that failed, so the grid shows through instead of a broken image.
const EMPTY_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

function toPin(site: SiteView): Pin | null {
  if (site.latitude === null || site.longitude === null) return null;
  return {
    id: site.localId,
    lat: site.latitude,
    lng: site.longitude,
    style: site.pinStyle,
    mark: markFor(site.syncState),
    title: siteTitle(site),
  };
}

const MARK_WORDS: Record<Pin['mark'], string> = {
  none: SYNC_LABELS.synced,
  pending: SYNC_LABELS.pending,
  failed: SYNC_LABELS.failed,
  review: SYNC_LABELS['needs-review'],
};

/** The open context menu: the map's (a place) or a pin's (a site). */
type MenuState = { kind: 'map'; x: number; y: number; lat: number; lng: number } | { kind: 'pin'; x: number; y: number; lat: number; lng: number; localId: string; title: string };

export function MapView(props: MapViewProps) {
  const { store, settings, selectedId, addMode, movableId, movePreview, handle } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<PinLayer | null>(null);
  const tilesRef = useRef<L.TileLayer | null>(null);
  const gridRef = useRef<L.GridLayer | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const [tilesFailing, setTilesFailing] = useState(false);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const [hover, setHover] = useState<{ pin: Pin; x: number; y: number } | null>(null);
  // Open where there is room for it beside the toolbar; a tap away otherwise.
  const [legendOpen, setLegendOpen] = useState(() => window.innerWidth - 440 >= 1000);
  const menuRef = useRef<HTMLDivElement>(null);

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
    });
    map.attributionControl.setPrefix(false);
    mapRef.current = map;
    container.querySelector('.leaflet-control-zoom-in')?.setAttribute('aria-label', 'Zoom in');
    container.querySelector('.leaflet-control-zoom-out')?.setAttribute('aria-label', 'Zoom out');

    const layer = new PinLayer({
      onPinClick: (id) => callbacks.current.onSelect(id),
      onPinMenu: (id, point) => {
        const pin = layer.getPin(id);
        if (!pin) return;
        setHover(null);
        callbacks.current.onSelect(id);
        setMenu({ kind: 'pin', x: point.x, y: point.y, lat: pin.lat, lng: pin.lng, localId: id, title: pin.title });
      },
      onPinDrop: (id, latlng) => callbacks.current.onDrop(id, latlng.lat, L.Util.wrapNum(latlng.lng, [-180, 180], true)),
      onHover: (pin, point) => setHover(pin && point ? { pin, x: point.x, y: point.y } : null),
      // What is on the canvas, readable from outside (the canvas itself is opaque to tests and tools).
      onDrawn: (info) => {
        container.dataset['pinsDrawn'] = String(info.drawn);
        container.dataset['pinsPending'] = String(info.marks.pending);
        container.dataset['pinsFailed'] = String(info.marks.failed);
        container.dataset['pinsReview'] = String(info.marks.review);
        container.dataset['pinsCompact'] = String(info.compact);
      },
    });
    layer.addTo(map);
    layerRef.current = layer;

    map.on('click', (e: L.LeafletMouseEvent) => {
      setMenu(null);
      if (callbacks.current.addMode) callbacks.current.onPick(e.latlng.lat, L.Util.wrapNum(e.latlng.lng, [-180, 180], true));
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
      const pins = changed.map(toPin);
      if (reset) {
        layer.setPins(pins.filter((p): p is Pin => p !== null));
        fitNow(fitted);
      } else {
        // A site that lost its position leaves the map.
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
      layer.setPins([...state.sites.values()].map(toPin).filter((p): p is Pin => p !== null));
      fitNow(false);
    }

    const resize = new ResizeObserver(() => map.invalidateSize({ pan: false }));
    resize.observe(container);
    return () => {
      stopSites();
      clearTimeout(fitTimer);
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      layerRef.current = null;
      tilesRef.current = null;
      gridRef.current = null;
    };
  }, [store]);

  // Tiles follow the settings; failures switch the grid on, a loaded tile switches it off.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    tilesRef.current?.remove();
    const tiles = L.tileLayer(hostTileUrl(settings.tileUrl), {
      attribution: safeAttribution(settings.tileAttribution),
      maxZoom: 19,
      zIndex: 1,
      errorTileUrl: EMPTY_TILE,
    });
    tiles.on('tileerror', () => {
      if (!gridRef.current) {
        gridRef.current = coordinateGrid();
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
  }, [settings.tileUrl, settings.tileAttribution]);

  useEffect(() => {
    containerRef.current?.setAttribute('data-tiles', tilesFailing ? 'grid' : 'tiles');
  }, [tilesFailing]);

  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [selectedId]);

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
        const pin = layerRef.current?.getPin(localId);
        if (!map || !pin) return false;
        const zoom = Math.max(map.getZoom(), 13);
        const inset = callbacks.current.rightInset;
        const center = map.unproject(map.project([pin.lat, pin.lng], zoom).add([inset / 2, 0]), zoom);
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
        if (bounds && mapRef.current) mapRef.current.fitBounds(bounds.pad(0.05), { maxZoom: 15 });
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

      {tilesFailing && (
        <div className="map-notice" role="note">
          Map tiles cannot load here (offline or blocked) — showing a coordinate grid.
        </div>
      )}

      {menu && (
        <div ref={menuRef} className="context-menu" role="menu" aria-label={menu.kind === 'pin' ? `Actions for ${menu.title}` : 'Map actions'} style={{ left: menu.x, top: menu.y }}>
          {menu.kind === 'pin' ? (
            <>
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setMenu(null);
                  callbacks.current.onStartMove(menu.localId);
                }}
              >
                Move this site
              </button>
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setMenu(null);
                  callbacks.current.onEdit(menu.localId);
                }}
              >
                Edit this site
              </button>
            </>
          ) : (
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setMenu(null);
                callbacks.current.onPick(menu.lat, menu.lng);
              }}
            >
              New site here
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              closeMenu(true);
              void navigator.clipboard?.writeText(`${formatDecimal(menu.lat)}, ${formatDecimal(menu.lng)}`);
            }}
          >
            Copy coordinates ({formatDecimal(menu.lat)}, {formatDecimal(menu.lng)})
          </button>
          <button type="button" role="menuitem" onClick={() => closeMenu(true)}>
            Close menu
          </button>
        </div>
      )}

      {hover && !menu && (
        <div className="pin-tooltip" style={{ left: hover.x, top: hover.y }} aria-hidden="true">
          <strong>{hover.pin.title}</strong>
          <span>{MARK_WORDS[hover.pin.mark]}</span>
        </div>
      )}

      <section className={`legend ${legendOpen ? '' : 'closed'}`} aria-label="Map legend">
        <button type="button" className="legend-toggle" aria-expanded={legendOpen} onClick={() => setLegendOpen(!legendOpen)}>
          Legend
        </button>
        {legendOpen && (
          <ul>
            <li className="legend-pins">
              {PIN_STYLES.map((style) => (
                <span key={style}>
                  <img src={PIN_URLS[style]} alt="" width={16} height={22} /> {PIN_NAMES[style]}
                </span>
              ))}
            </li>
            <li>
              <img src={BADGE_URLS.pending} alt="" width={18} height={18} /> Clock: waiting to send
            </li>
            <li>
              <img src={BADGE_URLS.failed} alt="" width={18} height={18} /> Triangle: rejected
            </li>
            <li>
              <img src={BADGE_URLS.review} alt="" width={18} height={18} /> Diamond: check needed
            </li>
          </ul>
        )}
      </section>
    </div>
  );
}
