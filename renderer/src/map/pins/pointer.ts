// Pointer input on the pin canvas, for the layer (layer.ts): a press on a pin or cluster is watched
// as a tap (a click selects or zooms in; a move pans the map; a finger held still opens the pin's
// menu), a press on the one movable pin is handed to dragging (drag.ts), a right click opens the
// menu, and hovering says what is under the pointer. press.ts holds the rules; this wires them.
import L from 'leaflet';
import { isCluster, type ClusterMark } from './clusters';
import type { PinPress, PinPressEventType } from './drag';
import type { PinLayerOptions } from './options';
import { longPressOpensMenu, pressOwner, tapOutcome, type Tap } from './press';
import type { Pin } from './types';

/** What the pointer handling needs of the layer. */
export interface PointerHost {
  readonly opts: PinLayerOptions;
  /** The pin in move mode, if any. */
  movable(): string | null;
  map(): L.Map | null;
  canvas(): HTMLCanvasElement | null;
  draggingEnabled(): boolean;
  itemAt(containerPoint: L.Point): Pin | ClusterMark | null;
  pinAt(containerPoint: L.Point): Pin | null;
  zoomToCluster(cluster: ClusterMark): void;
  setCursor(cursor: string): void;
  fire(type: string, data: object): void;
}

/** Whether the map's own dragging has moved since the last press (Leaflet's Map.Drag#moved, untyped). */
function mapPanned(map: L.Map): boolean {
  return (map.dragging as (L.Handler & { moved?: () => boolean }) | undefined)?.moved?.() ?? false;
}

/** A tap being watched, with its pointer and the timer of a long press. */
interface WatchedTap extends Tap {
  readonly item: Pin | ClusterMark;
  readonly pointerId: number;
  timer: number;
}

export class PinPointer {
  private press: PinPress | null = null;
  private tap: WatchedTap | null = null;
  private menuByHold = false;
  private swallowClick = false;
  private hoverId: string | null = null;

  constructor(private readonly host: PointerHost) {}

  attach(canvas: HTMLCanvasElement): void {
    for (const [type, listener, capture] of this.listeners) canvas.addEventListener(type, listener, capture);
  }

  detach(canvas: HTMLCanvasElement): void {
    this.endTap();
    for (const [type, listener, capture] of this.listeners) canvas.removeEventListener(type, listener, capture);
  }

  /** The canvas's DOM listeners, in one table so adding and removing them cannot drift apart. */
  private get listeners(): ReadonlyArray<[string, EventListener, boolean]> {
    return [
      ['pointerdown', this.onPointerDown as EventListener, false],
      ['pointermove', this.onPointerMove as EventListener, false],
      ['pointerup', this.onPointerUp as EventListener, false],
      ['pointercancel', this.onPointerCancel as EventListener, false],
      ['pointerleave', this.onPointerLeave, false],
      ['mousedown', this.onMouseDown as EventListener, false],
      ['contextmenu', this.onContextMenu as EventListener, false],
      // Capture: the click must be stopped before Leaflet's map sees it.
      ['click', this.onClick as EventListener, true],
    ];
  }

  private firePress(type: PinPressEventType, press: PinPress, containerPoint: L.Point | null): void {
    this.host.fire(type, { press, containerPoint });
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    this.swallowClick = false;
    this.menuByHold = false;
    this.endTap();
    const map = this.host.map();
    if (e.button !== 0 || !map) return;
    const point = map.mouseEventToContainerPoint(e);
    const item = this.host.itemAt(point);
    // A cluster is always a tap: a click zooms in, a drag pans.
    const owner = item && isCluster(item) ? 'tap' : pressOwner(item?.id ?? null, this.host.movable(), this.host.draggingEnabled());
    if (!item || owner === 'map') return;
    if (owner === 'tap') {
      // The map gets this press and pans if it moves (never preventDefault here: that would hold
      // back the mousedown Leaflet's dragging starts from). We only watch for a click or a hold.
      const tap: WatchedTap = { item, pointerId: e.pointerId, startX: point.x, startY: point.y, x: point.x, y: point.y, mapMoved: false, menuShown: false, timer: 0 };
      if (e.pointerType !== 'mouse') tap.timer = window.setTimeout(() => this.held(tap, e.pointerType), this.host.opts.longPressMs);
      this.tap = tap;
      return;
    }
    // The movable pin: keep the map from starting its own drag (Leaflet listens for pointerdown/mousedown above us).
    e.preventDefault();
    e.stopPropagation();
    this.press = { pin: item as Pin, pointerId: e.pointerId, dragging: false };
    this.host.canvas()?.setPointerCapture?.(e.pointerId);
    this.firePress('pinpress', this.press, point);
  };

  private readonly onMouseDown = (e: MouseEvent): void => {
    if (this.press) e.stopPropagation();
  };

  private readonly onPointerMove = (e: PointerEvent): void => {
    const map = this.host.map();
    if (!map) return;
    const point = map.mouseEventToContainerPoint(e);
    const press = this.press;
    if (press && press.pointerId === e.pointerId) {
      e.stopPropagation();
      this.firePress('pinpressmove', press, point);
      return;
    }
    const tap = this.tap;
    if (tap && tap.pointerId === e.pointerId) {
      // Container pixels: the container stays put while the map pans under the pointer.
      tap.x = point.x;
      tap.y = point.y;
      tap.mapMoved ||= mapPanned(map);
      return;
    }
    const item = this.host.itemAt(point);
    this.host.setCursor(item ? (!isCluster(item) && item.id === this.host.movable() && this.host.draggingEnabled() ? 'grab' : 'pointer') : '');
    const key = item ? (isCluster(item) ? `cluster:${item.id}` : item.id) : null;
    if (key !== this.hoverId) {
      this.hoverId = key;
      this.host.opts.onHover?.(item, item ? point : null);
    }
  };

  private readonly onPointerUp = (e: PointerEvent): void => {
    const map = this.host.map();
    const tap = this.tap;
    if (tap && tap.pointerId === e.pointerId && map) {
      const point = map.mouseEventToContainerPoint(e);
      tap.x = point.x;
      tap.y = point.y;
      tap.mapMoved ||= mapPanned(map);
      this.endTap();
      if (tapOutcome(tap, this.host.opts) === 'click') {
        // The click that follows belongs to the pin, not to the map underneath.
        this.swallowClick = true;
        if (isCluster(tap.item)) this.host.zoomToCluster(tap.item);
        else this.host.opts.onPinClick?.(tap.item.id, e);
      } else if (tap.menuShown) {
        this.swallowClick = true;
      }
      return;
    }
    const press = this.press;
    if (!press || press.pointerId !== e.pointerId || !map) return;
    e.stopPropagation();
    this.press = null;
    this.swallowClick = true;
    this.host.canvas()?.releasePointerCapture?.(e.pointerId);
    if (press.dragging) this.firePress('pinpressend', press, map.mouseEventToContainerPoint(e));
    else this.host.opts.onPinClick?.(press.pin.id, e);
  };

  private readonly onPointerCancel = (e: PointerEvent): void => {
    if (this.tap?.pointerId === e.pointerId) this.endTap();
    const press = this.press;
    if (!press || press.pointerId !== e.pointerId) return;
    this.press = null;
    if (press.dragging) this.firePress('pinpresscancel', press, null);
  };

  private readonly onPointerLeave = (): void => {
    if (this.hoverId !== null) {
      this.hoverId = null;
      this.host.opts.onHover?.(null, null);
    }
  };

  /** A finger or pen held still on a pin: its menu, as a right click gives it. */
  private held(tap: WatchedTap, pointerType: string): void {
    tap.timer = 0;
    const map = this.host.map();
    if (this.tap !== tap || !map) return;
    tap.mapMoved ||= mapPanned(map);
    if (isCluster(tap.item) || !longPressOpensMenu(tap, pointerType, this.host.opts)) return;
    tap.menuShown = true;
    this.menuByHold = true;
    this.host.opts.onPinMenu?.(tap.item.id, L.point(tap.x, tap.y));
  }

  endTap(): void {
    if (this.tap?.timer) clearTimeout(this.tap.timer);
    this.tap = null;
  }

  private readonly onContextMenu = (e: MouseEvent): void => {
    const map = this.host.map();
    if (!map) return;
    if (this.menuByHold) {
      // The browser's own long-press menu event, after ours: one menu, not two.
      this.menuByHold = false;
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    const point = map.mouseEventToContainerPoint(e);
    const pin = this.host.pinAt(point);
    if (!pin) return; // the map's own menu
    e.preventDefault();
    e.stopPropagation();
    this.endTap();
    this.host.opts.onPinMenu?.(pin.id, point);
  };

  private readonly onClick = (e: MouseEvent): void => {
    // The click after a pin press or drag belongs to the pin, not to the map underneath.
    if (this.swallowClick) {
      this.swallowClick = false;
      e.stopPropagation();
    }
  };
}
