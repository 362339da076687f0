// How the user moves between the map's modes and the site form, and where keyboard focus goes on
// each step (never to <body>): selecting a site, add-site and pick mode, moving a site, opening and
// closing the form. The modes themselves are the interaction's (map/tools/interaction.ts); this hook
// adds what the shell knows — the panel to show, the control to return to.
import { useCallback, useRef, useState, type RefObject } from 'react';
import type { SiteView } from '../../../electron/shared/contract/index';
import type { MapHandle } from '../map/map-view';
import type { InteractionStore } from '../map/tools/interaction-store';
import { useMoveWithUndo, type MoveWithUndo } from '../features/sites/use-move-with-undo';
import type { Panel, PickedFix, SiteFormRequest, Ui } from '../shared/ui/ui-context';
import { currentFocus, formReturnOrder, type FocusTarget, type FormReturn } from './focus';

function byData(name: string, value: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${name}="${CSS.escape(value)}"]`);
}
const siteCard = (localId: string) => byData('data-site-card', localId);
const siteRow = (localId: string) => byData('data-local-id', localId)?.querySelector<HTMLElement>('.row-main') ?? null;
const moveButton = (localId: string) => byData('data-move-site', localId);

export interface SiteFlow {
  selectedId: string | null;
  move: MoveWithUndo;
  selectSite: (localId: string | null, pan?: boolean) => void;
  openSiteForm: (request: SiteFormRequest) => void;
  closeForm: (saved: SiteView | null) => void;
  /** Add-site mode ('new') or picking a position for the open form ('pick'); focus goes to "Use map centre", the keyboard's way on. */
  startAddMode: (kind: 'new' | 'pick', opener: FocusTarget) => void;
  cancelAddMode: () => void;
  /** A place from the map (add or pick mode, the map's menu, My location). */
  onPick: (lat: number, lng: number, fix?: PickedFix) => void;
  startMoveFrom: (localId: string, from: 'card' | 'menu') => void;
  useCentreRef: RefObject<HTMLButtonElement | null>;
  cancelMoveRef: RefObject<HTMLButtonElement | null>;
}

export function useSiteFlow(
  ui: Pick<Ui, 'store' | 'api' | 'call' | 'confirm' | 'toast'>,
  interaction: InteractionStore,
  mapHandle: RefObject<MapHandle | null>,
  focusSoon: (targets: Array<FocusTarget | null>, onlyIfLost?: boolean) => void,
  openPanel: (panel: Panel) => void,
): SiteFlow {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selectedId;
  const useCentreRef = useRef<HTMLButtonElement>(null);
  const cancelMoveRef = useRef<HTMLButtonElement>(null);
  /** The control that started add-site or pick mode, and the one that opened the form: focus goes back there. */
  const addOpener = useRef<FocusTarget | null>(null);
  const formOpener = useRef<FocusTarget | null>(null);
  const mapTarget = useCallback<FocusTarget>(() => mapHandle.current?.element(), [mapHandle]);

  const move = useMoveWithUndo(ui, {
    interaction,
    // Back to the card's Move button (or the card, or the map) if the control that had focus is gone.
    onEnded: () => {
      const id = selectedRef.current;
      focusSoon(id ? [() => moveButton(id), () => siteCard(id), mapTarget] : [mapTarget], true);
    },
  });
  const { cancelMove, startMove, selected: moveSelected } = move;

  const selectSite = useCallback(
    (localId: string | null, pan = false) => {
      setSelectedId(localId);
      moveSelected(localId);
      if (localId) {
        openPanel('sites');
        if (pan) mapHandle.current?.showSite(localId);
      }
    },
    [mapHandle, moveSelected, openPanel],
  );

  const openSiteForm = useCallback(
    (request: SiteFormRequest) => {
      cancelMove();
      // Opened from add mode: back to what started it (its buttons are gone by now).
      formOpener.current = addOpener.current ?? currentFocus();
      addOpener.current = null;
      interaction.dispatch({ type: 'open-form', request });
      if (request.mode === 'edit') {
        setSelectedId(request.localId);
        moveSelected(request.localId);
      }
    },
    [cancelMove, interaction, moveSelected],
  );

  const startAddMode = useCallback(
    (kind: 'new' | 'pick', opener: FocusTarget) => {
      cancelMove();
      addOpener.current = opener;
      // A new site is not the selected one: its card closes rather than cover the hint and its Cancel
      // (at 1024×640 the two share the map's top right).
      if (kind === 'new') setSelectedId(null);
      interaction.dispatch({ type: 'start-add', purpose: kind });
      focusSoon([() => useCentreRef.current]);
    },
    [cancelMove, focusSoon, interaction],
  );

  const cancelAddMode = useCallback(() => {
    interaction.dispatch({ type: 'end', tool: 'add' });
    focusSoon([addOpener.current, mapTarget]);
    addOpener.current = null;
  }, [focusSoon, interaction, mapTarget]);

  const startMoveFrom = useCallback(
    (localId: string, from: 'card' | 'menu') => {
      interaction.dispatch({ type: 'end', tool: 'add' });
      addOpener.current = null;
      selectSite(localId);
      if (!startMove(localId)) return;
      mapHandle.current?.ensureVisible(localId);
      // From the card, focus stays on its (now pressed) Move button; from the menu, which is gone, to Cancel move.
      if (from === 'menu') focusSoon([() => cancelMoveRef.current, mapTarget]);
    },
    [focusSoon, interaction, mapHandle, mapTarget, selectSite, startMove],
  );

  const closeForm = useCallback(
    (saved: SiteView | null) => {
      interaction.dispatch({ type: 'close-form' });
      if (saved) {
        setSelectedId(saved.localId);
        moveSelected(saved.localId);
        openPanel('sites');
      }
      const opener = formOpener.current;
      formOpener.current = null;
      const selected = saved?.localId ?? selectedRef.current;
      const places: Record<FormReturn, FocusTarget | null> = {
        'site-card': saved ? () => siteCard(saved.localId) : null,
        'site-row': saved ? () => siteRow(saved.localId) : null,
        opener,
        'selected-card': selected ? () => siteCard(selected) : null,
        map: mapTarget,
      };
      focusSoon(formReturnOrder(saved !== null).map((place) => places[place]));
    },
    [focusSoon, interaction, mapTarget, moveSelected, openPanel],
  );

  const onPick = useCallback(
    (lat: number, lng: number, fix?: PickedFix) => {
      const tool = interaction.get().tool;
      if (tool.id === 'add' && tool.purpose === 'pick') {
        interaction.dispatch({ type: 'pick', lat, lng, ...(fix ? { fix } : {}) });
        // Back in the form, on the control that asked for the pick.
        cancelAddMode();
        return;
      }
      openSiteForm({ mode: 'new', lat, lng, ...(fix ? { fix } : {}) });
    },
    [cancelAddMode, interaction, openSiteForm],
  );

  return { selectedId, move, selectSite, openSiteForm, closeForm, startAddMode, cancelAddMode, onPick, startMoveFrom, useCentreRef, cancelMoveRef };
}
