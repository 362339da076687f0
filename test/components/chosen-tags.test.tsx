// The "N selected" tags under clusters holding sites of the selection, on a real canvas: clusters
// close together would have their tags cover each other or a disc, so the one holding most of the
// selection keeps its tag and the other is left out (its ring still says it holds some); a tag over
// another cluster's disc is left out too; apart, every tag is drawn.
import { describe, expect, it } from 'vitest';
import { ChosenTags, type Holding } from '../../renderer/src/map/pins/chosen-tags';

function tags(): ChosenTags {
  const canvas = document.createElement('canvas');
  return new ChosenTags(canvas.getContext('2d')!);
}

const at = (x: number, y: number, held: number): Holding => ({ x, y, r: 18, held });

describe('the "N selected" tags under clusters', () => {
  it('leaves out a tag that would cover another, keeping the one that holds most of the selection', () => {
    // 50 px apart, as two clusters just apart are: "2 selected" and "12 selected" are wider than that.
    expect([...tags().place([at(100, 100, 2), at(150, 100, 12)])]).toEqual([1]);
    expect([...tags().place([at(100, 100, 12), at(150, 100, 2)])]).toEqual([0]);
    // The same count: the first cluster keeps its tag, whichever frame draws it.
    expect([...tags().place([at(100, 100, 3), at(150, 100, 3)])]).toEqual([0]);
  });

  it('leaves out a tag that would cover another cluster, selected or not', () => {
    // The cluster just below would have the tag over its number.
    expect(tags().place([at(100, 100, 2), at(100, 150, 0)]).size).toBe(0);
    expect([...tags().place([at(100, 100, 2), at(100, 150, 1)])]).toEqual([1]);
    // Three clusters overlapping one another (a screenshot's): every disc keeps the tags off, even one
    // that overlaps another disc; only the tag clear of them all is drawn.
    const crowd = [{ x: 897, y: 394, r: 18, held: 13 }, { x: 930, y: 407, r: 15, held: 4 }, { x: 948, y: 374, r: 15, held: 3 }];
    expect([...tags().place(crowd)]).toEqual([1]);
  });

  it('draws every tag that has room, and none for a cluster holding none of the selection', () => {
    const placed = tags().place([at(100, 100, 2), at(300, 100, 1), at(200, 100, 0), at(100, 220, 5)]);
    expect([...placed].sort()).toEqual([0, 1, 3]);
    expect(tags().place([at(100, 100, 0)]).size).toBe(0);
  });
});
