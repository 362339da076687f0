// Moving a site by dragging its pin, and only on purpose: the user first asks to move one site (Move
// on its card or in its pin's menu), which makes that one pin draggable (move mode, the rules in
// site-move.ts) until it is dropped, Esc or Cancel move. Without a mouse, the arrow keys nudge the pin
// (the map's move-keys.ts) and Enter drops it where it is shown. After the drop the pin stays at its proposed
// place while the user confirms (Cancel has focus, so Enter never moves a site by accident), the move
// is queued like any other edit, and the toast that says so offers to undo it (the same edit back to
// where the site was). `preview` is what the map shows meanwhile; null once it is decided.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MovePreview } from '../../map/pins';
import { distanceMeters, formatDistance, siteTitle } from '../../shared/format';
import { formatDecimal } from '../../shared/coords';
import { issueText } from '../../shared/issues';
import { canStartMove, draggablePin, moveInput, planMove, type MoveEvent, type MoveMode, type Position } from './site-move';
import { moveModeOf } from '../../map/tools/interaction';
import { useInteraction, useOwnInteraction, type InteractionStore } from '../../map/tools/interaction-store';
import type { Ui } from '../../shared/ui/ui-context';

export interface MoveWithUndo {
  /** Where the map shows the moved pin while the move waits for confirmation. */
  preview: MovePreview | null;
  mode: MoveMode;
  /** The one pin that can be dragged now (move mode), or null. */
  movableId: string | null;
  /** Puts one site in move mode; false (and a toast saying why, if there is anything to say) when it cannot move. */
  startMove: (localId: string) => boolean;
  /** Leaves move mode without moving anything. */
  cancelMove: () => void;
  /** Another site was selected (or none): move mode for a different site ends. */
  selected: (localId: string | null) => void;
  /** The pin in move mode was nudged (arrow keys) to (lat, lng): shown there until dropped or cancelled. */
  nudge: (localId: string, lat: number, lng: number) => void;
  /** How far the nudged pin is from its site (meters), or null when it has not been nudged. */
  nudgedMeters: number | null;
  /** A pin was dropped at (lat, lng): confirm, queue, and offer to undo. */
  moveSite: (localId: string, lat: number, lng: number) => Promise<void>;
}

export function useMoveWithUndo(
  ui: Pick<Ui, 'store' | 'api' | 'call' | 'confirm' | 'toast'>,
  options: {
    /** A move attempt ended (cancelled, refused or decided), for putting focus somewhere sensible. */
    onEnded?: () => void;
    /** The interaction move mode is part of (the shell's); the hook keeps its own when none is given. */
    interaction?: InteractionStore;
  } = {},
): MoveWithUndo {
  const { store, api, call, confirm, toast } = ui;
  const [preview, setPreview] = useState<MovePreview | null>(null);
  // Where the arrow keys have put the armed pin; shown only while that site is still armed.
  const [nudged, setNudged] = useState<MovePreview | null>(null);
  // Move mode is the interaction's move tool: starting a move ends another tool, and the other way round.
  const interaction = useOwnInteraction(options.interaction);
  const mode = moveModeOf(useInteraction(interaction, (s) => s.tool));
  // The mode as of the last event, for callbacks that run between renders (a drop right after Esc).
  const modeNow = useCallback((): MoveMode => moveModeOf(interaction.get().tool), [interaction]);
  const onEnded = useRef(options.onEnded);
  onEnded.current = options.onEnded;

  const send = useCallback((event: MoveEvent) => interaction.dispatch({ type: 'move', event }), [interaction]);

  const startMove = useCallback(
    (localId: string) => {
      const check = canStartMove(store.getState().sites.get(localId));
      if (!check.ok) {
        if (check.message) toast(check.message, { tone: 'error' });
        return false;
      }
      send({ type: 'start', localId });
      setNudged(null);
      const now = modeNow();
      return now.phase === 'armed' && now.localId === localId;
    },
    [modeNow, send, store, toast],
  );

  const cancelMove = useCallback(() => {
    if (modeNow().phase !== 'armed') return;
    send({ type: 'cancel' });
    onEnded.current?.();
  }, [modeNow, send]);

  const selected = useCallback((localId: string | null) => send({ type: 'select', localId }), [send]);

  // Esc leaves move mode, before anything else hears it (the open site form would close too).
  const armed = mode.phase === 'armed';
  useEffect(() => {
    if (!armed) return;
    const onKey = (e: KeyboardEvent) => {
      // An open dialog or menu takes its own Escape first.
      if (e.key !== 'Escape' || document.querySelector('dialog[open], [role="menu"]')) return;
      e.stopPropagation();
      cancelMove();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [armed, cancelMove]);

  const nudge = useCallback((localId: string, lat: number, lng: number) => {
    const now = modeNow();
    if (now.phase === 'armed' && now.localId === localId) setNudged({ id: localId, lat, lng });
  }, [modeNow]);
  const nudgedShown = mode.phase === 'armed' && nudged?.id === mode.localId ? nudged : null;
  const nudgedSite = nudgedShown ? store.getState().sites.get(nudgedShown.id) : undefined;
  const nudgedMeters =
    nudgedShown && nudgedSite?.latitude != null && nudgedSite.longitude != null ? distanceMeters(nudgedSite.latitude, nudgedSite.longitude, nudgedShown.lat, nudgedShown.lng) : null;

  const moveSite = useCallback(
    async (localId: string, lat: number, lng: number) => {
      const before = interaction.get();
      if (send({ type: 'drop', localId }) === before) {
        // Not the pin in move mode (it was cancelled while being dragged): nothing moves.
        setPreview(null);
        return;
      }
      const finish = () => {
        send({ type: 'done' });
        onEnded.current?.();
      };
      const site = store.getState().sites.get(localId);
      const plan = planMove(site, { lat, lng });
      if (!site || !plan.ok) {
        setPreview(null);
        finish();
        if (!plan.ok && plan.message) toast(plan.message, { tone: 'error' });
        return;
      }
      const { from, to } = plan;
      setPreview({ id: localId, ...to });
      const ok = await confirm({
        title: `Move ${siteTitle(site)}?`,
        body: (
          <>
            <p>
              From {formatDecimal(from.lat)}, {formatDecimal(from.lng)}
              <br />
              to {formatDecimal(to.lat)}, {formatDecimal(to.lng)}
            </p>
            <p>That is {formatDistance(distanceMeters(from.lat, from.lng, to.lat, to.lng))}. The move is queued and sent like any other change.</p>
          </>
        ),
        confirmLabel: 'Move site',
        // A slip of the mouse must not become a move with one more key press.
        focus: 'cancel',
      });
      if (!ok) {
        setPreview(null);
        finish();
        return;
      }
      const move = (target: Position) => call(() => api.saveSite(moveInput(site, target)));
      const result = await move(to);
      setPreview(null);
      finish();
      if (!result) return;
      if (!result.ok) {
        toast(`The site was not moved: ${issueText(result.issues)}`, { tone: 'error' });
        return;
      }
      store.applySite(result.value);
      toast(`Moved ${siteTitle(site)}.`, {
        tone: 'success',
        action: {
          label: 'Undo',
          run: () => {
            void move(from).then((undo) => {
              if (undo?.ok) {
                store.applySite(undo.value);
                toast(`${siteTitle(site)} is back where it was.`, { tone: 'info' });
              } else if (undo) {
                toast(`Could not undo: ${issueText(undo.issues)}`, { tone: 'error' });
              }
            });
          },
        },
      });
    },
    [api, call, confirm, interaction, send, store, toast],
  );

  return { preview: preview ?? nudgedShown, mode, movableId: draggablePin(mode), startMove, cancelMove, selected, nudge, nudgedMeters, moveSite };
}
