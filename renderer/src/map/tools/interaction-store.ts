// The interaction as a small store: read at once by callbacks that run between renders (a drop right
// after Esc), and by React through useSyncExternalStore.
import { useState, useSyncExternalStore } from 'react';
import { initialInteraction, nextInteraction, type Interaction, type InteractionEvent } from './interaction';

export class InteractionStore {
  private state: Interaction = initialInteraction();
  private readonly listeners = new Set<() => void>();

  get = (): Interaction => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch = (event: InteractionEvent): Interaction => {
    const next = nextInteraction(this.state, event);
    if (next !== this.state) {
      this.state = next;
      for (const listener of this.listeners) listener();
    }
    return next;
  };
}

/** One slice of the interaction; re-renders only when it changes (by identity). */
export function useInteraction<T>(store: InteractionStore, select: (state: Interaction) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}

/** The given store, or one of the component's own (a part used alone, as in a test). */
export function useOwnInteraction(given?: InteractionStore): InteractionStore {
  const [own] = useState(() => given ?? new InteractionStore());
  return given ?? own;
}
