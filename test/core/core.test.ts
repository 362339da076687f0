// The core facade without the network: profiles and keys (never in a view or on disk), input
// validation (bad input queues nothing), durable saves that survive a reopen, the register kept in
// step with the outbox (also after a crash between their writes), discard, and the data-folder
// lock. Sending through the real client against the sandbox is in integration.test.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { waiting } from '../support/wait';

// Without the network: no sending unless a test asks, and no built-in sandbox.
it.override('coreOptions', { autoSync: false, sandbox: false });

async function allBytes(dir: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    try {
      parts.push(await readFile(join(dir, name)));
    } catch {
      // a folder
    }
  }
  return Buffer.concat(parts);
}

describe('core: profiles and keys', () => {
  it('starts on the built-in Sandbox profile on a first run, with its demo key held for the session', async ({ openCore }) => {
    const core = await openCore();
    const active = await core.profiles.active();
    expect(active).toMatchObject({ id: 'sandbox', name: 'Sandbox', builtIn: true, active: true, hasKey: true, keyStore: 'session-only' });
    expect((await core.profiles.list()).map((profile) => profile.name)).toEqual(['Sandbox']);
  });

  it('refuses a profile with a bad address, a taken name or an unknown binding, and stores none of them', async ({ openCore }) => {
    const core = await openCore();
    const bad = await core.profiles.add({ name: 'Main', baseUrl: 'ftp://example.com', account: '1' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues[0]!.message).toMatch(/https:\/\//);
    const withPassword = await core.profiles.add({ name: 'Main', baseUrl: 'https://user:pw@example.com', account: '1' });
    expect(!withPassword.ok && withPassword.issues[0]!.message).toMatch(/must not contain a user name or password/);
    const sandboxName = await core.profiles.add({ name: 'sandbox', baseUrl: 'https://example.com', account: '1' });
    expect(!sandboxName.ok && sandboxName.issues[0]!.message).toMatch(/built-in/);
    const binding = await core.profiles.add({ name: 'Main', baseUrl: 'https://example.com', account: '1', binding: 'soap13' });
    expect(!binding.ok && binding.issues[0]!.field).toBe('binding');
    const good = await core.profiles.add({ name: 'Main', baseUrl: 'https://example.com/', account: '1' });
    expect(good.ok && good.value).toMatchObject({ baseUrl: 'https://example.com', servicePath: '/towercoverage.asmx', namespace: 'http://tempuri.org/', binding: 'http-post', hasKey: false, active: false });
    const duplicate = await core.profiles.add({ name: 'MAIN', baseUrl: 'https://example.com', account: '2' });
    expect(!duplicate.ok && duplicate.issues[0]!.message).toMatch(/already exists/);
    expect((await core.profiles.list()).map((profile) => profile.name)).toEqual(['Sandbox', 'Main']);
  });

  it('takes a key without ever showing it: views say hasKey, and no file in the data folder holds it', async ({ tempDir, openCore }) => {
    const core = await openCore();
    const added = await core.profiles.add({ name: 'Field', baseUrl: 'https://api.example.test', account: '4242' });
    if (!added.ok) throw new Error('add failed');
    const key = 'SECRET-key-7f3a9c';
    const withKey = await core.profiles.setKey(added.value.id, key);
    expect(withKey.ok && withKey.value).toMatchObject({ hasKey: true, keyStore: 'session-only' });
    await core.profiles.use('Field');
    await core.sites.save({ name: 'Ridge', height: 30, latitude: 45, longitude: -93 });
    const everything = JSON.stringify([await core.profiles.list(), core.sites.list(), core.outbox.list(), core.sync.status()]);
    expect(everything).not.toContain(key);
    await core.close();
    expect((await allBytes(tempDir)).includes(Buffer.from(key))).toBe(false);
  });

  it('forgets the key when the profile is pointed at another server, so an edited address never carries it away', async ({ openCore }) => {
    const core = await openCore();
    const added = await core.profiles.add({ name: 'Office', baseUrl: 'https://api.towercoverage.com', account: '4242' });
    const id = added.ok ? added.value.id : '';
    await core.profiles.setKey(id, 'office-key-123');
    // The same server, spelled with a path: the key stays.
    const samePlace = await core.profiles.update(id, { name: 'Office', baseUrl: 'https://api.towercoverage.com/', account: '4243' });
    expect(samePlace.ok && samePlace.value.hasKey).toBe(true);
    for (const elsewhere of ['http://api.towercoverage.com', 'https://collector.example.net']) {
      await core.profiles.setKey(id, 'office-key-123');
      const moved = await core.profiles.update(id, { name: 'Office', baseUrl: elsewhere, account: '4243' });
      expect(moved.ok && moved.value.hasKey, elsewhere).toBe(false);
    }
  });

  it('refuses an empty key or one with a line break, and never quotes it back', async ({ openCore }) => {
    const core = await openCore();
    const added = await core.profiles.add({ name: 'Field', baseUrl: 'https://api.example.test', account: '1' });
    if (!added.ok) throw new Error('add failed');
    const empty = await core.profiles.setKey(added.value.id, '   ');
    expect(empty.ok).toBe(false);
    const broken = await core.profiles.setKey(added.value.id, 'abc\ndef');
    expect(!broken.ok && broken.issues[0]!.message).not.toContain('abc');
    expect((await core.profiles.get('Field'))?.hasKey).toBe(false);
  });

  it('switches the active profile by name and remembers it across a reopen', async ({ openCore }) => {
    const core = await openCore();
    await core.profiles.add({ name: 'Office', baseUrl: 'https://api.example.test', account: '7' });
    const used = await core.profiles.use('office');
    expect(used.ok && used.value.active).toBe(true);
    expect(core.sync.status().activeProfileId).toBe(used.ok ? used.value.id : '');
    await core.close();
    const again = await openCore();
    expect((await again.profiles.active()).name).toBe('Office');
  });

  it('says why the queue cannot move when the active profile has no key', async ({ openCore }) => {
    const core = await openCore({ autoSync: true });
    await core.profiles.add({ name: 'Office', baseUrl: 'http://127.0.0.1:9', account: '7' });
    await core.profiles.use('Office');
    await core.sites.save({ height: 30, latitude: 45, longitude: -93 });
    const settled = await core.sync.untilSettled();
    expect(settled.blocked?.reason).toBe('no-key');
    expect(settled.blocked?.message).toMatch(/has no API key/);
    expect(settled.counts.pending).toBe(1);
  });

  it('will not remove a profile that still has unsent work', async ({ openCore }) => {
    const core = await openCore();
    const added = await core.profiles.add({ name: 'Office', baseUrl: 'https://api.example.test', account: '7' });
    if (!added.ok) throw new Error('add failed');
    await core.profiles.use('Office');
    await core.sites.save({ height: 30, latitude: 45, longitude: -93 });
    const removed = await core.profiles.remove(added.value.id);
    expect(!removed.ok && removed.issues[0]!.message).toMatch(/1 unsent request/);
    const sandbox = await core.profiles.remove('sandbox');
    expect(sandbox.ok).toBe(false);
  });
});

describe('core: sites and the outbox', () => {
  it('refuses bad input with sentences that name the field, and queues nothing', async ({ openCore }) => {
    const core = await openCore();
    const saved = await core.sites.save({ name: 'Ridge', height: '30.5', latitude: '45,1' });
    expect(saved.ok).toBe(false);
    const fields = !saved.ok ? saved.issues.map((issue) => issue.field).sort() : [];
    expect(fields).toEqual(['height', 'latitude']);
    expect(core.outbox.list()).toEqual([]);
    expect(core.sites.list()).toEqual([]);
  });

  it('keeps a saved site and its queued create across a reopen (it was on disk before save returned)', async ({ openCore }) => {
    const core = await openCore();
    const saved = await core.sites.save({ name: 'North Ridge', height: '45', latitude: '45.1234567', longitude: '-93.5', pinStyle: 'green' });
    if (!saved.ok) throw new Error('save failed');
    expect(saved.value.site).toMatchObject({ name: 'North Ridge', height: 45, pinStyle: 4, syncState: 'pending', siteId: null });
    expect(saved.value.entry).toMatchObject({ state: 'pending', op: 'create' });
    await core.close();
    const again = await openCore();
    expect(again.sites.get(saved.value.site.localId)).toMatchObject({ name: 'North Ridge', latitude: 45.1234567, syncState: 'pending' });
    expect(again.outbox.list().map((entry) => entry.summary)).toEqual(["Create site 'North Ridge' (45 m) at 45.1234567, -93.5"]);
  });

  it('merges an edit of a site not yet sent into its create, and the site shows the merged fields', async ({ openCore }) => {
    const core = await openCore();
    const created = await core.sites.save({ name: 'Ridge', height: 30, latitude: 45, longitude: -93 });
    if (!created.ok) throw new Error('save failed');
    const edited = await core.sites.save({ localId: created.value.site.localId, height: 60, group: 'North' });
    expect(edited.ok && edited.value.coalesced).toBe(true);
    expect(core.outbox.list()).toHaveLength(1);
    expect(core.outbox.list()[0]!.payload).toEqual({ name: 'Ridge', height: 60, latitude: 45, longitude: -93, group: 'North' });
    expect(core.sites.get(created.value.site.localId)).toMatchObject({ height: 60, group: 'North', name: 'Ridge' });
  });

  it('edits a site known only by its service ID, taking the height it already has when none is given', async ({ openCore }) => {
    const core = await openCore();
    const existing = await core.sites.addExisting('12345', { name: 'Tower 7', height: 40 });
    expect(existing.ok && existing.value).toMatchObject({ siteId: '12345', syncState: 'synced', origin: 'existing' });
    expect(core.outbox.list()).toEqual([]);
    const edited = await core.sites.save({ siteId: '12345', name: 'Tower 7b' });
    expect(edited.ok && edited.value.entry.payload).toEqual({ siteId: '12345', name: 'Tower 7b', height: 40 });
    expect(core.sites.get('12345')).toMatchObject({ name: 'Tower 7b', syncState: 'pending' });
    const unknown = await core.sites.save({ siteId: '999', name: 'New to us' });
    expect(!unknown.ok && unknown.issues[0]!.field).toBe('height');
  });

  it('names an edit of a site without a new name by its service ID once, not twice', async ({ openCore }) => {
    const core = await openCore();
    const existing = await core.sites.addExisting('12345', { name: 'Tower 7', height: 40 });
    expect(existing.ok).toBe(true);
    const edited = await core.sites.save({ siteId: '12345', height: 33 });
    expect(edited.ok && edited.value.entry.summary).toBe('Edit site 12345: 33 m');
    const named = await core.sites.save({ siteId: '12345', name: 'Tower 7b', height: 34 });
    expect(named.ok && named.value.entry.summary).toBe("Edit site 'Tower 7b' [12345]: 34 m");
  });

  it('queues many sites in one batch, or none when one of them is bad', async ({ openCore }) => {
    const core = await openCore();
    const bad = await core.sites.saveMany([
      { height: 30, latitude: 45, longitude: -93 },
      { height: 30, latitude: 95, longitude: -93 },
    ]);
    expect(!bad.ok && bad.issues.map((issue) => [issue.index, issue.field])).toEqual([[1, 'latitude']]);
    expect(core.outbox.list()).toEqual([]);
    const good = await core.sites.saveMany(Array.from({ length: 500 }, (_, n) => ({ name: `S${n}`, height: n, latitude: 45, longitude: -93 })));
    expect(good.ok && good.value).toHaveLength(500);
    expect(core.sites.list()).toHaveLength(500);
    expect(core.sync.status().pendingCount).toBe(500);
  });

  it('discarding an unsent create removes the site and the edits queued behind it', async ({ openCore }) => {
    const core = await openCore();
    const removedSites: string[] = [];
    core.on('site-removed', ({ localId }) => removedSites.push(localId));
    const created = await core.sites.save({ name: 'Ridge', height: 30, latitude: 45, longitude: -93 });
    if (!created.ok) throw new Error('save failed');
    const discarded = await core.outbox.discard(created.value.entry.id);
    expect(discarded.ok && discarded.value.removed).toEqual([created.value.entry.id]);
    expect(core.sites.list()).toEqual([]);
    expect(removedSites).toEqual([created.value.site.localId]);
  });

  it('queues an EUS reprocess through the same outbox, and refuses one without a choice about the email', async ({ openCore }) => {
    const core = await openCore();
    const missing = await core.reprocess({ processId: 'P-1', multiMapId: '77' });
    expect(!missing.ok && missing.issues[0]!.field).toBe('sendEmail');
    const queued = await core.reprocess({ processId: 'P-1', multiMapId: '77', sendEmail: true });
    expect(queued.ok && queued.value).toMatchObject({ kind: 'reprocess', state: 'pending', summary: 'Reprocess submission P-1 into Multi Map 77, email resent' });
  });

  it('emits a typed event for every change: the entry, the site and the status', async ({ openCore }) => {
    const core = await openCore();
    const seen: string[] = [];
    core.on('outbox', (entry) => seen.push(`outbox:${entry.state}`));
    core.on('site', (site) => seen.push(`site:${site.syncState}`));
    core.on('status', (status) => seen.push(`status:${status.pendingCount}`));
    await core.sites.save({ height: 30, latitude: 45, longitude: -93 });
    expect(seen).toEqual(expect.arrayContaining(['outbox:pending', 'site:pending', 'status:1']));
  });

  it('lets two cores open one data folder at once, each following what the other queues', async ({ openCore }) => {
    const app = await openCore();
    const cli = await openCore();
    const seen: string[] = [];
    app.on('site', (site) => seen.push(site.name));
    const saved = await cli.sites.save({ name: 'From the CLI', height: 30, latitude: 45, longitude: -93 });
    if (!saved.ok) throw new Error('save failed');
    await expect.poll(() => app.sites.get(saved.value.site.localId)?.name, waiting('the app to see the site')).toBe('From the CLI');
    // The register is read from the database at once; the queue and the 'site' event follow when the
    // app reads in the other process's change (its data_version poll): wait for them, do not race it.
    await expect.poll(() => app.outbox.unfinished().map((entry) => entry.id), waiting('the app to see the queued create')).toEqual([saved.value.entry.id]);
    await expect.poll(() => seen, waiting('the app to tell its page')).toContain('From the CLI');
    // And back: an edit in the app merges into the queued create the CLI made, in one entry.
    const edited = await app.sites.save({ localId: saved.value.site.localId, height: 45 });
    expect(edited.ok && edited.value.coalesced).toBe(true);
    await expect.poll(() => cli.sites.get(saved.value.site.localId)?.height, waiting('the CLI to see the edit')).toBe(45);
  });
});
