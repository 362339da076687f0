// The Sandbox profile with two Sitewalk cores on one data folder (the app and `sitewalk import`, say):
// both send to the one sandbox the folder has, so the sites they create are numbered once. With a
// sandbox each, the app and the CLI numbered new sites from the same saved state and gave different
// towers the same site ID; edits of one then went to the other.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { testCoreOptions } from '../support/core';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tower = (who: string, k: number) => ({ name: `${who} tower ${k}`, height: 20 + k, latitude: 45 + k / 1000, longitude: -111 - k / 1000 });

describe('the Sandbox profile shared by two cores', () => {
  it('numbers the sites both create once: every site ID in the register names one tower', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-shared-sandbox-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const cores: SitewalkCore[] = [];
    for (let k = 0; k < 2; k++) {
      const core = await openCore(testCoreOptions({ dataDir, autoSync: false }));
      cores.push(core);
      cleanups.push(() => core.close());
    }
    for (const [k, core] of cores.entries()) {
      const saved = await core.sites.saveMany(Array.from({ length: 30 }, (_, n) => tower(`core ${k}`, n)));
      expect(saved.ok).toBe(true);
    }
    // Both send at once, each claiming entries from the one outbox.
    await Promise.all(cores.map((core) => core.sync.syncNow()));
    await Promise.all(cores.map((core) => core.sync.untilSettled()));
    // Each core hears the other's results at its next look at the database (within half a second).
    const towers = () => cores[0]!.sites.list().filter((site) => site.name.includes(' tower '));
    await expect.poll(() => towers().filter((site) => site.siteId !== null && site.syncState === 'synced').length, { timeout: 15_000 }).toBe(60);
    const sites = towers();
    expect(sites).toHaveLength(60);
    expect(new Set(sites.map((site) => site.siteId)).size).toBe(60);
  });
});
