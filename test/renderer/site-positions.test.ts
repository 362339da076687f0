// The sites' positions the host answers beside the list (sitePositions), from which the cluster worker
// builds the first index before the list has arrived: they must be exactly the pins the map then makes
// from the list (the same located sites, in the same order, with the same marks), or the map would
// refuse the index every time; and a broken answer is refused with a sentence, not read as positions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSiteList, decodeSitePositions, encodeSiteList, encodeSitePositions, packSites, sitePositionsOf, type SiteView } from '../../electron/shared/contract/index';
import { SYNC_STATES } from '../../electron/shared/domain';
import { pinsFromColumns } from '../../renderer/src/map/column-pins';
import { positionsOf } from '../../renderer/src/map/pins/cluster-client';
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
  pinStyle: fc.constantFrom(1, 2, 3) as fc.Arbitrary<SiteView['pinStyle']>,
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

  it('read the same from a part of a larger buffer, at any offset', () => {
    const list = packSites([{ ...sample(), latitude: 45.1234567, longitude: -111.5 }, { ...sample(), latitude: null }, { ...sample(), latitude: -0.5, longitude: 179.9999999, syncState: 'needs-review' }]);
    const bytes = encodeSitePositions(sitePositionsOf(list));
    for (const offset of [0, 1, 3, 8]) {
      const carrier = new Uint8Array(bytes.length + offset + 5);
      carrier.set(bytes, offset);
      const read = decodeSitePositions(carrier.subarray(offset, offset + bytes.length));
      expect({ count: read.count, latitude: Array.from(read.latitude), longitude: Array.from(read.longitude), state: Array.from(read.state) }).toEqual({
        count: 2,
        latitude: [45.1234567, -0.5],
        longitude: [-111.5, 179.9999999],
        state: [SYNC_STATES.indexOf('synced'), SYNC_STATES.indexOf('needs-review')],
      });
    }
  });

  it('go as whole numbers of 10⁻⁷ degrees, 9 bytes a site, while every coordinate has 7 decimals or fewer; else all as doubles, still exact', () => {
    const rounded = [{ ...sample(), latitude: 45.1234567, longitude: -180 }, { ...sample(), latitude: -89.9999999, longitude: 179.9999999 }, { ...sample(), latitude: -0, longitude: 0.0000001 }];
    const scaled = encodeSitePositions(sitePositionsOf(packSites(rounded)));
    expect(scaled.byteLength).toBe(16 + 3 * 9);
    expect(Array.from(decodeSitePositions(scaled).latitude)).toEqual([45.1234567, -89.9999999, 0]);
    expect(Array.from(decodeSitePositions(scaled).longitude)).toEqual([-180, 179.9999999, 0.0000001]);
    const finer = [...rounded, { ...sample(), latitude: 45.12345678901, longitude: 1 / 3 }];
    const doubles = encodeSitePositions(sitePositionsOf(packSites(finer)));
    expect(doubles.byteLength).toBe(16 + 4 * 17);
    expect(Array.from(decodeSitePositions(doubles).latitude)).toEqual([45.1234567, -89.9999999, -0, 45.12345678901]);
    expect(Array.from(decodeSitePositions(doubles).longitude)).toEqual([-180, 179.9999999, 0.0000001, 1 / 3]);
  });

  it('refuses bytes that are not a positions answer, or are cut short, with a sentence', () => {
    const bytes = encodeSitePositions(sitePositionsOf(packSites([sample(), sample()])));
    expect(() => decodeSitePositions(new Uint8Array(3))).toThrow(/form this page does not read/);
    expect(() => decodeSitePositions(new TextEncoder().encode('{"value":[1,2,3]}'))).toThrow(/form this page does not read/);
    expect(() => decodeSitePositions(bytes.subarray(0, bytes.length - 1))).toThrow(/cut short or too long \(33 bytes for 2 sites\)/);
  });
});

function sample(): SiteView {
  return { localId: crypto.randomUUID(), siteId: null, profileId: 'p1', origin: 'created', name: 'Mast', height: 30, latitude: 40.5, longitude: -80.25, description: '', group: '', pinStyle: 1, measurement: null, syncState: 'synced', lastError: null, queued: 0, createdAt: '2026-11-26T07:00:00.000Z', updatedAt: '2026-11-26T07:00:00.000Z', revision: 1 };
}
