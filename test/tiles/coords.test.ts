// Tile coordinates as the map and the hosts write them: a server template filled the way Leaflet
// fills it, and a host path read back into z/x/y.
import { describe, expect, it } from 'vitest';
import { fillTemplate, parseTilePath } from '../../electron/core/tiles';

describe('tile coordinates', () => {
  it('fills a template the way Leaflet does', () => {
    expect(fillTemplate('https://{s}.tile.example.org/{z}/{x}/{y}{r}.png', { z: 3, x: 4, y: 2 }, 'abc')).toBe('https://a.tile.example.org/3/4/2.png');
    expect(fillTemplate('https://{s}.tile.example.org/{z}/{x}/{y}.png', { z: 3, x: 4, y: 3 }, 'abc')).toBe('https://b.tile.example.org/3/4/3.png');
    expect(fillTemplate('https://tms.example.org/{z}/{x}/{-y}.png', { z: 3, x: 4, y: 2 }, 'abc')).toBe('https://tms.example.org/3/4/5.png');
    expect(fillTemplate('https://tiles.example.org/{z}/{x}/{y}.png?key={apikey}', { z: 1, x: 0, y: 0 }, 'abc')).toBeNull();
  });

  it('reads coordinates from a host path', () => {
    expect(parseTilePath('/tiles/5/10/12')).toEqual({ z: 5, x: 10, y: 12 });
    expect(parseTilePath('/tiles/5/10')).toBeNull();
  });
});
