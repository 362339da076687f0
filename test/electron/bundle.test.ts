// The esbuild bundle the app really runs (dist/electron/main.cjs), loaded in Node with the fake
// electron module behind require('electron'): proves the bundle's own wiring (electron-store, conf,
// the core) works as CommonJS, and that its preload is one file that requires only 'electron'.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleElectron, paths, ROOT } from '../../electron/main/build';
import { StoredPreview } from '../../electron/core/bulk/preview-store';
import { writeMbtiles } from '../support/basemap-files';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-bundle-'));
  await bundleElectron();
}, 120_000);
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the Electron bundles', () => {
  it('main.cjs starts, answers over IPC, serves an MBTiles tile from its reader in a utility process and quits against a fake electron', { timeout: 120_000 }, async () => {
    const mbtiles = join(dataDir, 'area.mbtiles');
    await writeMbtiles(mbtiles, { tiles: [{ z: 9, x: 97, y: 182 }] });
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/electron/bundle-runner.ts'), paths().mainBundle, dataDir, mbtiles], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(0);
    const seen = JSON.parse(stdout.trim().split('\n').pop()!) as {
      status: { ok: boolean; value: { host: string } };
      profiles: { ok: boolean; value: { keyStore: string; builtIn: boolean }[] };
      userData: string;
      preload: string;
      sandbox: boolean;
      url: string;
      tile: { status: number; contentType: string; readers: string[] };
      readersAfterQuit: string[];
    };
    expect(seen.status).toMatchObject({ ok: true, value: { host: 'electron' } });
    expect(seen.profiles.ok).toBe(true);
    expect(seen.userData).toBe(join(dataDir, 'electron'));
    expect(seen.preload).toBe(paths().preloadBundle);
    expect(seen.sandbox).toBe(true);
    expect(seen.url).toBe('app://sitewalk/index.html');
    // The tile was read by one reader, the bundle beside main.cjs run as a utility process, which the quit ended.
    expect(seen.tile).toMatchObject({ status: 200, contentType: 'image/png' });
    expect(seen.tile.readers).toHaveLength(1);
    expect(seen.tile.readers[0]).toContain(paths().mbtilesChildBundle);
    expect(seen.readersAfterQuit).toEqual([]);
    // basic_text was refused: the fallback was said out loud.
    expect(stderr).toMatch(/safeStorage is not usable/);
  });

  it('preview-thread.cjs, beside main.cjs, previews an import in a worker thread (the main process keeps answering)', async () => {
    const bytes = new TextEncoder().encode('Sitename,Height,Latitude,Longitude\nNorth Ridge,30,45.5,-93.25\n');
    const storePath = join(dataDir, 'preview.db');
    const worker = new Worker(paths().previewWorkerBundle, { workerData: { source: bytes, options: { fileName: 'sites.csv' }, storePath } });
    const [message] = (await once(worker, 'message')) as [{ ok: boolean }];
    await worker.terminate();
    expect(message.ok).toBe(true);
    const preview = new StoredPreview(storePath);
    expect(preview.rowCount).toBe(1);
    expect(JSON.stringify(preview.page('all', 0).rows[0])).toContain('North Ridge');
    preview.drop();
  });

  it('preload.cjs is one CommonJS file that requires nothing but electron', async () => {
    const preload = await readFile(paths().preloadBundle, 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    expect(required).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld("sitewalk"');
    expect(preload).not.toMatch(/\bimport\s/);
  });
});
