// What the shell may ask of the map (map-view.tsx hands it out through its ref): show a site beside
// the docked form, fit every site, the map's centre and its element.
import L from 'leaflet';
import type { AppStore } from '../shared/store/app-store';
import type { PinLayer } from './pins';
import { toPin } from './site-pin';
import { userNavigated } from './navigation';

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

/** What the shell may ask of the map: show a site, fit them all, its centre, its element. */
export function mapHandle(
  mapRef: React.RefObject<L.Map | null>,
  layerRef: React.RefObject<PinLayer | null>,
  containerRef: React.RefObject<HTMLDivElement | null>,
  store: AppStore,
  rightInset: () => number,
): MapHandle {
  return {
    showSite(localId) {
      const map = mapRef.current;
      // The store's site: a filter may keep its pin off the map until it is selected.
      const site = store.getState().sites.get(localId);
      const pin = layerRef.current?.getPin(localId) ?? (site ? toPin(site) : null);
      if (!map || !pin) return false;
      const zoom = Math.max(map.getZoom(), 13);
      const center = map.unproject(map.project([pin.lat, pin.lng], zoom).add([rightInset() / 2, 0]), zoom);
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
      if (point.x < margin || point.y < margin + 50 || point.x > size.x - rightInset() - margin || point.y > size.y - margin) {
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
  };
}
