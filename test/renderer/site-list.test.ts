// The page loads its sites in the lean columnar form (listSitesPacked): unpacking must give back
// exactly the SiteViews the core built, whatever they hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSiteList, encodeSiteList, packSites, unpackSites, type SiteView } from '../../electron/shared/contract/index';
import { pinsFromColumns } from '../../renderer/src/map/column-pins';
import { toPin } from '../../renderer/src/map/site-pin';

const time = fc.oneof(fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => new Date(ms).toISOString()), fc.constantFrom('not a time', '2026-01-01T00:00:00Z'));
const site: fc.Arbitrary<SiteView> = fc.record({
  localId: fc.string(),
  siteId: fc.option(fc.string(), { nil: null }),
  profileId: fc.constantFrom('p1', 'p2'),
  origin: fc.constantFrom('created', 'existing', 'imported'),
  name: fc.string(),
  height: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  latitude: fc.option(fc.double({ min: -90, max: 90, noNaN: true }), { nil: null }),
  longitude: fc.option(fc.double({ min: -180, max: 180, noNaN: true }), { nil: null }),
  description: fc.string(),
  group: fc.constantFrom('', 'Town 1', 'Town 2'),
  pinStyle: fc.constantFrom(1, 2, 3) as fc.Arbitrary<SiteView['pinStyle']>,
  measurement: fc.option(
    fc.record({
      source: fc.constantFrom('device', 'gpsd', 'nmea'),
      quality: fc.constantFrom('gps', 'dgps', 'rtk-fixed'),
      fixes: fc.integer({ min: 1, max: 600 }),
      skipped: fc.nat({ max: 600 }),
      spreadEastM: fc.option(fc.double({ min: 0, max: 50, noNaN: true }), { nil: null }),
      spreadNorthM: fc.option(fc.double({ min: 0, max: 50, noNaN: true }), { nil: null }),
      accuracyM: fc.option(fc.double({ min: 0, max: 500, noNaN: true }), { nil: null }),
      accuracyEstimated: fc.boolean(),
      gateM: fc.constantFrom(1, 5, 10),
      overridden: fc.boolean(),
      at: time,
    }) as fc.Arbitrary<NonNullable<SiteView['measurement']>>,
    { nil: null },
  ),
  syncState: fc.constantFrom('synced', 'pending', 'failed', 'needs-review') as fc.Arbitrary<SiteView['syncState']>,
  lastError: fc.option(fc.record({ kind: fc.string(), message: fc.string(), detail: fc.string() }), { nil: null }),
  queued: fc.nat(),
  createdAt: time,
  updatedAt: time,
  revision: fc.nat(),
});

describe('the lean site list', () => {
  it('unpacks to exactly the views packed, in order, through JSON', () => {
    fc.assert(fc.property(fc.array(site, { maxLength: 30 }), (sites) => {
      const wire = JSON.parse(JSON.stringify(packSites(sites))) as ReturnType<typeof packSites>;
      expect(unpackSites(wire)).toEqual(JSON.parse(JSON.stringify(sites)));
    }), { numRuns: 300 });
  });

  it('gives the map, straight from its columns, exactly the pins of the views it unpacks to', () => {
    fc.assert(fc.property(fc.array(site, { maxLength: 30 }), (sites) => {
      const wire = JSON.parse(JSON.stringify(packSites(sites))) as ReturnType<typeof packSites>;
      expect(pinsFromColumns(wire)).toEqual(unpackSites(wire).flatMap((view) => toPin(view) ?? []));
    }), { numRuns: 300 });
  });

  it('comes back from its wire form exactly as packed, whatever repeats, counts up or breaks the pattern', () => {
    // Columns that repeat and count up (as an import's do), broken at random by other values.
    const counting = fc.tuple(fc.array(site, { minLength: 45, maxLength: 120 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 2 ** 53 })).map(([sites, step, start]) =>
      sites.map((s, k) => (k % 53 === 7 ? s : { ...s, siteId: String(start + step * k), revision: Math.abs(start + step * k), queued: 0, height: 20 + (k % 5), profileId: 'p1' })),
    );
    fc.assert(fc.property(fc.oneof(fc.array(site, { maxLength: 30 }), counting), (sites) => {
      const list = packSites(sites);
      const wire = JSON.parse(JSON.stringify(encodeSiteList(list))) as ReturnType<typeof encodeSiteList>;
      expect(decodeSiteList(wire)).toEqual(JSON.parse(JSON.stringify(list)));
      expect(unpackSites(decodeSiteList(wire))).toEqual(JSON.parse(JSON.stringify(sites)));
    }), { numRuns: 400 });
  });

  it('sends an import\'s mostly-equal columns once, and its counting ones as runs or differences', () => {
    const sites: SiteView[] = Array.from({ length: 1000 }, (_, k) => ({ localId: `local-${k}abcdefg`, siteId: String(100000 + k), profileId: 'p-bdde7be9', origin: 'created', name: `Tower ${k}`, height: 20 + (k % 80), latitude: 39.1234 + k / 1e4, longitude: -82.5 + k / 1e4, description: 'Imported', group: `Town ${k % 25}`, pinStyle: 1, measurement: null, syncState: 'synced', lastError: null, queued: 0, createdAt: new Date(1_795_000_000_000).toISOString(), updatedAt: new Date(1_795_000_000_000 + 3 * k + (k % 2)).toISOString(), revision: 2 * k + 1 }));
    const wire = encodeSiteList(packSites(sites));
    for (const column of ['siteId', 'profileId', 'origin', 'description', 'pinStyle', 'syncState', 'queued', 'createdAt', 'revision'] as const) expect(wire[column]).toEqual(expect.objectContaining({ runs: expect.any(Array) }));
    expect(wire.siteId).toEqual({ runs: [100000, 1, 1000], other: [] });
    expect(wire.revision).toEqual({ runs: [1, 2, 1000], other: [] });
    expect(wire.updatedAt).toEqual({ deltas: [1_795_000_000_000, ...Array.from({ length: 999 }, (_, k) => 3 + ((k + 1) % 2) - (k % 2))] });
    expect(JSON.stringify(wire).length).toBeLessThan(JSON.stringify(packSites(sites)).length * 0.6);
    expect(unpackSites(decodeSiteList(JSON.parse(JSON.stringify(wire)) as typeof wire))).toEqual(sites);
  });

  it('is much smaller than the views on the wire', () => {
    const sites: SiteView[] = Array.from({ length: 1000 }, (_, k) => ({ localId: `local-${k}abcdefg`, siteId: String(100000 + k), profileId: 'p-bdde7be9', origin: 'created', name: `Tower ${k}`, height: 20 + (k % 80), latitude: 39.1234 + k / 1e4, longitude: -82.5 + k / 1e4, description: 'Imported', group: `Town ${k % 25}`, pinStyle: 1, measurement: null, syncState: 'synced', lastError: null, queued: 0, createdAt: new Date(1_795_000_000_000 + k).toISOString(), updatedAt: new Date(1_795_000_000_000 + k).toISOString(), revision: k + 1 }));
    expect(JSON.stringify(packSites(sites)).length).toBeLessThan(JSON.stringify(sites).length / 2);
  });
});
