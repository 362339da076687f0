// The basemaps' part of the store: every basemap (exactly one active) and this session's area
// downloads. They load after the first load and apart from it: the map works without them.
import type { BasemapView, DownloadView } from '../../../../electron/shared/contract/index';
import type { AppStore, StoreSlice } from '../../shared/store/app-store';

/** The basemaps and downloads as the host has them; a failure leaves the map on its plain tiles. */
export async function loadBasemaps(store: AppStore): Promise<void> {
  try {
    const [basemaps, downloads] = await Promise.all([store.api.listBasemaps(), store.api.listDownloads()]);
    applyBasemaps(store, basemaps);
    for (const download of downloads) applyDownload(store, download, true);
  } catch {
    // An older host without basemaps: the map keeps the Settings tile server.
  }
}

/** What useBasemap, saveBasemapSource, addBasemapFile or removeBasemap answered, shown at once. */
export function applyBasemaps(store: AppStore, basemaps: BasemapView[]): void {
  store.update({ basemaps });
}

/**
 * A download as an event (or, with `fromCall`, a call's answer) reported it. Progress only moves on:
 * a running view behind the one held is stale. A call's answer may arrive after the events that
 * followed it, so it is applied only to a download not known yet (a resume is a new download,
 * with an ID of its own).
 */
export function applyDownload(store: AppStore, download: DownloadView, fromCall = false): void {
  const downloads = store.getState().downloads;
  const known = downloads.get(download.id);
  if (known) {
    if (fromCall) return;
    if (known.state === 'running' && download.state === 'running' && download.tilesDone < known.tilesDone) return;
  }
  const next = new Map(downloads);
  next.set(download.id, download);
  store.update({ downloads: next });
}

export const basemapsSlice: StoreSlice = {
  on: {
    basemaps: (store, event) => applyBasemaps(store, event.basemaps),
    download: (store, event) => applyDownload(store, event.download),
  },
  afterLoad: (store) => void loadBasemaps(store),
};
