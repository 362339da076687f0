// Moving a site by dragging its pin, apart from the confirmation and the toasts: move mode (which one
// pin may be dragged, and when), whether the site can move at all, where the drop lands (rounded to
// the precision that is sent), and the edit a move sends — the new position with the height the
// service requires, nothing else.
import type { SiteInput, SiteView } from '../../../../electron/shared/contract/index';
import { roundCoordinate } from '../../../../electron/shared/validation';

export interface Position {
  lat: number;
  lng: number;
}

/** A move from the site's position to the drop, or why there is none (null: nothing to say). */
export type MovePlan = { ok: true; from: Position; to: Position } | { ok: false; message: string | null };

export function planMove(site: SiteView | undefined, drop: Position): MovePlan {
  if (!site) return { ok: false, message: null };
  if (site.height === null) return { ok: false, message: 'This site has no height yet; open it and set one before moving it.' };
  if (site.latitude === null || site.longitude === null) return { ok: false, message: null };
  return { ok: true, from: { lat: site.latitude, lng: site.longitude }, to: { lat: roundCoordinate(drop.lat), lng: roundCoordinate(drop.lng) } };
}

/** The edit that puts `site` at `target` (an undo is the same edit back to where it was). */
export function moveInput(site: SiteView, target: Position): SiteInput {
  return {
    localId: site.localId,
    ...(site.siteId ? { siteId: site.siteId } : {}),
    height: site.height ?? undefined,
    latitude: target.lat,
    longitude: target.lng,
  };
}

/** Whether a site may be put in move mode at all (the same reasons planMove would refuse its drop). */
export function canStartMove(site: SiteView | undefined): { ok: true } | { ok: false; message: string | null } {
  const plan = planMove(site, { lat: 0, lng: 0 });
  return plan.ok ? { ok: true } : { ok: false, message: plan.message };
}

/**
 * Move mode: no pin moves unless the user asked to move that one site (Move on its card or in its
 * pin's menu). Then that pin alone can be dragged, until it is dropped (the confirmation decides),
 * the move is cancelled (Esc, Cancel move) or another site is selected.
 *
 *   idle ──start(id)──▶ armed(id) ──drop(id)──▶ confirming(id) ──done──▶ idle
 *                          │ cancel, select(other)
 *                          ▼
 *                        idle
 */
export type MoveMode = { phase: 'idle' } | { phase: 'armed'; localId: string } | { phase: 'confirming'; localId: string };

export type MoveEvent =
  | { type: 'start'; localId: string }
  | { type: 'drop'; localId: string }
  | { type: 'cancel' }
  | { type: 'done' }
  | { type: 'select'; localId: string | null };

export const IDLE: MoveMode = { phase: 'idle' };

export function nextMoveMode(mode: MoveMode, event: MoveEvent): MoveMode {
  switch (event.type) {
    case 'start':
      // A decision that is waiting (the confirmation is open) is not dropped for another move.
      return mode.phase === 'confirming' ? mode : { phase: 'armed', localId: event.localId };
    case 'drop':
      // Only the armed pin's drop counts; any other is not a move.
      return mode.phase === 'armed' && mode.localId === event.localId ? { phase: 'confirming', localId: event.localId } : mode;
    case 'cancel':
      return mode.phase === 'armed' ? IDLE : mode;
    case 'done':
      return mode.phase === 'confirming' ? IDLE : mode;
    case 'select':
      return mode.phase === 'armed' && mode.localId !== event.localId ? IDLE : mode;
  }
}

/** The one pin that can be dragged now, or null: every pin is fixed. */
export function draggablePin(mode: MoveMode): string | null {
  return mode.phase === 'armed' ? mode.localId : null;
}
