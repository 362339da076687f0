// Move mode, pure: which one pin may be dragged, and when. The interaction holds it as the move tool.
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
