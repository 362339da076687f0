// A data folder written by the journal-based Sitewalk (test/fixtures/legacy-folder, made by the code
// of that time with make-fixture.ts) opens in the database with everything in it — sites, done,
// failed, needs-review and pending entries, profiles and settings — imported once, in one
// transaction, with the old files kept in a backup folder the status names.
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { SCHEMA_VERSION } from '../../electron/core/storage/migrations/index';
import { it } from '../support/fixtures';

it.override('coreOptions', { autoSync: false, sandbox: false });

const FIXTURE = join(process.cwd(), 'test/fixtures/legacy-folder/data');

describe('a data folder in the journal format', () => {
  it('opens with everything in it, once, and keeps the old files as a backup', async ({ tempDir, openCore }) => {
    const dataDir = join(tempDir, 'data');
    await cp(FIXTURE, dataDir, { recursive: true });

    const core = await openCore({ dataDir });
    const problems = core.sync.status().dataProblems.join(' ');
    expect(problems).toMatch(/moved to Sitewalk's new database: 5 site\(s\) and 7 outbox entries \(5 not yet sent\) in one step/);
    const backup = /kept in (\S+)\./.exec(problems)![1]!;
    expect((await readdir(backup)).sort()).toEqual(['outbox.journal', 'sites.journal']);
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.journal'))).toEqual([]);

    // Profiles and settings are where they were.
    expect((await core.profiles.list()).map((profile) => profile.name)).toEqual(expect.arrayContaining(['Field office', 'Spare']));
    expect((await core.profiles.active()).name).toBe('Field office');
    expect(core.settings.get('theme')).toBe('dark');

    const states = core.outbox.list({ allProfiles: true }).map((entry) => entry.state).sort();
    expect(states).toEqual(['done', 'done', 'failed', 'needs-review', 'pending', 'pending', 'pending']);
    const byName = new Map(core.sites.list().map((site) => [site.name, site]));
    // The create and its edit were done: the site has its service ID; a later edit is pending.
    expect(byName.get('North Ridge')).toMatchObject({ syncState: 'pending', height: 60, description: 'raised', group: 'North' });
    expect(byName.get('North Ridge')!.siteId).toMatch(/^\d+$/);
    expect(byName.get('Water tower')).toMatchObject({ siteId: '9001', syncState: 'synced', height: 30 });
    expect(byName.get('Ghost')).toMatchObject({ siteId: '77777777', syncState: 'failed' });
    expect(byName.get('Lost answer')).toMatchObject({ syncState: 'needs-review', siteId: null });
    expect(byName.get('Valley')).toMatchObject({ syncState: 'pending', pinStyle: 3 });
    expect(core.outbox.history().entries.map((entry) => entry.op)).toEqual(['edit', 'create']);
    await core.close();

    // Opened again: nothing imported twice, nothing more said.
    const again = await openCore({ dataDir });
    expect(again.sync.status().dataProblems.join(' ')).not.toMatch(/moved to Sitewalk's new database/);
    expect(again.outbox.list({ allProfiles: true })).toHaveLength(7);
    expect(again.sites.list()).toHaveLength(5);
  });

  it('refuses a folder whose database a newer Sitewalk wrote, with a sentence, and changes nothing', async ({ tempDir, openCore }) => {
    const core = await openCore();
    await core.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(tempDir, 'sitewalk.db'));
    db.pragma('user_version = 99');
    db.close();
    await expect(openCore()).rejects.toThrow(`written by a newer Sitewalk (schema 99; this one knows up to ${SCHEMA_VERSION}). Update Sitewalk`);
  });
});
