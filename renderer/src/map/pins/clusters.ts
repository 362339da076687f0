// Clustering: where pins are too close to tell apart at a zoom, one cluster stands for them, with its
// count, the box around its members (a click zooms to it) and how many of them carry each state badge
// (so a failed site is not lost inside a cluster). A thin adapter over supercluster: its index is
// immutable, so it is built again after the pins change, lazily, on the next query. No Leaflet, no
// DOM: positions are degrees, boxes are west/south/east/north.
import Supercluster from 'supercluster';
import { timed } from '../../shared/load-timing';
import type { Pin } from './types';

export interface ClusterOptions {
  /** Pins closer than this (screen pixels at a zoom) are gathered. About a pin's height. */
  radius: number;
  /** The last zoom with clusters; from the next one on every pin is drawn on its own. */
  maxZoom: number;
  /** Fewer pins than this close together stay pins. */
  minPoints: number;
}

export const CLUSTER_DEFAULTS: ClusterOptions = { radius: 44, maxZoom: 12, minPoints: 3 };

/** What a cluster summarises of its members. */
interface Summary {
  south: number;
  west: number;
  north: number;
  east: number;
  pending: number;
  failed: number;
  review: number;
}

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
  private index: Supercluster<Pin, Summary> | null = null;
  private source: readonly Pin[] = [];
  private dirty = true;
  /** Counts the indexes built: a cluster's ID means something only within one. */
  generation = 0;

  constructor(options: Partial<ClusterOptions> = {}) {
    this.options = { ...CLUSTER_DEFAULTS, ...options };
  }

  /** Takes the pins to cluster; the index is built on the next query. */
  load(pins: readonly Pin[]): void {
    this.source = pins;
    this.dirty = true;
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
    for (const feature of index.getClusters(box, Math.floor(zoom))) {
      const props = feature.properties as Pin | (Summary & Supercluster.ClusterProperties);
      if ('cluster' in props && props.cluster) {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        clusters.push({
          kind: 'cluster',
          id: props.cluster_id,
          count: props.point_count,
          lat,
          lng,
          south: props.south,
          west: props.west,
          north: props.north,
          east: props.east,
          pending: props.pending,
          failed: props.failed,
          review: props.review,
        });
      } else {
        pins.push(props as Pin);
      }
    }
    return { pins, clusters };
  }

  /** Every pin a cluster stands for. */
  membersOf(clusterId: number): Pin[] {
    return this.built()
      .getLeaves(clusterId, Infinity)
      .map((feature) => feature.properties);
  }

  /** The zoom at which a cluster falls apart into smaller ones or pins. */
  expansionZoom(clusterId: number): number {
    return this.built().getClusterExpansionZoom(clusterId);
  }

  private built(): Supercluster<Pin, Summary> {
    if (this.index && !this.dirty) return this.index;
    const { radius, maxZoom, minPoints } = this.options;
    const index = new Supercluster<Pin, Summary>({
      radius,
      // Leaflet's world is 256 pixels wide at zoom 0: the radius is then in screen pixels.
      extent: 256,
      maxZoom,
      minPoints,
      map: (pin) => ({
        south: pin.lat,
        north: pin.lat,
        west: pin.lng,
        east: pin.lng,
        pending: pin.mark === 'pending' ? 1 : 0,
        failed: pin.mark === 'failed' ? 1 : 0,
        review: pin.mark === 'review' ? 1 : 0,
      }),
      reduce: (acc, p) => {
        acc.south = Math.min(acc.south, p.south);
        acc.north = Math.max(acc.north, p.north);
        acc.west = Math.min(acc.west, p.west);
        acc.east = Math.max(acc.east, p.east);
        acc.pending += p.pending;
        acc.failed += p.failed;
        acc.review += p.review;
      },
    });
    timed('clusters', () => index.load(this.source.map((pin) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [pin.lng, pin.lat] }, properties: pin }))));
    this.index = index;
    this.dirty = false;
    this.generation++;
    return index;
  }
}

function wrap(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}
