// Pins drawn from the host's positions before the list has arrived stand for no site yet: the pointer
// finds nothing on them (no menu, no hover, no selection of a site that is not there), while their
// clusters answer as usual; once they have learnt their sites in place, the same pins answer.
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

describe('pins drawn from positions', () => {
  it('answer the pointer only once they know their sites', async () => {
    const element = document.body.appendChild(document.createElement('div'));
    element.style.cssText = 'width: 600px; height: 400px';
    map = L.map(element).setView([40.5, -80.2], 16);
    const layer = new PinLayer();
    layer.addTo(map);
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
