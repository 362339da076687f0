// The app's store: the shared core with every feature's slice. The one place that knows them all.
import type { ApiEvent, SitewalkApi } from '../../../electron/shared/contract/index';
import { AppStore, type StoreSlice } from '../shared/store/app-store';
import { basemapsSlice } from '../features/basemaps/basemaps-slice';
import { bulkSlice } from '../features/bulk/bulk-slice';
import { gpsSlice } from '../features/location/gps-slice';
import { problemsSlice } from '../features/status/problems-slice';

export const SLICES: readonly StoreSlice[] = [basemapsSlice, bulkSlice, gpsSlice, problemsSlice];

export function createAppStore(api: SitewalkApi, subscribeEvents: (listener: (event: ApiEvent) => void) => () => void): AppStore {
  return new AppStore(api, subscribeEvents, SLICES);
}
