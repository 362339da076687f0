// One Leaflet layer that draws every site pin on a single canvas: projected positions are cached per
// zoom, a redraw is one pass of drawImage calls over pre-rendered sprites, and hit testing uses a
// screen grid built during that pass. Panning only moves the canvas (like Leaflet's own renderers);
// the canvas is redrawn at the end of a move. It also owns pin clicks and pin dragging, so a site can
// be moved by hand without 10,000 DOM markers. Data changes are batched into one redraw per frame
// (spaced out further when a full redraw is slow); a pan only draws the strips it uncovers.
import L from 'leaflet';
import { loadSprites, type PinMark, type PinStyle, type Sprite, type SpriteSet } from './sprites';
import { touches, uncovered, type Rect } from './geometry';

export interface Pin {
  id: string;
  lat: number;
  lng: number;
  style: PinStyle;
  mark: PinMark;
  /** Shown in the hover tooltip. */
  title: string;
}

export interface PinLayerOptions {
  /** Extra canvas around the view (fraction of its size), so short pans show pins before the redraw. */
  padding: number;
  /** More pins than this in view: draw compact dots instead of full pins. */
  compactAbove: number;
  /** Below this zoom: always compact dots. */
  compactBelowZoom: number;
  /** Whether pins may be dragged right now (asked at press time). */
  canDrag: () => boolean;
  onPinClick?: (id: string) => void;
  onPinDrop?: (id: string, latlng: L.LatLng) => void;
  onHover?: (pin: Pin | null, containerPoint: L.Point | null) => void;
  /** Called after every redraw (tests and the benchmark wait for it). */
  onDrawn?: (info: DrawInfo) => void;
}

export interface DrawInfo {
  /** Pins on the canvas now (view plus padding). */
  drawn: number;
  /** Of those, how many carry each state badge. */
  marks: Record<PinMark, number>;
  compact: boolean;
  /** False when only the strips uncovered by a pan were drawn. */
  full: boolean;
}

const DEFAULTS: PinLayerOptions = {
  padding: 0.3,
  compactAbove: 600,
  compactBelowZoom: 7,
  canDrag: () => true,
};

const DRAG_THRESHOLD_PX = 6;
/** Extra hit margin around each pin, for gloves and touch. */
const HIT_SLOP_PX = 5;
const CELL = 48;

interface Press {
  pin: Pin;
  pointerId: number;
  startX: number;
  startY: number;
  /** Pointer minus the pin's anchor, in container pixels: the pin keeps its grip while dragged. */
  gripX: number;
  gripY: number;
  dragging: boolean;
}

export class PinLayer extends L.Layer {
  private readonly opts: PinLayerOptions;
  private readonly pins = new Map<string, Pin>();
  private order: Pin[] = [];
  private orderDirty = true;
  private px = new Float64Array(0);
  private py = new Float64Array(0);
  private projectedZoom = NaN;
  private sprites: SpriteSet | null = null;
  private canvas: HTMLCanvasElement | null = null;
  private ctx: CanvasRenderingContext2D | null = null;
  private ghost: HTMLCanvasElement | null = null;
  private leafletMap: L.Map | null = null;
  private boundsMin = L.point(0, 0);
  private viewCenter = L.latLng(0, 0);
  private viewZoom = 0;
  private cssWidth = 0;
  private cssHeight = 0;
  private frame = 0;
  private timer = 0;
  /** Where and how the canvas was last drawn, so a pan at the same zoom can shift the picture. */
  private painted: { minX: number; minY: number; zoom: number; compact: boolean } | null = null;
  private fullRedrawNeeded = true;
  /** How long the last full redraw took (ms): decides how eagerly data changes redraw. */
  private lastFullCost = 0;
  private selectedId: string | null = null;
  private hiddenId: string | null = null;
  private preview: { id: string; lat: number; lng: number } | null = null;
  // Hit testing: rectangles of drawn pins (canvas CSS pixels), bucketed in a grid.
  private hitPins: Pin[] = [];
  private hitRects = new Float32Array(0);
  private hitGrid = new Map<number, number[]>();
  private press: Press | null = null;
  private swallowClick = false;
  private hoverId: string | null = null;

  constructor(options: Partial<PinLayerOptions> = {}) {
    super();
    this.opts = { ...DEFAULTS, ...options };
  }

  // ---------- data ----------

  /** Replaces every pin. */
  setPins(pins: Iterable<Pin>): void {
    this.pins.clear();
    for (const pin of pins) this.pins.set(pin.id, pin);
    this.dataChanged();
  }

  /** Adds or replaces some pins and removes others, in one redraw. */
  update(changed: Iterable<Pin>, removedIds: Iterable<string> = []): void {
    for (const pin of changed) this.pins.set(pin.id, pin);
    for (const id of removedIds) this.pins.delete(id);
    if (this.preview && !this.pins.has(this.preview.id)) this.preview = null;
    this.dataChanged();
  }

  getPin(id: string): Pin | undefined {
    return this.pins.get(id);
  }

  get size(): number {
    return this.pins.size;
  }

  /** The box around every pin, or null when there is none. */
  getBounds(): L.LatLngBounds | null {
    if (this.pins.size === 0) return null;
    let s = 90, w = 180, n = -90, e = -180;
    for (const pin of this.pins.values()) {
      if (pin.lat < s) s = pin.lat;
      if (pin.lat > n) n = pin.lat;
      if (pin.lng < w) w = pin.lng;
      if (pin.lng > e) e = pin.lng;
    }
    return L.latLngBounds([s, w], [n, e]);
  }

  setSelected(id: string | null): void {
    if (this.selectedId === id) return;
    this.selectedId = id;
    this.scheduleRedraw(true);
  }

  /** Shows a pin at a proposed new position until the move is confirmed or cancelled. */
  setMovePreview(preview: { id: string; lat: number; lng: number } | null): void {
    this.preview = preview;
    this.scheduleRedraw(true);
  }

  private dataChanged(): void {
    this.orderDirty = true;
    this.projectedZoom = NaN;
    this.scheduleRedraw();
  }

  // ---------- Leaflet plumbing ----------

  override onAdd(map: L.Map): this {
    this.leafletMap = map;
    const pane = map.getPane('sitewalkPins') ?? map.createPane('sitewalkPins');
    pane.style.zIndex = '450';
    const canvas = L.DomUtil.create('canvas', 'sw-pin-canvas leaflet-zoom-animated', pane);
    canvas.setAttribute('aria-hidden', 'true');
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('pointermove', this.onPointerMove);
    canvas.addEventListener('pointerup', this.onPointerUp);
    canvas.addEventListener('pointercancel', this.onPointerCancel);
    canvas.addEventListener('pointerleave', this.onPointerLeave);
    canvas.addEventListener('mousedown', this.onMouseDown);
    canvas.addEventListener('click', this.onClick, true);
    void loadSprites().then((sprites) => {
      this.sprites = sprites;
      this.scheduleRedraw(true);
    });
    this.reposition();
    return this;
  }

  override onRemove(): this {
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.timer = 0;
    this.painted = null;
    const canvas = this.canvas;
    if (canvas) {
      canvas.removeEventListener('pointerdown', this.onPointerDown);
      canvas.removeEventListener('pointermove', this.onPointerMove);
      canvas.removeEventListener('pointerup', this.onPointerUp);
      canvas.removeEventListener('pointercancel', this.onPointerCancel);
      canvas.removeEventListener('pointerleave', this.onPointerLeave);
      canvas.removeEventListener('mousedown', this.onMouseDown);
      canvas.removeEventListener('click', this.onClick, true);
      canvas.remove();
    }
    this.ghost?.remove();
    this.ghost = null;
    this.canvas = null;
    this.ctx = null;
    this.leafletMap = null;
    return this;
  }

  override getEvents(): { [name: string]: L.LeafletEventHandlerFn } {
    return {
      viewreset: () => this.reposition(),
      moveend: () => this.reposition(),
      zoom: () => this.zoomTransform(this.leafletMap!.getCenter(), this.leafletMap!.getZoom()),
      zoomanim: (e) => {
        const ev = e as L.ZoomAnimEvent;
        this.zoomTransform(ev.center, ev.zoom);
      },
      resize: () => this.reposition(),
    };
  }

  /** During a zoom animation the last drawing is scaled, as Leaflet's own renderers do. */
  private zoomTransform(center: L.LatLng, zoom: number): void {
    const map = this.leafletMap;
    if (!map || !this.canvas) return;
    const scale = map.getZoomScale(zoom, this.viewZoom);
    const size = map.getSize();
    const viewHalf = size.multiplyBy(0.5 + this.opts.padding);
    const currentCenterPoint = map.project(this.viewCenter, zoom);
    const panePos = L.DomUtil.getPosition(map.getPane('mapPane')!);
    const newPixelOrigin = map.project(center, zoom).subtract(size.divideBy(2)).add(panePos).round();
    const topLeft = viewHalf.multiplyBy(-scale).add(currentCenterPoint).subtract(newPixelOrigin);
    L.DomUtil.setTransform(this.canvas, topLeft, scale);
  }

  /** Moves and sizes the canvas to cover the view plus padding, then redraws now. */
  private reposition(): void {
    const map = this.leafletMap;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const p = this.opts.padding;
    const size = map.getSize();
    const min = map.containerPointToLayerPoint(size.multiplyBy(-p)).round();
    const full = size.multiplyBy(1 + 2 * p).round();
    this.boundsMin = min;
    this.viewCenter = map.getCenter();
    this.viewZoom = map.getZoom();
    L.DomUtil.setPosition(canvas, min);
    const ratio = this.sprites?.ratio ?? (globalThis.devicePixelRatio || 1);
    if (this.cssWidth !== full.x || this.cssHeight !== full.y || canvas.width !== Math.round(full.x * ratio)) {
      this.cssWidth = full.x;
      this.cssHeight = full.y;
      canvas.width = Math.round(full.x * ratio);
      canvas.height = Math.round(full.y * ratio);
      canvas.style.width = `${full.x}px`;
      canvas.style.height = `${full.y}px`;
      this.painted = null;
    }
    this.redraw();
  }

  /**
   * Data changes redraw on the next frame; when a full redraw is expensive (thousands of pins on a
   * slow machine) they are spaced out, so a sync that changes every site keeps the UI responsive.
   */
  private scheduleRedraw(urgent = false): void {
    this.fullRedrawNeeded = true;
    if (!this.leafletMap) return;
    if (urgent && this.timer) {
      clearTimeout(this.timer);
      this.timer = 0;
    }
    if (this.frame || this.timer) return;
    const run = () => {
      this.frame = 0;
      this.timer = 0;
      this.redraw();
    };
    if (!urgent && this.lastFullCost > 16) this.timer = window.setTimeout(run, Math.min(500, this.lastFullCost * 4));
    else this.frame = requestAnimationFrame(run);
  }

  // ---------- drawing ----------

  private ensureOrder(): void {
    if (!this.orderDirty) return;
    // North first, so southern pins (lower on screen) overlap the ones above them, as on paper.
    this.order = [...this.pins.values()].sort((a, b) => b.lat - a.lat);
    this.orderDirty = false;
    this.projectedZoom = NaN;
  }

  private ensureProjected(zoom: number): void {
    if (this.projectedZoom === zoom && this.px.length === this.order.length) return;
    const map = this.leafletMap!;
    const n = this.order.length;
    if (this.px.length !== n) {
      this.px = new Float64Array(n);
      this.py = new Float64Array(n);
    }
    const crs = map.options.crs ?? L.CRS.EPSG3857;
    for (let i = 0; i < n; i++) {
      const pin = this.order[i]!;
      const pt = crs.latLngToPoint(L.latLng(pin.lat, pin.lng), zoom);
      this.px[i] = pt.x;
      this.py[i] = pt.y;
    }
    this.projectedZoom = zoom;
  }

  /**
   * Draws the pins now. After a pan at the same zoom the previous picture is shifted and only the
   * newly uncovered strips are drawn; anything else (zoom, data, selection) draws everything.
   * Public for the benchmark; the layer calls it on its own.
   */
  redraw(): void {
    const map = this.leafletMap;
    const ctx = this.ctx;
    const canvas = this.canvas;
    const sprites = this.sprites;
    if (!map || !ctx || !canvas || !sprites) return;
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.timer = 0;
    const started = performance.now();
    this.ensureOrder();
    const zoom = map.getZoom();
    this.ensureProjected(zoom);
    const origin = map.getPixelOrigin();
    const offX = -origin.x - this.boundsMin.x;
    const offY = -origin.y - this.boundsMin.y;
    const w = this.cssWidth;
    const h = this.cssHeight;
    const margin = 60;
    const ratio = sprites.ratio;

    const visible: number[] = [];
    const n = this.order.length;
    for (let i = 0; i < n; i++) {
      const x = this.px[i]! + offX;
      const y = this.py[i]! + offY;
      if (x > -margin && x < w + margin && y > -margin && y < h + margin) visible.push(i);
    }
    const compact = zoom < this.opts.compactBelowZoom || visible.length > this.opts.compactAbove;

    const before = this.painted;
    const dx = before ? this.boundsMin.x - before.minX : 0;
    const dy = before ? this.boundsMin.y - before.minY : 0;
    const shift =
      before !== null &&
      !this.fullRedrawNeeded &&
      this.preview === null &&
      this.hiddenId === null &&
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

    const hitPins: Pin[] = [];
    const rects = new Float32Array((visible.length + 2) * 4);
    let selected: { pin: Pin; x: number; y: number } | null = null;
    let previewFrom: { x: number; y: number } | null = null;

    for (const i of visible) {
      const pin = this.order[i]!;
      if (pin.id === this.hiddenId) continue;
      const x = Math.round(this.px[i]! + offX);
      const y = Math.round(this.py[i]! + offY);
      if (this.preview?.id === pin.id) {
        previewFrom = { x, y };
        continue;
      }
      if (pin.id === this.selectedId) {
        selected = { pin, x, y };
        continue;
      }
      const sprite = sprites.get(pin.style, pin.mark, compact);
      const left = x - sprite.anchorX;
      const top = y - sprite.anchorY;
      this.recordHit(hitPins, rects, pin, sprite, x, y);
      if (strips && !touches(strips, left, top, sprite.width, sprite.height)) continue;
      ctx.drawImage(sprite.canvas, left, top, sprite.width, sprite.height);
    }
    // A moved pin is drawn at its proposed place, with a dashed line back to where it was.
    if (this.preview) {
      const pin = this.pins.get(this.preview.id);
      if (pin) {
        const to = map.latLngToLayerPoint([this.preview.lat, this.preview.lng]).subtract(this.boundsMin);
        if (previewFrom) {
          ctx.save();
          ctx.setLineDash([6, 5]);
          ctx.lineWidth = 3;
          ctx.strokeStyle = '#111';
          ctx.beginPath();
          ctx.moveTo(previewFrom.x, previewFrom.y);
          ctx.lineTo(to.x, to.y);
          ctx.stroke();
          ctx.restore();
        }
        this.drawHighlighted(ctx, sprites.get(pin.style, 'pending', false), Math.round(to.x), Math.round(to.y), hitPins, rects, pin);
      }
    }
    if (selected) {
      this.drawHighlighted(ctx, sprites.get(selected.pin.style, selected.pin.mark, false), selected.x, selected.y, hitPins, rects, selected.pin);
    }
    if (strips) ctx.restore();
    this.hitPins = hitPins;
    this.hitRects = rects;
    this.buildGrid();
    this.painted = { minX: this.boundsMin.x, minY: this.boundsMin.y, zoom, compact };
    if (!shift) {
      this.fullRedrawNeeded = false;
      this.lastFullCost = performance.now() - started;
    }
    if (this.opts.onDrawn) {
      const marks: Record<PinMark, number> = { none: 0, pending: 0, failed: 0, review: 0 };
      for (const pin of hitPins) marks[pin.mark]++;
      this.opts.onDrawn({ drawn: hitPins.length, marks, compact, full: !shift });
    }
  }

  private drawHighlighted(ctx: CanvasRenderingContext2D, sprite: Sprite, x: number, y: number, hitPins: Pin[], rects: Float32Array, pin: Pin): void {
    // A thick black-and-yellow ring around the head: visible on any tile and in sunlight.
    const headX = x;
    const headY = y - sprite.anchorY + 6 + 16;
    ctx.beginPath();
    ctx.arc(headX, headY, 21, 0, Math.PI * 2);
    ctx.lineWidth = 7;
    ctx.strokeStyle = '#111';
    ctx.stroke();
    ctx.lineWidth = 4;
    ctx.strokeStyle = '#ffd400';
    ctx.stroke();
    ctx.drawImage(sprite.canvas, x - sprite.anchorX, y - sprite.anchorY, sprite.width, sprite.height);
    this.recordHit(hitPins, rects, pin, sprite, x, y);
  }

  private recordHit(hitPins: Pin[], rects: Float32Array, pin: Pin, sprite: Sprite, x: number, y: number): void {
    const k = hitPins.length;
    if ((k + 1) * 4 > rects.length) return;
    hitPins.push(pin);
    rects[k * 4] = x - sprite.anchorX - HIT_SLOP_PX;
    rects[k * 4 + 1] = y - sprite.anchorY - HIT_SLOP_PX;
    rects[k * 4 + 2] = x - sprite.anchorX + sprite.width + HIT_SLOP_PX;
    rects[k * 4 + 3] = y - sprite.anchorY + sprite.height + HIT_SLOP_PX;
  }

  private buildGrid(): void {
    const grid = new Map<number, number[]>();
    const rects = this.hitRects;
    for (let k = 0; k < this.hitPins.length; k++) {
      const c0 = Math.floor(rects[k * 4]! / CELL);
      const r0 = Math.floor(rects[k * 4 + 1]! / CELL);
      const c1 = Math.floor(rects[k * 4 + 2]! / CELL);
      const r1 = Math.floor(rects[k * 4 + 3]! / CELL);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const key = r * 100_000 + c;
          const bucket = grid.get(key);
          if (bucket) bucket.push(k);
          else grid.set(key, [k]);
        }
      }
    }
    this.hitGrid = grid;
  }

  /** The topmost pin under a point given in map-container pixels. */
  pinAt(containerPoint: L.Point): Pin | null {
    const map = this.leafletMap;
    if (!map) return null;
    const p = map.containerPointToLayerPoint(containerPoint).subtract(this.boundsMin);
    const bucket = this.hitGrid.get(Math.floor(p.y / CELL) * 100_000 + Math.floor(p.x / CELL));
    if (!bucket) return null;
    const rects = this.hitRects;
    let best = -1;
    let bestDistance = Infinity;
    for (const k of bucket) {
      if (p.x >= rects[k * 4]! && p.x <= rects[k * 4 + 2]! && p.y >= rects[k * 4 + 1]! && p.y <= rects[k * 4 + 3]!) {
        // Later-drawn pins are on top; among overlapping ones prefer the nearest centre so a
        // crowded spot still picks the pin the finger is on.
        const cx = (rects[k * 4]! + rects[k * 4 + 2]!) / 2;
        const cy = (rects[k * 4 + 1]! + rects[k * 4 + 3]!) / 2;
        const d = (cx - p.x) ** 2 + (cy - p.y) ** 2;
        if (d <= bestDistance) {
          best = k;
          bestDistance = d;
        }
      }
    }
    return best >= 0 ? this.hitPins[best]! : null;
  }

  /** Where a pin's anchor is, in map-container pixels (null when it is not drawn). */
  containerPointOf(id: string): L.Point | null {
    const map = this.leafletMap;
    const pin = this.pins.get(id);
    if (!map || !pin) return null;
    return map.latLngToContainerPoint([pin.lat, pin.lng]);
  }

  // ---------- pointer handling ----------

  private containerPoint(e: PointerEvent | MouseEvent): L.Point {
    return this.leafletMap!.mouseEventToContainerPoint(e);
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    this.swallowClick = false;
    if (e.button !== 0 || !this.leafletMap) return;
    const point = this.containerPoint(e);
    const pin = this.pinAt(point);
    if (!pin) return;
    // Keep the map from starting its own drag: Leaflet listens for pointerdown/mousedown above us.
    e.preventDefault();
    e.stopPropagation();
    const anchor = this.leafletMap.latLngToContainerPoint(this.preview?.id === pin.id ? [this.preview.lat, this.preview.lng] : [pin.lat, pin.lng]);
    this.press = { pin, pointerId: e.pointerId, startX: point.x, startY: point.y, gripX: point.x - anchor.x, gripY: point.y - anchor.y, dragging: false };
    this.canvas?.setPointerCapture?.(e.pointerId);
  };

  private readonly onMouseDown = (e: MouseEvent): void => {
    if (this.press) e.stopPropagation();
  };

  private readonly onPointerMove = (e: PointerEvent): void => {
    const map = this.leafletMap;
    if (!map) return;
    const point = this.containerPoint(e);
    const press = this.press;
    if (press && press.pointerId === e.pointerId) {
      e.stopPropagation();
      if (!press.dragging) {
        if (Math.hypot(point.x - press.startX, point.y - press.startY) < DRAG_THRESHOLD_PX) return;
        if (!this.opts.canDrag()) return;
        press.dragging = true;
        this.startGhost(press.pin);
      }
      this.moveGhost(point.x - press.gripX, point.y - press.gripY);
      return;
    }
    const pin = this.pinAt(point);
    if (this.canvas) this.canvas.style.cursor = pin ? (this.opts.canDrag() ? 'grab' : 'pointer') : '';
    if ((pin?.id ?? null) !== this.hoverId) {
      this.hoverId = pin?.id ?? null;
      this.opts.onHover?.(pin, pin ? point : null);
    }
  };

  private readonly onPointerUp = (e: PointerEvent): void => {
    const press = this.press;
    if (!press || press.pointerId !== e.pointerId || !this.leafletMap) return;
    e.stopPropagation();
    this.press = null;
    this.swallowClick = true;
    this.canvas?.releasePointerCapture?.(e.pointerId);
    if (press.dragging) {
      const point = this.containerPoint(e);
      const tip = L.point(point.x - press.gripX, point.y - press.gripY);
      const latlng = this.leafletMap.containerPointToLatLng(tip);
      this.endGhost();
      this.setMovePreview({ id: press.pin.id, lat: latlng.lat, lng: latlng.lng });
      this.opts.onPinDrop?.(press.pin.id, latlng);
    } else {
      this.opts.onPinClick?.(press.pin.id);
    }
  };

  private readonly onPointerCancel = (): void => {
    if (this.press?.dragging) this.endGhost();
    this.press = null;
  };

  private readonly onPointerLeave = (): void => {
    if (this.hoverId !== null) {
      this.hoverId = null;
      this.opts.onHover?.(null, null);
    }
  };

  private readonly onClick = (e: MouseEvent): void => {
    // The click after a pin press or drag belongs to the pin, not to the map underneath.
    if (this.swallowClick) {
      this.swallowClick = false;
      e.stopPropagation();
    }
  };

  private startGhost(pin: Pin): void {
    const map = this.leafletMap;
    if (!map || !this.sprites) return;
    const sprite = this.sprites.get(pin.style, 'pending', false);
    const ghost = document.createElement('canvas');
    ghost.className = 'sw-pin-ghost';
    ghost.width = sprite.canvas.width;
    ghost.height = sprite.canvas.height;
    ghost.style.width = `${sprite.width}px`;
    ghost.style.height = `${sprite.height}px`;
    ghost.dataset['anchorX'] = String(sprite.anchorX);
    ghost.dataset['anchorY'] = String(sprite.anchorY);
    ghost.getContext('2d')?.drawImage(sprite.canvas, 0, 0);
    map.getContainer().appendChild(ghost);
    this.ghost = ghost;
    this.hiddenId = pin.id;
    this.preview = null;
    this.redraw();
    if (this.canvas) this.canvas.style.cursor = 'grabbing';
  }

  private moveGhost(x: number, y: number): void {
    const ghost = this.ghost;
    if (!ghost) return;
    const ax = Number(ghost.dataset['anchorX']);
    const ay = Number(ghost.dataset['anchorY']);
    ghost.style.transform = `translate(${Math.round(x - ax)}px, ${Math.round(y - ay)}px)`;
  }

  private endGhost(): void {
    this.ghost?.remove();
    this.ghost = null;
    this.hiddenId = null;
    if (this.canvas) this.canvas.style.cursor = '';
    this.scheduleRedraw(true);
  }
}
