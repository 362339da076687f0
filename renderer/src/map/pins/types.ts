// What the pin layer draws and what it says after drawing. A pin is a site reduced to what the
// canvas needs; its `id` is the site's local ID, so every callback speaks of sites, not pins.
import type { PinStyle } from '../../../../electron/shared/domain';
import type { PinMark } from '../../shared/sprites';

export interface Pin {
  id: string;
  lat: number;
  lng: number;
  style: PinStyle;
  mark: PinMark;
  /** Shown in the hover tooltip. */
  title: string;
}

/** What no site's local ID starts with: the ID of a pin drawn from positions, before it knows its site. */
export const UNNAMED = '\u0000';

/** Whether `pin` is one drawn from positions that does not know its site yet (column-pins.ts). */
export function isUnnamed(pin: Pin): boolean {
  return pin.id.startsWith(UNNAMED);
}

export interface DrawInfo {
  /** Sites on the canvas now (view plus padding): a pin counts one, a cluster its members. */
  drawn: number;
  /** Clusters among what is drawn. */
  clusters: number;
  /** Sites of the selection that the drawn clusters hold. */
  chosenInClusters: number;
  /** Clusters holding some of the selection whose "N selected" tag is shown (one that would cover another is left out). */
  chosenTags: number;
  /** Site names drawn (every one with room from the names' zoom on; below it, the selected site's). */
  names: number;
  /** Of those, how many carry each state badge. */
  marks: Record<PinMark, number>;
  compact: boolean;
  /** False when only the strips uncovered by a pan were drawn. */
  full: boolean;
}

/** A pin's proposed new place, shown until the move is confirmed or cancelled. */
export interface MovePreview {
  id: string;
  lat: number;
  lng: number;
}
