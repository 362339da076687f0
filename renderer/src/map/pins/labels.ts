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
    const right = left + width;
    const bottom = top + height;
    const c0 = Math.floor(left / this.cell);
    const c1 = Math.floor(right / this.cell);
    const r0 = Math.floor(top / this.cell);
    const r1 = Math.floor(bottom / this.cell);
    const b = this.boxes;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        for (const k of this.cells.get(r * 100_000 + c) ?? []) {
          if (left < b[k + 2]! && right > b[k]! && top < b[k + 3]! && bottom > b[k + 1]!) return false;
        }
      }
    }
    const k = b.length;
    b.push(left, top, right, bottom);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const key = r * 100_000 + c;
        const bucket = this.cells.get(key);
        if (bucket) bucket.push(k);
        else this.cells.set(key, [k]);
      }
    }
    return true;
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
