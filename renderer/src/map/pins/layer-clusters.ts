// The pin layer's clustering: the index over its pins (clusters.ts), given the pins again only after
// they changed, and how many selected sites each drawn cluster holds (chosen-clusters.ts). While the
// worker indexes many pins for the first time there is nothing to draw clusters from: `ready` says so,
// and the layer is asked to redraw once the index is here.
import L from 'leaflet';
import { userNavigated } from '../navigation';
import { ChosenInClusters } from './chosen-clusters';
import { clusteredView } from './cluster-view';
import { PinClusters, type ClusterMark } from './clusters';
import type { PinLayerOptions } from './options';
import type { ProjectedClusters } from './painter';
import type { PinSet, Projected } from './pin-set';

export class LayerClusters {
  private readonly index: PinClusters;
  private readonly chosenIn: ChosenInClusters;
  private dirty = true;

  constructor(
    private readonly opts: PinLayerOptions,
    private readonly pins: PinSet,
    private readonly redraw: () => void,
  ) {
    this.index = new PinClusters({ radius: opts.clusterRadius, maxZoom: opts.clusterMaxZoom });
    this.chosenIn = new ChosenInClusters(this.index, (id) => pins.get(id));
  }

  /** The pins changed: the index follows when next asked. */
  changed(): void {
    this.dirty = true;
  }

  /** About `count` pins are coming: for many, the worker that will index them starts now. */
  expect(count: number): void {
    if (this.opts.clusterRadius > 0) this.index.expect(count);
  }

  /** Whether pins are clustered at a zoom. */
  at(zoom: number): boolean {
    return this.opts.clusterRadius > 0 && this.index.clusters(zoom);
  }

  /** Whether an index can answer now (for many pins it may be building in the worker, started here). */
  ready(): boolean {
    if (this.opts.clusterRadius <= 0) return true;
    if (this.dirty) this.index.load(this.pins.all());
    this.dirty = false;
    return this.index.prepare(this.redraw);
  }

  /** The pins drawn on their own (and `always`, never hidden in a cluster) and the clusters around the canvas. */
  view(map: L.Map, crs: L.CRS, zoom: number, always: readonly string[], boundsMin: L.Point, size: L.Point): { pins: Projected; clusters: ProjectedClusters } {
    this.ready();
    return clusteredView(map, crs, zoom, this.index, (id) => this.pins.get(id), always, boundsMin, size);
  }

  /** How many selected sites a drawn cluster holds; null when nothing is selected. */
  chosenCounter(chosen: ReadonlySet<string>): ReturnType<ChosenInClusters['counter']> {
    return this.chosenIn.counter(chosen);
  }

  /** Zooms `map` to the box around a cluster's members, at least far enough for it to split. */
  zoomTo(map: L.Map, cluster: ClusterMark): void {
    const bounds = L.latLngBounds([cluster.south, cluster.west], [cluster.north, cluster.east]);
    const maxZoom = Number.isFinite(map.getMaxZoom()) ? map.getMaxZoom() : 18;
    const zoom = Math.min(maxZoom, Math.max(map.getBoundsZoom(bounds.pad(0.2)), this.index.expansionZoom(cluster.id), map.getZoom() + 1));
    userNavigated(map);
    map.setView(bounds.getCenter(), zoom);
  }
}
