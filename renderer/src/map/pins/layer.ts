// Plumbing: the Leaflet side of the pin layer. It owns the canvas's life on the map (pane, size and
// position: a pan moves the canvas, a zoom animation scales the last picture, the end of a move
// redraws), batches data changes into one redraw per frame, and turns pointer input into the
// callbacks the React side listens to. Painting, hit testing and dragging are its parts.
import L from 'leaflet';
import { loadSprites, type Sprite, type SpriteSet } from '../sprites';
import { PinDrag, type PinDragHost, type PinPress, type PinPressEventType } from './drag';
import { HitGrid } from './hitGrid';
import { PinPainter } from './painter';
import { PinSet } from './pinSet';
import type { DrawInfo, MovePreview, Pin } from './types';

export interface PinLayerOptions {
  /** Extra canvas around the view (fraction of its size), so short pans show pins before the redraw. */
  padding: number;
  /** More pins than this in view: draw compact dots instead of full pins. */
  compactAbove: number;
  /** Below this zoom: always compact dots. */
  compactBelowZoom: number;
  /** Whether pins can be dragged once the layer is on a map (then switch with `dragging`). */
  draggable: boolean;
  onPinClick?: (id: string) => void;
  onPinDrop?: (id: string, latlng: L.LatLng) => void;
  onHover?: (pin: Pin | null, containerPoint: L.Point | null) => void;
  /** Called after every redraw (tests and the benchmark wait for it). */
  onDrawn?: (info: DrawInfo) => void;
}

const DEFAULTS: PinLayerOptions = {
  padding: 0.3,
  compactAbove: 600,
  compactBelowZoom: 7,
  draggable: true,
};

export class PinLayer extends L.Layer implements PinDragHost {
  /** Pin dragging, while the layer is on a map (as Leaflet's Marker#dragging): enable() or disable() it. */
  dragging: PinDrag | null = null;
  private readonly opts: PinLayerOptions;
  private readonly pins = new PinSet();
  private readonly hits = new HitGrid<Pin>();
  private painter: PinPainter | null = null;
  private sprites: SpriteSet | null = null;
  private canvas: HTMLCanvasElement | null = null;
  private leafletMap: L.Map | null = null;
  private boundsMin = L.point(0, 0);
  private viewCenter = L.latLng(0, 0);
  private viewZoom = 0;
  private cssWidth = 0;
  private cssHeight = 0;
  private frame = 0;
  private timer = 0;
  private fullRedrawNeeded = true;
  /** How long the last full redraw took (ms): decides how eagerly data changes redraw. */
  private lastFullCost = 0;
  private selectedId: string | null = null;
  private hiddenId: string | null = null;
  private preview: MovePreview | null = null;
  private press: PinPress | null = null;
  private swallowClick = false;
  private hoverId: string | null = null;

  constructor(options: Partial<PinLayerOptions> = {}) {
    super();
    this.opts = { ...DEFAULTS, ...options };
  }

  // ---------- data ----------

  /** Replaces every pin. */
  setPins(pins: Iterable<Pin>): void {
    this.pins.replace(pins);
    this.scheduleRedraw();
  }

  /** Adds or replaces some pins and removes others, in one redraw. */
  update(changed: Iterable<Pin>, removedIds: Iterable<string> = []): void {
    this.pins.update(changed, removedIds);
    if (this.preview && !this.pins.get(this.preview.id)) this.preview = null;
    this.scheduleRedraw();
  }

  getPin(id: string): Pin | undefined {
    return this.pins.get(id);
  }

  get size(): number {
    return this.pins.size;
  }

  /** The box around every pin, or null when there is none. */
  getBounds(): L.LatLngBounds | null {
    return this.pins.bounds();
  }

  setSelected(id: string | null): void {
    if (this.selectedId === id) return;
    this.selectedId = id;
    this.scheduleRedraw(true);
  }

  /** Shows a pin at a proposed new position until the move is confirmed or cancelled. */
  setMovePreview(preview: MovePreview | null): void {
    this.preview = preview;
    this.scheduleRedraw(true);
  }

  /** The topmost pin under a point given in map-container pixels. */
  pinAt(containerPoint: L.Point): Pin | null {
    const map = this.leafletMap;
    if (!map) return null;
    const p = map.containerPointToLayerPoint(containerPoint).subtract(this.boundsMin);
    return this.hits.at(p.x, p.y);
  }

  /** Where a pin's anchor is, in map-container pixels (null when it is not drawn). */
  containerPointOf(id: string): L.Point | null {
    const map = this.leafletMap;
    const pin = this.pins.get(id);
    if (!map || !pin) return null;
    return map.latLngToContainerPoint([pin.lat, pin.lng]);
  }

  // ---------- Leaflet plumbing ----------

  override onAdd(map: L.Map): this {
    this.leafletMap = map;
    const pane = map.getPane('sitewalkPins') ?? map.createPane('sitewalkPins');
    pane.style.zIndex = '450';
    const canvas = L.DomUtil.create('canvas', 'sw-pin-canvas leaflet-zoom-animated', pane);
    canvas.setAttribute('aria-hidden', 'true');
    this.canvas = canvas;
    const ctx = canvas.getContext('2d');
    this.painter = ctx ? new PinPainter(canvas, ctx, this.opts) : null;
    for (const [type, listener, capture] of this.domListeners) canvas.addEventListener(type, listener, capture);
    this.dragging = new PinDrag(map, this);
    if (this.opts.draggable) this.dragging.enable();
    void loadSprites().then((sprites) => {
      this.sprites = sprites;
      this.scheduleRedraw(true);
    });
    this.reposition();
    return this;
  }

  override onRemove(): this {
    if (this.dragging) {
      // Re-added later, the layer drags again only if it did now.
      this.opts.draggable = this.dragging.enabled();
      this.dragging.disable();
      this.dragging = null;
    }
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.timer = 0;
    const canvas = this.canvas;
    if (canvas) {
      for (const [type, listener, capture] of this.domListeners) canvas.removeEventListener(type, listener, capture);
      canvas.remove();
    }
    this.painter = null;
    this.canvas = null;
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
      this.painter?.forget();
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

  /**
   * Draws the pins now: after a pan at the same zoom only the uncovered strips, else everything.
   * Public for the benchmark; the layer calls it on its own.
   */
  redraw(): void {
    const map = this.leafletMap;
    const painter = this.painter;
    const sprites = this.sprites;
    if (!map || !painter || !sprites) return;
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.timer = 0;
    const started = performance.now();
    const zoom = map.getZoom();
    const projected = this.pins.project(map.options.crs ?? L.CRS.EPSG3857, zoom);
    const origin = map.getPixelOrigin();
    const min = this.boundsMin;
    const previewPin = this.preview && this.pins.get(this.preview.id);
    const previewAt = previewPin ? map.latLngToLayerPoint([this.preview!.lat, this.preview!.lng]).subtract(min) : null;
    const info = painter.paint(
      projected,
      sprites,
      {
        width: this.cssWidth,
        height: this.cssHeight,
        minX: min.x,
        minY: min.y,
        offsetX: -origin.x - min.x,
        offsetY: -origin.y - min.y,
        zoom,
        selectedId: this.selectedId,
        hiddenId: this.hiddenId,
        preview: previewPin && previewAt ? { pin: previewPin, x: previewAt.x, y: previewAt.y } : null,
        mayShift: !this.fullRedrawNeeded && this.preview === null,
      },
      this.hits,
    );
    if (info.full) {
      this.fullRedrawNeeded = false;
      this.lastFullCost = performance.now() - started;
    }
    this.opts.onDrawn?.(info);
  }

  // ---------- what dragging asks of the layer ----------

  shownAt(id: string): L.LatLng | null {
    if (this.preview?.id === id) return L.latLng(this.preview.lat, this.preview.lng);
    const pin = this.pins.get(id);
    return pin ? L.latLng(pin.lat, pin.lng) : null;
  }

  dragSprite(pin: Pin): Sprite | null {
    return this.sprites?.get(pin.style, 'pending', false) ?? null;
  }

  hideWhileDragged(id: string | null): void {
    this.hiddenId = id;
    if (id === null) {
      this.scheduleRedraw(true);
      return;
    }
    // The ghost replaces the pin in the same frame: never both, never neither.
    this.preview = null;
    this.redraw();
  }

  setCursor(cursor: string): void {
    if (this.canvas) this.canvas.style.cursor = cursor;
  }

  drop(id: string, latlng: L.LatLng): void {
    this.setMovePreview({ id, lat: latlng.lat, lng: latlng.lng });
    this.opts.onPinDrop?.(id, latlng);
  }

  // ---------- pointer input ----------

  /** The canvas's DOM listeners, in one table so adding and removing them cannot drift apart. */
  private get domListeners(): ReadonlyArray<[string, EventListener, boolean]> {
    return [
      ['pointerdown', this.onPointerDown as EventListener, false],
      ['pointermove', this.onPointerMove as EventListener, false],
      ['pointerup', this.onPointerUp as EventListener, false],
      ['pointercancel', this.onPointerCancel, false],
      ['pointerleave', this.onPointerLeave, false],
      ['mousedown', this.onMouseDown as EventListener, false],
      // Capture: the click must be stopped before Leaflet's map sees it.
      ['click', this.onClick as EventListener, true],
    ];
  }

  private firePress(type: PinPressEventType, press: PinPress, containerPoint: L.Point | null): void {
    this.fire(type, { press, containerPoint });
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    this.swallowClick = false;
    const map = this.leafletMap;
    if (e.button !== 0 || !map) return;
    const point = map.mouseEventToContainerPoint(e);
    const pin = this.pinAt(point);
    if (!pin) return;
    // Keep the map from starting its own drag: Leaflet listens for pointerdown/mousedown above us.
    e.preventDefault();
    e.stopPropagation();
    this.press = { pin, pointerId: e.pointerId, dragging: false };
    this.canvas?.setPointerCapture?.(e.pointerId);
    this.firePress('pinpress', this.press, point);
  };

  private readonly onMouseDown = (e: MouseEvent): void => {
    if (this.press) e.stopPropagation();
  };

  private readonly onPointerMove = (e: PointerEvent): void => {
    const map = this.leafletMap;
    if (!map) return;
    const point = map.mouseEventToContainerPoint(e);
    const press = this.press;
    if (press && press.pointerId === e.pointerId) {
      e.stopPropagation();
      this.firePress('pinpressmove', press, point);
      return;
    }
    const pin = this.pinAt(point);
    this.setCursor(pin ? (this.dragging?.enabled() ? 'grab' : 'pointer') : '');
    if ((pin?.id ?? null) !== this.hoverId) {
      this.hoverId = pin?.id ?? null;
      this.opts.onHover?.(pin, pin ? point : null);
    }
  };

  private readonly onPointerUp = (e: PointerEvent): void => {
    const press = this.press;
    const map = this.leafletMap;
    if (!press || press.pointerId !== e.pointerId || !map) return;
    e.stopPropagation();
    this.press = null;
    this.swallowClick = true;
    this.canvas?.releasePointerCapture?.(e.pointerId);
    if (press.dragging) this.firePress('pinpressend', press, map.mouseEventToContainerPoint(e));
    else this.opts.onPinClick?.(press.pin.id);
  };

  private readonly onPointerCancel = (): void => {
    const press = this.press;
    this.press = null;
    if (press?.dragging) this.firePress('pinpresscancel', press, null);
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
}
