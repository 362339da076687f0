// A small typed event hub: the core's one way of telling hosts that something changed. Listeners
// run synchronously in registration order; a listener that throws is reported to the log and never
// breaks the emitter or the other listeners (a broken UI must not stop the outbox).

export type Listener<T> = (payload: T) => void;

export class TypedEvents<Events extends { [K in keyof Events]: unknown }> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  constructor(private readonly onListenerError: (error: unknown, event: string) => void = () => undefined) {}

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => {
      set.delete(listener as Listener<never>);
    };
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.onListenerError(error, String(event));
      }
    }
  }

  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}
