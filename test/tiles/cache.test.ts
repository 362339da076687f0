// The tile cache against a real tile server on loopback (fakeTileServer) and a real temp folder:
// what a technician sees is a tile or the grid, so every test asks what is served, where it came
// from and whether the tile server was asked at all.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { createTileCache, tileForPath, TILES_FOLDER, type TileAnswer, type TileCache, type TileCacheOptions, type TileHit, type TileMiss } from '../../electron/core/tiles';
import { it } from '../support/fixtures';
import { fakeTile, startFakeTileServer, type FakeTileServer } from './fake-tile-server';

const DAY = 24 * 60 * 60 * 1000;

let server: FakeTileServer;
let dataDir: string;
let now: number;
let template: string;
const caches: TileCache[] = [];
const logs: string[] = [];

// Each test's cache lives in its tempDir (removed by the fixture, after the caches are closed here).
it.beforeEach(async ({ tempDir }) => {
  server = await startFakeTileServer();
  dataDir = tempDir;
  now = Date.parse('2025-06-01T12:00:00Z');
  template = server.template();
  logs.length = 0;
});
afterEach(async () => {
  for (const cache of caches.splice(0)) await cache.close();
  await server.close();
});

function open(options: Partial<TileCacheOptions> = {}): TileCache {
  const cache = createTileCache({
    dataDir,
    template: () => template,
    clock: { now: () => now },
    log: (line) => void logs.push(line),
    // Most tests want every request to reach the server; the back-off has its own test.
    retryAfterMs: 0,
    ...options,
  });
  caches.push(cache);
  return cache;
}

function expectHit(answer: TileAnswer): TileHit {
  if (!answer.ok) throw new Error(`expected a tile, got ${answer.status} ${answer.reason}: ${answer.detail}`);
  return answer;
}

function expectMiss(answer: TileAnswer): TileMiss {
  if (answer.ok) throw new Error(`expected a miss, got a tile from ${answer.source}`);
  return answer;
}

const tilePath = (z: number, x: number, y: number, name = 'osm') => `/${name}/${z}/${x}/${y}.png`;

async function tileFiles(): Promise<{ path: string; size: number }[]> {
  const found: { path: string; size: number }[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.tile')) found.push({ path, size: (await stat(path)).size });
    }
  };
  await walk(join(dataDir, TILES_FOLDER));
  return found;
}

describe('online, then offline', () => {
  it('serves a tile fetched once from disk on the next request, without asking the tile server', async () => {
    const cache = open();
    const first = expectHit(await cache.get({ z: 5, x: 10, y: 12 }));
    expect(first.source).toBe('network');
    expect(first.contentType).toBe('image/png');
    expect(first.bytes).toEqual(fakeTile(tilePath(5, 10, 12), 1));

    const second = expectHit(await cache.get({ z: 5, x: 10, y: 12 }));
    expect(second.source).toBe('cache');
    expect(second.bytes).toEqual(first.bytes);
    expect(server.count(tilePath(5, 10, 12))).toBe(1);
  });

  it('identifies Sitewalk to the tile server (the OpenStreetMap tile policy)', async () => {
    await open().get({ z: 0, x: 0, y: 0 });
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^Sitewalk\b/);
  });

  it('shows tiles seen while online when the tile server is out of reach, even after a restart', async () => {
    const online = open();
    expectHit(await online.get({ z: 3, x: 1, y: 2 }));
    await online.close();
    await server.down();

    const offline = open();
    const answer = expectHit(await offline.get({ z: 3, x: 1, y: 2 }));
    expect(answer.source).toBe('cache');
    expect(answer.bytes).toEqual(fakeTile(tilePath(3, 1, 2), 1));

    // A tile never seen is a clear miss the map turns into the grid.
    const never = expectMiss(await offline.get({ z: 3, x: 2, y: 2 }));
    expect(never.status).toBe(504);
    expect(never.reason).toBe('unreachable');
    expect(never.detail).toMatch(/ECONNREFUSED/);
  });

  it('asks for a stale tile again and serves the new one while the server is up, the stale one while it is down', async () => {
    const cache = open({ maxAgeMs: 7 * DAY });
    expectHit(await cache.get({ z: 4, x: 3, y: 3 }));

    now += 6 * DAY;
    expect(expectHit(await cache.get({ z: 4, x: 3, y: 3 })).source).toBe('cache');
    expect(server.count()).toBe(1);

    // Older than the freshness: the server is asked, and has a new version.
    now += 2 * DAY;
    server.version = 2;
    const refreshed = expectHit(await cache.get({ z: 4, x: 3, y: 3 }));
    expect(refreshed.source).toBe('network');
    expect(refreshed.bytes).toEqual(fakeTile(tilePath(4, 3, 3), 2));
    expect(server.count()).toBe(2);
    // Fresh again from then on.
    expect(expectHit(await cache.get({ z: 4, x: 3, y: 3 })).source).toBe('cache');

    now += 8 * DAY;
    await server.down();
    const stale = expectHit(await cache.get({ z: 4, x: 3, y: 3 }));
    expect(stale.source).toBe('stale');
    expect(stale.bytes).toEqual(fakeTile(tilePath(4, 3, 3), 2));
    // The page's browser should ask again soon, not keep the stale copy for a day.
    expect(stale.maxAgeSeconds).toBeLessThanOrEqual(60);
  });

  it('keeps a stale tile the server says is unchanged (304), without downloading it again', async () => {
    const cache = open({ maxAgeMs: DAY });
    expectHit(await cache.get({ z: 2, x: 1, y: 1 }));
    now += 2 * DAY;
    const revalidated = expectHit(await cache.get({ z: 2, x: 1, y: 1 }));
    expect(revalidated.source).toBe('revalidated');
    expect(revalidated.bytes).toEqual(fakeTile(tilePath(2, 1, 1), 1));
    expect(server.requests[1]!.headers['if-none-match']).toBe('"v1"');
    // The 304 made it fresh for another day.
    now += DAY / 2;
    expect(expectHit(await cache.get({ z: 2, x: 1, y: 1 })).source).toBe('cache');
    expect(server.count()).toBe(2);
  });

  it('serves the stale copy when the server answers with an error instead of a tile', async () => {
    const cache = open({ maxAgeMs: DAY });
    expectHit(await cache.get({ z: 2, x: 0, y: 1 }));
    now += 2 * DAY;
    server.mode = 'error';
    const answer = expectHit(await cache.get({ z: 2, x: 0, y: 1 }));
    expect(answer.source).toBe('stale');
    expect(server.count()).toBe(2);
  });
});

describe('an unreachable tile server', () => {
  it('is not asked again for every tile until a while has passed, so offline tiles fail at once', async () => {
    const asked: string[] = [];
    const cache = open({
      retryAfterMs: 15_000,
      fetch: (url, init) => {
        asked.push(url);
        return fetch(url, init);
      },
    });
    expectHit(await cache.get({ z: 1, x: 0, y: 0 }));
    await server.down();
    expect(expectMiss(await cache.get({ z: 1, x: 1, y: 0 })).status).toBe(504);
    expect(asked).toHaveLength(2);

    // Within the back-off: cached tiles still show, new ones fail without a request.
    expect(expectMiss(await cache.get({ z: 1, x: 1, y: 1 })).status).toBe(504);
    expect(expectHit(await cache.get({ z: 1, x: 0, y: 0 })).source).toBe('cache');
    expect(asked).toHaveLength(2);
    expect(logs.filter((line) => /cannot be reached/.test(line))).toHaveLength(1);

    now += 15_000;
    await server.up();
    expect(expectHit(await cache.get({ z: 1, x: 1, y: 1 })).source).toBe('network');
    expect(asked).toHaveLength(3);
    expect(logs.at(-1)).toMatch(/answers again/);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const cache = open({ timeoutMs: 300 });
    server.mode = 'hang';
    const started = Date.now();
    const answer = expectMiss(await cache.get({ z: 1, x: 0, y: 1 }));
    expect(answer.status).toBe(504);
    expect(answer.detail).toMatch(/within/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('what is kept', () => {
  it('evicts the least recently used tiles to keep the folder under its limit', async () => {
    server.tileBytes = 2_000;
    const maxBytes = 20_000;
    const cache = open({ maxBytes, evictTo: 0.8 });
    for (let x = 0; x < 30; x++) {
      now += 2 * 60 * 60 * 1000;
      expectHit(await cache.get({ z: 5, x, y: 0 }));
      // Tile 0 is looked at all along: it is in use, not old.
      if (x % 5 === 0) expectHit(await cache.get({ z: 5, x: 0, y: 0 }));
      await cache.idle();
      const total = (await tileFiles()).reduce((sum, file) => sum + file.size, 0);
      expect(total, `after tile ${x}`).toBeLessThanOrEqual(maxBytes);
    }
    const kept = (await tileFiles()).map((file) => file.path);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.some((path) => path.endsWith(join('5', '29', '0.tile')))).toBe(true);
    expect(kept.some((path) => path.endsWith(join('5', '0', '0.tile')))).toBe(true);
    expect(kept.some((path) => path.endsWith(join('5', '1', '0.tile')))).toBe(false);
    expect(logs.some((line) => /least recently used/.test(line))).toBe(true);
  });

  it('counts a tile served stale while offline as in use, and keeps it over tiles not looked at', async () => {
    server.tileBytes = 2_000;
    // Five tiles are over the limit, four are under the eviction target: one tile goes.
    const cache = open({ maxBytes: 10_000, evictTo: 0.9, maxAgeMs: DAY });
    expectHit(await cache.get({ z: 5, x: 1, y: 1 }));
    now += 2 * 60 * 60 * 1000;
    expectHit(await cache.get({ z: 5, x: 2, y: 1 }));
    now += 2 * DAY;
    await server.down();
    expect(expectHit(await cache.get({ z: 5, x: 1, y: 1 })).source).toBe('stale');
    await server.up();
    for (let x = 3; x < 6; x++) {
      now += 60 * 60 * 1000;
      expectHit(await cache.get({ z: 5, x, y: 1 }));
      await cache.idle();
    }
    const kept = (await tileFiles()).map((file) => file.path);
    expect(kept.some((path) => path.endsWith(join('5', '1', '1.tile')))).toBe(true);
    expect(kept.some((path) => path.endsWith(join('5', '2', '1.tile')))).toBe(false);
  });

  it('does not show the old tile server\'s tiles after the server is changed', async () => {
    const cache = open();
    const fromA = expectHit(await cache.get({ z: 6, x: 5, y: 5 }));
    template = server.template('other');
    const fromB = expectHit(await cache.get({ z: 6, x: 5, y: 5 }));
    expect(fromB.source).toBe('network');
    expect(fromB.bytes).toEqual(fakeTile(tilePath(6, 5, 5, 'other'), 1));
    expect(fromB.bytes).not.toEqual(fromA.bytes);

    // Back to the first server: its tiles are still there.
    template = server.template('osm');
    const again = expectHit(await cache.get({ z: 6, x: 5, y: 5 }));
    expect(again.source).toBe('cache');
    expect(again.bytes).toEqual(fromA.bytes);
    expect(server.count()).toBe(2);
    expect(await readFile(join(cache.fileFor({ z: 6, x: 5, y: 5 }), '..', '..', '..', 'template.txt'), 'utf8')).toBe(`${server.template('osm')}\n`);
  });

  it('keeps nothing but image answers with status 200', async () => {
    const cache = open();
    for (const mode of ['error', 'not-found', 'html', 'svg'] as const) {
      server.mode = mode;
      const answer = expectMiss(await cache.get({ z: 7, x: 1, y: 1 }));
      expect(answer.status, mode).toBe(502);
      expect(answer.reason, mode).toBe('refused');
    }
    expect(await tileFiles()).toEqual([]);

    server.mode = 'png';
    expect(expectHit(await cache.get({ z: 7, x: 1, y: 1 })).source).toBe('network');
    expect(server.count()).toBe(5);
  });

  it('refuses a tile larger than the per-tile limit', async () => {
    server.tileBytes = 50_000;
    const answer = expectMiss(await open({ maxTileBytes: 10_000 }).get({ z: 1, x: 1, y: 1 }));
    expect(answer.status).toBe(502);
    expect(answer.detail).toMatch(/larger than 10000 bytes/);
    expect(await tileFiles()).toEqual([]);
  });

  it('treats a damaged cache file as missing: asks the server and writes it again', async () => {
    const cache = open();
    expectHit(await cache.get({ z: 8, x: 100, y: 90 }));
    const file = cache.fileFor({ z: 8, x: 100, y: 90 });
    const good = await readFile(file);

    for (const damaged of [Buffer.from('not a tile at all'), good.subarray(0, good.length - 3), Buffer.alloc(0), Buffer.concat([good.subarray(0, -1), Buffer.from('X')])]) {
      await writeFile(file, damaged);
      const answer = expectHit(await cache.get({ z: 8, x: 100, y: 90 }));
      expect(answer.source).toBe('network');
      expect(answer.bytes).toEqual(fakeTile(tilePath(8, 100, 90), 1));
      expect(await readFile(file)).toEqual(good);
    }
    expect(expectHit(await cache.get({ z: 8, x: 100, y: 90 })).source).toBe('cache');

    // Damaged and the server out of reach: a miss, not a broken image.
    await writeFile(file, 'garbage');
    await server.down();
    expect(expectMiss(await cache.get({ z: 8, x: 100, y: 90 })).status).toBe(504);
  });

  it('leaves no temp files behind', async () => {
    const cache = open();
    for (let y = 0; y < 4; y++) await cache.get({ z: 2, x: 1, y });
    const names = await readdir(join(dataDir, TILES_FOLDER), { recursive: true });
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('requests', () => {
  it('fetches a tile once when several ask for it at the same time', async () => {
    server.delayMs = 150;
    const cache = open();
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get({ z: 9, x: 3, y: 4 })));
    expect(server.count(tilePath(9, 3, 4))).toBe(1);
    for (const answer of answers) expect(expectHit(answer).bytes).toEqual(fakeTile(tilePath(9, 3, 4), 1));
  });

  it('refuses coordinates outside the tile grid without asking the server', async () => {
    const cache = open();
    const bad = [
      { z: 23, x: 0, y: 0 },
      { z: -1, x: 0, y: 0 },
      { z: 2, x: 4, y: 0 },
      { z: 2, x: 0, y: 4 },
      { z: 2, x: -1, y: 0 },
      { z: 1.5, x: 0, y: 0 },
      { z: 2, x: 0.5, y: 0 },
      { z: Number.NaN, x: 0, y: 0 },
      { z: 2, x: Number.POSITIVE_INFINITY, y: 0 },
    ];
    for (const coords of bad) {
      const answer = expectMiss(await cache.get(coords));
      expect(answer.status, JSON.stringify(coords)).toBe(400);
      expect(answer.reason).toBe('bad-coordinates');
    }
    for (const path of ['/tiles/1/2', '/tiles/a/0/0', '/tiles/1/-1/0', '/tiles/1/1/1.png', '/tiles/1/0/0/', '/tiles/1e1/0/0', '/tiles/%31/0/0', '/tiles/22/4194304/0']) {
      expect(expectMiss(await tileForPath(cache, path)).status, path).toBe(400);
    }
    expect(server.count()).toBe(0);
    expect(expectHit(await tileForPath(cache, '/tiles/22/4194303/4194303')).source).toBe('network');
  });

  it('answers 503 once closed', async () => {
    const cache = open();
    await cache.close();
    expect(expectMiss(await cache.get({ z: 0, x: 0, y: 0 })).status).toBe(503);
    expect(server.count()).toBe(0);
  });
});

describe('templates', () => {
  it('answers a template it cannot fill with a miss, not a request', async () => {
    template = `${server.origin}/{z}/{x}/{y}.png?key={apikey}`;
    const answer = expectMiss(await open().get({ z: 1, x: 0, y: 0 }));
    expect(answer.status).toBe(502);
    expect(answer.reason).toBe('bad-template');
    expect(server.count()).toBe(0);
  });
});

describe('permissions', () => {
  it('creates every tile folder 0700 and every file 0600, kept or cached, whatever the umask', async () => {
    const previous = process.umask(0o022);
    try {
      const cache = open();
      expectHit(await cache.get({ z: 5, x: 10, y: 12 }));
      expectHit(await cache.get({ z: 6, x: 20, y: 24 }, { template, keep: true }));
    } finally {
      process.umask(previous);
    }
    const seen: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        const mode = (await stat(path)).mode & 0o777;
        seen.push(`${entry.isDirectory() ? 'dir' : 'file'} ${mode.toString(8)}`);
        expect(mode, path).toBe(entry.isDirectory() ? 0o700 : 0o600);
        if (entry.isDirectory()) await walk(path);
      }
    };
    await walk(dataDir);
    expect(seen).toContain('file 600');
    expect(seen.filter((line) => line.startsWith('dir')).length).toBeGreaterThan(3);
  });
});

describe('addresses a tile server may not have', () => {
  it('never asks a link-local address, even for a template saved before the rule', async () => {
    template = 'http://169.254.169.254/latest/{z}/{x}/{y}.png';
    const cache = open();
    const answer = expectMiss(await cache.get({ z: 3, x: 1, y: 1 }));
    expect(answer.detail).toMatch(/link-local address/);
    expect(server.requests).toEqual([]);
  });
});
