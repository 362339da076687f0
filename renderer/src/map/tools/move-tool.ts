// The move tool: one site's pin can be dragged (the pin layer's drag handler, switched on for that pin
// by setMovable), and, without a mouse, the arrow keys nudge its pin by a
// few screen pixels (Shift: ten times as far), so the step in metres follows the zoom the way a drag
// does; Enter drops the nudged pin where it is shown, which asks the same confirmation as a drag.
// Esc is move mode's own (useMoveWithUndo, which also works without the map). The keys are the tool's
// only while a site is being moved, and never while the user types in a field or works a list.
import L from 'leaflet';
import { MapTool } from './map-tool';

/** Screen pixels per arrow press, and with Shift. */
export const NUDGE_PIXELS = 4;
export const NUDGE_PIXELS_LARGE = 40;

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

/** Where the pin goes for one arrow press from `from`, at the map's current zoom (null: not an arrow). */
export function nudgedPosition(map: L.Map, from: L.LatLngLiteral, key: string, large: boolean): L.LatLngLiteral | null {
  const direction = ARROWS[key];
  if (!direction) return null;
  const step = large ? NUDGE_PIXELS_LARGE : NUDGE_PIXELS;
  const zoom = map.getZoom();
  const point = map.project(from, zoom).add(L.point(direction[0] * step, direction[1] * step));
  const to = map.unproject(point, zoom);
  // Beyond the poles' edge of the projection a step would wrap nonsense: clamp to the map's range.
  return { lat: Math.max(-85, Math.min(85, to.lat)), lng: L.Util.wrapNum(to.lng, [-180, 180], true) };
}

/** Whether a panel or control over the map hides the pin at `at` (its tip or its head). */
function coverOf(map: L.Map, at: L.LatLngLiteral): boolean {
  const container = map.getContainer();
  const box = container.getBoundingClientRect();
  const tip = map.latLngToContainerPoint(at);
  // The tip, and the head's middle and sides (the pin is drawn above its point).
  for (const [side, up] of [[0, 0], [0, 28], [-16, 28], [16, 28]] as const) {
    const x = box.left + tip.x + side;
    const y = box.top + tip.y - up;
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) continue;
    const top = document.elementFromPoint(x, y);
    if (top !== null && (!container.contains(top) || top.closest('.leaflet-control') !== null)) return true;
  }
  return false;
}

/** Whether a key press belongs to the focused control rather than to the map's move keys. */
function ownedByFocus(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(target.type);
  // A list or grid moves its own active row with the arrows.
  return target.closest('[role="listbox"], [role="grid"], [role="slider"]') !== null;
}

/** The site in move mode, or null. */
function movingId(tool: { id: string | null; phase?: string; localId?: string }): string | null {
  return tool.id === 'move' && tool.phase === 'armed' ? (tool.localId ?? null) : null;
}

export class MoveTool extends MapTool {
  readonly id = 'move';

  override key(e: KeyboardEvent): boolean {
    const movableId = movingId(this.host.interaction.get().tool);
    if (movableId === null || e.ctrlKey || e.metaKey || e.altKey) return false;
    if (e.key !== 'Enter' && !(e.key in ARROWS)) return false;
    if (ownedByFocus(e.target)) return false;
    const { map } = this.host;
    const { movePreview: preview, onNudge, onDrop, positionOf } = this.host.callbacks();
    const nudged = preview?.id === movableId ? { lat: preview.lat, lng: preview.lng } : null;
    if (e.key === 'Enter') {
      // Not nudged yet: Enter is the focused control's (the Move button ends move mode, as a click does).
      if (!nudged) return false;
      e.preventDefault();
      onDrop(movableId, nudged.lat, nudged.lng);
      return true;
    }
    const from = nudged ?? positionOf(movableId);
    if (!from) return false;
    const to = nudgedPosition(map, from, e.key, e.shiftKey);
    if (!to) return false;
    // Before Leaflet's own keyboard panning, which would otherwise move the map instead.
    e.preventDefault();
    onNudge(movableId, to.lat, to.lng);
    // The pin stays in sight: the map follows it once it nears the edge, and centres it when a panel
    // over the map (the site card, the hint, the toasts) would hide it. At once, not animated: the
    // next press starts from where the pin is seen.
    if (coverOf(map, to)) map.panTo(to, { animate: false });
    else map.panInside(to, { padding: [48, 48], animate: false });
    return true;
  }
}
