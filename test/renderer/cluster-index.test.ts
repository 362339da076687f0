// The cluster index built in the worker and sent to the page as buffers is the index the page would
// have built: every zoom's clusters and pins, each cluster's count, centre, box and badges, its members
// and the zoom it splits at are the same; and each cluster's box and badges are its members'.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, buildIndexOf, northFirst, northFirstOrder, packIndex, transferables, unpackIndex, type ClusterIndex, type Summary } from '../../renderer/src/map/pins/cluster-index';
import { positionsOf, type ClusterOptions } from '../../renderer/src/map/pins/cluster-protocol';
import { CLUSTER_DEFAULTS } from '../../renderer/src/map/pins/clusters';
import type { Pin } from '../../renderer/src/map/pins/types';

const MARKS: Pin['mark'][] = ['none', 'none', 'none', 'pending', 'failed', 'review'];

/** Towers around 40 towns, some sharing a position or a latitude, with every state badge. */
function towers(count: number): Pin[] {
  return Array.from({ length: count }, (_, k) => {
    const town = k % 40;
    return {
      id: `s${k}`,
      lat: 38 + (town % 8) * 0.7 + ((k * 7919) % 4001) / 6000,
      lng: -100 + Math.floor(town / 8) * 1.1 + ((k * 104729) % 3989) / 4000,
      style: 1 as const,
      mark: MARKS[(k * 31) % MARKS.length]!,
      title: `Tower ${k}`,
    };
  });
}

/** A cluster's summary worked out from its members alone. */
function summaryOf(members: readonly Pin[]): Summary {
  const lats = members.map((pin) => pin.lat);
  const lngs = members.map((pin) => pin.lng);
  const count = (mark: Pin['mark']) => members.filter((pin) => pin.mark === mark).length;
  return { south: Math.min(...lats), west: Math.min(...lngs), north: Math.max(...lats), east: Math.max(...lngs), pending: count('pending'), failed: count('failed'), review: count('review') };
}

/** What a query shows of an index at a zoom, in a form two indexes can be compared by. */
function shown(index: ClusterIndex<Pin>, zoom: number) {
  return index.tree.getClusters([-180, -85, 180, 85], zoom).map((feature) => {
    const props = feature.properties;
    return 'cluster' in props && props.cluster ? { ...props, ...index.summary(props.cluster_id), at: feature.geometry.coordinates } : (props as Pin).id;
  });
}

describe('the cluster index built off the page', () => {
  it('answers every zoom, cluster and member as the one built on the page', () => {
    const options: ClusterOptions = CLUSTER_DEFAULTS;
    const pins = towers(8_000);
    const here = buildIndex(northFirst(pins), options);
    // As the worker does: the order from the latitudes alone, then positions and marks in that order,
    // no pin objects; the buffers cross as a structured clone.
    const order = northFirstOrder(Float64Array.from(pins, (pin) => pin.lat));
    expect([...order].map((k) => pins[k]!.id)).toEqual(northFirst(pins).map((pin) => pin.id));
    const packed = packIndex(buildIndexOf(positionsOf(Array.from(order, (k) => pins[k]!)), options), order.length, options);
    expect(transferables(packed).length).toBe(2 * (options.maxZoom + 2) + 1);
    const there = unpackIndex(structuredClone(packed), Array.from(order, (k) => pins[k]!), options);

    let clusters = 0;
    for (let zoom = 0; zoom <= options.maxZoom + 1; zoom++) {
      const mine = shown(here, zoom);
      expect(shown(there, zoom)).toEqual(mine);
      for (const item of mine) {
        if (typeof item === 'string') continue;
        expect(there.tree.getClusterExpansionZoom(item.cluster_id)).toBe(here.tree.getClusterExpansionZoom(item.cluster_id));
        // The members of one cluster in seven (all of them would take seconds).
        if (clusters++ % 7 !== 0) continue;
        const id = item.cluster_id;
        const leaves = there.tree.getLeaves(id, Infinity).map((leaf) => leaf.properties);
        expect(leaves.map((leaf) => leaf.id)).toEqual(here.tree.getLeaves(id, Infinity).map((leaf) => leaf.properties.id));
        expect(there.summary(id)).toEqual(summaryOf(leaves));
      }
    }
    // The comparison saw clusters with every badge, not only lone pins.
    expect(clusters).toBeGreaterThan(100);
    expect(shown(there, 8).some((item) => typeof item !== 'string' && item.pending > 0 && item.failed > 0 && item.review > 0)).toBe(true);
  });

  it('sums every cluster of every zoom from exactly its members: their box and each badge', () => {
    // Few places, often shared, so clusters form at every zoom and clusters gather clusters.
    const pin = fc.record({ lat: fc.integer({ min: 0, max: 40 }).map((n) => 40 + n / 50), lng: fc.integer({ min: 0, max: 40 }).map((n) => -90 + n / 50), mark: fc.constantFrom(...MARKS) });
    fc.assert(
      fc.property(fc.array(pin, { minLength: 1, maxLength: 200 }), (drawn) => {
        const pins = northFirst(drawn.map((p, k): Pin => ({ ...p, id: `s${k}`, style: 1, title: '' })));
        for (const index of [buildIndex(pins, CLUSTER_DEFAULTS), unpackIndex(structuredClone(packIndex(buildIndexOf(positionsOf(pins), CLUSTER_DEFAULTS), pins.length, CLUSTER_DEFAULTS)), pins, CLUSTER_DEFAULTS)]) {
          for (let zoom = 0; zoom <= CLUSTER_DEFAULTS.maxZoom; zoom++) {
            for (const feature of index.tree.getClusters([-180, -85, 180, 85], zoom)) {
              const props = feature.properties;
              if (!('cluster' in props && props.cluster)) continue;
              expect(index.summary(props.cluster_id)).toEqual(summaryOf(index.tree.getLeaves(props.cluster_id, Infinity).map((leaf) => leaf.properties)));
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("orders the worker's pins exactly as the page's stable sort does, through ties, -0 and 0, and extremes", () => {
    const latitude = fc.oneof(fc.constantFrom(0, -0, 90, -90, 45.5, 45.5000001), fc.double({ min: -90, max: 90, noNaN: true }), fc.integer({ min: -3, max: 3 }).map((n) => n / 10));
    fc.assert(
      fc.property(fc.array(latitude, { maxLength: 300 }), (lats) => {
        const pins = lats.map((lat, k) => ({ id: k, lat, lng: 0, mark: 'none' as const }));
        expect(Array.from(northFirstOrder(Float64Array.from(lats)))).toEqual(northFirst(pins).map((pin) => pin.id));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses to stand an index on pins other than those it was built from', () => {
    const options = CLUSTER_DEFAULTS;
    const pins = towers(50);
    const packed = packIndex(buildIndex(pins, options), pins.length, options);
    expect(() => unpackIndex(packed, pins.slice(1), options)).toThrow('the packed cluster index is not of these pins');
  });
});
