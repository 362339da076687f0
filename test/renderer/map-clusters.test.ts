// Clustering and labels on the pin canvas: close pins gather into one cluster that knows how many
// sites it holds, where they are and which need attention; pins stand alone at high zoom; and names
// never overlap.
import { describe, expect, it } from 'vitest';
import { PinClusters } from '../../renderer/src/map/pins/clusters';
import { LabelPlacer, clusterCountText } from '../../renderer/src/map/pins/labels';
import type { Pin } from '../../renderer/src/map/pins/types';
import { expectExamples } from '../support/examples';

function pin(id: string, lat: number, lng: number, mark: Pin['mark'] = 'none'): Pin {
  return { id, lat, lng, style: 1, mark, title: id };
}

const town = [pin('a', 45.6, -111.0), pin('b', 45.601, -111.002, 'failed'), pin('c', 45.602, -110.999, 'pending'), pin('d', 45.599, -111.001)];
const far = pin('far', 47.5, -104.0);
const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

describe('clustering pins', () => {
  it('gathers close pins into one cluster with their count, box and state badges', () => {
    const clusters = new PinClusters();
    clusters.load([...town, far]);
    const view = clusters.query(...WORLD, 6);
    expect(view.pins.map((p) => p.id)).toEqual(['far']);
    expect(view.clusters).toHaveLength(1);
    const [c] = view.clusters;
    expect(c).toMatchObject({ kind: 'cluster', count: 4, failed: 1, pending: 1, review: 0, south: 45.599, north: 45.602, west: -111.002, east: -110.999 });
    expect(c!.lat).toBeGreaterThan(45.599);
    expect(c!.lat).toBeLessThan(45.602);
    expect(clusters.expansionZoom(c!.id)).toBeGreaterThan(6);
  });

  it('draws every pin on its own past the last cluster zoom', () => {
    const clusters = new PinClusters({ maxZoom: 12 });
    clusters.load(town);
    expect(clusters.clusters(12)).toBe(true);
    expect(clusters.clusters(13)).toBe(false);
    const view = clusters.query(...WORLD, 13);
    expect(view.clusters).toEqual([]);
    expect(view.pins.map((p) => p.id).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('leaves two close pins as pins (a cluster needs three), and answers only for the box asked', () => {
    const clusters = new PinClusters();
    clusters.load([town[0]!, town[1]!, far]);
    expect(clusters.query(...WORLD, 4).clusters).toEqual([]);
    expect(clusters.query(-112, 45, -110, 46, 4).pins.map((p) => p.id).sort()).toEqual(['a', 'b']);
  });

  it('follows new pins after load, and counts every site once across clusters and pins', () => {
    const clusters = new PinClusters();
    clusters.load(town);
    expect(clusters.query(...WORLD, 5).clusters[0]!.count).toBe(4);
    const many = Array.from({ length: 500 }, (_, i) => pin(`p${i}`, 40 + (i % 25) * 0.3, -100 + Math.floor(i / 25) * 0.3));
    clusters.load(many);
    const view = clusters.query(...WORLD, 6);
    expect(view.pins.length + view.clusters.reduce((n, c) => n + c.count, 0)).toBe(500);
    expect(view.clusters.length).toBeGreaterThan(0);
  });
});

describe('cluster counts and labels', () => {
  it('writes counts short enough to read on a disc', () => {
    expectExamples(clusterCountText, [[7, '7'], [999, '999'], [1000, '1k'], [1250, '1.2k'], [50_000, '50k']]);
  });

  it('skips a label that would overlap one already placed, and keeps those that do not', () => {
    const labels = new LabelPlacer(64);
    expect(labels.place(0, 0, 100, 20)).toBe(true);
    expect(labels.place(90, 10, 100, 20)).toBe(false);
    expect(labels.place(100, 0, 100, 20)).toBe(true);
    expect(labels.place(0, 20, 300, 20)).toBe(true);
    expect(labels.place(150, 35, 10, 10)).toBe(false);
    expect(labels.placed).toBe(3);
    labels.reset();
    expect(labels.place(90, 10, 100, 20)).toBe(true);
  });
});
