// Label placement: site names are drawn beside their pins from a zoom level on, and a label that would
// overlap one already placed is skipped rather than drawn over it, so a crowd reads as a few names,
// not a smear. Placed boxes are bucketed in a grid of cells, so each check reads a few boxes. Pure.

export class LabelPlacer {
  private boxes: number[] = [];
  private cells = new Map<number, number[]>();

  constructor(private readonly cell = 64) {}

  reset(): void {
    this.boxes = [];
    this.cells = new Map();
  }

  /** Places the box (left, top, width, height) unless it overlaps a placed one; true when placed. */
  place(left: number, top: number, width: number, height: number): boolean {
    // Called for every label of every frame: no arrays made per call.
    const right = left + width;
    const bottom = top + height;
    const cell = this.cell;
    const b = this.boxes;
    const c1 = Math.floor(right / cell);
    const r1 = Math.floor(bottom / cell);
    for (let r = Math.floor(top / cell); r <= r1; r++) {
      for (let c = Math.floor(left / cell); c <= c1; c++) {
        for (const k of this.cells.get(r * 100_000 + c) ?? []) {
          if (left < b[k + 2]! && right > b[k]! && top < b[k + 3]! && bottom > b[k + 1]!) return false;
        }
      }
    }
    this.block(left, top, width, height);
    return true;
  }

  /** Takes the box as placed whatever it overlaps: something drawn anyway (a cluster's disc), which labels keep clear of. */
  block(left: number, top: number, width: number, height: number): void {
    const cell = this.cell;
    const k = this.boxes.length;
    this.boxes.push(left, top, left + width, top + height);
    const c1 = Math.floor((left + width) / cell);
    const r1 = Math.floor((top + height) / cell);
    for (let r = Math.floor(top / cell); r <= r1; r++) {
      for (let c = Math.floor(left / cell); c <= c1; c++) {
        const key = r * 100_000 + c;
        const bucket = this.cells.get(key);
        if (bucket) bucket.push(k);
        else this.cells.set(key, [k]);
      }
    }
  }

  get placed(): number {
    return this.boxes.length / 4;
  }
}

/** How a cluster's count is written: exact below a thousand, then "1.2k", "12k". */
export function clusterCountText(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10_000) return `${(Math.floor(count / 100) / 10).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.floor(count / 1000)}k`;
}
