// The basemaps through the browser host, over real HTTP, as the page uses them: the switcher's list,
// files added by path and served by /tiles/{basemapId}/{z}/{x}/{y}, servers in their own cache
// folders, the street map at the old /tiles/{z}/{x}/{y}, a file that goes away, and what is kept
// across a restart.
import { rename } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { openHostBackend } from '../../electron/core/host-backend';
import { tileRange } from '../../electron/core/tiles';
import type { ApiEvent, BasemapView } from '../../electron/shared/contract/index';
import { basemapTile, TEST_AREA, writeMbtiles, writePmtiles } from '../support/basemap-files';
import { testCoreOptions } from '../support/core';
import { it as base } from '../support/fixtures';
import { call, raw, startTestHost, type TestHost } from '../support/host';
import { fakeTile, startFakeTileServer } from '../tiles/fake-tile-server';

const it = base
  // eslint-disable-next-line no-empty-pattern
  .extend('tileServer', async ({}, { onCleanup }) => {
    const server = await startFakeTileServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend('tileHost', async ({ tileServer }, { onCleanup }) => {
    const host = await startTestHost({ withStatic: false, tiles: { tileUrl: tileServer.template('osm'), retryAfterMs: 0 } });
    onCleanup(() => host.close());
    return host;
  });

async function value<T>(host: TestHost, method: string, args: unknown[]): Promise<T> {
  const response = await call(host, method, args);
  if (response.status !== 200) throw new Error(`${method}: HTTP ${response.status} ${response.body}`);
  return response.json<{ value: T }>().value;
}

async function ok<T>(host: TestHost, method: string, args: unknown[]): Promise<T> {
  const result = await value<{ ok: true; value: T } | { ok: false; issues: { message: string }[] }>(host, method, args);
  if (!result.ok) throw new Error(`${method} refused: ${result.issues.map((issue) => issue.message).join('; ')}`);
  return result.value;
}

async function issue(host: TestHost, method: string, args: unknown[]): Promise<string> {
  const result = await value<{ ok: boolean; issues?: { message: string }[] }>(host, method, args);
  expect(result.ok).toBe(false);
  return result.issues![0]!.message;
}

const tile = (host: TestHost, path: string) => fetch(`${host.origin}${path}`, { headers: { 'Sec-Fetch-Site': 'same-origin', authorization: `Bearer ${host.token}` } });

describe('where a tile server may point', () => {
  it('keeps tile numbers out of the server name and port, refuses link-local and own addresses, and allows loopback and private servers', async ({ tileHost }) => {
    const save = (template: string) => value<{ ok: boolean; issues?: { message: string }[] }>(tileHost, 'saveBasemapSource', [{ name: 'T', kind: 'custom', template, attribution: '' }]);
    const refusal = async (template: string) => {
      const result = await save(template);
      expect(result.ok, template).toBe(false);
      return result.issues![0]!.message;
    };
    for (const template of ['https://{x}.tiles.example/{z}/{y}.png', 'http://127.0.0.1:{x}/{z}/{y}.png', 'http://127.0.0.1:80{y}/{z}/{x}.png']) {
      expect(await refusal(template)).toMatch(/belong in the path or query .* never in its server name or port/);
    }
    for (const template of ['http://169.254.169.254/latest/{z}/{x}/{y}', 'http://[fe80::1]/{z}/{x}/{y}.png', 'http://[::ffff:169.254.1.1]/{z}/{x}/{y}.png']) {
      expect(await refusal(template)).toMatch(/a link-local address/);
    }
    const own = Object.values(networkInterfaces()).flat().find((entry) => entry && !entry.internal && entry.family === 'IPv4');
    if (own) expect(await refusal(`http://${own.address}:8080/{z}/{x}/{y}.png`)).toMatch(/this computer's own network address; use 127\.0\.0\.1/);
    // The Settings' street server follows the same rules.
    const street = await value<{ ok: boolean; issues?: { message: string }[] }>(tileHost, 'saveSettings', [{ tileUrl: 'http://169.254.169.254/{z}/{x}/{y}' }]);
    expect(street.ok).toBe(false);
    for (const template of ['http://127.0.0.1:8080/{z}/{x}/{y}.png', 'http://localhost/tiles/{z}/{x}/{y}.png', 'http://192.168.1.10/{z}/{x}/{y}.png?key={s}', 'https://{s}.tiles.example/{z}/{x}/{y}.png']) {
      expect((await save(template)).ok, template).toBe(true);
    }
  });
});

describe('the basemap list', () => {
  it('starts with the Settings tile server as the active street map, and lists satellite once it is set up', async ({ tileHost, tileServer }) => {
    const first = await value<BasemapView[]>(tileHost, 'listBasemaps', []);
    expect(first).toEqual([expect.objectContaining({ id: 'street', kind: 'street', template: tileServer.template('osm'), active: true, problem: null })]);

    const saved = await ok<BasemapView[]>(tileHost, 'saveBasemapSource', [{ name: 'Aerial', kind: 'satellite', template: tileServer.template('sat'), attribution: 'Imagery &copy; Test', maxZoom: 18 }]);
    const satellite = saved.find((view) => view.kind === 'satellite')!;
    expect(satellite).toMatchObject({ id: 'satellite', name: 'Aerial', attribution: 'Imagery &copy; Test', minZoom: 0, maxZoom: 18, active: false, allowsDownload: false });
    expect(satellite.downloadRefusal).toMatch(/not marked as allowing downloads/);

    expect(await issue(tileHost, 'saveBasemapSource', [{ name: 'Bad', kind: 'topo', template: 'ftp://tiles/{z}/{x}/{y}', attribution: '' }])).toMatch(/must start with https:\/\//);
    expect(await issue(tileHost, 'saveBasemapSource', [{ name: 'Bad', kind: 'topo', template: 'https://t.example/{z}/{x}/{y}.png', attribution: '<b>x</b>' }])).toMatch(/cannot contain < or >/);
    expect(await issue(tileHost, 'removeBasemap', ['street'])).toMatch(/change it there/);
  });

  it('refuses a second tile server at an address already listed, naming the one that has it, and keeps the list as it was', async ({ tileHost, tileServer }) => {
    const saved = await ok<BasemapView[]>(tileHost, 'saveBasemapSource', [{ name: 'Aerial', kind: 'satellite', template: tileServer.template('sat'), attribution: '', maxZoom: 18 }]);
    // The same address, with the host in capitals and spaces around it, is still the same server.
    const shouted = ` ${tileServer.template('sat').replace(/^http:\/\/([^/]+)/, (_, host: string) => `HTTP://${host.toUpperCase()}`)} `;
    expect(await issue(tileHost, 'saveBasemapSource', [{ name: 'Aerial again', kind: 'custom', template: shouted, attribution: '' }])).toBe('This address is already the tile server "Aerial"; edit that one instead.');
    expect(await issue(tileHost, 'saveBasemapSource', [{ name: 'Streets again', kind: 'topo', template: tileServer.template('osm'), attribution: '' }])).toBe(
      'This address is already the street map (the tile server in the Settings).',
    );
    expect(await value<BasemapView[]>(tileHost, 'listBasemaps', [])).toEqual(saved);
    // Editing a server keeps its own address.
    await ok(tileHost, 'saveBasemapSource', [{ id: 'satellite', name: 'Aerial photos', kind: 'satellite', template: tileServer.template('sat'), attribution: '', maxZoom: 18 }]);
  });

  it('serves each tile server from its own cache folder, and /tiles/{z}/{x}/{y} stays the street map', async ({ tileHost, tileServer }) => {
    await ok(tileHost, 'saveBasemapSource', [{ name: 'Topo', kind: 'topo', template: tileServer.template('topo'), attribution: 'Topo test', maxZoom: 16 }]);
    await ok(tileHost, 'useBasemap', ['topo']);
    const topo = await tile(tileHost, '/tiles/topo/5/10/12');
    expect(topo.status).toBe(200);
    expect(Buffer.from(await topo.arrayBuffer())).toEqual(fakeTile('/topo/5/10/12.png', 1));
    const street = await tile(tileHost, '/tiles/5/10/12');
    expect(Buffer.from(await street.arrayBuffer())).toEqual(fakeTile('/osm/5/10/12.png', 1));
    expect((await tile(tileHost, '/tiles/street/5/10/12')).status).toBe(200);
    expect(tileServer.count('/osm/5/10/12.png')).toBe(1);
    // Beyond the server's zoom range, or a basemap that does not exist: 404, which Leaflet draws as the grid.
    expect((await tile(tileHost, '/tiles/topo/17/1/1')).status).toBe(404);
    expect((await tile(tileHost, '/tiles/nothing/5/10/12')).status).toBe(404);
    expect(tileServer.count('/topo/17/1/1.png')).toBe(0);
  });
});

describe('basemap files', () => {
  it('adds an MBTiles and a PMTiles by path and serves their tiles, 404 outside their area or zoom range', async ({ tileHost, tempDir }) => {
    await writeMbtiles(join(tempDir, 'valley.mbtiles'), { name: 'Valley', attribution: '&copy; Valley GIS', minZoom: 8, maxZoom: 12 });
    await writePmtiles(join(tempDir, 'hills.pmtiles'), { name: 'Hills', minZoom: 8, maxZoom: 12 });
    await ok(tileHost, 'addBasemapFile', [{ path: join(tempDir, 'valley.mbtiles') }]);
    const views = await ok<BasemapView[]>(tileHost, 'addBasemapFile', [{ path: join(tempDir, 'hills.pmtiles'), name: 'Hills (office copy)' }]);
    const valley = views.find((view) => view.kind === 'mbtiles')!;
    const hills = views.find((view) => view.kind === 'pmtiles')!;
    expect(valley).toMatchObject({ name: 'Valley', attribution: '&copy; Valley GIS', template: null, minZoom: 8, maxZoom: 12, fileName: 'valley.mbtiles', problem: null, allowsDownload: false });
    expect(valley.downloadRefusal).toMatch(/already offline/);
    expect(valley.sizeBytes).toBeGreaterThan(0);
    valley.bounds!.forEach((edge, index) => expect(edge).toBeCloseTo(TEST_AREA[index]!, 5));
    expect(hills.name).toBe('Hills (office copy)');

    const range = tileRange(TEST_AREA, 10);
    for (const id of [valley.id, hills.id]) {
      const response = await tile(tileHost, `/tiles/${id}/10/${range.xMin}/${range.yMin}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(Buffer.from(await response.arrayBuffer())).toEqual(basemapTile(10, range.xMin, range.yMin));
      expect((await tile(tileHost, `/tiles/${id}/10/${range.xMin - 5}/${range.yMin}`)).status).toBe(404);
      expect((await tile(tileHost, `/tiles/${id}/13/${range.xMin * 8}/${range.yMin * 8}`)).status).toBe(404);
    }
    // Another site cannot read them through Sitewalk.
    const foreign = await raw(tileHost.port, { path: `/tiles/${valley.id}/10/${range.xMin}/${range.yMin}`, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(foreign.status).toBe(403);
    expect(await issue(tileHost, 'addBasemapFile', [{ path: join(tempDir, 'valley.mbtiles') }])).toMatch(/already a basemap/);
    expect(await issue(tileHost, 'addBasemapFile', [{ path: 'valley.mbtiles' }])).toMatch(/full path/);
  });

  it('refuses a file that is not a raster basemap with its sentence', async ({ tileHost, tempDir }) => {
    await writeMbtiles(join(tempDir, 'roads.mbtiles'), { format: 'pbf' });
    expect(await issue(tileHost, 'addBasemapFile', [{ path: join(tempDir, 'roads.mbtiles') }])).toMatch(/vector tiles/);
    expect((await value<BasemapView[]>(tileHost, 'listBasemaps', [])).length).toBe(1);
  });

  it('shows a problem, not a crash, when a file goes away, and recovers when it is back', async ({ tileHost, tempDir }) => {
    const path = join(tempDir, 'hills.pmtiles');
    await writePmtiles(path);
    const added = await ok<BasemapView[]>(tileHost, 'addBasemapFile', [{ path }]);
    const id = added.find((view) => view.kind === 'pmtiles')!.id;
    await ok(tileHost, 'useBasemap', [id]);
    const events: ApiEvent[] = [];
    const stop = tileHost.backend.hostApi.onEvent((event) => void events.push(event));
    try {
      await rename(path, `${path}.moved`);
      const listed = await value<BasemapView[]>(tileHost, 'listBasemaps', []);
      expect(listed.find((view) => view.id === id)!.problem).toMatch(/no longer at .*Put it back, or remove this basemap/);
      const range = tileRange(TEST_AREA, 9);
      expect((await tile(tileHost, `/tiles/${id}/9/${range.xMin}/${range.yMin}`)).status).toBe(404);
      await expect.poll(() => events.some((event) => event.type === 'basemaps' && event.basemaps.some((view) => view.id === id && view.problem !== null))).toBe(true);

      await rename(`${path}.moved`, path);
      const back = await value<BasemapView[]>(tileHost, 'listBasemaps', []);
      expect(back.find((view) => view.id === id)!.problem).toBeNull();
      expect((await tile(tileHost, `/tiles/${id}/9/${range.xMin}/${range.yMin}`)).status).toBe(200);
    } finally {
      stop();
    }
  });
});

describe('after a restart', () => {
  it('keeps the tile servers, the files and the active basemap', async ({ tempDir, tileServer }) => {
    const dataDir = join(tempDir, 'data');
    await writeMbtiles(join(tempDir, 'valley.mbtiles'));
    const first = await openHostBackend({ host: 'browser', ...testCoreOptions({ dataDir }) });
    let fileId: string;
    try {
      const api = first.hostApi.api;
      const saved = await api.saveBasemapSource({ name: 'Aerial', kind: 'satellite', template: tileServer.template('sat'), attribution: 'Aerial test', allowsDownload: true });
      expect(saved.ok).toBe(true);
      const added = await api.addBasemapFile({ path: join(tempDir, 'valley.mbtiles') });
      fileId = added.ok ? added.value.find((view) => view.kind === 'mbtiles')!.id : '';
      expect((await api.useBasemap(fileId)).ok).toBe(true);
    } finally {
      await first.close();
    }
    const again = await openHostBackend({ host: 'browser', ...testCoreOptions({ dataDir }) });
    try {
      const views = await again.hostApi.api.listBasemaps();
      expect(views.map((view) => [view.id, view.kind, view.active])).toEqual([
        ['street', 'street', false],
        ['satellite', 'satellite', false],
        [fileId, 'mbtiles', true],
      ]);
      expect(views[1]).toMatchObject({ allowsDownload: true, downloadRefusal: null });
      const range = tileRange(TEST_AREA, 8);
      const answer = await again.tiles.tileFor(`/tiles/${fileId}/8/${range.xMin}/${range.yMin}`);
      expect(answer.ok && answer.bytes).toEqual(basemapTile(8, range.xMin, range.yMin));
    } finally {
      await again.close();
    }
  });
});
