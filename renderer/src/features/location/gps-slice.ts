// The GPS receiver's part of the store: the host's reader as its last event or getGps said.
import type { GpsView } from '../../../../electron/shared/contract/index';
import type { AppStore, StoreSlice } from '../../shared/store/app-store';

/** The receiver's view from an event or a getGps answer; an older one (lower revision) never wins. */
export function applyGps(store: AppStore, gps: GpsView): void {
  const held = store.getState().gps;
  if (!held || gps.revision >= held.revision) store.update({ gps });
}

export const gpsSlice: StoreSlice = {
  on: { gps: (store, event) => applyGps(store, event.gps) },
};
