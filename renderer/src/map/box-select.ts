// Box select on the map: Shift-drag draws a rectangle and hands its bounds on (with Ctrl/Cmd also
// held the sites are added to the selection). A Leaflet handler, like the box zoom it replaces on
// Shift-drag: enable() and disable() switch it, so the map's tool registry can own it. A Shift-click
// without a drag is left to the pin or the map underneath.
import L from 'leaflet';

export interface BoxSelectOptions {
  onBox: (bounds: L.LatLngBounds, add: boolean) => void;
  /** Any drag draws a box (the select tool), not only a Shift-drag. */
  withoutShift?: boolean;
  /** Whether a press may start a box now (the quick gesture steps aside while a tool has the map). */
  allowed?: () => boolean;
}

/** Pixels the pointer must move before a Shift-press becomes a box rather than a click. */
const MIN_DRAG_PX = 4;

export class BoxSelect extends L.Handler {
  private start: L.Point | null = null;
  private box: HTMLElement | null = null;
  private draggingWasOn = false;

  constructor(
    map: L.Map,
    private readonly options: BoxSelectOptions,
  ) {
    super(map);
  }

  override addHooks(): void {
    // Leaflet's own box zoom also wants Shift-drag: one gesture, one meaning.
    this.map().boxZoom.disable();
    this.map().getContainer().addEventListener('mousedown', this.onDown, true);
  }

  override removeHooks(): void {
    this.map().getContainer().removeEventListener('mousedown', this.onDown, true);
    this.finish();
    // Only the quick gesture gave box zoom's Shift-drag away; the select tool leaves it as it found it.
    if (!this.options.withoutShift) this.map().boxZoom.enable();
  }

  private map(): L.Map {
    return (this as unknown as { _map: L.Map })._map;
  }

  private readonly onDown = (e: MouseEvent): void => {
    if ((!e.shiftKey && !this.options.withoutShift) || e.button !== 0) return;
    if (this.options.allowed && !this.options.allowed()) return;
    // Not from the zoom buttons, the attribution or any other control on the map.
    if (e.target instanceof Element && e.target.closest('.leaflet-control')) return;
    // The press is the box's: no text selection while it is drawn (Leaflet's own drag does the same).
    e.preventDefault();
    const map = this.map();
    this.start = map.mouseEventToContainerPoint(e);
    this.draggingWasOn = map.dragging.enabled();
    map.dragging.disable();
    document.addEventListener('mousemove', this.onMove);
    document.addEventListener('mouseup', this.onUp);
    document.addEventListener('keydown', this.onKey);
  };

  private readonly onMove = (e: MouseEvent): void => {
    if (!this.start) return;
    const map = this.map();
    const point = map.mouseEventToContainerPoint(e);
    if (!this.box && point.distanceTo(this.start) < MIN_DRAG_PX) return;
    // A drag that draws a box is not also a click on whatever is under its end.
    e.preventDefault();
    if (!this.box) {
      this.box = L.DomUtil.create('div', 'select-box', map.getContainer());
      this.box.setAttribute('aria-hidden', 'true');
    }
    const min = L.point(Math.min(point.x, this.start.x), Math.min(point.y, this.start.y));
    const size = L.point(Math.abs(point.x - this.start.x), Math.abs(point.y - this.start.y));
    L.DomUtil.setPosition(this.box, min);
    this.box.style.width = `${size.x}px`;
    this.box.style.height = `${size.y}px`;
  };

  private readonly onUp = (e: MouseEvent): void => {
    const start = this.start;
    const drew = this.box !== null;
    this.finish();
    if (!start || !drew) return;
    const map = this.map();
    const end = map.mouseEventToContainerPoint(e);
    this.options.onBox(L.latLngBounds(map.containerPointToLatLng(start), map.containerPointToLatLng(end)), e.ctrlKey || e.metaKey);
  };

  /** Esc drops the box being drawn. */
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') this.finish();
  };

  private finish(): void {
    document.removeEventListener('mousemove', this.onMove);
    document.removeEventListener('mouseup', this.onUp);
    document.removeEventListener('keydown', this.onKey);
    this.box?.remove();
    this.box = null;
    if (this.start && this.draggingWasOn) this.map().dragging.enable();
    this.start = null;
  }
}

/** Whether a position is inside the box, whichever copy of the world the box was drawn on. */
export function boxContains(bounds: L.LatLngBounds, latitude: number, longitude: number): boolean {
  return [0, 360, -360, 720, -720].some((shift) => bounds.contains([latitude, longitude + shift]));
}

/** The shown sites (with a position) inside the box, by local ID. */
export function sitesInBox<S extends { localId: string; latitude: number | null; longitude: number | null }>(sites: Iterable<S>, shown: (site: S) => boolean, bounds: L.LatLngBounds): string[] {
  const inside: string[] = [];
  for (const site of sites) {
    if (site.latitude !== null && site.longitude !== null && shown(site) && boxContains(bounds, site.latitude, site.longitude)) inside.push(site.localId);
  }
  return inside;
}
