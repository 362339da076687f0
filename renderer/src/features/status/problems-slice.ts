// Problems that belong to no entry (a damaged data file, a failed write): the newest few, each
// until the user dismisses it.
import type { AppStore, StoreSlice } from '../../shared/store/app-store';

/** Each store's last problem ID: IDs only grow, so a dismissed problem's key is never reused. */
const lastIds = new WeakMap<AppStore, number>();

export function addProblem(store: AppStore, message: string, detail: string): void {
  const id = (lastIds.get(store) ?? 0) + 1;
  lastIds.set(store, id);
  // The newest few are enough: the same trouble tends to repeat.
  store.update({ problems: [...store.getState().problems.slice(-3), { id, message, detail }] });
}

export function dismissProblem(store: AppStore, id: number): void {
  store.update({ problems: store.getState().problems.filter((p) => p.id !== id) });
}

export const problemsSlice: StoreSlice = {
  on: { problem: (store, event) => addProblem(store, event.message, event.detail) },
};
