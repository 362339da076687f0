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
