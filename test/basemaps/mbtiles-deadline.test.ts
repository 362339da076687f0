// MBTiles reads run in a process of their own, each held to a deadline: a read that SQLite would run
// for hours (a `tiles` view over a recursive CTE) fails with a limit error once the deadline passes,
// the reader's process is killed, and the reads before it were served as usual. The contract of the
// two process starters (fork, Electron's utilityProcess) is in mbtiles-process.test.ts.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { TileFileLimitError } from '../../electron/core/tiles/limits';
import { forkReaderProcess } from '../../electron/core/tiles/mbtiles-fork';
import { MbtilesPool } from '../../electron/core/tiles/mbtiles-pool';
import { GOOD_TILE, HOSTILE_TILE, mbtilesEndlessView } from '../support/hostile-basemaps';
import { it } from '../support/fixtures';

describe('MBTiles reads with a deadline', () => {
  it('serves the good tile, then gives up on the endless one at the deadline and stops its reader', async ({ tempDir }) => {
    const path = join(tempDir, 'endless.mbtiles');
    await mbtilesEndlessView(path);
    const pool = new MbtilesPool({ starter: forkReaderProcess, deadlineMs: 1000 });
    const reader = await pool.open(path, 'endless.mbtiles');
    try {
      expect(reader.tables.has('tiles')).toBe(true);
      expect(reader.metadata.get('name')).toBe('Endless view');
      expect((await reader.anyTile())?.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect((await reader.tile(GOOD_TILE))?.subarray(1, 4).toString('latin1')).toBe('PNG');
      const endless = reader.tile(HOSTILE_TILE);
      await expect(endless).rejects.toBeInstanceOf(TileFileLimitError);
      await expect(endless).rejects.toThrow(/ran past 1000 ms/);
      // Everything after it is refused at once with the same reason: the reader is gone.
      await expect(reader.tile(GOOD_TILE)).rejects.toMatchObject({ sentence: expect.stringMatching(/"endless\.mbtiles" was not read: reading from it took longer than 1 s/) });
    } finally {
      await reader.close();
      pool.close();
    }
  });
});
