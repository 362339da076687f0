// Add-site mode on the real map: the map's click is the new site's place, and so is a click that
// lands on a pin (towers stand side by side: the pin's hit area must not turn the place into a
// selection); without the mode, the same click selects that site.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { InteractionStore } from '../../renderer/src/map/tools/interaction-store';
import { renderWithHost, siteView } from './support/shell';
import { mapElement, TestMap } from './support/test-map';

const RIDGE = siteView({ localId: 'L1', name: 'Ridge', height: 30, latitude: 40.5, longitude: -80.25 });

function MapInAddMode({ picks, selected, adding }: { picks: string[]; selected: string[]; adding: boolean }) {
  const [interaction] = useState(() => {
    const store = new InteractionStore();
    if (adding) store.dispatch({ type: 'start-add', purpose: 'new' });
    return store;
  });
  return (
    <div style={{ width: 800, height: 460, position: 'relative' }}>
      <TestMap interaction={interaction} onPick={(lat, lng) => picks.push(`${lat.toFixed(6)},${lng.toFixed(6)}`)} onSelect={(id) => selected.push(id)} />
    </div>
  );
}

async function clickBesideThePin(adding: boolean) {
  if (!document.getElementById('map-height')) document.head.insertAdjacentHTML('beforeend', '<style id="map-height">[data-testid="map"] { height: 460px; }</style>');
  const picks: string[] = [];
  const selected: string[] = [];
  await renderWithHost({ sites: [RIDGE] }, () => <MapInAddMode picks={picks} selected={selected} adding={adding} />);
  await expect.poll(() => mapElement()?.dataset['pinsOnMap'], { message: 'the pin drawn' }).toBe('1');
  // One site: the map is centred on it. A click 4 px to its right is inside the pin's hit area.
  const box = mapElement().getBoundingClientRect();
  await page.elementLocator(mapElement()).click({ position: { x: box.width / 2 + 4, y: box.height / 2 } });
  return { picks, selected };
}

describe('add-site mode', () => {
  it('takes a click on a pin as the new site\'s place, where the click was, not as a selection', async () => {
    const { picks, selected } = await clickBesideThePin(true);
    await expect.poll(() => picks.length, { message: 'the place picked' }).toBe(1);
    expect(selected).toEqual([]);
    const [lat, lng] = picks[0]!.split(',').map(Number);
    expect(lat).toBeCloseTo(40.5, 2);
    // Where the pointer was: east of the pin, not on it.
    expect(lng!).toBeGreaterThan(-80.25);
  });

  it('without the mode, the same click selects the site', async () => {
    const { picks, selected } = await clickBesideThePin(false);
    await expect.poll(() => selected, { message: 'the site selected' }).toEqual(['L1']);
    expect(picks).toEqual([]);
  });
});
