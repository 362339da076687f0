// Moving a site without a mouse: while one site is in move mode, the arrow keys nudge its pin by a
// few screen pixels (Shift: ten times as far), so the step in metres follows the zoom the way a drag
// does; Enter drops the nudged pin where it is shown, which asks the same confirmation as a drag.
// Esc is move mode's own (useMoveWithUndo). The keys are the map's only while a site is being moved,
// and never while the user types in a field, works a list, or a dialog or menu is open.
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type { MovePreview } from './pins';

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

export interface MoveKeysOptions {
  map: L.Map | null;
  /** The site in move mode, or null: the keys are not taken. */
  movableId: string | null;
  /** Where the pin is shown now when it has been nudged (or dropped), else null. */
  preview: MovePreview | null;
  /** Where the site is (the pin before any nudge). */
  positionOf: (localId: string) => L.LatLngLiteral | null;
  onNudge: (localId: string, lat: number, lng: number) => void;
  /** Enter on a nudged pin: the same as dropping it there. */
  onDrop: (localId: string, lat: number, lng: number) => void;
}

export function useMoveKeys(options: MoveKeysOptions): void {
  const current = useRef(options);
  current.current = options;
  const { map, movableId } = options;

  useEffect(() => {
    if (!map || movableId === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key !== 'Enter' && !(e.key in ARROWS)) return;
      if (ownedByFocus(e.target) || document.querySelector('dialog[open], [role="menu"]')) return;
      const { preview, positionOf, onNudge, onDrop } = current.current;
      const nudged = preview?.id === movableId ? { lat: preview.lat, lng: preview.lng } : null;
      if (e.key === 'Enter') {
        // Not nudged yet: Enter is the focused control's (the Move button ends move mode, as a click does).
        if (!nudged) return;
        e.preventDefault();
        e.stopPropagation();
        onDrop(movableId, nudged.lat, nudged.lng);
        return;
      }
      const from = nudged ?? positionOf(movableId);
      if (!from) return;
      const to = nudgedPosition(map, from, e.key, e.shiftKey);
      if (!to) return;
      // Before Leaflet's own keyboard panning, which would otherwise move the map instead.
      e.preventDefault();
      e.stopPropagation();
      onNudge(movableId, to.lat, to.lng);
      // The pin stays in sight: the map follows it once it nears the edge, and centres it when a panel
      // over the map (the site card, the hint, the toasts) would hide it. At once, not animated: the
      // next press starts from where the pin is seen.
      if (coverOf(map, to)) map.panTo(to, { animate: false });
      else map.panInside(to, { padding: [48, 48], animate: false });
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [map, movableId]);
}
