// The page asks its own host for tiles, and the address changes with the tile server so the
// browser's cache never serves one server's tile for another's.
import { describe, expect, it } from 'vitest';
import { hostTileUrl, templateKey } from '../../renderer/src/map/tile-url';

describe('the map tile address', () => {
  it('is the host tile route, relative to the page, with a key of the tile server', () => {
    const url = hostTileUrl('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(url).toMatch(/^tiles\/\{z\}\/\{x\}\/\{y\}\?v=[0-9a-z]+$/);
    // Only Leaflet's three placeholders: nothing else in braces for it to choke on.
    expect(url.match(/\{[^}]*\}/g)).toEqual(['{z}', '{x}', '{y}']);
  });

  it('changes with the tile server and not with surrounding spaces', () => {
    const osm = templateKey('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(templateKey('  https://tile.openstreetmap.org/{z}/{x}/{y}.png ')).toBe(osm);
    const others = ['https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org/{z}/{x}/{y}.jpg', 'https://maps.example.net/{z}/{x}/{y}.png'].map(templateKey);
    expect(new Set([osm, ...others]).size).toBe(4);
  });
});
