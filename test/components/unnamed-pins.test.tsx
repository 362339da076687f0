// Pins drawn from the host's positions before the list has arrived stand for no site yet: the pointer
// finds nothing on them (no menu, no hover, no selection of a site that is not there), while their
// clusters answer as usual; once they have learnt their sites in place, the same pins answer.
// And the layer's word that new pins are drawn, which the first load's panels wait for, comes when
// fitting the map to them drew them at once (it waited for a redraw no longer coming: 3 s).
import L from 'leaflet';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeSitePositions, decodeSitePositions, packSites, sitePositionsOf } from '../../electron/shared/contract/index';
import { identifyPins, pinsFromPositions } from '../../renderer/src/map/column-pins';
import { PinLayer } from '../../renderer/src/map/pins';
import { siteView } from './support/shell';

const SITES = [siteView({ localId: 'L1', name: 'North Mast', height: 20, latitude: 40.502, longitude: -80.202 }), siteView({ localId: 'L2', name: 'South Mast', height: 20, latitude: 40.498, longitude: -80.198 })];

let map: L.Map | null = null;
afterEach(() => {
  map?.remove();
  map = null;
  document.body.replaceChildren();
});

function mapOn(): L.Map {
  const element = document.body.appendChild(document.createElement('div'));
  element.style.cssText = 'width: 600px; height: 400px';
  map = L.map(element).setView([40.5, -80.2], 16);
  return map;
}

describe('pins drawn from positions', () => {
  it('answer the pointer only once they know their sites', async () => {
    const layer = new PinLayer();
    layer.addTo(mapOn());
    const list = packSites(SITES);
    const pins = pinsFromPositions(decodeSitePositions(encodeSitePositions(sitePositionsOf(list))));
    layer.setPins(pins);
    await layer.whenDrawn();
    const at = (pin: (typeof pins)[number]) => map!.latLngToContainerPoint([pin.lat, pin.lng]).subtract([0, 20]);
    const points = pins.map(at);
    // Drawn, each where its site is, but none of them is a site yet.
    expect(points.map((point) => layer.itemAt(point))).toEqual([null, null]);

    expect(identifyPins(pins, list)).toBe(true);
    await layer.identified();
    expect(points.map((point) => layer.itemAt(point)?.id)).toEqual(['L1', 'L2']);
    expect(layer.getPin('L2')?.title).toBe('South Mast');
  });
});

describe('new pins drawn', () => {
  it('are said to be drawn when fitting the map to them drew them at once', async () => {
    const on = mapOn();
    const layer = new PinLayer();
    layer.addTo(on);
    await layer.whenDrawn();
    const pins = pinsFromPositions(decodeSitePositions(encodeSitePositions(sitePositionsOf(packSites(SITES)))));
    layer.setPins(pins);
    // As the map does with the first load's pins: the fit's move draws them in this task.
    on.fitBounds(layer.getBounds()!.pad(0.05), { maxZoom: 15, animate: false });
    let drawn = false;
    void layer.whenDrawn().then(() => (drawn = true));
    await expect.poll(() => drawn, { message: 'the pins drawn by the fit to be said drawn' }).toBe(true);
  });
});
