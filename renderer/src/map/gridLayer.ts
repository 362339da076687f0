// The map's fallback when tiles cannot load (no connection in the field, a blocked tile server): a
// plain background with a latitude/longitude grid and labels, drawn per tile on small canvases, so
// pins still sit on something a technician can read coordinates from instead of grey nothing.
import L from 'leaflet';
import { formatGridLabel, gridStep, roundTo } from './geometry';

export const CoordinateGrid = L.GridLayer.extend({
  options: { pane: 'tilePane', zIndex: 0, updateWhenIdle: false, keepBuffer: 2 },

  createTile(this: L.GridLayer, coords: L.Coords): HTMLElement {
    const tile = document.createElement('canvas');
    const size = this.getTileSize();
    const ratio = globalThis.devicePixelRatio || 1;
    tile.width = size.x * ratio;
    tile.height = size.y * ratio;
    const ctx = tile.getContext('2d');
    const map = (this as unknown as { _map: L.Map })._map;
    if (!ctx || !map) return tile;
    ctx.scale(ratio, ratio);
    ctx.fillStyle = '#eef1ea';
    ctx.fillRect(0, 0, size.x, size.y);

    const nwPoint = coords.scaleBy(size);
    const nw = map.unproject(nwPoint, coords.z);
    const se = map.unproject(nwPoint.add(size), coords.z);
    const step = gridStep(coords.z, size.x);
    const toX = (lng: number) => map.project([nw.lat, lng], coords.z).x - nwPoint.x;
    const toY = (lat: number) => map.project([lat, nw.lng], coords.z).y - nwPoint.y;

    ctx.strokeStyle = '#8a9486';
    ctx.lineWidth = 1;
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.fillStyle = '#2b3229';
    ctx.textBaseline = 'top';

    const firstLng = Math.ceil(nw.lng / step) * step;
    for (let lng = firstLng; lng < se.lng; lng += step) {
      const x = Math.round(toX(lng)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, size.y);
      ctx.stroke();
      const label = formatGridLabel(roundTo(lng, step), 'lon', step);
      // Keep the label inside this tile (tiles clip): right of the line if it fits, else left of it.
      const width = ctx.measureText(label).width;
      ctx.fillText(label, x + 4 + width <= size.x ? x + 4 : x - 4 - width, 4);
    }
    const firstLat = Math.floor(nw.lat / step) * step;
    for (let lat = firstLat; lat > se.lat; lat -= step) {
      const y = Math.round(toY(lat)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(size.x, y);
      ctx.stroke();
      ctx.fillText(formatGridLabel(roundTo(lat, step), 'lat', step), 4, y + 18 <= size.y ? y + 4 : y - 16);
    }
    return tile;
  },
});

export function coordinateGrid(): L.GridLayer {
  return new (CoordinateGrid as unknown as new () => L.GridLayer)();
}
