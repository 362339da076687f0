// A map tool, after Leaflet's Handler: enable() and disable() switch it on and off (addHooks and
// removeHooks do the work), and while it is the active one the registry gives it the map's clicks,
// the pins' clicks and the keys. A tool answers true when it took the input, so the map's own
// behaviour (select a site, close the menu) happens only when no tool wanted it.
import type L from 'leaflet';
import type { PinLayer, MovePreview } from '../pins';
import type { ToolId } from './interaction';
import type { InteractionStore } from './interaction-store';

export interface MapPoint {
  lat: number;
  lng: number;
}

/** What the map's owner is told by the tools, read when an input arrives (so it is always current). */
export interface ToolCallbacks {
  /** A place for a new site (add mode) or for the open form (pick mode). */
  onPick: (lat: number, lng: number) => void;
  /** Add or pick mode left with Esc. */
  onCancelAdd: () => void;
  /** An arrow key nudged the pin in move mode to (lat, lng). */
  onNudge: (localId: string, lat: number, lng: number) => void;
  /** The pin in move mode was dropped (dragged, or Enter after nudging) at (lat, lng). */
  onDrop: (localId: string, lat: number, lng: number) => void;
  /** Where the moved pin is shown now (nudged or dropped), else null. */
  movePreview: MovePreview | null;
  /** Where a site is (its pin, or the store's site when a filter keeps the pin off the map). */
  positionOf: (localId: string) => MapPoint | null;
  /** A pin clicked with the select tool (or with Shift/Ctrl): into the selection, or out of it. */
  onToggleChosen?: (localId: string) => void;
  /** A box drawn to select the sites shown in it; `add` keeps what was selected (Ctrl/Cmd held). */
  onBox?: (bounds: L.LatLngBounds, add: boolean) => void;
}

/** What every tool is built with: the map, its pins, the interaction and the owner's callbacks. */
export interface ToolHost {
  map: L.Map;
  pins: PinLayer;
  interaction: InteractionStore;
  callbacks: () => ToolCallbacks;
}

export abstract class MapTool {
  abstract readonly id: ToolId;
  private on = false;

  constructor(protected readonly host: ToolHost) {}

  enable(): this {
    if (!this.on) {
      this.on = true;
      this.addHooks();
    }
    return this;
  }

  disable(): this {
    if (this.on) {
      this.on = false;
      this.removeHooks();
    }
    return this;
  }

  enabled(): boolean {
    return this.on;
  }

  /** Called once the tool is on: draw, add classes, listen. */
  protected addHooks(): void {}
  /** Called once the tool is off: undo everything addHooks did. */
  protected removeHooks(): void {}

  /** A click on the map itself (not on a pin), wrapped to -180…180. */
  mapClick(_at: MapPoint): boolean {
    return false;
  }

  /** A click on a pin (`at` the pin's place; `clicked` where the pointer was, when a pointer clicked). */
  pinClick(_localId: string, _at: MapPoint, _title: string, _clicked: MapPoint | null): boolean {
    return false;
  }

  /** A key pressed anywhere on the page (before the page's other listeners). */
  key(_event: KeyboardEvent): boolean {
    return false;
  }
}

/** Longitudes wrap: a click on a world copy is the same place. */
export function wrapped(at: L.LatLng): MapPoint {
  return { lat: at.lat, lng: ((((at.lng + 180) % 360) + 360) % 360) - 180 };
}
