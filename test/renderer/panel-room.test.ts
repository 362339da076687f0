// My location's panel grows upwards from the map's bottom-right stack: up to the map's top, but not
// over a control at the top that stands in its columns (the basemap button beside the docked form).
import { describe, expect, it } from 'vitest';
import { panelRoom, type Box } from '../../renderer/src/features/location/panel-room';

const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom });
const panel = box(390, 0, 630, 400);

describe('the room My location’s panel may take', () => {
  it('reaches the map’s top when nothing stands above it', () => {
    expect(panelRoom(panel, 50, [], 120)).toBe(342);
  });

  it('stops under the lowest control above it in its columns, and ignores those beside it, below it or hidden', () => {
    const basemapButton = box(400, 155, 440, 195);
    const zoom = box(400, 60, 440, 140);
    const besideOnTheLeft = box(300, 50, 380, 300);
    const belowIt = box(400, 420, 600, 460);
    const hidden = box(0, 0, 0, 0);
    expect(panelRoom(panel, 50, [zoom, basemapButton, besideOnTheLeft, belowIt, hidden], 120)).toBe(197);
  });

  it('keeps a least height to scroll in when the controls leave less', () => {
    expect(panelRoom(panel, 50, [box(400, 100, 500, 350)], 120)).toBe(120);
  });
});
