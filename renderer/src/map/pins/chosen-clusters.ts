// How many of the sites selected to act on together each cluster holds, so a cluster can say so (a
// ring and "2 selected") and a user who selected sites on the list sees where they are at a low zoom.
// The clusters' index is rebuilt only when the pins change, never for a selection (at 50,000 sites a
// rebuild takes a third of a second): counts are taken per cluster drawn, when something is selected,
// and kept until the selection or the clusters change. A cluster whose members' box holds no
// selected pin (a kd-tree of the selected pins says) is 0 without a look at its members.
import KDBush from 'kdbush';
import type { ClusterMark, PinClusters } from './clusters';
import type { Pin } from './types';

export class ChosenInClusters {
  private chosen: ReadonlySet<string> = new Set();
  private generation = -1;
  private readonly counts = new Map<number, number>();
  private near: KDBush | null = null;

  constructor(
    private readonly clusters: PinClusters,
    private readonly pinOf: (id: string) => Pin | undefined,
  ) {}

  /** How many selected sites a drawn cluster holds; null when nothing is selected. */
  counter(chosen: ReadonlySet<string>): ((mark: ClusterMark) => number) | null {
    if (chosen.size === 0) return null;
    if (chosen !== this.chosen || this.clusters.generation !== this.generation) this.reset(chosen);
    return (mark) => this.countIn(mark);
  }

  private reset(chosen: ReadonlySet<string>): void {
    this.chosen = chosen;
    this.generation = this.clusters.generation;
    this.counts.clear();
    const pins: Pin[] = [];
    for (const id of chosen) {
      const pin = this.pinOf(id);
      if (pin) pins.push(pin);
    }
    if (pins.length === 0) {
      this.near = null;
      return;
    }
    const near = new KDBush(pins.length);
    for (const pin of pins) near.add(pin.lng, pin.lat);
    near.finish();
    this.near = near;
  }

  private countIn(mark: ClusterMark): number {
    let count = this.counts.get(mark.id);
    if (count === undefined) {
      const inBox = this.near ? this.near.range(mark.west, mark.south, mark.east, mark.north).length : 0;
      // Members' boxes of neighbouring clusters can overlap: a selected pin in the box may be the
      // neighbour's, so the members are counted.
      count = inBox === 0 ? 0 : this.clusters.membersOf(mark.id).reduce((n, pin) => n + (this.chosen.has(pin.id) ? 1 : 0), 0);
      this.counts.set(mark.id, count);
    }
    return count;
  }
}
