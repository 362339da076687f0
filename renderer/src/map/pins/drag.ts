// Dragging: an L.Handler, switched on and off like Leaflet's own map and marker dragging, that turns
// a press on the movable pin into a move. The layer enables it only while one pin is in move mode and
// hands it presses on that pin alone (press.ts decides); every other press stays the map's. Past a
// few pixels the pin leaves the canvas and a small DOM "ghost" follows the pointer, held where it was
// gripped; on release the layer shows the pin at its proposed place and reports the drop.
import L from 'leaflet';
import type { Sprite } from '../../shared/sprites';
import { PRESS_DEFAULTS } from './press';
import type { Pin } from './types';

/** A press on a pin, from pointerdown to pointerup, as the layer reports it. */
export interface PinPress {
  readonly pin: Pin;
  readonly pointerId: number;
  /** Set by dragging once the press has become a drag: the release is then a drop, not a click. */
  dragging: boolean;
}

/** The layer's events for a press (pinpresscancel and pinpressend only once `dragging` is set). */
export type PinPressEventType = 'pinpress' | 'pinpressmove' | 'pinpressend' | 'pinpresscancel';

export interface PinPressEvent extends L.LeafletEvent {
  press: PinPress;
  containerPoint: L.Point;
}

/** What dragging needs of the layer. */
export interface PinDragHost extends L.Evented {
  /** Where a pin is shown now: its proposed place while a move waits for confirmation. */
  shownAt(id: string): L.LatLng | null;
  /** The picture a dragged pin has (null until the sprites are loaded). */
  dragSprite(pin: Pin): Sprite | null;
  /** Takes a pin off the canvas while its ghost is dragged; null puts it back. */
  hideWhileDragged(id: string | null): void;
  setCursor(cursor: string): void;
  /** A pin was let go at a new place. */
  drop(id: string, latlng: L.LatLng): void;
}

const THRESHOLD_PX = PRESS_DEFAULTS.clickTolerance;

export class PinDrag extends L.Handler {
  private readonly hooks: Record<PinPressEventType, L.LeafletEventHandlerFn> = {
    pinpress: (e) => this.pressed(e as PinPressEvent),
    pinpressmove: (e) => this.moved(e as PinPressEvent),
    pinpressend: (e) => this.released(e as PinPressEvent),
    pinpresscancel: () => this.stop(),
  };

  /** Where the press started, and the pointer minus the pin's anchor: the pin keeps its grip. */
  private grip: { startX: number; startY: number; x: number; y: number } | null = null;
  private ghost: { canvas: HTMLCanvasElement; anchorX: number; anchorY: number } | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly host: PinDragHost,
  ) {
    super(map);
  }

  override addHooks(): void {
    for (const [type, fn] of Object.entries(this.hooks)) this.host.on(type, fn);
  }

  override removeHooks(): void {
    for (const [type, fn] of Object.entries(this.hooks)) this.host.off(type, fn);
    this.stop();
  }

  private pressed({ press, containerPoint: point }: PinPressEvent): void {
    const at = this.host.shownAt(press.pin.id);
    if (!at) return;
    const anchor = this.map.latLngToContainerPoint(at);
    this.grip = { startX: point.x, startY: point.y, x: point.x - anchor.x, y: point.y - anchor.y };
  }

  private moved({ press, containerPoint: point }: PinPressEvent): void {
    const grip = this.grip;
    if (!grip) return;
    if (!press.dragging) {
      if (Math.hypot(point.x - grip.startX, point.y - grip.startY) < THRESHOLD_PX) return;
      press.dragging = true;
      this.showGhost(press.pin);
    }
    const ghost = this.ghost;
    if (ghost) {
      const x = Math.round(point.x - grip.x - ghost.anchorX);
      const y = Math.round(point.y - grip.y - ghost.anchorY);
      ghost.canvas.style.transform = `translate(${x}px, ${y}px)`;
    }
  }

  private released({ press, containerPoint: point }: PinPressEvent): void {
    const grip = this.grip;
    this.stop();
    if (!grip) return;
    const tip = L.point(point.x - grip.x, point.y - grip.y);
    this.host.drop(press.pin.id, this.map.containerPointToLatLng(tip));
  }

  private showGhost(pin: Pin): void {
    const sprite = this.host.dragSprite(pin);
    if (!sprite) return;
    const canvas = document.createElement('canvas');
    canvas.className = 'sw-pin-ghost';
    canvas.width = sprite.canvas.width;
    canvas.height = sprite.canvas.height;
    canvas.style.width = `${sprite.width}px`;
    canvas.style.height = `${sprite.height}px`;
    canvas.getContext('2d')?.drawImage(sprite.canvas, 0, 0);
    this.map.getContainer().appendChild(canvas);
    this.ghost = { canvas, anchorX: sprite.anchorX, anchorY: sprite.anchorY };
    this.host.hideWhileDragged(pin.id);
    this.host.setCursor('grabbing');
  }

  /** Ends a press: the ghost goes and the pin is back on the canvas. */
  private stop(): void {
    this.grip = null;
    if (!this.ghost) return;
    this.ghost.canvas.remove();
    this.ghost = null;
    this.host.hideWhileDragged(null);
    this.host.setCursor('');
  }
}
