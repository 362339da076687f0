// The one selection of sites the list, the map and the attribute table share: a small external
// store (useSyncExternalStore) handed down by a context, so selecting on the map shows in the list
// without threading props through the shell. Changes go through the pure rules (selection-rules).
import { createContext, useContext, useSyncExternalStore } from 'react';
import { EMPTY_SELECTION, type Selection } from './selection-rules';

export class SelectionStore {
  private current: Selection = EMPTY_SELECTION;
  private readonly listeners = new Set<() => void>();

  get(): Selection {
    return this.current;
  }

  /** Applies a rule (or sets a selection); listeners hear only of a real change. */
  update(next: Selection | ((selection: Selection) => Selection)): void {
    const value = typeof next === 'function' ? next(this.current) : next;
    if (value === this.current) return;
    this.current = value;
    for (const listener of [...this.listeners]) listener();
  }

  clear(): void {
    if (this.current.ids.size > 0 || this.current.anchor !== null) this.update(EMPTY_SELECTION);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export const SelectionContext = createContext<SelectionStore | null>(null);

/** The shared selection store; a page part outside the provider gets its own (a component test). */
const fallback = new SelectionStore();

export function useSelectionStore(): SelectionStore {
  return useContext(SelectionContext) ?? fallback;
}

export function useSelection(): Selection {
  const store = useSelectionStore();
  return useSyncExternalStore(store.subscribe, () => store.get());
}
