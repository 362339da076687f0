// The pins the layer knows, by ID, and what a redraw needs of them: the drawing order (north first,
// so a pin further south overlaps the one above it, as on paper) and every pin's projected position
// at one zoom. Both are cached: they are rebuilt only after the pins or the zoom change. A replace
// keeps the pins as given and makes their index by ID when it is first asked for: the first frame
// of 50,000 pins is drawn from their clusters, which need no lookup by ID, and the 50,000-key map
// (10-25 ms on the page) is made afterwards, when a pin is hovered, chosen or changed.
import L from 'leaflet';
import type { Pin } from './types';

/** The pins in drawing order and, for `pins[i]`, its position `x[i]`, `y[i]` in world pixels of one zoom. */
export interface Projected {
  readonly pins: readonly Pin[];
  readonly x: Float64Array;
  readonly y: Float64Array;
}

export class PinSet {
  /** Every pin, when they came as one replace and nothing since: the index by ID is not made yet. */
  private given: readonly Pin[] | null = null;
  private index = new Map<string, Pin>();
  private order: Pin[] = [];
  private orderDirty = true;
  private x = new Float64Array(0);
  private y = new Float64Array(0);
  private projectedZoom = NaN;

  /** Replaces every pin; their IDs are distinct (sites' local IDs). */
  replace(pins: Iterable<Pin>): void {
    this.given = Array.isArray(pins) ? (pins as readonly Pin[]) : [...pins];
    this.index = new Map();
    this.changed();
  }

  /** Adds or replaces some pins and removes others. */
  update(changed: Iterable<Pin>, removedIds: Iterable<string>): void {
    const byId = this.byId();
    for (const pin of changed) byId.set(pin.id, pin);
    for (const id of removedIds) byId.delete(id);
    this.changed();
  }

  get(id: string): Pin | undefined {
    return this.byId().get(id);
  }

  get size(): number {
    return this.given?.length ?? this.index.size;
  }

  /** The box around every pin, or null when there is none. */
  bounds(): L.LatLngBounds | null {
    if (this.size === 0) return null;
    let s = 90, w = 180, n = -90, e = -180;
    for (const pin of this.given ?? this.index.values()) {
      if (pin.lat < s) s = pin.lat;
      if (pin.lat > n) n = pin.lat;
      if (pin.lng < w) w = pin.lng;
      if (pin.lng > e) e = pin.lng;
    }
    return L.latLngBounds([s, w], [n, e]);
  }

  /** Every pin, in the order they were first set (cheaper than `ordered` where order does not matter). */
  all(): readonly Pin[] {
    return this.given ?? [...this.index.values()];
  }

  /** Every pin in drawing order (north first). */
  ordered(): readonly Pin[] {
    if (this.orderDirty) {
      this.order = [...this.all()].sort((a, b) => b.lat - a.lat);
      this.orderDirty = false;
      this.projectedZoom = NaN;
    }
    return this.order;
  }

  /** Every pin in drawing order, projected at `zoom` (computed again only when something changed). */
  project(crs: L.CRS, zoom: number): Projected {
    this.ordered();
    const n = this.order.length;
    if (this.projectedZoom !== zoom || this.x.length !== n) {
      if (this.x.length !== n) {
        this.x = new Float64Array(n);
        this.y = new Float64Array(n);
      }
      for (let i = 0; i < n; i++) {
        const pin = this.order[i]!;
        const point = crs.latLngToPoint(L.latLng(pin.lat, pin.lng), zoom);
        this.x[i] = point.x;
        this.y[i] = point.y;
      }
      this.projectedZoom = zoom;
    }
    return { pins: this.order, x: this.x, y: this.y };
  }

  /** The pins' IDs changed in place (the same pins learnt their sites): the index by ID follows. */
  reindex(): void {
    if (this.given) return;
    const pins = [...this.index.values()];
    this.index = new Map(pins.map((pin) => [pin.id, pin]));
  }

  /** The pins by ID, made from the last replace's pins on first use. */
  private byId(): Map<string, Pin> {
    if (this.given) {
      for (const pin of this.given) this.index.set(pin.id, pin);
      this.given = null;
    }
    return this.index;
  }

  private changed(): void {
    this.orderDirty = true;
    this.projectedZoom = NaN;
  }
}
