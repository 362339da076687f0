// The pins follow the store's sites: a reset replaces them all, a change moves or removes a few. The
// map fits the sites at start; when there were none yet (a first run, an import elsewhere), it fits
// them once they have arrived, unless the user has taken the map in hand meanwhile.
import type L from 'leaflet';
import type { SiteView } from '../../../electron/shared/contract/index';
import type { AppStore } from '../shared/store/app-store';
import type { Pin, PinLayer } from './pins';
import { identifyPins, pinsFromColumns, pinsFromPositions } from './column-pins';
import { toPin } from './site-pin';
import { timed } from '../shared/load-timing';

/** The layers whose pins are still the ones drawn from the first load's columns, nothing set since. */
const columnPinsHeld = new WeakSet<PinLayer>();

/** Keeps `layer` showing the sites `shown` lets through; returns the function that stops it. */
export function followSites(map: L.Map, layer: PinLayer, store: AppStore, shown: () => (site: SiteView) => boolean): () => void {
  let fitted = false;
  let fitTimer: ReturnType<typeof setTimeout> | undefined;
  const fitNow = (animate: boolean) => {
    const bounds = layer.getBounds();
    if (!bounds) return;
    map.fitBounds(bounds.pad(0.05), { maxZoom: 15, animate });
    fitted = true;
  };
  const onDrag = () => {
    fitted = true;
    clearTimeout(fitTimer);
  };
  map.on('dragstart', onDrag);
  // The first load's pins come from the columns, before the store has the sites as views; the reset
  // that follows with the views puts them through the filter if one is set, the map already fitted.
  let drawnFromColumns = false;
  // Many sites are drawn first from their positions, before the list: pins that know no site yet.
  let unnamed: Pin[] | null = null;
  const stopPositions = store.columns.subscribePositions((positions) => {
    layer.expectPins(positions.count);
    unnamed = timed('pins-from-positions', () => pinsFromPositions(positions));
    layer.setPins(unnamed);
    fitNow(fitted);
    return layer.whenDrawn();
  });
  const stopColumns = store.onSiteColumns((list) => {
    const drawn = unnamed;
    unnamed = null;
    drawnFromColumns = true;
    columnPinsHeld.add(layer);
    // The list's sites are the pins drawn from their positions: those learn their sites, and stay drawn.
    if (drawn && layer.all() === drawn && timed('pins-identified', () => identifyPins(drawn, list))) return layer.identified();
    // Many sites: the worker that clusters them starts loading while their pins are made.
    layer.expectPins(list.count);
    const pins = timed('pins-from-columns', () => pinsFromColumns(list));
    layer.setPins(pins);
    fitNow(fitted);
    return layer.whenDrawn();
  });
  const stopSites = store.onSites((changed, removed, reset) => {
    const show = shown();
    const afterColumns = reset && drawnFromColumns;
    if (afterColumns) {
      drawnFromColumns = false;
      // The views of the sites just drawn from their columns, each one's pin the same
      // (test/renderer/site-list.test.ts): with no filter holding any back, the layer keeps its pins,
      // its clusters and its picture, rather than building all three again for nothing.
      if (columnPinsHeld.delete(layer) && changed.every(show)) return;
    }
    const pins = changed.map((site) => (show(site) ? toPin(site) : null));
    if (reset) {
      layer.setPins(pins.filter((p): p is Pin => p !== null));
      if (!afterColumns) fitNow(fitted);
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
    showAll(layer, store, shown());
    fitNow(false);
  }
  return () => {
    stopPositions();
    stopColumns();
    stopSites();
    clearTimeout(fitTimer);
    map.off('dragstart', onDrag);
  };
}

/** Puts every site `shown` lets through on the layer at once. */
export function showAll(layer: PinLayer, store: AppStore, shown: (site: SiteView) => boolean): void {
  columnPinsHeld.delete(layer);
  layer.setPins([...store.getState().sites.values()].filter((site) => shown(site)).map(toPin).filter((p): p is Pin => p !== null));
}
