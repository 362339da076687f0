// The "N selected" tag under a cluster holding sites of the selection. Clusters close together would
// have their tags cover each other or another cluster's disc, unreadable: every disc is placed first,
// then the tags, the cluster holding most of the selection first, and a tag that would overlap a disc
// or a tag placed before it is left out (the cluster's ring still says it holds some). The painter
// draws the tags after every disc, so none is covered, and draws a frame whole when its tags are not
// those of the picture it would otherwise shift (a pan can bring a cluster in that takes one away).
import { LabelPlacer, clusterCountText } from './labels';
import type { MapPalette } from '../../shared/theme';

/** Half the widest "N selected" tag under a cluster. */
const CHOSEN_TAG_HALF = 48;
const FONT = '700 12px system-ui, sans-serif';
const HEIGHT = 17;
/** From the cluster's disc to its tag's top. */
const GAP = 9;

/** A cluster that holds sites of the selection: where its disc is drawn, its radius, and how many it holds. */
export interface Holding {
  x: number;
  y: number;
  r: number;
  held: number;
}

export class ChosenTags {
  private readonly placer = new LabelPlacer();

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  /** Which of `clusters` (places in it) get their tag this frame. */
  place(clusters: readonly Holding[]): Set<number> {
    const tagged = new Set<number>();
    const order = clusters.map((_, k) => k).filter((k) => clusters[k]!.held > 0);
    if (order.length === 0) return tagged;
    this.placer.reset();
    // Each disc with its ring (a cluster holding some of the selection has one 5 px out, 4 px wide).
    for (const { x, y, r } of clusters) this.placer.block(x - r - 7, y - r - 7, 2 * r + 14, 2 * r + 14);
    this.ctx.font = FONT;
    for (const k of order.sort((a, b) => clusters[b]!.held - clusters[a]!.held || a - b)) {
      const { x, y, r, held } = clusters[k]!;
      const width = this.width(held);
      if (this.placer.place(x - width / 2, y + r + GAP, width, HEIGHT)) tagged.add(k);
    }
    return tagged;
  }

  /** Where the tag under a cluster may reach, its border's stroke included: what a partial redraw checks against its strips. */
  static reach({ x, y, r }: Holding): { x: number; y: number; w: number; h: number } {
    return { x: x - CHOSEN_TAG_HALF - 1, y: y + r + GAP - 1, w: 2 * CHOSEN_TAG_HALF + 2, h: HEIGHT + 2 };
  }

  /** The tag under the cluster at (x, y) of radius r. */
  draw({ x, y, r, held }: Holding, palette: MapPalette): void {
    const ctx = this.ctx;
    ctx.save();
    ctx.font = FONT;
    const width = this.width(held);
    const top = y + r + GAP;
    ctx.beginPath();
    ctx.roundRect(x - width / 2, top, width, HEIGHT, 8);
    ctx.fillStyle = palette.highlightInner;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = palette.highlightOuter;
    ctx.stroke();
    // Dark ink on the yellow in either theme (the outer colour turns light on a dark map).
    ctx.fillStyle = '#111111';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(`${clusterCountText(held)} selected`, x, top + 9);
    ctx.restore();
  }

  private width(held: number): number {
    return Math.min(2 * CHOSEN_TAG_HALF, Math.ceil(this.ctx.measureText(`${clusterCountText(held)} selected`).width) + 10);
  }
}
