// The core end to end against the sandbox over real HTTP (loopback, random port), through the real
// service client: an edit made offline goes out by itself once the service is back; a site created
// offline gets its ID and the edits behind it follow with that ID; quota and a refused key pause the
// queue until the user acts; a create whose answer was lost waits for review and is confirmed with
// the ID the service gave; an emailing reprocess is never sent twice; rendering qualities are there
// offline; and a key saved, used and reloaded is nowhere in the data folder.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { chooseSecretStore } from '../../electron/core/profiles/secrets';
import { sandboxStarter, useService } from '../support/core';
import { it } from '../support/fixtures';
import { freePort } from '../support/net';
import { patchAccount, serviceMail, serviceSites } from '../support/service-state';
import { waiting } from '../support/wait';

// The cores here speak SOAP 1.2 to the sandbox.
it.override('binding', 'soap12');

describe('core against the sandbox', () => {
  it('queues an edit made offline and sends it once by itself when the service is back', async ({ openCore, startSandbox, binding }) => {
    const port = await freePort();
    const core = await openCore({ sandbox: false });
    await useService(core, `http://127.0.0.1:${port}`, { binding });
    const saved = await core.sites.save({ name: 'Offline Ridge', height: 42, latitude: 45.5, longitude: -93.25 });
    if (!saved.ok) throw new Error('save failed');
    await expect.poll(() => core.sync.status().online, waiting('the core to notice it is offline')).toBe(false);
    expect(core.sites.get(saved.value.site.localId)?.syncState).toBe('pending');

    const sandbox = await startSandbox({ port });
    await expect.poll(() => core.sites.get(saved.value.site.localId)?.syncState, waiting('the site to be sent once the service answers')).toBe('synced');
    const site = core.sites.get(saved.value.site.localId)!;
    expect(site.siteId).not.toBeNull();
    const onService = (await serviceSites(sandbox.url)).filter((candidate) => candidate.name === 'Offline Ridge');
    expect(onService).toHaveLength(1);
    expect(onService[0]).toMatchObject({ id: site.siteId, height: 42, latitude: 45.5, longitude: -93.25 });
  });

  it('gives a site created offline its service ID and sends the edits queued behind it with that ID', async ({ sandbox, openCore, binding }) => {
    const core = await openCore({ sandbox: false, autoSync: false });
    await useService(core, sandbox.url, { binding });
    const created = await core.sites.save({ name: 'Ridge', height: 30, latitude: 45, longitude: -93 });
    if (!created.ok) throw new Error('save failed');
    sandbox.setFaults({ latencyMs: 150 });
    await core.sync.syncNow();
    await expect.poll(() => core.outbox.get(created.value.entry.id)?.state, waiting('the create to be on its way')).toBe('sending');
    const edited = await core.sites.save({ localId: created.value.site.localId, height: 55, description: 'after the create' });
    expect(edited.ok && edited.value.coalesced).toBe(false);
    const settled = await core.sync.untilSettled();
    expect(settled.blocked).toBeNull();
    const site = core.sites.get(created.value.site.localId)!;
    expect(site).toMatchObject({ syncState: 'synced', height: 55, description: 'after the create' });
    const edit = core.outbox.get(edited.ok ? edited.value.entry.id : '')!;
    expect(edit.payload.siteId).toBe(site.siteId);
    const onService = (await serviceSites(sandbox.url)).find((candidate) => candidate.id === site.siteId);
    expect(onService).toMatchObject({ name: 'Ridge', height: 55, description: 'after the create' });
  });

  it('pauses the whole queue when the account has no API calls left, and goes on once the user retries', async ({ sandbox, core }) => {
    await patchAccount(sandbox.url, '10001', { callsLeft: 0 });
    await core.sites.saveMany([
      { name: 'A', height: 10, latitude: 45, longitude: -93 },
      { name: 'B', height: 11, latitude: 45.1, longitude: -93 },
    ]);
    const paused = await core.sync.untilSettled();
    expect(paused.blocked?.reason).toBe('paused');
    expect(paused.status.paused?.reason).toBe('quota');
    expect(paused.counts.done).toBe(0);
    expect((await serviceSites(sandbox.url)).filter((site) => site.name === 'A' || site.name === 'B')).toHaveLength(0);

    await patchAccount(sandbox.url, '10001', { callsLeft: 100 });
    await core.sync.syncNow();
    const resumed = await core.sync.untilSettled();
    expect(resumed.blocked).toBeNull();
    expect(resumed.counts.done).toBe(2);
  });

  it('pauses on a refused key and resumes by itself when the key is corrected', async ({ sandbox, openCore, binding }) => {
    const core = await openCore({ sandbox: false });
    const { id: profileId } = await useService(core, sandbox.url, { binding, key: 'wrong-key' });
    await core.sites.save({ name: 'Keyed', height: 10, latitude: 45, longitude: -93 });
    const paused = await core.sync.untilSettled();
    expect(paused.status.paused?.reason).toBe('auth');
    expect(JSON.stringify(core.outbox.list())).not.toContain('wrong-key');
    await core.profiles.setKey(profileId, 'sandbox-demo-key', { sessionOnly: true });
    await expect.poll(() => core.sync.status().pendingCount, waiting('the queue to go out with the new key')).toBe(0);
    expect(core.sites.list()[0]!.syncState).toBe('synced');
  });

  it('sends a create whose answer was lost to review, never again by itself, and takes the ID the user confirms', async ({ sandbox, core }) => {
    sandbox.setFaults({ applyThenDropRate: 1 });
    const created = await core.sites.save({ name: 'Doubtful', height: 33, latitude: 46, longitude: -94 });
    if (!created.ok) throw new Error('save failed');
    const settled = await core.sync.untilSettled();
    expect(settled.counts['needs-review']).toBe(1);
    const entry = core.outbox.get(created.value.entry.id)!;
    expect(entry.problem?.mayHaveBeenApplied).toBe(true);
    sandbox.setFaults({ applyThenDropRate: 0 });
    const edit = await core.sites.save({ localId: created.value.site.localId, height: 66 });
    await core.sync.syncNow();
    await core.sync.untilSettled();
    // The service did create it, once; the edit waits behind the review.
    const onService = (await serviceSites(sandbox.url)).filter((site) => site.name === 'Doubtful');
    expect(onService).toHaveLength(1);
    expect(core.outbox.get(edit.ok ? edit.value.entry.id : '')?.state).toBe('pending');

    // What a technician might type by mistake is refused with the reason.
    const typo = await core.outbox.resolve(entry.id, 'abc');
    expect(!typo.ok && typo.issues[0]!.message).toMatch(/is not a site ID: it is a number/);
    expect(entry.problem?.message).not.toMatch(/tried again/);
    const resolved = await core.outbox.resolve(entry.id, onService[0]!.id);
    expect(resolved.ok && resolved.value).toMatchObject({ state: 'done', siteId: onService[0]!.id });
    const after = await core.sync.untilSettled();
    expect(after.blocked).toBeNull();
    expect(core.sites.get(created.value.site.localId)).toMatchObject({ siteId: onService[0]!.id, syncState: 'synced', height: 66 });
    expect((await serviceSites(sandbox.url)).find((site) => site.id === onService[0]!.id)?.height).toBe(66);
  });

  it('never sends an emailing reprocess twice, but retries one without email until it goes through', async ({ sandbox, core }) => {
    const state = sandbox.snapshot();
    const [submission, other] = state.submissions.filter((candidate) => candidate.account === '10001');
    const processId = submission!.processId;
    const maps = state.multiMaps.filter((map) => map.account === '10001').map((map) => map.id);
    const recipients = state.accounts.find((account) => account.id === '10001')!.recipients.length;
    const mailBefore = (await serviceMail(sandbox.url)).length;
    sandbox.setFaults({ applyThenDropRate: 1 });
    const withEmail = await core.reprocess({ processId, multiMapId: maps[0]!, sendEmail: true });
    const settled = await core.sync.untilSettled();
    expect(settled.counts['needs-review']).toBe(1);
    expect(core.outbox.get(withEmail.ok ? withEmail.value.id : '')?.attempts).toBe(1);
    // It did reach the service once: one email per recipient, and never a second round.
    expect((await serviceMail(sandbox.url)).length).toBe(mailBefore + recipients);

    sandbox.setFaults({ applyThenDropRate: 0.5 });
    // Another submission: one of the same submission would wait behind the first until it is resolved.
    const withoutEmail = await core.reprocess({ processId: other!.processId, multiMapId: maps[1] ?? maps[0]!, sendEmail: false });
    await expect.poll(() => core.outbox.get(withoutEmail.ok ? withoutEmail.value.id : '')?.state, waiting('the reprocess without email to go through')).toBe('done');
    expect((await serviceMail(sandbox.url)).length).toBe(mailBefore + recipients);
  });

  it('closes without waiting out calls the service never answers: the edit goes again, the create waits for review', async ({ sandbox, openCore, tempDir, binding }) => {
    const core = await openCore({ sandbox: false, autoSync: false, closeGraceMs: 200 });
    await useService(core, sandbox.url, { binding });
    const known = await core.sites.save({ name: 'Known', height: 30, latitude: 45, longitude: -93 });
    if (!known.ok) throw new Error('save failed');
    await core.sync.syncNow();
    expect((await core.sync.untilSettled()).blocked).toBeNull();

    sandbox.setFaults({ hangRate: 1, operations: ['SitesAPI'] });
    const edit = await core.sites.save({ localId: known.value.site.localId, height: 44 });
    const create = await core.sites.save({ name: 'Hung', height: 20, latitude: 46, longitude: -94 });
    if (!edit.ok || !create.ok) throw new Error('save failed');
    await core.sync.syncNow();
    await expect.poll(() => [edit, create].map((saved) => core.outbox.get(saved.value.entry.id)?.state), waiting('both calls to be on their way')).toEqual(['sending', 'sending']);
    // The calls' own limit is 20 s: closing cancels them after its grace instead, and says so.
    await core.close();

    const reopened = await openCore({ sandbox: false, autoSync: false, dataDir: tempDir });
    expect(reopened.outbox.get(edit.value.entry.id)).toMatchObject({ state: 'pending', problem: { kind: 'interrupted', message: expect.stringMatching(/sent again/) } });
    expect(reopened.outbox.get(create.value.entry.id)).toMatchObject({ state: 'needs-review', problem: { kind: 'interrupted', mayHaveBeenApplied: true } });
    expect(reopened.sites.get(known.value.site.localId)).toMatchObject({ syncState: 'pending', height: 44 });
  });

  it('shows the rendering qualities offline from the cache, and says it is the cache', async ({ sandbox, core }) => {
    const fresh = await core.renderingQualities({ refresh: true });
    expect(fresh.fromCache).toBe(false);
    expect(fresh.items.length).toBeGreaterThan(0);
    await sandbox.close();
    const offline = await core.renderingQualities({ refresh: true });
    expect(offline).toMatchObject({ fromCache: true, items: fresh.items, fetchedAt: fresh.fetchedAt });
    expect(offline.problem?.kind).toBe('network');
  });

  it('keeps a saved key out of every file: after a sync and a restart it is still usable and nowhere on disk', async ({ sandbox, openCore, tempDir, binding }) => {
    // An account of its own with a random key, so finding the key's bytes anywhere means a leak.
    const key = `key-${randomBytes(12).toString('hex')}`;
    const account = await fetch(`${sandbox.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: '20002', key, callsLeft: 100 }),
    });
    expect(account.status).toBe(201);
    const choice = await chooseSecretStore({ service: 'Sitewalk-test-integration' });
    // The key goes into the key store itself, not only into this session.
    const service = { binding, key, account: '20002', sessionOnly: false };
    const first = await openCore({ sandbox: false, secretStore: choice.store });
    await useService(first, sandbox.url, service);
    await first.sites.save({ name: 'Secret', height: 10, latitude: 45, longitude: -93 });
    await first.renderingQualities({ refresh: true });
    expect((await first.sync.untilSettled()).counts.done).toBe(1);
    await first.close();

    // After a restart the key comes from the key store (an OS keyring keeps it; memory does not).
    const keptByStore = choice.store.kind !== 'session-only';
    const second = await openCore({ sandbox: false, secretStore: choice.store });
    await useService(second, sandbox.url, { ...service, key: keptByStore ? null : key });
    const profile = await second.profiles.active();
    expect(profile.hasKey).toBe(true);
    await second.sites.save({ name: 'Secret 2', height: 12, latitude: 45, longitude: -93 });
    expect((await second.sync.untilSettled()).counts.done).toBe(2);
    await second.close();
    await choice.store.delete(profile.id);

    const needle = Buffer.from(key);
    const names = await readdir(tempDir, { recursive: true });
    // The database, the folder's marker and the profiles at least: every one is searched.
    expect(names).toEqual(expect.arrayContaining(['sitewalk.db', 'sitewalk.db.state', 'profiles.json']));
    for (const name of names) {
      const bytes = await readFile(join(tempDir, name)).catch(() => null);
      if (bytes) expect(bytes.includes(needle), `${name} holds the key`).toBe(false);
    }
  });
});

describe('the built-in Sandbox profile', () => {
  it('lists the demo account\'s sites once its sandbox runs, keeps them across restarts and never adds one twice', async ({ openCore }) => {
    const open = () => openCore({ sandbox: sandboxStarter });

    const first = await open();
    expect((await first.profiles.active()).builtIn).toBe(true);
    // The app (autoSync on) starts the sandbox by itself on the Sandbox profile.
    await expect.poll(() => first.sites.list().length, waiting('the demo sites', 10_000)).toBeGreaterThan(20);
    const demo = first.sites.list();
    expect(demo.every((site) => site.siteId !== null && site.syncState === 'synced' && site.height !== null && site.latitude !== null)).toBe(true);

    // A site made here is on the service; the next start must not list it a second time.
    const saved = await first.sites.save({ name: 'Builtin Knob', height: 21, latitude: 45.5, longitude: -111 });
    expect(saved.ok).toBe(true);
    await first.sync.untilSettled();
    const count = first.sites.list().length;
    await first.close();

    const second = await open();
    // A service call waits for the sandbox, whose sites are folded in as it starts.
    expect((await second.renderingQualities({ refresh: true })).problem).toBeNull();
    expect(second.sites.list()).toHaveLength(count);
    expect(second.sites.list().filter((site) => site.name === 'Builtin Knob')).toHaveLength(1);
    await second.close();
  });
});
