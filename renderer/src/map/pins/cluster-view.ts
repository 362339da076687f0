// What the canvas shows at a zoom with clusters: the pins drawn on their own and the clusters around
// the canvas (plus a margin), projected at that zoom. The selected pin, the movable one and a
// previewed one are never hidden in a cluster: they are drawn on their own, on top (their cluster
// still counts them).
import L from 'leaflet';
import type { PinClusters } from './clusters';
import type { ProjectedClusters } from './painter';
import type { Projected } from './pin-set';
import type { Pin } from './types';

export function clusteredView(
  map: L.Map,
  crs: L.CRS,
  zoom: number,
  clusters: PinClusters,
  pinOf: (id: string) => Pin | undefined,
  always: readonly string[],
  boundsMin: L.Point,
  size: L.Point,
): { pins: Projected; clusters: ProjectedClusters } {
  const margin = 80;
  const nw = map.layerPointToLatLng(boundsMin.subtract([margin, margin]));
  const se = map.layerPointToLatLng(boundsMin.add([size.x + margin, size.y + margin]));
  const view = clusters.query(nw.lng, se.lat, se.lng, nw.lat, zoom);
  if (always.length > 0) {
    const shown = new Set(view.pins.map((pin) => pin.id));
    for (const id of always) {
      const pin = pinOf(id);
      if (pin && !shown.has(id)) {
        view.pins.push(pin);
        shown.add(id);
      }
    }
  }
  view.pins.sort((a, b) => b.lat - a.lat);
  const project = <T extends { lat: number; lng: number }>(items: readonly T[]) => {
    const x = new Float64Array(items.length);
    const y = new Float64Array(items.length);
    items.forEach((item, i) => {
      const p = crs.latLngToPoint(L.latLng(item.lat, item.lng), zoom);
      x[i] = p.x;
      y[i] = p.y;
    });
    return { x, y };
  };
  return { pins: { pins: view.pins, ...project(view.pins) }, clusters: { marks: view.clusters, ...project(view.clusters) } };
}
