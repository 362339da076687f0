// Painting: draws one frame of pins on the layer's canvas as drawImage calls of pre-rendered sprites,
// and records the box of every pin drawn in the hit grid, so what can be hit is what is seen. After a
// pan at the same zoom it shifts the last picture and draws only the strips the pan uncovered. It
// speaks canvas CSS pixels only: the layer turns the map's state into a Frame.
import { touches, uncovered, type Rect } from '../geometry';
import type { PinMark, Sprite, SpriteSet } from '../sprites';
import type { HitGrid } from './hitGrid';
import type { Projected } from './pinSet';
import type { DrawInfo, Pin } from './types';

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
  /** False when something besides the view changed (data, selection): everything is drawn. */
  mayShift: boolean;
}

/** Pins this far outside the canvas are still drawn: their sprite can reach into it. */
const MARGIN = 60;

export class PinPainter {
  /** Where and how the canvas was last drawn, so a pan at the same zoom can shift the picture. */
  private painted: { minX: number; minY: number; zoom: number; compact: boolean } | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly ctx: CanvasRenderingContext2D,
    private readonly options: PainterOptions,
  ) {}

  /** The picture is gone (the canvas was resized or removed): the next paint draws everything. */
  forget(): void {
    this.painted = null;
  }

  paint(projected: Projected, sprites: SpriteSet, frame: Frame, hits: HitGrid<Pin>): DrawInfo {
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

    hits.begin(visible.length + 2);
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
      ctx.drawImage(sprite.canvas, left, top, sprite.width, sprite.height);
    }
    // A moved pin is drawn at its proposed place, with a dashed line back to where it was.
    if (preview) {
      if (previewFrom) {
        ctx.save();
        ctx.setLineDash([6, 5]);
        ctx.lineWidth = 3;
        ctx.strokeStyle = '#111';
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
    this.painted = { minX: frame.minX, minY: frame.minY, zoom, compact };

    const marks: Record<PinMark, number> = { none: 0, pending: 0, failed: 0, review: 0 };
    for (const pin of hits.recorded) marks[pin.mark]++;
    return { drawn: hits.recorded.length, marks, compact, full: !shift };
  }

  /**
   * A thick black-and-yellow ring around the pin's head: visible on any tile and in sunlight. A pin
   * in move mode also gets a dashed black-and-white ring further out: "this one can be picked up".
   */
  private drawHighlighted(sprite: Sprite, x: number, y: number, pin: Pin, hits: HitGrid<Pin>, movable: boolean): void {
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
    ctx.beginPath();
    ctx.arc(x, headY, 21, 0, Math.PI * 2);
    ctx.lineWidth = 7;
    ctx.strokeStyle = '#111';
    ctx.stroke();
    ctx.lineWidth = 4;
    ctx.strokeStyle = '#ffd400';
    ctx.stroke();
    const left = x - sprite.anchorX;
    const top = y - sprite.anchorY;
    ctx.drawImage(sprite.canvas, left, top, sprite.width, sprite.height);
    hits.add(pin, left, top, sprite.width, sprite.height);
  }
}
