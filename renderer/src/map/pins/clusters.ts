// Clustering: where pins are too close to tell apart at a zoom, one cluster stands for them, with its
// count, the box around its members (a click zooms to it) and how many of them carry each state badge
// (so a failed site is not lost inside a cluster). A thin adapter over supercluster: its index is
// immutable, so it is built again after the pins change: for a few pins here, lazily, on the next
// query; for many in a worker (cluster-index.ts), the page's thread free meanwhile. No Leaflet, no
// DOM: positions are degrees, boxes are west/south/east/north.
import { record, timed } from '../../shared/load-timing';
import { buildIndex, northFirst, type ClusterIndex, type Summary } from './cluster-index';
import { offThread, type OffThreadBuilder } from './cluster-builder';
import { CLUSTER_DEFAULTS, OFF_THREAD_FROM, type ClusterOptions } from './cluster-protocol';
import type { Pin } from './types';

export { CLUSTER_DEFAULTS, type ClusterOptions } from './cluster-protocol';

export interface ClusterMark extends Readonly<Summary> {
  readonly kind: 'cluster';
  /** supercluster's cluster ID (valid for the index it came from). */
  readonly id: number;
  readonly count: number;
  /** Where it is drawn: the members' centre. */
  readonly lat: number;
  readonly lng: number;
}

export function isCluster(item: Pin | ClusterMark): item is ClusterMark {
  return (item as Partial<ClusterMark>).kind === 'cluster';
}

export interface ClusterView {
  /** Pins drawn on their own (not in any cluster at this zoom). */
  pins: Pin[];
  clusters: ClusterMark[];
}

export class PinClusters {
  readonly options: ClusterOptions;
  /** The index queries answer from: the pins last loaded, or those before while the worker builds theirs. */
  private index: ClusterIndex<Pin> | null = null;
  private source: readonly Pin[] = [];
  private dirty = true;
  /** A build in the worker is under way (one at a time; the pins loaded meanwhile go next). */
  private building = false;
  /** Pins the worker could not index: the page builds their index itself. */
  private refused: readonly Pin[] | null = null;
  /** Told when the worker's index has arrived (the layer draws with it). */
  private onBuilt: (() => void) | null = null;
  /** Counts the indexes built: a cluster's ID means something only within one. */
  generation = 0;

  constructor(
    options: Partial<ClusterOptions> = {},
    private readonly offThreadFrom = OFF_THREAD_FROM,
    private readonly worker: () => OffThreadBuilder | null = offThread,
  ) {
    this.options = { ...CLUSTER_DEFAULTS, ...options };
  }

  /**
   * Takes the pins to cluster, in any order (each index is built from them in drawing order, north
   * first); their index is built on the next query, or started in the worker by `prepare`.
   */
  load(pins: readonly Pin[]): void {
    this.source = pins;
    this.dirty = true;
  }

  /**
   * Whether queries can answer now. Many pins are indexed in the worker: until their index arrives
   * the one of the pins before answers (what is drawn from it agrees with itself) and `onBuilt` is
   * called when it is here; false while there is no index at all yet (nothing to draw clusters from).
   */
  prepare(onBuilt: () => void): boolean {
    this.onBuilt = onBuilt;
    if (!this.dirty || !this.offThread(this.source)) return true;
    this.startBuild();
    return this.index !== null;
  }

  /** Many pins are coming: the worker that will index them starts now, so it is ready when they are. */
  expect(count: number): void {
    if (count >= this.offThreadFrom) this.worker();
  }

  /** Whether a zoom has clusters at all. */
  clusters(zoom: number): boolean {
    return Math.floor(zoom) <= this.options.maxZoom;
  }

  /** The pins and clusters inside a box (degrees) at a zoom. */
  query(west: number, south: number, east: number, north: number, zoom: number): ClusterView {
    const index = this.built();
    const pins: Pin[] = [];
    const clusters: ClusterMark[] = [];
    // supercluster wants the box within one world; a view wider than the world is the whole world.
    const wide = east - west >= 360;
    const box: [number, number, number, number] = [wide ? -180 : wrap(west), Math.max(-85, south), wide ? 180 : wrap(east), Math.min(85, north)];
    for (const feature of index.tree.getClusters(box, Math.floor(zoom))) {
      const props = feature.properties;
      if ('cluster' in props && props.cluster) {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        clusters.push({ kind: 'cluster', id: props.cluster_id, count: props.point_count, lat, lng, ...index.summary(props.cluster_id) });
      } else {
        pins.push(props as Pin);
      }
    }
    return { pins, clusters };
  }

  /** Every pin a cluster stands for. */
  membersOf(clusterId: number): Pin[] {
    return this.built()
      .tree.getLeaves(clusterId, Infinity)
      .map((feature) => feature.properties);
  }

  /** The zoom at which a cluster falls apart into smaller ones or pins. */
  expansionZoom(clusterId: number): number {
    return this.built().tree.getClusterExpansionZoom(clusterId);
  }

  /** The worker's builder when `pins` are to be indexed there, else null. */
  private offThread(pins: readonly Pin[]): OffThreadBuilder | null {
    return pins.length >= this.offThreadFrom && pins !== this.refused ? this.worker() : null;
  }

  private startBuild(): void {
    const worker = this.offThread(this.source);
    if (this.building || !this.dirty || !worker) return;
    const source = this.source;
    const asked = performance.now();
    this.building = true;
    const settled = (index: ClusterIndex<Pin> | null) => {
      this.building = false;
      if (source === this.source && this.dirty) {
        if (index) {
          record('clusters-off-thread', asked);
          this.install(index);
        } else this.refused = source;
        this.onBuilt?.();
      } else this.startBuild();
    };
    worker.build(source, this.options).then(settled, () => settled(null));
  }

  private built(): ClusterIndex<Pin> {
    if (this.index && !this.dirty) return this.index;
    // The worker is building the new pins' index: the last one answers until it is here.
    if (this.index && this.building && this.offThread(this.source)) return this.index;
    return this.install(timed('clusters', () => buildIndex(northFirst(this.source), this.options)));
  }

  private install(index: ClusterIndex<Pin>): ClusterIndex<Pin> {
    this.index = index;
    this.dirty = false;
    this.generation++;
    return index;
  }
}

function wrap(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}
