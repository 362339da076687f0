// What the map decides about basemaps without Leaflet: the page's tile address of each basemap (its
// own host's route, changing with what the tiles come from), when the view is outside a basemap and
// the sentence that says so, the area a download asks for, and the store following basemaps and
// downloads (a late answer to a call never takes a download back).
import { describe, expect, it } from 'vitest';
import type { ApiEvent, BasemapView, DownloadView, SitewalkApi } from '../../electron/shared/contract/index';
import { DEFAULT_SETTINGS } from '../../electron/shared/contract/index';
import { basemapNote, basemapTileUrl, downloadBounds, downloadZoomChoices, formatBytes, outsideOf, outsideSentence, viewIntersects } from '../../renderer/src/map/basemaps';
import { createAppStore } from '../../renderer/src/app/store';
import { applyDownload } from '../../renderer/src/features/basemaps/basemaps-slice';

function basemap(patch: Partial<BasemapView> = {}): BasemapView {
  return {
    id: 'valley',
    name: 'Gallatin Valley',
    kind: 'mbtiles',
    template: null,
    attribution: '&copy; County GIS',
    minZoom: 8,
    maxZoom: 14,
    bounds: [-111.3, 45.5, -110.9, 45.8],
    fileName: 'valley.mbtiles',
    sizeBytes: 1_234_567,
    allowsDownload: false,
    downloadRefusal: 'This basemap is a file on this computer.',
    active: true,
    problem: null,
    ...patch,
  };
}

describe('basemap tile addresses', () => {
  it('asks the page’s own host for /tiles/{id}/{z}/{x}/{y}, with only Leaflet’s placeholders', () => {
    const url = basemapTileUrl(basemap());
    expect(url).toMatch(/^tiles\/valley\/\{z\}\/\{x\}\/\{y\}\?v=[0-9a-z]+$/);
    expect(url.match(/\{[^}]*\}/g)).toEqual(['{z}', '{x}', '{y}']);
  });

  it('changes when the server or the file behind a basemap changes, so the browser cache never mixes them', () => {
    const a = basemapTileUrl(basemap({ kind: 'street', template: 'https://a.example/{z}/{x}/{y}.png', fileName: null }));
    const b = basemapTileUrl(basemap({ kind: 'street', template: 'https://b.example/{z}/{x}/{y}.png', fileName: null }));
    const file = basemapTileUrl(basemap());
    const rewritten = basemapTileUrl(basemap({ sizeBytes: 2_000_000 }));
    expect(new Set([a, b, file, rewritten]).size).toBe(4);
  });

  it('keeps an ID with odd characters in one path segment', () => {
    expect(basemapTileUrl(basemap({ id: 'file/a b' }))).toMatch(/^tiles\/file%2Fa%20b\/\{z\}/);
  });
});

describe('outside a basemap', () => {
  const inside = { bounds: [-111.2, 45.6, -111.0, 45.7] as [number, number, number, number], zoom: 10 };

  it('is nothing while the view shows part of its area at a zoom it has', () => {
    expect(outsideOf(basemap(), inside)).toBeNull();
    // Partly over the edge still shows some of it.
    expect(outsideOf(basemap(), { bounds: [-112, 45, -111.2, 45.6], zoom: 9 })).toBeNull();
  });

  it('is the area when the view is elsewhere, and the zoom when too far out or in', () => {
    expect(outsideOf(basemap(), { bounds: [2.2, 48.8, 2.4, 48.9], zoom: 10 })).toBe('area');
    expect(outsideOf(basemap(), { ...inside, zoom: 5 })).toBe('zoom');
    expect(outsideOf(basemap(), { ...inside, zoom: 16 })).toBe('zoom');
    // A world-wide server is never "outside".
    expect(outsideOf(basemap({ bounds: null, minZoom: 0, maxZoom: 19 }), { bounds: [2.2, 48.8, 2.4, 48.9], zoom: 3 })).toBeNull();
  });

  it('sees the area through the map’s world copies and across the antimeridian', () => {
    // Leaflet's longitudes run past ±180 after panning round the world.
    expect(viewIntersects([-471.2, 45.6, -471.0, 45.7], [-111.3, 45.5, -110.9, 45.8])).toBe(true);
    expect(viewIntersects([175, -20, 185, -10], [-179.5, -18, -178, -16])).toBe(true);
    expect(viewIntersects([170, -20, 175, -10], [178, -18, -178, -16])).toBe(false);
    expect(viewIntersects([176, -20, 179, -10], [178, -18, -178, -16])).toBe(true);
  });

  it('says which basemap, its zoom range and where it is', () => {
    expect(outsideSentence(basemap())).toBe('You are outside Gallatin Valley: it covers zoom 8–14 around 45.65° N, 111.10° W.');
  });
});

describe('the area of a download', () => {
  it('brings a view past ±180 back into the world and keeps within Web Mercator', () => {
    expect(downloadBounds([-471.2, 45.6, -471.0, 45.7])).toEqual([-111.2, 45.6, -111, 45.7]);
    expect(downloadBounds([-400, -89, 400, 89])).toEqual([-180, -85.0511, 180, 85.0511]);
    expect(downloadBounds([170, 0, 190, 1])).toEqual([170, 0, 180, 1]);
  });

  it('offers zoom levels from the view’s (within the source’s range) to the source’s deepest', () => {
    expect(downloadZoomChoices({ minZoom: 0, maxZoom: 14 }, 11.6)).toEqual({ from: 12, choices: [12, 13, 14] });
    expect(downloadZoomChoices({ minZoom: 8, maxZoom: 10 }, 3)).toEqual({ from: 8, choices: [8, 9, 10] });
    expect(downloadZoomChoices({ minZoom: 0, maxZoom: 14 }, 18)).toEqual({ from: 14, choices: [14] });
  });

  it('states sizes as a person reads them', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(500 * 1024 ** 2)).toBe('500 MB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.0 GB');
  });
});

function download(patch: Partial<DownloadView> = {}): DownloadView {
  return {
    id: 'd1',
    basemapId: 'own',
    state: 'running',
    tiles: 100,
    tilesDone: 0,
    tilesFailed: 0,
    bytes: 0,
    capBytes: 500 * 1024 ** 2,
    message: '',
    area: { basemapId: 'own', bounds: [-111.2, 45.6, -111, 45.7], minZoom: 10, maxZoom: 12 },
    ...patch,
  };
}

function harness(basemaps: BasemapView[], downloads: DownloadView[]) {
  const listeners = new Set<(event: ApiEvent) => void>();
  const api = {
    getStatus: async () => null,
    listProfiles: async () => [],
    getSettings: async () => DEFAULT_SETTINGS,
    listSites: async () => [],
    listOutbox: async () => ({ active: [], pendingLeftOut: 0, history: { entries: [], next: null, total: 0 } }),
    listBasemaps: async () => basemaps,
    listDownloads: async () => downloads,
  } as unknown as SitewalkApi;
  const store = createAppStore(api, (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  });
  return { store, emit: (event: ApiEvent) => listeners.forEach((l) => l(event)) };
}

describe('the store’s basemaps and downloads', () => {
  it('loads them at start and follows their events', async () => {
    const h = harness([basemap()], [download({ state: 'done', tilesDone: 100 })]);
    await h.store.start();
    await expect.poll(() => h.store.getState().basemaps.length).toBe(1);
    expect(h.store.getState().downloads.get('d1')?.state).toBe('done');
    h.emit({ type: 'basemaps', basemaps: [basemap({ active: false }), basemap({ id: 'street', kind: 'street', active: true })] });
    expect(h.store.getState().basemaps.find((b) => b.active)?.id).toBe('street');
  });

  it('never takes a download back: stale progress and a late call answer are dropped; a resume is a new download', async () => {
    const h = harness([], []);
    await h.store.start();
    h.emit({ type: 'download', download: download({ tilesDone: 40 }) });
    h.emit({ type: 'download', download: download({ tilesDone: 30 }) });
    expect(h.store.getState().downloads.get('d1')?.tilesDone).toBe(40);
    // startDownload's answer comes after the progress it started.
    applyDownload(h.store, download({ tilesDone: 0 }), true);
    expect(h.store.getState().downloads.get('d1')?.tilesDone).toBe(40);
    // Failed at once (the server out of reach), the event before the answer: the answer cannot make it run again.
    h.emit({ type: 'download', download: download({ id: 'd2', state: 'failed', tilesDone: 0 }) });
    applyDownload(h.store, download({ id: 'd2', tilesDone: 0 }), true);
    expect(h.store.getState().downloads.get('d2')?.state).toBe('failed');
    // A resume starts a download with an ID of its own: its answer shows at once.
    applyDownload(h.store, download({ id: 'd3', tilesDone: 45 }), true);
    expect(h.store.getState().downloads.get('d3')?.state).toBe('running');
  });

  it('leaves the map on its plain tiles when the host has no basemaps to give', async () => {
    const h = harness([], []);
    (h.store.api as unknown as { listBasemaps: () => Promise<never> }).listBasemaps = () => Promise.reject(new Error('unknown method'));
    await h.store.start();
    expect(h.store.getState().connectionError).toBeNull();
    expect(h.store.getState().basemaps).toEqual([]);
  });
});

describe('the switcher’s note under a basemap', () => {
  it('names the kind unless the name does, and a file’s zoom range or a server’s host', () => {
    expect(basemapNote(basemap())).toBe('MBTiles file · zoom 8–14');
    expect(basemapNote(basemap({ name: 'Street', kind: 'street', template: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' }))).toBe('tile.example.org');
    expect(basemapNote(basemap({ name: 'Imagery', kind: 'satellite', template: 'https://sat.example.net/{z}/{y}/{x}.jpg' }))).toBe('Satellite · sat.example.net');
  });
});
