// The small geometry behind the map: the offline grid's spacing and labels, and the strips a pan
// uncovers (the only parts the pin canvas redraws after a pan, so a wrong strip is a missing pin).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatGridLabel, gridStep, uncovered } from '../../renderer/src/map/geometry';

describe('the offline coordinate grid', () => {
  it('keeps grid lines at least ~120 px apart at every zoom, and not absurdly sparse', () => {
    for (let zoom = 0; zoom <= 19; zoom++) {
      const step = gridStep(zoom);
      const pixels = (step / 360) * 256 * 2 ** zoom;
      expect(pixels, `zoom ${zoom}`).toBeGreaterThanOrEqual(zoom === 0 ? 0 : 119);
      if (zoom >= 2) expect(pixels, `zoom ${zoom}`).toBeLessThan(400);
    }
  });

  it('labels lines with a hemisphere and as many decimals as the spacing needs', () => {
    expect(formatGridLabel(40.25, 'lat', 0.25)).toBe('40.25°N');
    expect(formatGridLabel(-79.5, 'lon', 0.5)).toBe('79.5°W');
    expect(formatGridLabel(0, 'lon', 10)).toBe('0°');
    expect(formatGridLabel(-33, 'lat', 1)).toBe('33°S');
  });
});

describe('what a pan uncovers on the pin canvas', () => {
  it('covers exactly the area the shifted picture leaves empty', () => {
    fc.assert(
      fc.property(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -200, max: 200 }), (dx, dy) => {
        const w = 640;
        const h = 400;
        const strips = uncovered(dx, dy, w, h);
        // Sample points: a point needs redrawing iff the old picture (shifted by -dx,-dy) does not cover it.
        for (let x = 0.5; x < w; x += 37) {
          for (let y = 0.5; y < h; y += 29) {
            const oldX = x + dx;
            const oldY = y + dy;
            const coveredByOld = oldX >= 0 && oldX < w && oldY >= 0 && oldY < h;
            const inStrip = strips.some((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h);
            expect(inStrip).toBe(!coveredByOld);
          }
        }
      }),
    );
  });
});
