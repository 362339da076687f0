// Hit testing: the box of every pin drawn (canvas CSS pixels, widened by a slop margin for gloves and
// touch) is recorded during a redraw and bucketed in a grid of square cells, so finding the pin under
// a finger reads one cell's few boxes instead of scanning every pin, as Leaflet's canvas does. The
// boxes belong to one picture: begin() forgets the last one. No Leaflet and no DOM here.

export interface HitGridOptions {
  /** Extra margin around every box, in pixels. */
  slop: number;
  /** Side of a grid cell, in pixels: about a pin's size, so a box touches few cells. */
  cell: number;
}

const DEFAULTS: HitGridOptions = { slop: 5, cell: 48 };
/** A cell's key is row * ROW + column (columns stay far below this). */
const ROW = 100_000;

export class HitGrid<T> {
  private readonly options: HitGridOptions;
  private items: T[] = [];
  /** left, top, right, bottom of items[k] at 4k … 4k+3. */
  private boxes = new Float32Array(0);
  private capacity = 0;
  private cells = new Map<number, number[]>();

  constructor(options: Partial<HitGridOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Starts a new picture with room for `capacity` boxes (any more are not recorded). */
  begin(capacity: number): void {
    this.items = [];
    this.cells = new Map();
    this.capacity = capacity;
    if (this.boxes.length < capacity * 4) this.boxes = new Float32Array(capacity * 4);
  }

  /** Records an item drawn in the box at (left, top), width × height. */
  add(item: T, left: number, top: number, width: number, height: number): void {
    const k = this.items.length;
    if (k >= this.capacity) return;
    const slop = this.options.slop;
    this.items.push(item);
    this.boxes[k * 4] = left - slop;
    this.boxes[k * 4 + 1] = top - slop;
    this.boxes[k * 4 + 2] = left + width + slop;
    this.boxes[k * 4 + 3] = top + height + slop;
  }

  /** Buckets the recorded boxes into cells; hit tests see the picture from here on. */
  end(): void {
    const cell = this.options.cell;
    const boxes = this.boxes;
    const cells = this.cells;
    for (let k = 0; k < this.items.length; k++) {
      const c0 = Math.floor(boxes[k * 4]! / cell);
      const r0 = Math.floor(boxes[k * 4 + 1]! / cell);
      const c1 = Math.floor(boxes[k * 4 + 2]! / cell);
      const r1 = Math.floor(boxes[k * 4 + 3]! / cell);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const bucket = cells.get(r * ROW + c);
          if (bucket) bucket.push(k);
          else cells.set(r * ROW + c, [k]);
        }
      }
    }
  }

  /** Everything recorded for the current picture, in drawing order. */
  get recorded(): readonly T[] {
    return this.items;
  }

  /**
   * The item under (x, y). Among overlapping boxes the one whose centre is nearest wins, so a crowded
   * spot still picks the pin the finger is on; on a tie, the one drawn later (it is on top).
   */
  at(x: number, y: number): T | null {
    const cell = this.options.cell;
    const bucket = this.cells.get(Math.floor(y / cell) * ROW + Math.floor(x / cell));
    if (!bucket) return null;
    const boxes = this.boxes;
    let best = -1;
    let bestDistance = Infinity;
    for (const k of bucket) {
      const left = boxes[k * 4]!;
      const top = boxes[k * 4 + 1]!;
      const right = boxes[k * 4 + 2]!;
      const bottom = boxes[k * 4 + 3]!;
      if (x < left || x > right || y < top || y > bottom) continue;
      const d = ((left + right) / 2 - x) ** 2 + ((top + bottom) / 2 - y) ** 2;
      if (d <= bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best >= 0 ? this.items[best]! : null;
  }
}
