// The map's fallback when tiles cannot load (no connection in the field, a blocked tile server): a
// plain background with a latitude/longitude grid, so pins still sit on something a technician can
// read coordinates from instead of grey nothing. The lines are drawn per tile on small canvases;
// the labels are drawn once for the view, along its top (longitude, under the toolbar) and left
// (latitude) edges, so they never repeat per tile or run into each other where two tiles meet.
// Its colours are the theme's (setPalette redraws the tiles); the labels take theirs from the stylesheet.
import L from 'leaflet';
import { formatGridLabel, gridStep, roundTo } from './geometry';
import { LIGHT_MAP_PALETTE, type MapPalette } from '../shared/theme';

/** Where the longitude labels run (under the toolbar), and the room kept for the zoom buttons top left. */
const LONGITUDE_ROW = 68;
const LABEL_TOP_CLEARANCE = 120;
const LABEL_BOTTOM_CLEARANCE = 60;
/** The buttons over the map's top left that a longitude label must not sit under (Measure, Select, the toolbar). */
const TOP_LEFT_CONTROLS = '.map-toolbar > *, .map-measure > *, .leaflet-top .leaflet-control, .basemap-switcher';

interface GridInternals {
  _map: L.Map;
  _labels?: HTMLElement;
  _frame?: number;
  _colours?: Pick<MapPalette, 'gridBackground' | 'gridLine'>;
}

/** The grid layer, with the theme's colours. */
export interface CoordinateGridLayer extends L.GridLayer {
  setPalette(palette: MapPalette): void;
}

export const CoordinateGrid = L.GridLayer.extend({
  options: { pane: 'tilePane', zIndex: 0, updateWhenIdle: false, keepBuffer: 2 },

  onAdd(this: L.GridLayer & GridInternals, map: L.Map) {
    (L.GridLayer.prototype as unknown as { onAdd(map: L.Map): void }).onAdd.call(this, map);
    this._labels = L.DomUtil.create('div', 'grid-labels', map.getContainer());
    this._labels.setAttribute('aria-hidden', 'true');
    map.on('move zoomend resize viewreset', scheduleLabels, this);
    placeLabels.call(this);
    return this;
  },

  onRemove(this: L.GridLayer & GridInternals, map: L.Map) {
    map.off('move zoomend resize viewreset', scheduleLabels, this);
    if (this._frame !== undefined) cancelAnimationFrame(this._frame);
    this._frame = undefined;
    this._labels?.remove();
    this._labels = undefined;
    (L.GridLayer.prototype as unknown as { onRemove(map: L.Map): void }).onRemove.call(this, map);
    return this;
  },

  setPalette(this: L.GridLayer & GridInternals, palette: MapPalette) {
    const { gridBackground, gridLine } = palette;
    if (this._colours?.gridBackground === gridBackground && this._colours.gridLine === gridLine) return;
    this._colours = { gridBackground, gridLine };
    if (this._map) this.redraw();
  },

  createTile(this: L.GridLayer & GridInternals, coords: L.Coords): HTMLElement {
    const tile = document.createElement('canvas');
    const size = this.getTileSize();
    const ratio = globalThis.devicePixelRatio || 1;
    tile.width = size.x * ratio;
    tile.height = size.y * ratio;
    const ctx = tile.getContext('2d');
    const map = this._map;
    if (!ctx || !map) return tile;
    ctx.scale(ratio, ratio);
    const colours = this._colours ?? LIGHT_MAP_PALETTE;
    ctx.fillStyle = colours.gridBackground;
    ctx.fillRect(0, 0, size.x, size.y);

    const nwPoint = coords.scaleBy(size);
    const nw = map.unproject(nwPoint, coords.z);
    const se = map.unproject(nwPoint.add(size), coords.z);
    const step = gridStep(coords.z, size.x);
    const toX = (lng: number) => map.project([nw.lat, lng], coords.z).x - nwPoint.x;
    const toY = (lat: number) => map.project([lat, nw.lng], coords.z).y - nwPoint.y;

    ctx.strokeStyle = colours.gridLine;
    ctx.lineWidth = 1;
    for (let lng = Math.ceil(nw.lng / step) * step; lng < se.lng; lng += step) {
      const x = Math.round(toX(lng)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, size.y);
      ctx.stroke();
    }
    for (let lat = Math.floor(nw.lat / step) * step; lat > se.lat; lat -= step) {
      const y = Math.round(toY(lat)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(size.x, y);
      ctx.stroke();
    }
    return tile;
  },
});

function scheduleLabels(this: L.GridLayer & GridInternals): void {
  if (this._frame !== undefined) return;
  this._frame = requestAnimationFrame(() => {
    this._frame = undefined;
    placeLabels.call(this);
  });
}

/** One label per grid line in view: longitudes along the bottom edge, latitudes along the left. */
function placeLabels(this: L.GridLayer & GridInternals): void {
  const map = this._map;
  const box = this._labels;
  if (!map || !box) return;
  const size = map.getSize();
  const bounds = map.getBounds();
  const step = gridStep(Math.round(map.getZoom()), this.getTileSize().x);
  const centre = map.getCenter();
  const labels: HTMLElement[] = [];
  const label = (text: string, left: number, top: number) => {
    const element = document.createElement('span');
    element.className = 'grid-label';
    element.textContent = text;
    element.style.left = `${Math.round(left)}px`;
    element.style.top = `${Math.round(top)}px`;
    labels.push(element);
    return element;
  };
  const longitudes: HTMLElement[] = [];
  for (let lng = Math.ceil(bounds.getWest() / step) * step; lng < bounds.getEast(); lng += step) {
    const x = map.latLngToContainerPoint([centre.lat, lng]).x;
    if (x < 70 || x > size.x - 90) continue;
    longitudes.push(label(formatGridLabel(roundTo(L.Util.wrapNum(lng, [-180, 180], true), step), 'lon', step), x + 3, LONGITUDE_ROW));
  }
  for (let lat = Math.floor(bounds.getNorth() / step) * step; lat > bounds.getSouth(); lat -= step) {
    const y = map.latLngToContainerPoint([lat, centre.lng]).y;
    if (y < LABEL_TOP_CLEARANCE || y > size.y - LABEL_BOTTOM_CLEARANCE) continue;
    label(formatGridLabel(roundTo(lat, step), 'lat', step), 6, y + 3);
  }
  box.replaceChildren(...labels);
  clearControls(map.getContainer(), longitudes);
}

/**
 * Moves a longitude label that would sit under a button at the top of the map (Measure is as wide as
 * the first grid column at some zooms) down below that button: its line is vertical, so it still
 * names the same line, and it is read instead of hidden.
 */
function clearControls(container: HTMLElement, longitudes: HTMLElement[]): void {
  if (longitudes.length === 0) return;
  const area = container.closest('.map-area') ?? container.parentElement ?? container;
  const controls = [...area.querySelectorAll(TOP_LEFT_CONTROLS)].map((control) => control.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
  const top = container.getBoundingClientRect().top;
  for (const element of longitudes) {
    // Controls stack downwards (toolbar, Measure, Select): a label moved below one may meet the next.
    for (let moved = true, tries = 0; moved && tries < controls.length; tries++) {
      moved = false;
      const r = element.getBoundingClientRect();
      const under = controls.find((c) => c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom);
      if (under) {
        element.style.top = `${Math.round(under.bottom - top + 4)}px`;
        moved = true;
      }
    }
  }
}

export function coordinateGrid(palette: MapPalette = LIGHT_MAP_PALETTE): CoordinateGridLayer {
  const grid = new (CoordinateGrid as unknown as new () => CoordinateGridLayer)();
  grid.setPalette(palette);
  return grid;
}
