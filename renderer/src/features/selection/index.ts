// The selection feature's public face: the shared selection of sites and its rules and the bar that
// acts on it (its batch edit dialog is loaded when opened). Other parts of the page import from here only.
import './selection.css';

export { SelectionContext, SelectionStore, useSelection, useSelectionStore } from './selection-store';
export { boxSelect, clickSelect, EMPTY_SELECTION, keepExisting, selectAll, shownCount, type ClickKeys, type Selection } from './selection-rules';
export { SelectionBar } from './selection-bar';
export { useMapSelection, type MapSelectionProps } from './use-map-selection';
export { SelectionScope } from './selection-scope';
