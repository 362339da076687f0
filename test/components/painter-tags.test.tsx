// The pin painter on a real canvas, for the "N selected" tags under clusters across a pan: a pan that
// keeps the same tags shifts the picture and draws only the uncovered strips; one that brings in a
// cluster taking a drawn tag's room draws the frame whole, so no cut-off tag is left in the shifted
// part (and so does one that frees a tag).
import { describe, expect, it } from 'vitest';
import type { ClusterMark } from '../../renderer/src/map/pins/clusters';
import { HitGrid } from '../../renderer/src/map/pins/hit-grid';
import { PinPainter, type Frame, type ProjectedClusters } from '../../renderer/src/map/pins/painter';
import type { Pin } from '../../renderer/src/map/pins/types';
import { loadSprites } from '../../renderer/src/shared/sprites';

const W = 800;
const H = 500;

const cluster = (id: number, count: number): ClusterMark => ({ kind: 'cluster', id, count, lat: 0, lng: 0, south: 0, west: 0, north: 0, east: 0, pending: 0, failed: 0, review: 0 });

/** Two clusters in world pixels: one holding 123 selected sites near the right edge, the other just beyond it. */
const CLUSTERS: ProjectedClusters = { marks: [cluster(1, 200), cluster(2, 50)], x: [800, 861], y: [250, 260] };
const HELD = new Map([[1, 123]]);

function frame(minX: number): Frame {
  return {
    width: W,
    height: H,
    minX,
    minY: 0,
    offsetX: -minX,
    offsetY: 0,
    zoom: 8,
    selectedId: null,
    movableId: null,
    hiddenId: null,
    preview: null,
    chosenIn: (mark) => HELD.get(mark.id) ?? 0,
    mayShift: true,
    labels: false,
  };
}

async function painter() {
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  const sprites = await loadSprites(1);
  const paint = new PinPainter(canvas, canvas.getContext('2d')!, { compactAbove: 5_000, compactBelowZoom: 0 });
  const projected = { pins: [] as Pin[], x: new Float64Array(0), y: new Float64Array(0) };
  return (minX: number) => paint.paint(projected, sprites, frame(minX), new HitGrid<Pin | ClusterMark>(), CLUSTERS);
}

describe('"N selected" tags across a pan', () => {
  it('shifts the picture while the tags stay the same, and draws the frame whole when a pan changes them', async () => {
    const paint = await painter();
    // The second cluster (x 861) is beyond the drawn margin (60 px): the first's tag has room.
    expect(paint(0)).toMatchObject({ full: true, chosenTags: 1 });
    expect(paint(-2)).toMatchObject({ full: false, chosenTags: 1 });
    // 5 px on, the second cluster comes within the margin, and its disc takes the tag's room.
    expect(paint(5)).toMatchObject({ full: true, chosenTags: 0 });
    expect(paint(6)).toMatchObject({ full: false, chosenTags: 0 });
    // Back: the tag is free again, and drawn whole, not in the strip alone.
    expect(paint(-2)).toMatchObject({ full: true, chosenTags: 1 });
  });
});
