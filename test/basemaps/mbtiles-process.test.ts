// The MBTiles reader's process, under both ways a host starts it — child_process.fork (the browser
// host, the CLI) and Electron's utilityProcess (a fake of Electron's API on fork, running the bundle
// the app ships, mbtiles-child.cjs) — held to one contract through the pool that drives it: one
// process reads every file; a hung read kills it and turns off only its file while the others are
// read by a new process; a crash restarts it and blames only the file being read; the queue, the
// open files and the process's memory stay bounded.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { MAX_OPEN_MBTILES, MbtilesPool, MbtilesReaderUnavailable, TileFileLimitError, forkReaderProcess, openTileFile, type AsyncMbtilesReader, type ReaderProcessStarter } from '../../electron/core/tiles';
import { bundleMbtilesChild, ROOT } from '../../electron/main/build';
import { utilityReaderProcess } from '../../electron/main/mbtiles-utility-process';
import { writeMbtiles } from '../support/basemap-files';
import { GOOD_TILE, HOSTILE_TILE, mbtilesEndlessView } from '../support/hostile-basemaps';
import { it } from '../support/fixtures';
import { fakeUtilityProcess } from '../electron/fake-utility-process';

/** Inside the checkout, as dist/electron is: the bundle finds better-sqlite3 in node_modules above it. */
const BUNDLE_DIR = join(ROOT, 'dist', `mbtiles-child-test-${process.pid}`);
const BUNDLED_CHILD = join(BUNDLE_DIR, 'mbtiles-child.cjs');

beforeAll(async () => {
  await mkdir(BUNDLE_DIR, { recursive: true });
  await bundleMbtilesChild(BUNDLED_CHILD);
}, 120_000);
afterAll(async () => {
  await rm(BUNDLE_DIR, { recursive: true, force: true });
});

/** A starter that remembers the pid of every process it started. */
function counting(starter: ReaderProcessStarter): { starter: ReaderProcessStarter; pids: number[] } {
  const pids: number[] = [];
  return {
    pids,
    starter: (events) => {
      const process = starter(events);
      if (process.pid !== undefined) pids.push(process.pid);
      return process;
    },
  };
}

/** This test process's children whose command line runs the reader. */
function readerProcesses(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('mbtiles-child')) found.push(Number(name));
    } catch {
      // Ended while looked at.
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Peak resident memory of a process (Linux's VmHWM). */
const peakRss = (pid: number) => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The .mbtiles files a process holds open. */
const openMbtilesFiles = (pid: number) =>
  readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`).endsWith('.mbtiles');
    } catch {
      return false;
    }
  }).length;

const isPng = (bytes: Buffer | null) => bytes?.subarray(1, 4).toString('latin1') === 'PNG';

/**
 * forkReaderProcess as a host running from source starts it (`npm start`, the CLI): the TypeScript
 * through tsx, not the bundle the test run gives its in-process hosts (electron/node/prebuilt.ts).
 */
const fromSource: ReaderProcessStarter = (events) => {
  const given = process.env['SITEWALK_PROCESS_BUNDLES'];
  delete process.env['SITEWALK_PROCESS_BUNDLES'];
  try {
    return forkReaderProcess(events);
  } finally {
    if (given !== undefined) process.env['SITEWALK_PROCESS_BUNDLES'] = given;
  }
};

describe.each<[string, () => ReaderProcessStarter]>([
  ['child_process.fork, from source', () => fromSource],
  ["Electron's utilityProcess (a fake of it on fork)", () => utilityReaderProcess(fakeUtilityProcess, BUNDLED_CHILD)],
])('the MBTiles reader started by %s', (_label, starterOf) => {
  it('reads two files in one process, within its memory bound, and leaves none behind when they close', async ({ tempDir }) => {
    const counted = counting(starterOf());
    const pool = new MbtilesPool({ starter: counted.starter });
    try {
      await writeMbtiles(join(tempDir, 'a.mbtiles'), { name: 'A', tiles: [GOOD_TILE] });
      await writeMbtiles(join(tempDir, 'b.mbtiles'), { name: 'B', tiles: [GOOD_TILE, HOSTILE_TILE] });
      const a = await pool.open(join(tempDir, 'a.mbtiles'), 'a.mbtiles');
      const b = await pool.open(join(tempDir, 'b.mbtiles'), 'b.mbtiles');
      expect([a.metadata.get('name'), b.metadata.get('name')]).toEqual(['A', 'B']);
      const tiles = await Promise.all([a.tile(GOOD_TILE), b.tile(GOOD_TILE), b.tile(HOSTILE_TILE), a.tile(HOSTILE_TILE)]);
      expect(tiles.map(isPng)).toEqual([true, true, true, false]);
      expect(counted.pids).toHaveLength(1);
      expect(readerProcesses()).toEqual(counted.pids);
      expect(openMbtilesFiles(counted.pids[0]!)).toBe(2);
      expect(peakRss(counted.pids[0]!)).toBeLessThan(150 * 1024 * 1024);
      await a.close();
      await b.close();
      await expect.poll(() => alive(counted.pids[0]!)).toBe(false);
      expect(readerProcesses()).toEqual([]);
    } finally {
      pool.close();
    }
  });

  it('kills the process at a hung read, turns off that file only, and reads the other in a new process', async ({ tempDir }) => {
    const counted = counting(starterOf());
    const pool = new MbtilesPool({ starter: counted.starter, deadlineMs: 1000 });
    try {
      const { endless, fine } = await openEndlessAndFine(pool, tempDir);
      expect(isPng(await endless.tile(GOOD_TILE))).toBe(true);
      // The fine file's read waits behind the hung one, and is read by the next process.
      const [hung, behind] = await Promise.allSettled([endless.tile(HOSTILE_TILE), fine.tile(GOOD_TILE)]);
      expect(hung).toMatchObject({ status: 'rejected', reason: expect.any(TileFileLimitError) });
      expect((hung as PromiseRejectedResult).reason.sentence).toMatch(/^"endless\.mbtiles" was not read: reading from it took longer than 1 s/);
      expect(behind.status === 'fulfilled' && isPng(behind.value)).toBe(true);
      expect(counted.pids).toHaveLength(2);
      await expect.poll(() => alive(counted.pids[0]!)).toBe(false);
      expect(readerProcesses()).toEqual([counted.pids[1]]);
      // The hung file stays off (even its good tile); the other keeps being read.
      await expect(endless.tile(GOOD_TILE)).rejects.toMatchObject({ sentence: expect.stringMatching(/"endless\.mbtiles" was not read/) });
      expect(isPng(await fine.tile(GOOD_TILE))).toBe(true);
      expect(openMbtilesFiles(counted.pids[1]!)).toBe(1);
    } finally {
      pool.close();
    }
  });

  it('starts a new process after a crash, blaming only the file that was being read', async ({ tempDir }) => {
    const counted = counting(starterOf());
    const pool = new MbtilesPool({ starter: counted.starter, deadlineMs: 120_000, restartMs: { first: 50, max: 1000 } });
    try {
      const { endless, fine } = await openEndlessAndFine(pool, tempDir);
      expect(isPng(await fine.tile(GOOD_TILE))).toBe(true);

      // Dies while idle: nobody is blamed; the next read starts a new process.
      process.kill(counted.pids[0]!, 'SIGKILL');
      await expect.poll(() => pool.pid).toBeUndefined();
      expect(isPng(await fine.tile(GOOD_TILE))).toBe(true);
      expect(isPng(await endless.tile(GOOD_TILE))).toBe(true);
      expect(counted.pids).toHaveLength(2);

      // Dies inside the endless read: that file is blamed, the other is read by the next process.
      const reading = endless.tile(HOSTILE_TILE);
      await expect.poll(() => pool.reading).toBe('endless.mbtiles');
      process.kill(counted.pids[1]!, 'SIGKILL');
      await expect(reading).rejects.toMatchObject({ sentence: expect.stringMatching(/^"endless\.mbtiles" was not read: Sitewalk's reader of MBTiles files stopped while reading it/) });
      expect(isPng(await fine.tile(GOOD_TILE))).toBe(true);
      await expect(endless.tile(GOOD_TILE)).rejects.toBeInstanceOf(TileFileLimitError);
      expect(counted.pids).toHaveLength(3);
    } finally {
      pool.close();
    }
  });

  it('refuses reads past the queue bound with a sentence, and keeps at most MAX_OPEN_MBTILES files open', async ({ tempDir }) => {
    const counted = counting(starterOf());
    const pool = new MbtilesPool({ starter: counted.starter, deadlineMs: 120_000, maxQueued: 2 });
    try {
      await mbtilesEndlessView(join(tempDir, 'endless.mbtiles'));
      const endless = await pool.open(join(tempDir, 'endless.mbtiles'), 'endless.mbtiles');
      const hung = endless.tile(HOSTILE_TILE);
      await expect.poll(() => pool.reading).toBe('endless.mbtiles');
      const waiting = [endless.tile(GOOD_TILE), endless.tile(GOOD_TILE)];
      const refused = endless.tile(GOOD_TILE);
      await expect(refused).rejects.toThrow(/^Sitewalk is still reading 2 tiles from MBTiles files; this one was not asked for/);
      await expect(refused).rejects.toBeInstanceOf(MbtilesReaderUnavailable);
      await expect(refused).rejects.toMatchObject({ busy: true });
      await endless.close();
      pool.close();
      for (const read of [hung, ...waiting]) await expect(read).rejects.toThrow(/closed/);
    } finally {
      pool.close();
    }

    // More files than the process keeps open: the least recently read are closed, and reopened when asked.
    const many = new MbtilesPool({ starter: counted.starter });
    try {
      const readers: AsyncMbtilesReader[] = [];
      for (let index = 0; index < MAX_OPEN_MBTILES + 2; index++) {
        const path = join(tempDir, `area-${index}.mbtiles`);
        await writeMbtiles(path, { tiles: [GOOD_TILE] });
        readers.push(await many.open(path, `area-${index}.mbtiles`));
      }
      const pid = many.pid!;
      expect(openMbtilesFiles(pid)).toBe(MAX_OPEN_MBTILES);
      const tiles = await Promise.all(readers.map((reader) => reader.tile(GOOD_TILE)));
      expect(tiles.every(isPng)).toBe(true);
      expect(openMbtilesFiles(pid)).toBe(MAX_OPEN_MBTILES);
      expect(many.pid).toBe(pid);
      expect(peakRss(pid)).toBeLessThan(200 * 1024 * 1024);
    } finally {
      many.close();
    }
  });
});

/** Two files in one pool: one whose `tiles` view never ends (HOSTILE_TILE hangs), one well-formed. */
async function openEndlessAndFine(pool: MbtilesPool, dir: string) {
  await mbtilesEndlessView(join(dir, 'endless.mbtiles'));
  await writeMbtiles(join(dir, 'fine.mbtiles'), { tiles: [GOOD_TILE] });
  return { endless: await pool.open(join(dir, 'endless.mbtiles'), 'endless.mbtiles'), fine: await pool.open(join(dir, 'fine.mbtiles'), 'fine.mbtiles') };
}
describe('a host whose reader process cannot run', () => {
  it('refuses MBTiles files with a sentence that does not call them damaged when it has no way to start one, and reads nothing in its own thread', async ({ tempDir }) => {
    await writeMbtiles(join(tempDir, 'a.mbtiles'), { tiles: [GOOD_TILE] });
    const pool = new MbtilesPool({ starter: null });
    try {
      await expect(pool.open(join(tempDir, 'a.mbtiles'), 'a.mbtiles')).rejects.toThrow(/^Sitewalk cannot read MBTiles files: no process can be started for it here\.$/);
      expect(await openTileFile(join(tempDir, 'a.mbtiles'), pool)).toEqual({ ok: false, message: 'Sitewalk cannot read MBTiles files: no process can be started for it here.', detail: 'reader unavailable' });
      expect(pool.pid).toBeUndefined();
    } finally {
      pool.close();
    }
  });

  it('tries three starts of a reader that never says ready, then fails the waiting reads without blaming the file', async ({ tempDir }) => {
    await writeMbtiles(join(tempDir, 'a.mbtiles'), { tiles: [GOOD_TILE] });
    const counted = counting(utilityReaderProcess(fakeUtilityProcess, join(tempDir, 'missing-child.cjs')));
    const pool = new MbtilesPool({ starter: counted.starter, restartMs: { first: 10, max: 100 } });
    try {
      const opening = pool.open(join(tempDir, 'a.mbtiles'), 'a.mbtiles');
      await expect(opening).rejects.toThrow(/^Sitewalk's MBTiles reader did not start \(exit code 1\)\.$/);
      await expect(opening).rejects.toBeInstanceOf(MbtilesReaderUnavailable);
      expect(counted.pids).toHaveLength(3);
    } finally {
      pool.close();
    }
  });
});
