// Tile coordinates: how the hosts read them from a request path (/tiles/{z}/{x}/{y}) and how they
// fill a tile server's URL template. Only whole numbers in range pass (0 ≤ z ≤ 22, 0 ≤ x, y < 2^z),
// so nothing a page sends ever reaches a file name or an upstream URL unchecked.

export interface TileCoords {
  z: number;
  x: number;
  y: number;
}

export const MAX_TILE_ZOOM = 22;

export function validCoords(coords: TileCoords): boolean {
  const { z, x, y } = coords;
  if (![z, x, y].every((value) => Number.isSafeInteger(value))) return false;
  if (z < 0 || z > MAX_TILE_ZOOM) return false;
  const size = 2 ** z;
  return x >= 0 && x < size && y >= 0 && y < size;
}

// Digits only: no sign, no decimal point, no exponent, no encoding tricks. 2^22 has 7 digits.
const TILE_PATH = /^\/tiles\/(\d{1,3})\/(\d{1,8})\/(\d{1,8})$/;

/** The coordinates in a host path like `/tiles/5/10/12`, or null when the path is not of that shape. */
export function parseTilePath(path: string): TileCoords | null {
  const match = TILE_PATH.exec(path);
  if (!match) return null;
  return { z: Number(match[1]), x: Number(match[2]), y: Number(match[3]) };
}

/**
 * The upstream URL of one tile, filled the way Leaflet fills a template: {z} {x} {y}, {s} a
 * subdomain picked from x and y (so one tile always goes to the same one), {r} empty (no retina
 * tiles), {-y} the TMS row. Null when the template holds a placeholder Leaflet would not fill.
 */
export function fillTemplate(template: string, coords: TileCoords, subdomains: string): string | null {
  const { z, x, y } = coords;
  const values: Record<string, string> = {
    z: String(z),
    x: String(x),
    y: String(y),
    '-y': String(2 ** z - 1 - y),
    r: '',
  };
  if (subdomains.length > 0) values['s'] = subdomains[Math.abs(x + y) % subdomains.length]!;
  let unknown = false;
  const url = template.trim().replace(/\{ *([\w-]+) *\}/g, (_match, key: string) => {
    if (Object.hasOwn(values, key)) return values[key]!;
    unknown = true;
    return '';
  });
  return unknown ? null : url;
}

/** The tiles of zoom z that cover a west/south/east/north box (Web Mercator, rows from the north). */
export interface TileRange {
  z: number;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

const MAX_MERCATOR_LAT = 85.0511287798;

export function tileRange(bounds: readonly [number, number, number, number], z: number): TileRange {
  const [west, south, east, north] = bounds;
  const size = 2 ** z;
  const column = (lon: number) => Math.min(size - 1, Math.max(0, Math.floor(((lon + 180) / 360) * size)));
  const row = (lat: number) => {
    const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
    const radians = (clamped * Math.PI) / 180;
    const y = ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * size;
    return Math.min(size - 1, Math.max(0, Math.floor(y)));
  };
  return { z, xMin: column(west), xMax: column(east), yMin: row(north), yMax: row(south) };
}

export function rangeCount(range: TileRange): number {
  return Math.max(0, range.xMax - range.xMin + 1) * Math.max(0, range.yMax - range.yMin + 1);
}

export function inRange(range: TileRange, coords: TileCoords): boolean {
  return coords.z === range.z && coords.x >= range.xMin && coords.x <= range.xMax && coords.y >= range.yMin && coords.y <= range.yMax;
}
