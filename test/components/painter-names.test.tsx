// The pin painter on a real canvas, for site names: from the names' zoom on every pin with room is
// named; below it none is, but the selected site still is, so a crew sees which pin its card is about.
import { describe, expect, it } from 'vitest';
import type { ClusterMark } from '../../renderer/src/map/pins/clusters';
import { HitGrid } from '../../renderer/src/map/pins/hit-grid';
import { PinPainter, type Frame } from '../../renderer/src/map/pins/painter';
import type { Pin } from '../../renderer/src/map/pins/types';
import { loadSprites } from '../../renderer/src/shared/sprites';

const W = 600;
const H = 400;

const PINS: Pin[] = [
  { id: 'a', lat: 0, lng: 0, style: 1, mark: 'none', title: 'Ridge' },
  { id: 'b', lat: 0, lng: 0, style: 2, mark: 'none', title: 'Valley' },
];

function frame(labels: boolean, selectedId: string | null): Frame {
  return { width: W, height: H, minX: 0, minY: 0, offsetX: 0, offsetY: 0, zoom: labels ? 15 : 9, selectedId, movableId: null, hiddenId: null, preview: null, chosenIn: null, mayShift: false, labels };
}

async function paint(labels: boolean, selectedId: string | null) {
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  const painter = new PinPainter(canvas, canvas.getContext('2d')!, { compactAbove: 5_000, compactBelowZoom: 0 });
  const projected = { pins: PINS, x: new Float64Array([150, 400]), y: new Float64Array([200, 200]) };
  return painter.paint(projected, await loadSprites(1), frame(labels, selectedId), new HitGrid<Pin | ClusterMark>(), null);
}

describe('site names on the map', () => {
  it('names every pin from the names\' zoom on, and below it only the selected one', async () => {
    expect(await paint(true, null)).toMatchObject({ names: 2 });
    expect(await paint(false, null)).toMatchObject({ names: 0 });
    expect(await paint(false, 'b')).toMatchObject({ names: 1 });
  });
});
