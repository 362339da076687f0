// Where the pin canvas sits on the map: the view plus a margin on each side, and, while a zoom
// animates, the scale and offset that keep the last drawing where its pins are (as Leaflet's own
// renderers do). Geometry only: the layer applies it to its canvas.
import L from 'leaflet';

/** The canvas's top-left in layer pixels and its size (CSS pixels), for the map's view now. */
export function canvasBounds(map: L.Map, padding: number): { min: L.Point; size: L.Point } {
  const size = map.getSize();
  return { min: map.containerPointToLayerPoint(size.multiplyBy(-padding)).round(), size: size.multiplyBy(1 + 2 * padding).round() };
}

/** The transform of a canvas drawn for (`drawnCenter`, `drawnZoom`) while the map animates to (`center`, `zoom`). */
export function zoomedCanvas(map: L.Map, padding: number, drawnCenter: L.LatLng, drawnZoom: number, center: L.LatLng, zoom: number): { topLeft: L.Point; scale: number } {
  const scale = map.getZoomScale(zoom, drawnZoom);
  const size = map.getSize();
  const viewHalf = size.multiplyBy(0.5 + padding);
  const drawnCenterPoint = map.project(drawnCenter, zoom);
  const panePos = L.DomUtil.getPosition(map.getPane('mapPane')!);
  const newPixelOrigin = map.project(center, zoom).subtract(size.divideBy(2)).add(panePos).round();
  return { topLeft: viewHalf.multiplyBy(-scale).add(drawnCenterPoint).subtract(newPixelOrigin), scale };
}
