// The pin layer's hit test: a press must find the pin under the finger — the nearest one where pins
// overlap, one reaching over a cell edge from either cell, with a margin for gloves — and nothing
// where no pin is drawn, including where a pin was drawn in the previous picture.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HitGrid } from '../../renderer/src/map/pins/hit-grid';

function grid(boxes: Array<[string, number, number, number, number]>, options = { slop: 5, cell: 48 }): HitGrid<string> {
  const hits = new HitGrid<string>(options);
  hits.begin(boxes.length);
  for (const [id, left, top, width, height] of boxes) hits.add(id, left, top, width, height);
  hits.end();
  return hits;
}

describe('finding the pin under a point', () => {
  it('finds a pin inside its box and within the slop margin, and nothing further out', () => {
    const hits = grid([['a', 100, 100, 42, 50]]);
    expect(hits.at(120, 120)).toBe('a');
    expect(hits.at(96, 148)).toBe('a');
    expect(hits.at(94, 120)).toBeNull();
    expect(hits.at(120, 156)).toBeNull();
  });

  it('picks the pin whose centre is nearest where pins overlap', () => {
    const hits = grid([
      ['west', 100, 100, 42, 50],
      ['east', 120, 100, 42, 50],
    ]);
    expect(hits.at(112, 125)).toBe('west');
    expect(hits.at(150, 125)).toBe('east');
  });

  it('picks the pin drawn last (on top) where two lie exactly on each other', () => {
    const hits = grid([
      ['under', 100, 100, 42, 50],
      ['over', 100, 100, 42, 50],
    ]);
    expect(hits.at(121, 125)).toBe('over');
  });

  it('finds a pin from every cell its box reaches into, also left of and above the canvas', () => {
    const hits = grid([['edge', -20, -30, 42, 50]]);
    expect(hits.at(-24, -34)).toBe('edge');
    expect(hits.at(26, 24)).toBe('edge');
    expect(hits.at(0, 0)).toBe('edge');
  });

  it('agrees with a scan of every box', () => {
    const box = fc.tuple(fc.integer({ min: -60, max: 600 }), fc.integer({ min: -60, max: 400 }), fc.integer({ min: 4, max: 60 }), fc.integer({ min: 4, max: 60 }));
    fc.assert(
      fc.property(fc.array(box, { maxLength: 40 }), fc.integer({ min: -70, max: 670 }), fc.integer({ min: -70, max: 470 }), (boxes, x, y) => {
        const hits = grid(boxes.map(([l, t, w, h], i) => [String(i), l, t, w, h]));
        const inside = boxes.some(([l, t, w, h]) => x >= l - 5 && x <= l + w + 5 && y >= t - 5 && y <= t + h + 5);
        expect(hits.at(x, y) !== null).toBe(inside);
      }),
    );
  });
});

describe('one picture at a time', () => {
  it('forgets the pins of the previous picture when a new one begins', () => {
    const hits = grid([['old', 100, 100, 42, 50]]);
    hits.begin(1);
    hits.add('new', 300, 100, 42, 50);
    hits.end();
    expect(hits.at(120, 120)).toBeNull();
    expect(hits.at(320, 120)).toBe('new');
    expect(hits.recorded).toEqual(['new']);
  });

  it('records no more pins than it was given room for', () => {
    const hits = new HitGrid<string>();
    hits.begin(1);
    hits.add('first', 0, 0, 10, 10);
    hits.add('second', 100, 100, 10, 10);
    hits.end();
    expect(hits.recorded).toEqual(['first']);
    expect(hits.at(105, 105)).toBeNull();
  });
});
