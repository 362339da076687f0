// What a press on the pin canvas becomes. Only the one pin in move mode can be dragged; a press
// anywhere else belongs to the map, which pans as soon as the pointer moves, and becomes a click
// (select) only when it is let go where it started, or the pin's menu when a finger holds still.
// No Leaflet and no DOM here, so the layer's decisions can be tested on their own.

export interface PressOptions {
  /** A press that moves less than this (pixels) is a click; more, and it pans or drags. */
  clickTolerance: number;
  /** A finger or pen held still this long on a pin opens its menu (ms). */
  longPressMs: number;
}

export const PRESS_DEFAULTS: PressOptions = { clickTolerance: 6, longPressMs: 550 };

/**
 * Who takes a press: `map` when it is not on a pin (the layer stays out of it); `drag` when it is on
 * the movable pin (the layer keeps it from the map, and the pin follows the pointer); `tap` on any
 * other pin (the map takes it and pans if it moves; the layer only watches for a click or a hold).
 */
export type PressOwner = 'map' | 'drag' | 'tap';

export function pressOwner(pinId: string | null, movableId: string | null, draggingOn: boolean): PressOwner {
  if (pinId === null) return 'map';
  return draggingOn && movableId !== null && pinId === movableId ? 'drag' : 'tap';
}

/** A press on a pin the map may pan from, as the layer watches it. */
export interface Tap {
  startX: number;
  startY: number;
  x: number;
  y: number;
  /** The map panned during the press (Leaflet's own drag moved). */
  mapMoved: boolean;
  /** A long press already opened the pin's menu. */
  menuShown: boolean;
}

export function isStill(tap: Pick<Tap, 'startX' | 'startY' | 'x' | 'y'>, options: PressOptions = PRESS_DEFAULTS): boolean {
  return Math.hypot(tap.x - tap.startX, tap.y - tap.startY) < options.clickTolerance;
}

/** What letting go of a tap does: select the pin, nothing (it was a pan), or nothing more (its menu is open). */
export function tapOutcome(tap: Tap, options: PressOptions = PRESS_DEFAULTS): 'click' | 'pan' | 'menu' {
  if (tap.menuShown) return 'menu';
  if (tap.mapMoved || !isStill(tap, options)) return 'pan';
  return 'click';
}

/** Whether a press held until now opens the pin's menu: touch and pen only (a mouse has a right button). */
export function longPressOpensMenu(tap: Tap, pointerType: string, options: PressOptions = PRESS_DEFAULTS): boolean {
  return pointerType !== 'mouse' && !tap.menuShown && !tap.mapMoved && isStill(tap, options);
}
