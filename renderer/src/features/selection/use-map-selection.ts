// The map's part in the selection, as props for the map view: which pins are drawn as selected, and
// what a Ctrl/Shift-click on a pin or a Shift-drag box does to the selection (selection-rules).
import { useMemo } from 'react';
import { boxSelect, clickSelect } from './selection-rules';
import { useSelection, useSelectionStore } from './selection-store';

export interface MapSelectionProps {
  chosen: ReadonlySet<string>;
  onToggleChosen: (localId: string) => void;
  onBoxChosen: (localIds: string[], add: boolean) => void;
}

export function useMapSelection(): MapSelectionProps {
  const store = useSelectionStore();
  const chosen = useSelection().ids;
  const actions = useMemo(
    () => ({
      // The map has no order of its own: a modified click adds or removes that one pin.
      onToggleChosen: (localId: string) => store.update((current) => clickSelect(current, localId, [], { toggle: true })),
      onBoxChosen: (localIds: string[], add: boolean) => store.update((current) => boxSelect(current, localIds, add)),
    }),
    [store],
  );
  return { chosen, ...actions };
}
