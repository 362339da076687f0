// The bulk runs' part of the store: imports and EUS reprocess runs the host follows, by ID.
import type { BulkRunView } from '../../../../electron/shared/contract/index';
import type { AppStore, StoreSlice } from '../../shared/store/app-store';

/** A run as an event or a call reported it; an ended run is never taken back to running. */
export function applyBulkRun(store: AppStore, run: BulkRunView): void {
  const runs = store.getState().bulkRuns;
  const known = runs.get(run.id);
  if (known?.state === 'ended' && run.state === 'running') return;
  const next = new Map(runs);
  next.set(run.id, { ...run, rows: run.rows ?? known?.rows ?? null });
  store.update({ bulkRuns: next });
}

export const bulkSlice: StoreSlice = {
  on: { 'bulk-run': (store, event) => applyBulkRun(store, event.run) },
};
