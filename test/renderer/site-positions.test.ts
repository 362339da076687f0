// The sites' positions the host answers beside the list (sitePositions), from which the cluster worker
// builds the first index and the map draws its first pins before the list has arrived: they must be
// exactly the pins the map then makes from the list (the same located sites, in the same order, with
// the same marks and styles), or the map would refuse the index and draw again every time; the pins
// drawn from them learn their sites from the list in place, or are replaced when a site changed; and
// a broken answer is refused with a sentence, not read as positions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSiteList, decodeSitePositions, encodeSiteList, encodeSitePositions, packSites, sitePositionsOf, type SiteView } from '../../electron/shared/contract/index';
import { SYNC_STATES } from '../../electron/shared/domain';
import { identifyPins, pinsFromColumns, pinsFromPositions } from '../../renderer/src/map/column-pins';
import { isUnnamed, type Pin } from '../../renderer/src/map/pins/types';
import { positionsOf } from '../../renderer/src/map/pins/cluster-protocol';
import { workerPositions } from '../../renderer/src/map/pins/cluster-early';

const coordinate = (limit: number) => fc.oneof(fc.double({ min: -limit, max: limit, noNaN: true }), fc.integer({ min: -limit * 1e7, max: limit * 1e7 }).map((n) => n / 1e7));
const site: fc.Arbitrary<SiteView> = fc.record({
  localId: fc.uuid(),
  siteId: fc.option(fc.nat().map(String), { nil: null }),
  profileId: fc.constant('p1'),
  origin: fc.constantFrom('created', 'existing', 'imported'),
  name: fc.string({ maxLength: 8 }),
  height: fc.option(fc.integer({ min: 1, max: 300 }), { nil: null }),
  // Sites without a position, and with only half of one, are not pins.
  latitude: fc.option(coordinate(90), { nil: null, freq: 4 }),
  longitude: fc.option(coordinate(180), { nil: null, freq: 4 }),
  description: fc.constant(''),
  group: fc.constantFrom('', 'Town 1'),
  pinStyle: fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<SiteView['pinStyle']>,
  measurement: fc.constant(null),
  syncState: fc.constantFrom(...SYNC_STATES),
  lastError: fc.constant(null),
  queued: fc.nat({ max: 3 }),
  createdAt: fc.constant('2026-11-26T07:00:00.000Z'),
  updatedAt: fc.constant('2026-11-26T07:00:00.000Z'),
  revision: fc.nat(),
});

/** As takeEarly compares them: number by number (so 0 and -0, which JSON does not keep apart, are one). */
function sameNumbers(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.from(a).every((value, k) => value === b[k]);
}

describe('the sites\' positions beside the list', () => {
  it('are, through their bytes, exactly the pins the map makes from the list the page decodes', () => {
    fc.assert(
      fc.property(fc.array(site, { maxLength: 60 }), (sites) => {
        const list = packSites(sites);
        // What the page reads: the list through its wire form and JSON; the positions through their bytes.
        const fromList = positionsOf(pinsFromColumns(decodeSiteList(JSON.parse(JSON.stringify(encodeSiteList(list))) as ReturnType<typeof encodeSiteList>)));
        const fromHost = workerPositions(decodeSitePositions(encodeSitePositions(sitePositionsOf(list))));
        expect(fromHost.lat.length).toBe(sites.filter((s) => s.latitude !== null && s.longitude !== null).length);
        expect(sameNumbers(fromHost.lat, fromList.lat)).toBe(true);
        expect(sameNumbers(fromHost.lng, fromList.lng)).toBe(true);
        expect(Array.from(fromHost.marks)).toEqual(Array.from(fromList.marks));
      }),
      { numRuns: 300 },
    );
  });

  it('draw, as pins, what the list\'s pins are, and those pins learn their sites from the list in place', () => {
    fc.assert(
      fc.property(fc.array(site, { maxLength: 60 }), (sites) => {
        const list = packSites(sites);
        const drawn = pinsFromPositions(decodeSitePositions(encodeSitePositions(sitePositionsOf(list))));
        expect(drawn.every(isUnnamed)).toBe(true);
        const decoded = decodeSiteList(JSON.parse(JSON.stringify(encodeSiteList(list))) as ReturnType<typeof encodeSiteList>);
        const before = drawn.slice();
        expect(identifyPins(drawn, decoded)).toBe(true);
        // The very pins drawn, now each the pin the list makes: ID, title, place, mark and style (a place
        // of -0 is 0's: JSON does not keep them apart, and neither does the map).
        expect(drawn.every((pin, k) => pin === before[k])).toBe(true);
        const same = (pin: Pin) => ({ ...pin, lat: pin.lat + 0, lng: pin.lng + 0 });
        expect(drawn.map(same)).toEqual(pinsFromColumns(decoded).map(same));
      }),
      { numRuns: 200 },
    );
  });

  it('leave the pins drawn from them untouched when a site changed before the list came: the list\'s pins replace them', () => {
    const sites = [sample(), { ...sample(), pinStyle: 2 as const }, { ...sample(), latitude: null }, sample()];
    const drawnFrom = packSites(sites);
    for (const changed of [
      { ...sites[1]!, latitude: 41 },
      { ...sites[1]!, syncState: 'pending' as const },
      { ...sites[1]!, pinStyle: 3 as const },
    ]) {
      const drawn = pinsFromPositions(decodeSitePositions(encodeSitePositions(sitePositionsOf(drawnFrom))));
      const copy = structuredClone(drawn);
      expect(identifyPins(drawn, packSites([sites[0]!, changed, sites[2]!, sites[3]!]))).toBe(false);
      expect(drawn).toEqual(copy);
    }
    // A site more or less (one added, one without a position any more) is not the same pins either.
    const drawn = pinsFromPositions(decodeSitePositions(encodeSitePositions(sitePositionsOf(drawnFrom))));
    expect(identifyPins(drawn, packSites([...sites, sample()]))).toBe(false);
    expect(identifyPins(drawn, packSites([sites[0]!, sites[1]!, sites[2]!, { ...sites[3]!, longitude: null }]))).toBe(false);
    expect(drawn.every(isUnnamed)).toBe(true);
  });

  it('read the same from a part of a larger buffer, at any offset', () => {
    const list = packSites([{ ...sample(), latitude: 45.1234567, longitude: -111.5 }, { ...sample(), latitude: null }, { ...sample(), latitude: -0.5, longitude: 179.9999999, syncState: 'needs-review', pinStyle: 4 }]);
    const bytes = encodeSitePositions(sitePositionsOf(list));
    for (const offset of [0, 1, 3, 8]) {
      const carrier = new Uint8Array(bytes.length + offset + 5);
      carrier.set(bytes, offset);
      const read = decodeSitePositions(carrier.subarray(offset, offset + bytes.length));
      expect({ count: read.count, latitude: Array.from(read.latitude), longitude: Array.from(read.longitude), state: Array.from(read.state), style: Array.from(read.style) }).toEqual({
        count: 2,
        latitude: [45.1234567, -0.5],
        longitude: [-111.5, 179.9999999],
        state: [SYNC_STATES.indexOf('synced'), SYNC_STATES.indexOf('needs-review')],
        style: [1, 4],
      });
    }
  });

  it('go as whole numbers of 10⁻⁷ degrees, 10 bytes a site, while every coordinate has 7 decimals or fewer; else all as doubles, still exact', () => {
    const rounded = [{ ...sample(), latitude: 45.1234567, longitude: -180 }, { ...sample(), latitude: -89.9999999, longitude: 179.9999999 }, { ...sample(), latitude: -0, longitude: 0.0000001 }];
    const scaled = encodeSitePositions(sitePositionsOf(packSites(rounded)));
    expect(scaled.byteLength).toBe(16 + 3 * 10);
    expect(Array.from(decodeSitePositions(scaled).latitude)).toEqual([45.1234567, -89.9999999, 0]);
    expect(Array.from(decodeSitePositions(scaled).longitude)).toEqual([-180, 179.9999999, 0.0000001]);
    const finer = [...rounded, { ...sample(), latitude: 45.12345678901, longitude: 1 / 3 }];
    const doubles = encodeSitePositions(sitePositionsOf(packSites(finer)));
    expect(doubles.byteLength).toBe(16 + 4 * 18);
    expect(Array.from(decodeSitePositions(doubles).latitude)).toEqual([45.1234567, -89.9999999, -0, 45.12345678901]);
    expect(Array.from(decodeSitePositions(doubles).longitude)).toEqual([-180, 179.9999999, 0.0000001, 1 / 3]);
  });

  it('refuses bytes that are not a positions answer, or are cut short, with a sentence', () => {
    const bytes = encodeSitePositions(sitePositionsOf(packSites([sample(), sample()])));
    expect(() => decodeSitePositions(new Uint8Array(3))).toThrow(/form this page does not read/);
    expect(() => decodeSitePositions(new TextEncoder().encode('{"value":[1,2,3]}'))).toThrow(/form this page does not read/);
    expect(() => decodeSitePositions(bytes.subarray(0, bytes.length - 1))).toThrow(/cut short or too long \(35 bytes for 2 sites\)/);
  });
});

function sample(): SiteView {
  return { localId: crypto.randomUUID(), siteId: null, profileId: 'p1', origin: 'created', name: 'Mast', height: 30, latitude: 40.5, longitude: -80.25, description: '', group: '', pinStyle: 1, measurement: null, syncState: 'synced', lastError: null, queued: 0, createdAt: '2026-11-26T07:00:00.000Z', updatedAt: '2026-11-26T07:00:00.000Z', revision: 1 };
}
