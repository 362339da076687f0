// How the store applies gathered changes of sites and outbox entries: each carries a revision from the
// core that only grows, so a change is applied only when it is newer than what is held and than the
// object's removal.

/** Changes gathered by object ID: the new value, or null for a removal, and its revision. */
export type Pending<T> = Map<string, { value: T | null; revision: number }>;

/**
 * A copy of `known` with the gathered changes applied (and `pending` emptied); what was applied goes
 * to `changed` and `removed`. A call's answer can arrive after a newer event for the same object, and
 * an event after the object's removal: a change not newer than what is known is dropped, so nothing
 * ever steps back and nothing removed comes back.
 */
export function merged<T extends { revision: number }>(
  known: ReadonlyMap<string, T>,
  pending: Pending<T>,
  tombstones: Map<string, number>,
  changed: T[],
  removed: string[],
): Map<string, T> {
  const next = new Map(known);
  for (const [id, { value, revision }] of pending) {
    const current = next.get(id);
    if (revision < (current?.revision ?? 0) || revision <= (tombstones.get(id) ?? 0)) continue;
    if (value) {
      next.set(id, value);
      changed.push(value);
    } else {
      tombstones.set(id, revision);
      if (next.delete(id)) removed.push(id);
    }
  }
  pending.clear();
  return next;
}
