// One row of `sites` that no Sitewalk writes (an unknown origin or pin style, a draft or measurement
// that is not JSON, or JSON of the wrong shape) does not stop the folder opening: the site is left
// out, kept in the database as it is, and said by name; every other site opens and works.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import type { SitewalkCore } from '../../electron/core/open-core';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { unpackSites } from '../../electron/shared/contract/site-list';
import { it } from '../support/fixtures';

it.override('coreOptions', { autoSync: false, sandbox: false });

/** Two sites saved (queued, not sent); their local IDs. */
async function saveTwo(core: SitewalkCore): Promise<[string, string]> {
  const ids: string[] = [];
  for (const name of ['Ridge', 'Water tower']) {
    const saved = await core.sites.save({ name, height: 40, latitude: 45.1, longitude: -93.2 });
    if (!saved.ok) throw new Error(saved.issues[0]!.message);
    ids.push(saved.value.site.localId);
  }
  return ids as [string, string];
}

/** Runs `sql` on the folder's database, as another program would. */
function rawSql(dataDir: string, sql: string, ...values: unknown[]): void {
  const db = new Database(join(dataDir, DATABASE_FILE));
  try {
    db.prepare(sql).run(...values);
  } finally {
    db.close();
  }
}

function rowCount(dataDir: string, localId: string): number {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare<[string], number>('SELECT count(*) FROM sites WHERE local_id = ?').pluck().get(localId) ?? 0;
  } finally {
    db.close();
  }
}

describe('a site row no Sitewalk writes', () => {
  const cases: Array<[string, string, unknown, RegExp]> = [
    ['an unknown origin', 'UPDATE sites SET origin = ? WHERE local_id = ?', 'teleported', /an unknown origin "teleported"/],
    ['an unknown pin style', 'UPDATE sites SET pin_style = ? WHERE local_id = ?', 77, /an unknown pin style 77/],
    ['a draft that is not JSON', 'UPDATE sites SET draft = ? WHERE local_id = ?', '{"name":', /a draft that is not JSON/],
    ['a measurement that is not JSON', 'UPDATE sites SET measurement = ? WHERE local_id = ?', '{"source":', /a measurement that is not JSON/],
  ];

  for (const [what, sql, value, said] of cases) {
    it(`with ${what}: the folder opens, the site is left out and said by name, the others work`, async ({ tempDir: dataDir, openCore }) => {
      const first = await openCore();
      const [bad, good] = await saveTwo(first);
      await first.close();
      rawSql(dataDir, sql, value, bad);

      const core = await openCore();
      const problems = core.sync.status().dataProblems.join(' ');
      expect(problems).toContain(`Site ${bad} in the database`);
      expect(problems).toMatch(said);
      expect(problems).toMatch(/left out of the site list and kept in the database/);
      expect(core.sites.list().map((site) => site.localId)).toEqual([good]);
      expect(unpackSites(core.sites.listPacked()).map((site) => site.localId)).toEqual([good]);
      expect(core.sites.get(bad)).toBeNull();
      // The other site is edited as ever.
      const edited = await core.sites.save({ localId: good, height: 55 });
      expect(edited.ok && edited.value.site.height).toBe(55);
      await core.close();
      // Set aside, not deleted: the row is still there for whoever repairs it.
      expect(rowCount(dataDir, bad)).toBe(1);
    });
  }

  it('with a measurement of the wrong shape: left out when first read and said by name', async ({ tempDir: dataDir, openCore }) => {
    const first = await openCore();
    const [bad, good] = await saveTwo(first);
    await first.close();
    rawSql(dataDir, 'UPDATE sites SET measurement = ? WHERE local_id = ?', JSON.stringify({ source: 'nmea', fixes: -1 }), bad);

    const core = await openCore();
    expect(unpackSites(core.sites.listPacked()).map((site) => site.localId)).toEqual([good]);
    expect(core.sync.status().dataProblems.join(' ')).toContain(`Site ${bad} in the database has a measurement of the wrong shape`);
    expect(core.sites.list().map((site) => site.localId)).toEqual([good]);
  });
});
