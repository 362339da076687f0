// Moving a site by dragging its pin, apart from the confirmation and the toasts: whether the site
// can move at all, where the drop lands (rounded to the precision that is sent), and the edit a move
// sends — the new position with the height the service requires, nothing else.
import type { SiteInput, SiteView } from '../../../../electron/shared/contract/index';
import { roundCoordinate } from '../../../../electron/shared/validation/rules';

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

/**
 * The edit that undoes a move: `site` (as it was before the move) back where it was, with how that
 * position was measured, since a move by hand drops the measurement (the site register keeps it
 * with its position) and an undo should leave the site as it found it.
 */
export function moveBackInput(site: SiteView): SiteInput {
  const input = moveInput(site, { lat: site.latitude ?? Number.NaN, lng: site.longitude ?? Number.NaN });
  return site.measurement ? { ...input, measurement: site.measurement } : input;
}

/** The edit that puts `site` at `target`. */
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

// Move mode's rules are the map's move tool's (map/tools/move-mode.ts); named here too.
export { IDLE, draggablePin, nextMoveMode, type MoveEvent, type MoveMode } from '../../map/tools/move-mode';
