// The basemaps as the page lists them: the street map first (always there), then the tile servers,
// then the files, each with what the switcher and the settings show — the active one, why an area
// download is refused, and a file's problem (looked at on disk now).
import { basename } from 'node:path';
import type { BasemapView } from '../../shared/contract/basemaps';
import type { BasemapFiles } from './basemap-files';
import { STREET_ID, type BasemapStore } from './basemap-store';
import { downloadRefusal } from './download-policy';

export async function listBasemaps(store: BasemapStore, files: BasemapFiles, street: () => { tileAttribution: string }): Promise<BasemapView[]> {
  const stored = store.read();
  const active = store.activeId(stored);
  const streetSource = store.streetSource(stored);
  const views: BasemapView[] = [
    {
      id: STREET_ID,
      name: streetSource.name,
      kind: 'street',
      template: streetSource.template,
      attribution: street().tileAttribution,
      minZoom: streetSource.minZoom,
      maxZoom: streetSource.maxZoom,
      bounds: null,
      fileName: null,
      sizeBytes: null,
      allowsDownload: streetSource.allowsDownload,
      downloadRefusal: downloadRefusal({ kind: 'server', template: streetSource.template, allowsDownload: streetSource.allowsDownload }),
      active: active === STREET_ID,
      problem: null,
    },
  ];
  for (const server of stored.servers) {
    views.push({
      id: server.id,
      name: server.name,
      kind: server.kind,
      template: server.template,
      attribution: server.attribution,
      minZoom: server.minZoom,
      maxZoom: server.maxZoom,
      bounds: null,
      fileName: null,
      sizeBytes: null,
      allowsDownload: server.allowsDownload,
      downloadRefusal: downloadRefusal({ kind: 'server', template: server.template, allowsDownload: server.allowsDownload }),
      active: active === server.id,
      problem: null,
    });
  }
  for (const entry of stored.files) {
    const state = await files.fileOf(entry, true);
    const info = state.file?.info ?? entry.info;
    views.push({
      id: entry.id,
      name: entry.name ?? info.name,
      kind: entry.kind,
      template: null,
      attribution: info.attribution,
      minZoom: info.minZoom,
      maxZoom: info.maxZoom,
      bounds: info.bounds,
      fileName: basename(entry.path),
      sizeBytes: info.sizeBytes,
      allowsDownload: false,
      downloadRefusal: downloadRefusal({ kind: 'file', template: null, allowsDownload: false }),
      active: active === entry.id,
      problem: state.problem,
    });
  }
  return views;
}
