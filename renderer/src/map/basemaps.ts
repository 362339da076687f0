// What the map needs to know about basemaps, without Leaflet or React: the page's tile URL of each
// (the host's route /tiles/{basemapId}/{z}/{x}/{y}, relative to the page, so the CSP never names a
// tile server), whether the view is outside a basemap's area or zoom range and the sentence saying
// so, the download area of a view, and the words and numbers the switcher and the dialog show.
import type { BasemapKind, BasemapView, Bounds } from '../../../electron/shared/contract/index';
import { templateKey } from './tile-url';

export const KIND_LABELS: Record<BasemapKind, string> = {
  street: 'Street',
  satellite: 'Satellite',
  topo: 'Topographic',
  custom: 'Tile server',
  mbtiles: 'MBTiles file',
  pmtiles: 'PMTiles file',
};

export function isFileBasemap(basemap: Pick<BasemapView, 'kind'>): boolean {
  return basemap.kind === 'mbtiles' || basemap.kind === 'pmtiles';
}

/** Whether an area of the basemap may be downloaded for offline use: a tile server whose terms allow it. */
export function canDownloadArea(basemap: Pick<BasemapView, 'kind' | 'downloadRefusal'> | null): boolean {
  return basemap !== null && basemap.downloadRefusal === null && !isFileBasemap(basemap);
}

/** Why the map's basemap cannot have an area downloaded, in a sentence, or null when it can. */
export function downloadAreaRefusal(basemap: Pick<BasemapView, 'kind' | 'downloadRefusal'> | null): string | null {
  if (basemap === null) return 'This map has no basemap whose areas can be downloaded; add one under Settings → Basemaps.';
  if (isFileBasemap(basemap)) return 'This basemap is a file, so it is offline already.';
  return basemap.downloadRefusal;
}

/**
 * The Leaflet URL template of a basemap's tiles. The query names what the tiles come from (the
 * server's template, or the file's name and size), so the browser's own cache never shows the tiles
 * of a server or file the basemap no longer points at.
 */
export function basemapTileUrl(basemap: Pick<BasemapView, 'id' | 'template' | 'fileName' | 'sizeBytes'>): string {
  const source = basemap.template ?? `${basemap.fileName ?? ''}|${basemap.sizeBytes ?? ''}`;
  return `tiles/${encodeURIComponent(basemap.id)}/{z}/{x}/{y}?v=${templateKey(source)}`;
}

/**
 * What the switcher says under a basemap's name: its kind (unless the name says it already), and a
 * file's zoom range or a server's host: "MBTiles file · zoom 8–14", "Satellite · tiles.example.net".
 */
export function basemapNote(basemap: Pick<BasemapView, 'name' | 'kind' | 'template' | 'minZoom' | 'maxZoom'>): string {
  const parts: string[] = [];
  if (KIND_LABELS[basemap.kind].toLowerCase() !== basemap.name.trim().toLowerCase()) parts.push(KIND_LABELS[basemap.kind]);
  if (isFileBasemap(basemap)) parts.push(zoomRangeText(basemap));
  else if (basemap.template) {
    const host = /^[a-z]+:\/\/([^/?#]+)/i.exec(basemap.template)?.[1];
    if (host) parts.push(host.replace(/^\{s\}\./, ''));
  }
  return parts.join(' · ');
}

/** "zoom 8–14" */
export function zoomRangeText(basemap: Pick<BasemapView, 'minZoom' | 'maxZoom'>): string {
  return basemap.minZoom === basemap.maxZoom ? `zoom ${basemap.minZoom}` : `zoom ${basemap.minZoom}–${basemap.maxZoom}`;
}

function degrees(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(2)}° ${value >= 0 ? positive : negative}`;
}

/** The middle of an area, as a place a person reads: "45.68° N, 111.05° W". */
export function boundsCentreText(bounds: Bounds): string {
  const [lat, lng] = boundsCentre(bounds);
  return `${degrees(lat, 'N', 'S')}, ${degrees(lng, 'E', 'W')}`;
}

/** [lat, lng] of an area's middle (an area across the antimeridian has west > east). */
export function boundsCentre([west, south, east, north]: Bounds): [number, number] {
  const width = east >= west ? east - west : east + 360 - west;
  let lng = west + width / 2;
  if (lng > 180) lng -= 360;
  return [(south + north) / 2, lng];
}

/** The map's view: west, south, east, north as Leaflet gives them (longitudes may run past ±180) and the zoom. */
export interface MapViewState {
  bounds: Bounds;
  zoom: number;
}

/** Whether two longitude spans overlap, either may run past ±180 or cross the antimeridian. */
function longitudesOverlap(viewWest: number, viewEast: number, west: number, east: number): boolean {
  if (viewEast - viewWest >= 360) return true;
  const width = east >= west ? east - west : east + 360 - west;
  for (const shift of [-720, -360, 0, 360, 720]) {
    const a = west + shift;
    if (a <= viewEast && a + width >= viewWest) return true;
  }
  return false;
}

export function viewIntersects(view: Bounds, bounds: Bounds): boolean {
  const [vw, vs, ve, vn] = view;
  const [w, s, e, n] = bounds;
  return vs <= n && vn >= s && longitudesOverlap(vw, ve, w, e);
}

/** Why the view shows nothing of this basemap ('area': elsewhere, 'zoom': too far out or in), or null. */
export function outsideOf(basemap: Pick<BasemapView, 'bounds' | 'minZoom' | 'maxZoom'>, view: MapViewState): 'area' | 'zoom' | null {
  if (basemap.bounds && !viewIntersects(view.bounds, basemap.bounds)) return 'area';
  const zoom = Math.round(view.zoom);
  if (zoom < basemap.minZoom || zoom > basemap.maxZoom) return 'zoom';
  return null;
}

/** "You are outside Bozeman: it covers zoom 8–14 around 45.68° N, 111.05° W." */
export function outsideSentence(basemap: Pick<BasemapView, 'name' | 'bounds' | 'minZoom' | 'maxZoom'>): string {
  const where = basemap.bounds ? ` around ${boundsCentreText(basemap.bounds)}` : '';
  return `You are outside ${basemap.name}: it covers ${zoomRangeText(basemap)}${where}.`;
}

const LATITUDE_LIMIT = 85.0511;

/**
 * The area of a view as a download asks for it: longitudes brought into −180…180 (a view wider than
 * the world is the world; one running past the antimeridian stops at it), latitudes within Web
 * Mercator's. Rounded to 6 decimals (about 10 cm): the plan and the download name the same area.
 */
export function downloadBounds([west, south, east, north]: Bounds): Bounds {
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const lat = (v: number) => round(Math.max(-LATITUDE_LIMIT, Math.min(LATITUDE_LIMIT, v)));
  if (east - west >= 360) return [-180, lat(south), 180, lat(north)];
  let w = west;
  while (w < -180) w += 360;
  while (w >= 180) w -= 360;
  const e = Math.min(180, w + (east - west));
  return [round(w), lat(south), round(e), lat(north)];
}

/** "1.2 GB", "340 MB", "12 kB": sizes as a person reads them (powers of 1024, as the cap is stated). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} ${value === 1 ? 'byte' : 'bytes'}`;
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** The zoom levels a download can choose from: the source's range, from where the view is. */
export function downloadZoomChoices(basemap: Pick<BasemapView, 'minZoom' | 'maxZoom'>, viewZoom: number): { from: number; choices: number[] } {
  const from = Math.max(basemap.minZoom, Math.min(basemap.maxZoom, Math.round(viewZoom)));
  const choices: number[] = [];
  for (let z = from; z <= basemap.maxZoom; z++) choices.push(z);
  return { from, choices };
}
