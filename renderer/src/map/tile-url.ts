// Where the page loads map tiles: from its own host (tiles/{z}/{x}/{y}, relative to the page, which
// both hosts serve with base './'), never from the tile server itself. The host fetches them and
// keeps them for offline use. The query names the tile server (a short hash of the template), so
// the browser's own cache never mixes the tiles of two servers after the setting changes.

/** FNV-1a, 32 bits, in base 36: short, stable, and enough to tell a handful of templates apart. */
export function templateKey(template: string): string {
  let hash = 0x811c9dc5;
  for (const char of template.trim()) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** The Leaflet URL template of the host's tile route for a tile server template. */
export function hostTileUrl(template: string): string {
  return `tiles/{z}/{x}/{y}?v=${templateKey(template)}`;
}
