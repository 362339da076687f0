// Box select on the real map: the Select tool (a plain drag draws the box, Esc leaves the tool), and
// without it the quick gesture (Shift-drag); a plain drag without the tool pans and selects nothing.
// The selection is the shared one (features/selection), handed to the map by the shell's hook.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { InteractionStore } from '../../renderer/src/map/tools/interaction-store';
import { SelectionContext, SelectionStore, useMapSelection } from '../../renderer/src/features/selection';
import { renderWithHost, siteView } from './support/shell';
import { mapElement, TestMap } from './support/test-map';

const SITES = [
  siteView({ localId: 'L1', name: 'Ridge', height: 30, latitude: 40.5, longitude: -80.25 }),
  siteView({ localId: 'L2', name: 'Valley', height: 20, latitude: 40.52, longitude: -80.2 }),
  siteView({ localId: 'L3', name: 'Hill', height: 25, latitude: 40.48, longitude: -80.22 }),
];

function MapWithSelection() {
  const [interaction] = useState(() => new InteractionStore());
  const selection = useMapSelection();
  return (
    <div style={{ width: 800, height: 500, display: 'flex', flexDirection: 'column' }}>
      <div style={{ position: 'relative', flex: 1 }}>
        <TestMap interaction={interaction} {...selection} />
      </div>
    </div>
  );
}

/** A mouse drag across the map from one fraction of its box to another, as a hand would make it. */
function drag(from: [number, number], to: [number, number], keys: { shiftKey?: boolean } = {}): void {
  const box = mapElement().getBoundingClientRect();
  const at = ([fx, fy]: [number, number]) => ({ clientX: box.left + box.width * fx, clientY: box.top + box.height * fy });
  const target = mapElement().querySelector('.leaflet-pane') ?? mapElement();
  target.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 0, ...keys, ...at(from) }));
  for (let step = 1; step <= 4; step++) {
    const f: [number, number] = [from[0] + ((to[0] - from[0]) * step) / 4, from[1] + ((to[1] - from[1]) * step) / 4];
    target.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, cancelable: true, ...keys, ...at(f) }));
  }
  target.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, cancelable: true, button: 0, ...keys, ...at(to) }));
}

async function setup() {
  // The app's stylesheet gives the map its height; here a rule does, before the map first fits its sites.
  if (!document.getElementById('map-height')) document.head.insertAdjacentHTML('beforeend', '<style id="map-height">[data-testid="map"] { height: 460px; }</style>');
  const selection = new SelectionStore();
  const rendered = await renderWithHost({ sites: SITES }, () => (
    <SelectionContext.Provider value={selection}>
      <MapWithSelection />
    </SelectionContext.Provider>
  ));
  await expect.poll(() => mapElement()?.dataset['pinsOnMap'], { message: 'the pins drawn' }).toBe('3');
  return { ...rendered, selection, select: rendered.screen.getByRole('button', { name: 'Select', exact: true }) };
}

const chosen = (selection: SelectionStore) => [...selection.get().ids].sort();

describe('box select on the map', () => {
  it('with the Select tool a plain drag selects the sites in the box; Esc leaves the tool', async () => {
    const { screen, selection, select } = await setup();
    await select.click();
    await expect.element(select).toHaveAttribute('aria-pressed', 'true');
    await expect.element(screen.getByText(/Drag a box over sites/)).toBeVisible();
    expect(mapElement().classList.contains('selecting')).toBe(true);
    drag([0.02, 0.02], [0.98, 0.98]);
    await expect.poll(() => chosen(selection)).toEqual(['L1', 'L2', 'L3']);
    // A smaller box replaces the selection.
    drag([0.02, 0.02], [0.03, 0.03]);
    await expect.poll(() => chosen(selection)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await expect.element(select).toHaveAttribute('aria-pressed', 'false');
    expect(mapElement().classList.contains('selecting')).toBe(false);
  });

  it('without the tool, a plain drag selects nothing and a Shift-drag selects the box', async () => {
    const { selection } = await setup();
    // A short plain drag: the map pans a little, and nothing is selected.
    drag([0.45, 0.45], [0.5, 0.5]);
    expect(chosen(selection)).toEqual([]);
    expect(document.querySelector('.select-box')).toBeNull();
    drag([0.02, 0.02], [0.98, 0.98], { shiftKey: true });
    await expect.poll(() => chosen(selection)).toEqual(['L1', 'L2', 'L3']);
  });
});
