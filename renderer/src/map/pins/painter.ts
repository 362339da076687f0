// Painting: draws one frame of pins on the layer's canvas as drawImage calls of pre-rendered sprites,
// clusters as numbered discs and, from a zoom on, site names beside their pins (a name that would
// overlap another is skipped). It records the box of every pin and cluster drawn in the hit grid, so
// what can be hit is what is seen. After a pan at the same zoom it shifts the last picture and draws
// only the strips the pan uncovered. It speaks canvas CSS pixels only: the layer turns the map's
// state into a Frame.
import { touches, uncovered, type Rect } from '../geometry';
import type { PinMark, Sprite, SpriteSet } from '../../shared/sprites';
import type { ClusterMark } from './clusters';
import type { HitGrid } from './hit-grid';
import { ChosenTags, type Holding } from './chosen-tags';
import { LabelPlacer, clusterCountText } from './labels';
import type { Projected } from './pin-set';
import type { DrawInfo, Pin } from './types';
import { LIGHT_MAP_PALETTE, type MapPalette } from '../../shared/theme';

/** Clusters to draw, with their positions in world pixels of the frame's zoom. */
export interface ProjectedClusters {
  readonly marks: readonly ClusterMark[];
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
}

export interface PainterOptions {
  /** More pins than this in view: draw compact dots instead of full pins. */
  compactAbove: number;
  /** Below this zoom: always compact dots. */
  compactBelowZoom: number;
}

/** Where and what to draw this time. */
export interface Frame {
  /** The canvas in CSS pixels. */
  width: number;
  height: number;
  /** The canvas's top-left corner in layer pixels: a pan at the same zoom moves it. */
  minX: number;
  minY: number;
  /** Added to a projected position, gives canvas pixels. */
  offsetX: number;
  offsetY: number;
  zoom: number;
  selectedId: string | null;
  /** The pin in move mode: drawn on top with a dashed ring, the one pin that can be dragged. */
  movableId: string | null;
  /** A pin being dragged: its ghost is drawn elsewhere. */
  hiddenId: string | null;
  /** A moved pin's proposed place (canvas pixels), with the pin. */
  preview: { pin: Pin; x: number; y: number } | null;
  /** Sites selected to act on together: each gets a thin ring (the selected pin keeps its thick one). */
  chosen?: ReadonlySet<string>;
  /** How many of those a cluster holds (chosen-clusters.ts); absent when none is selected. */
  chosenIn?: ((mark: ClusterMark) => number) | null;
  /** False when something besides the view changed (data, selection): everything is drawn. */
  mayShift: boolean;
  /** Draw site names beside the pins (full pins only, never compact dots). */
  labels: boolean;
}

// Cluster discs: dark navy with a light ring and white figures (contrast above 10:1), legible on any
// tile; names: ink on a halo of the opposite lightness. The colours are the theme's (setPalette).
const ATTENTION_FILL = '#b3261e';
const PENDING_FILL = '#f2a900';
const LABEL_FONT = '600 12px system-ui, sans-serif';

export function clusterRadius(count: number): number {
  return count < 10 ? 15 : count < 100 ? 18 : count < 1000 ? 21 : 25;
}

/** Pins this far outside the canvas are still drawn: their sprite can reach into it. */
const MARGIN = 60;

export class PinPainter {
  /** Where and how the canvas was last drawn (and which clusters' tags), so a pan at the same zoom can shift the picture. */
  private painted: { minX: number; minY: number; zoom: number; compact: boolean; tags: string } | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly ctx: CanvasRenderingContext2D,
    private readonly options: PainterOptions,
  ) {
    this.tags = new ChosenTags(ctx);
  }

  /** The picture is gone (the canvas was resized or removed): the next paint draws everything. */
  forget(): void {
    this.painted = null;
  }

  private palette: MapPalette = LIGHT_MAP_PALETTE;

  /** The theme's colours; the next paint draws everything with them. */
  setPalette(palette: MapPalette): void {
    this.palette = palette;
    this.painted = null;
  }

  private readonly labels = new LabelPlacer();
  /** Names placed in the frame being drawn. */
  private names = 0;
  private readonly tags: ChosenTags;
  /** Label widths by text: measureText is the slow part of a label. */
  private readonly widths = new Map<string, number>();

  paint(projected: Projected, sprites: SpriteSet, frame: Frame, hits: HitGrid<Pin | ClusterMark>, clusters: ProjectedClusters | null = null): DrawInfo {
    const { ctx, canvas } = this;
    const { pins, x: px, y: py } = projected;
    const { width: w, height: h, offsetX, offsetY, zoom, selectedId, movableId, hiddenId, preview } = frame;
    const ratio = sprites.ratio;

    const visible: number[] = [];
    for (let i = 0; i < pins.length; i++) {
      const x = px[i]! + offsetX;
      const y = py[i]! + offsetY;
      if (x > -MARGIN && x < w + MARGIN && y > -MARGIN && y < h + MARGIN) visible.push(i);
    }
    const compact = zoom < this.options.compactBelowZoom || visible.length > this.options.compactAbove;

    const shownClusters: number[] = [];
    if (clusters) {
      for (let i = 0; i < clusters.marks.length; i++) {
        const x = clusters.x[i]! + offsetX;
        const y = clusters.y[i]! + offsetY;
        if (x > -MARGIN && x < w + MARGIN && y > -MARGIN && y < h + MARGIN) shownClusters.push(i);
      }
    }
    const shown: Holding[] = shownClusters.map((i) => {
      const mark = clusters!.marks[i]!;
      return { x: Math.round(clusters!.x[i]! + offsetX), y: Math.round(clusters!.y[i]! + offsetY), r: clusterRadius(mark.count), held: frame.chosenIn?.(mark) ?? 0 };
    });
    // Which clusters have their "N selected" tag depends on every cluster shown: a pan that brings one
    // into the margin (or takes one out) can take a drawn tag away or free another; only a full redraw
    // can say that, so a frame whose tags differ is drawn whole.
    const tagged = this.tags.place(shown);
    const tags = [...tagged].map((k) => `${clusters!.marks[shownClusters[k]!]!.id}:${shown[k]!.held}`).join(' ');

    const before = this.painted;
    const dx = before ? frame.minX - before.minX : 0;
    const dy = before ? frame.minY - before.minY : 0;
    const shift =
      before !== null &&
      frame.mayShift &&
      preview === null &&
      hiddenId === null &&
      before.zoom === zoom &&
      before.compact === compact &&
      before.tags === tags &&
      Math.abs(dx) < w / 2 &&
      Math.abs(dy) < h / 2;
    // The uncovered strips (canvas CSS pixels) when shifting; null = draw everything.
    let strips: Rect[] | null = null;
    if (shift) {
      strips = uncovered(dx, dy, w, h);
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      // 'copy' also clears whatever the shifted picture does not cover.
      ctx.globalCompositeOperation = 'copy';
      ctx.drawImage(canvas, -dx * ratio, -dy * ratio);
      ctx.restore();
      ctx.save();
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.beginPath();
      for (const r of strips) ctx.rect(r.x, r.y, r.w, r.h);
      ctx.clip();
    } else {
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, w, h);
    }

    const withLabels = frame.labels && !compact;
    this.names = 0;
    if (withLabels) {
      this.labels.reset();
      ctx.font = LABEL_FONT;
    }

    hits.begin(visible.length + shownClusters.length + 2);
    // The selected and the movable pin (usually the same) are drawn last, on top of the others.
    const highlighted: { pin: Pin; x: number; y: number }[] = [];
    let previewFrom: { x: number; y: number } | null = null;
    for (const i of visible) {
      const pin = pins[i]!;
      if (pin.id === hiddenId) continue;
      const x = Math.round(px[i]! + offsetX);
      const y = Math.round(py[i]! + offsetY);
      if (preview?.pin.id === pin.id) {
        previewFrom = { x, y };
        continue;
      }
      if (pin.id === selectedId || pin.id === movableId) {
        highlighted.push({ pin, x, y });
        continue;
      }
      const sprite = sprites.get(pin.style, pin.mark, compact);
      const left = x - sprite.anchorX;
      const top = y - sprite.anchorY;
      hits.add(pin, left, top, sprite.width, sprite.height);
      if (strips && !touches(strips, left, top, sprite.width, sprite.height)) continue;
      if (frame.chosen?.has(pin.id)) this.drawChosenRing(x, y - sprite.anchorY + sprite.height / 2, Math.max(sprite.width, sprite.height) / 2 + 3);
      ctx.drawImage(sprite.canvas, left, top, sprite.width, sprite.height);
    }
    let chosenInClusters = 0;
    shown.forEach((holding, k) => {
      const mark = clusters!.marks[shownClusters[k]!]!;
      const { x, y, r, held } = holding;
      hits.add(mark, x - r, y - r, 2 * r, 2 * r);
      chosenInClusters += held;
      // A cluster holding selected sites reaches further: its ring.
      const reach = held > 0 ? r + 8 : r + 4;
      if (strips && !touches(strips, x - reach, y - reach, 2 * reach, 2 * reach)) return;
      this.drawCluster(mark, x, y, r);
      if (held > 0) this.drawChosenRing(x, y, r + 5);
    });
    // "N selected" under the clusters that have room for it, over every disc.
    for (const k of tagged) {
      const reach = ChosenTags.reach(shown[k]!);
      if (!strips || touches(strips, reach.x, reach.y, reach.w, reach.h)) this.tags.draw(shown[k]!, this.palette);
    }
    // Names after every pin, so no pin covers a name; the order is the pins' (north first).
    if (withLabels) {
      for (const i of visible) {
        const pin = pins[i]!;
        if (pin.id === hiddenId || preview?.pin.id === pin.id) continue;
        // A highlighted pin's ring reaches past its sprite: its name starts clear of the ring.
        const clear = pin.id === selectedId || pin.id === movableId ? 8 : 0;
        this.drawLabel(pin.title, Math.round(px[i]! + offsetX) + clear, Math.round(py[i]! + offsetY), sprites.get(pin.style, pin.mark, false), strips);
      }
    } else {
      // Below the names' zoom the selected site still says its name: which pin its card is about.
      const selected = highlighted.find((h) => h.pin.id === selectedId);
      if (selected) {
        this.labels.reset();
        this.drawLabel(selected.pin.title, selected.x + 8, selected.y, sprites.get(selected.pin.style, selected.pin.mark, false), strips);
      }
    }
    // A moved pin is drawn at its proposed place, with a dashed line back to where it was.
    if (preview) {
      if (previewFrom) {
        ctx.save();
        ctx.setLineDash([6, 5]);
        ctx.lineWidth = 3;
        ctx.strokeStyle = this.palette.highlightOuter;
        ctx.beginPath();
        ctx.moveTo(previewFrom.x, previewFrom.y);
        ctx.lineTo(preview.x, preview.y);
        ctx.stroke();
        ctx.restore();
      }
      this.drawHighlighted(sprites.get(preview.pin.style, 'pending', false), Math.round(preview.x), Math.round(preview.y), preview.pin, hits, false);
    }
    for (const { pin, x, y } of highlighted) this.drawHighlighted(sprites.get(pin.style, pin.mark, false), x, y, pin, hits, pin.id === movableId);
    if (strips) ctx.restore();
    hits.end();
    this.painted = { minX: frame.minX, minY: frame.minY, zoom, compact, tags };

    // Sites on the canvas: a pin counts one, a cluster its members.
    const marks: Record<PinMark, number> = { none: 0, pending: 0, failed: 0, review: 0 };
    let drawn = 0;
    let clusterCount = 0;
    for (const item of hits.recorded) {
      if ('kind' in item) {
        drawn += item.count;
        clusterCount++;
        marks.pending += item.pending;
        marks.failed += item.failed;
        marks.review += item.review;
        marks.none += item.count - item.pending - item.failed - item.review;
      } else {
        drawn++;
        marks[item.mark]++;
      }
    }
    return { drawn, clusters: clusterCount, chosenInClusters, chosenTags: tagged.size, names: this.names, marks, compact, full: !shift };
  }

  /** A numbered disc; a small red dot when a member needs attention, else amber when one waits to be sent. */
  private drawCluster(mark: ClusterMark, x: number, y: number, r: number): void {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    const palette = this.palette;
    ctx.fillStyle = palette.clusterFill;
    ctx.fill();
    ctx.lineWidth = 3;
    ctx.strokeStyle = palette.clusterRing;
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x, y, r + 2, 0, Math.PI * 2);
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(0,0,0,0.55)';
    ctx.stroke();
    ctx.fillStyle = palette.clusterInk;
    ctx.font = `700 ${r >= 21 ? 13 : 14}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(clusterCountText(mark.count), x, y + 1);
    const attention = mark.failed + mark.review > 0;
    if (attention || mark.pending > 0) {
      const bx = x + r * 0.72;
      const by = y - r * 0.72;
      ctx.beginPath();
      ctx.arc(bx, by, 6, 0, Math.PI * 2);
      ctx.fillStyle = attention ? ATTENTION_FILL : PENDING_FILL;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = attention ? '#ffffff' : '#111111';
      ctx.stroke();
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  /** A site name right of its pin's head, on a halo of the opposite lightness; skipped when it would overlap another. */
  private drawLabel(text: string, x: number, y: number, sprite: Sprite, strips: Rect[] | null): void {
    if (!text) return;
    const ctx = this.ctx;
    let width = this.widths.get(text);
    if (width === undefined) {
      if (this.widths.size > 20_000) this.widths.clear();
      width = ctx.measureText(text).width;
      this.widths.set(text, width);
    }
    const left = x - sprite.anchorX + sprite.width - 4;
    const mid = y - sprite.anchorY + 22;
    const top = mid - 8;
    if (!this.labels.place(left - 2, top - 2, width + 4, 20)) return;
    this.names++;
    if (strips && !touches(strips, left - 3, top - 3, width + 6, 22)) return;
    ctx.font = LABEL_FONT;
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3.5;
    ctx.strokeStyle = this.palette.labelHalo;
    ctx.strokeText(text, left, mid + 1);
    ctx.fillStyle = this.palette.labelInk;
    ctx.fillText(text, left, mid + 1);
    ctx.textBaseline = 'alphabetic';
  }

  /** A ring in the highlight's colours, thinner than the selected pin's: "part of the selection". */
  private drawChosenRing(x: number, y: number, r: number): void {
    this.ctx.save();
    this.strokeHighlightRing(x, y, r, 4, 2);
    this.ctx.restore();
  }

  /** A circle stroked in the highlight's two colours, the inner (narrower) stroke over the outer one. */
  private strokeHighlightRing(x: number, y: number, r: number, outerWidth: number, innerWidth: number): void {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.lineWidth = outerWidth;
    ctx.strokeStyle = this.palette.highlightOuter;
    ctx.stroke();
    ctx.lineWidth = innerWidth;
    ctx.strokeStyle = this.palette.highlightInner;
    ctx.stroke();
  }

  /**
   * A thick black-and-yellow ring (light-and-yellow on a dark map) around the pin's head: visible on any tile and in sunlight. A pin
   * in move mode also gets a dashed black-and-white ring further out: "this one can be picked up".
   */
  private drawHighlighted(sprite: Sprite, x: number, y: number, pin: Pin, hits: HitGrid<Pin | ClusterMark>, movable: boolean): void {
    const ctx = this.ctx;
    const headY = y - sprite.anchorY + 6 + 16;
    if (movable) {
      ctx.save();
      ctx.beginPath();
      ctx.arc(x, headY, 29, 0, Math.PI * 2);
      ctx.lineWidth = 6;
      ctx.strokeStyle = '#fff';
      ctx.stroke();
      ctx.setLineDash([7, 5]);
      ctx.lineWidth = 4;
      ctx.strokeStyle = '#111';
      ctx.stroke();
      ctx.restore();
    }
    this.strokeHighlightRing(x, headY, 21, 7, 4);
    const left = x - sprite.anchorX;
    const top = y - sprite.anchorY;
    ctx.drawImage(sprite.canvas, left, top, sprite.width, sprite.height);
    hits.add(pin, left, top, sprite.width, sprite.height);
  }
}
