// The CLI on a full disk: an edit is either durably queued and reported so, or not queued at all —
// never "failed" for an edit that is in fact waiting (running it again would create a duplicate).
// A real full disk: a small tmpfs as the data folder (root on Linux, as on the build machines).
import { mkdtemp, rm, writeFile, statfs } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitewalkInTempHome } from '../support/cli';

const canMount = process.platform === 'linux' && process.getuid?.() === 0;

let mountPoint = '';

describe.runIf(canMount)('the CLI on a full disk', () => {
  const run = sitewalkInTempHome();
  const sitewalk = (args: string[]) => run([...args, '--data-dir', join(mountPoint, 'data')]);
  const add = (name: string) => sitewalk(['site', 'add', '--name', name, '--height', '30', '--lat', '45.5', '--lon=-110.5', '--description', 'd'.repeat(1900)]);

  beforeAll(async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'sitewalk-fulldisk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
  });
  afterAll(async () => {
    if (mountPoint) execFileSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it('reports every add as queued or not queued, truthfully, and a repeat after freeing space queues it once', async () => {
    expect((await add('Setup')).code).toBe(0);
    // Fill the disk to within a few KB, so the next adds run out of room part-way.
    const free = await statfs(mountPoint);
    await writeFile(join(mountPoint, 'filler'), Buffer.alloc(Math.max(0, free.bavail * free.bsize - 24 * 1024)));

    const reportedQueued = ['Setup'];
    let refused: string | null = null;
    for (let i = 1; i <= 40 && !refused; i++) {
      const name = `Full ${i}`;
      const result = await add(name);
      if (result.code === 0) reportedQueued.push(name);
      else {
        refused = name;
        expect(result.stderr).toMatch(/disk|space|write/i);
      }
    }
    expect(refused, 'the disk never filled up').not.toBeNull();

    await rm(join(mountPoint, 'filler'));
    const listed = JSON.parse((await sitewalk(['outbox', '--json'])).stdout) as { entries: Array<{ payload: { name?: string } }> };
    const queuedNames = listed.entries.map((entry) => entry.payload.name);
    expect(queuedNames.sort()).toEqual([...reportedQueued].sort());

    // The refused one, sent again now there is room: queued exactly once.
    expect((await add(refused!)).code).toBe(0);
    const again = JSON.parse((await sitewalk(['outbox', '--json'])).stdout) as { entries: Array<{ payload: { name?: string } }> };
    expect(again.entries.filter((entry) => entry.payload.name === refused)).toHaveLength(1);
  }, 120_000);
});
