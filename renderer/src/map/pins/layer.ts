// Plumbing: the Leaflet side of the pin layer. It owns the canvas on the map (a pan moves it, a zoom
// animation scales the last picture, a move's end redraws), batches changes into one redraw a frame
// and turns pointer input into the React side's callbacks; painting, hit testing, dragging are parts.
// Pins are fixed unless one is made movable (setMovable): a press on any other pin is left to the
// map, so dragging always pans, and it is a click only if it was let go where it started.
// Up to a zoom, pins close together are drawn as clusters (clusters.ts); a click on one zooms to the
// box around its members. The selected pin and the one in move mode are always drawn on their own;
// a cluster holding sites selected to act on together says how many (chosen-clusters.ts).
import L from 'leaflet';
import { loadSprites, type Sprite, type SpriteSet } from '../../shared/sprites';
import { PinDrag, type PinDragHost } from './drag';
import { isCluster, type ClusterMark } from './clusters';
import { HitGrid } from './hit-grid';
import { PinPainter } from './painter';
import { PinPointer } from './pointer';
import { PIN_LAYER_DEFAULTS, type PinLayerOptions } from './options';
import { PinSet } from './pin-set';
import { LayerClusters } from './layer-clusters';
import { canvasBounds, zoomedCanvas } from './canvas-place';
import { isUnnamed, type MovePreview, type Pin } from './types';
import { LIGHT_MAP_PALETTE, type MapPalette } from '../../shared/theme';
import { timed } from '../../shared/load-timing';

export class PinLayer extends L.Layer implements PinDragHost {
  /** Pin dragging while the layer is on a map (as Leaflet's Marker#dragging); on only while a pin is movable. */
  dragging: PinDrag | null = null;
  /** The one pin that can be dragged, or null: every pin is fixed. */
  private movableId: string | null = null;
  private readonly opts: PinLayerOptions;
  private readonly pins = new PinSet();
  private readonly hits = new HitGrid<Pin | ClusterMark>();
  private readonly clusters: LayerClusters;
  /** Pointer input on the canvas: taps, holds, menus, hover, and presses on the movable pin. */
  private readonly pointer: PinPointer;
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
  private chosen: ReadonlySet<string> = new Set();
  private hiddenId: string | null = null;
  private preview: MovePreview | null = null;
  private palette: MapPalette = LIGHT_MAP_PALETTE;
  private drawnWaiters: Array<() => void> = [];
  private drawnSinceSet = false;

  constructor(options: Partial<PinLayerOptions> = {}) {
    super();
    this.opts = { ...PIN_LAYER_DEFAULTS, ...options };
    this.clusters = new LayerClusters(this.opts, this.pins, () => this.scheduleRedraw(true));
    this.pointer = new PinPointer({
      opts: this.opts,
      movable: () => this.movableId,
      map: () => this.leafletMap,
      canvas: () => this.canvas,
      draggingEnabled: () => this.dragging?.enabled() ?? false,
      itemAt: (point) => this.itemAt(point),
      pinAt: (point) => this.pinAt(point),
      zoomToCluster: (cluster) => this.leafletMap && this.clusters.zoomTo(this.leafletMap, cluster),
      setCursor: (cursor) => this.setCursor(cursor),
      fire: (type, data) => void this.fire(type, data),
    });
  }

  // ---------- data ----------

  /** Replaces every pin. */
  setPins(pins: Iterable<Pin>): void {
    timed('set-pins', () => this.pins.replace(pins));
    this.drawnSinceSet = false;
    this.clusters.changed();
    // Many pins are clustered in the worker: it starts now, while the page fits the map and renders.
    this.clusters.ready();
    this.scheduleRedraw();
  }

  /** About `count` pins are coming (before they are made): many, and their clustering gets ready. */
  expectPins(count: number): void {
    this.clusters.expect(count);
  }

  /** Every pin as set (the very array given, while nothing changed since). */
  all = (): readonly Pin[] => this.pins.all();

  /** The pins learnt their sites' IDs in place (column-pins.ts, identifyPins); settles once they are drawn. */
  identified(): Promise<void> {
    this.pins.reindex();
    return this.whenDrawn();
  }

  /** Settles once the pins last set are drawn, at once if they are (fitting the map to them draws them there and then). */
  whenDrawn(): Promise<void> {
    if (this.drawnSinceSet) return Promise.resolve();
    return new Promise((resolve) => this.drawnWaiters.push(resolve));
  }

  /** Adds or replaces some pins and removes others, in one redraw. */
  update(changed: Iterable<Pin>, removedIds: Iterable<string> = []): void {
    this.pins.update(changed, removedIds);
    this.clusters.changed();
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

  /** The sites selected to act on together (drawn with a thin ring). */
  setChosen(ids: ReadonlySet<string>): void {
    if (this.chosen === ids) return;
    this.chosen = ids;
    this.scheduleRedraw(true);
  }

  setSelected(id: string | null): void {
    if (this.selectedId === id) return;
    this.selectedId = id;
    this.scheduleRedraw(true);
  }

  /**
   * Makes one pin draggable (move mode) and every other fixed; null fixes them all. A press on the
   * movable pin drags it; anywhere else the map pans as usual.
   */
  setMovable(id: string | null): void {
    if (this.movableId === id) return;
    this.movableId = id;
    if (id === null) this.dragging?.disable();
    else this.dragging?.enable();
    this.scheduleRedraw(true);
  }

  get movable(): string | null {
    return this.movableId;
  }

  /** The theme's colours (labels, clusters, the selection ring, the pins' halo): everything is drawn again with them. */
  setPalette(palette: MapPalette): void {
    const haloChanged = palette.pinHalo !== this.palette.pinHalo;
    this.palette = palette;
    this.painter?.setPalette(palette);
    if (haloChanged && this.leafletMap) this.loadSprites();
    else this.scheduleRedraw(true);
  }

  private loadSprites(): void {
    const halo = this.palette.pinHalo;
    void loadSprites(undefined, halo).then((sprites) => {
      // A later palette asked for other sprites meanwhile: theirs win.
      if (halo !== this.palette.pinHalo) return;
      this.sprites = sprites;
      this.painter?.forget();
      this.scheduleRedraw(true);
    });
  }

  /** Shows a pin at a proposed new position until the move is confirmed or cancelled. */
  setMovePreview(preview: MovePreview | null): void {
    this.preview = preview;
    this.scheduleRedraw(true);
  }

  /** The topmost pin under a point given in map-container pixels (null over a cluster). */
  pinAt(containerPoint: L.Point): Pin | null {
    const item = this.itemAt(containerPoint);
    return item && !isCluster(item) ? item : null;
  }

  /** The pin or cluster under a point given in map-container pixels. */
  itemAt(containerPoint: L.Point): Pin | ClusterMark | null {
    const map = this.leafletMap;
    if (!map) return null;
    const p = map.containerPointToLayerPoint(containerPoint).subtract(this.boundsMin);
    const item = this.hits.at(p.x, p.y);
    // A pin drawn from positions is no site yet (for the moment until the list arrives): nothing to point at.
    return item && !isCluster(item) && isUnnamed(item) ? null : item;
  }

  /** Where a pin's anchor is, in map-container pixels (null when it is not drawn). */
  containerPointOf(id: string): L.Point | null {
    const pin = this.pins.get(id);
    return this.leafletMap && pin ? this.leafletMap.latLngToContainerPoint([pin.lat, pin.lng]) : null;
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
    this.painter?.setPalette(this.palette);
    this.pointer.attach(canvas);
    this.dragging = new PinDrag(map, this);
    if (this.movableId !== null) this.dragging.enable();
    this.loadSprites();
    this.reposition();
    return this;
  }

  override onRemove(): this {
    // Re-added later, the movable pin (if any) can be dragged again.
    this.dragging?.disable();
    this.dragging = null;
    this.pointer.endTap();
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = 0;
    this.timer = 0;
    const canvas = this.canvas;
    if (canvas) {
      this.pointer.detach(canvas);
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
    if (!this.leafletMap || !this.canvas) return;
    const { topLeft, scale } = zoomedCanvas(this.leafletMap, this.opts.padding, this.viewCenter, this.viewZoom, center, zoom);
    L.DomUtil.setTransform(this.canvas, topLeft, scale);
  }

  /** Moves and sizes the canvas to cover the view plus padding, then redraws now. */
  private reposition(): void {
    const map = this.leafletMap;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const { min, size: full } = canvasBounds(map, this.opts.padding);
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
      timed('draw', () => this.redraw());
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
    const crs = map.options.crs ?? L.CRS.EPSG3857;
    const min = this.boundsMin;
    const clustering = this.clusters.at(zoom);
    // Pins the worker is clustering for the first time: nothing to draw them from until it answers.
    if (clustering && !this.clusters.ready()) return;
    const always = [this.selectedId, this.movableId, this.preview?.id ?? null].filter((id): id is string => id !== null);
    const clustered = clustering ? this.clusters.view(map, crs, zoom, always, min, L.point(this.cssWidth, this.cssHeight)) : null;
    const projected = clustered?.pins ?? this.pins.project(crs, zoom);
    const origin = map.getPixelOrigin();
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
        chosen: this.chosen,
        chosenIn: clustered ? this.clusters.chosenCounter(this.chosen) : null,
        movableId: this.movableId,
        hiddenId: this.hiddenId,
        preview: previewPin && previewAt ? { pin: previewPin, x: previewAt.x, y: previewAt.y } : null,
        mayShift: !this.fullRedrawNeeded && this.preview === null,
        labels: zoom >= this.opts.labelsFromZoom,
      },
      this.hits,
      clustered?.clusters ?? null,
    );
    if (info.full) {
      this.fullRedrawNeeded = false;
      this.lastFullCost = performance.now() - started;
    }
    this.opts.onDrawn?.(info);
    this.drawnSinceSet = true;
    const waiters = this.drawnWaiters;
    this.drawnWaiters = [];
    for (const resolve of waiters) resolve();
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
}
