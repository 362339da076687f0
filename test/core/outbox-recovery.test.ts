// The outbox and its sync engine through pauses, going offline and back, and a crash mid-call (the
// harness is in outbox-harness.ts): what the user and the service see, on a manual clock.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { OutboxStore } from '../../electron/core/outbox/store';
import { DATABASE_FILE } from '../../electron/core/storage/database';
import { markSending, userRetry } from '../../electron/core/outbox/transitions';
import { waiting } from '../support/wait';
import { ERRORS } from './helpers';
import { create, edit, it, reprocess, state } from './outbox-harness';

describe('outbox: pause, offline and recovery', () => {
  it('pauses the whole profile on a quota fault and resumes when asked', async ({ harness }) => {
    const h = await harness({ concurrency: 1 });
    const queued = await h.store.enqueue([edit('s1', '1'), edit('s2', '2'), edit('s3', '3')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first send')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.quotaFault());
    await expect.poll(() => h.store.pauseOf('p1'), waiting('the profile to be paused')).not.toBeNull();
    await h.clock.advance(3_600_000);
    expect(h.client.calls).toHaveLength(1);
    expect(state(h, queued[0]!.entry.id).state).toBe('paused');
    expect(h.engine.status().paused?.reason).toBe('quota');
    const settled = await h.engine.untilSettled();
    expect(settled.blocked?.reason).toBe('paused');

    h.client.auto = (call) => {
      h.client.success(call);
      return null;
    };
    await h.engine.resume('p1');
    await expect.poll(() => h.store.countsOf('p1').done, waiting('all sent after resume')).toBe(3);
    expect(h.store.pauseOf('p1')).toBeNull();
  });

  it('keeps a pause across a restart', async ({ harness }) => {
    const h = await harness();
    await h.store.enqueue([edit('s1', '1')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the call to be made')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.authFault());
    await expect.poll(() => h.store.pauseOf('p1'), waiting('the profile to be paused')).not.toBeNull();
    await h.reopen();
    expect(h.store.pauseOf('p1')?.reason).toBe('auth');
    await h.clock.advance(60_000);
    expect(h.client.calls).toHaveLength(1);
  });

  it('goes offline when the service cannot be reached, probes with backoff, and sends by itself once it answers', async ({ harness }) => {
    const h = await harness({ random: () => 0.99 });
    await h.store.enqueue([edit('s1', '1'), edit('s2', '2')]);
    h.setReachable(false);
    h.client.auto = () => ({ ok: false, error: ERRORS.refused() });
    h.engine.kick();
    await expect.poll(() => h.engine.status().online, waiting('the engine to go offline')).toBe(false);
    const callsWhenOffline = h.client.calls.length;
    expect((await h.engine.untilSettled()).blocked?.reason).toBe('offline');
    await h.clock.advance(20_000);
    expect(h.probes()).toBeGreaterThanOrEqual(3);
    expect(h.client.calls).toHaveLength(callsWhenOffline);
    h.setReachable(true);
    h.client.auto = (call) => {
      h.client.success(call);
      return null;
    };
    await h.clock.advance(10_000);
    await expect.poll(() => h.store.countsOf('p1').done, waiting('sent after the probe answered')).toBe(2);
    expect(h.engine.status().online).toBe(true);
  });

  it('probes at once when the host says the network is back', async ({ harness }) => {
    const h = await harness();
    h.engine.setConnectivity(false);
    await h.store.enqueue([edit('s1', '1')]);
    h.engine.kick();
    await h.clock.advance(0);
    expect(h.client.calls).toHaveLength(0);
    const probesBefore = h.probes();
    h.client.auto = (call) => {
      h.client.success(call);
      return null;
    };
    h.engine.setConnectivity(true);
    await expect.poll(() => h.store.countsOf('p1').done, waiting('the entry to be sent')).toBe(1);
    expect(h.probes()).toBe(probesBefore + 1);
  });

  it('keeps the total of tries of an entry sent again, across a reopen; an entry stored before the total reads as its count', async ({ harness }) => {
    const h = await harness();
    const [queued] = await h.store.enqueue([edit('s1', '1')]);
    const id = queued!.entry.id;
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first try')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.validationFault());
    await expect.poll(() => state(h, id).state, waiting('the entry to fail')).toBe('failed');
    expect(state(h, id)).toMatchObject({ attempts: 1, totalAttempts: 1 });

    await h.store.update([userRetry(state(h, id), h.clock.now())]);
    expect(state(h, id)).toMatchObject({ state: 'pending', attempts: 0, totalAttempts: 1 });
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the try after Retry')).toBe(2);
    h.client.fail(h.client.calls[1]!, ERRORS.validationFault());
    await expect.poll(() => state(h, id).state, waiting('the entry to fail again')).toBe('failed');
    expect(state(h, id)).toMatchObject({ attempts: 1, totalAttempts: 2 });

    await h.reopen();
    expect(state(h, id)).toMatchObject({ attempts: 1, totalAttempts: 2 });

    // A row written before the total was kept: its body has the count only.
    await h.engine.stop();
    const db = new Database(join(h.dataDir, DATABASE_FILE));
    const body = JSON.parse(db.prepare<[string], string>('SELECT body FROM outbox WHERE id = ?').pluck().get(id)!) as Record<string, unknown>;
    delete body.totalAttempts;
    body.attempts = 3;
    db.prepare('UPDATE outbox SET body = ? WHERE id = ?').run(JSON.stringify(body), id);
    db.close();
    await h.reopen();
    expect(state(h, id)).toMatchObject({ attempts: 3, totalAttempts: 3 });
  });

  it('after a crash mid-call, resends an edit but sends a create and an emailing reprocess to review', async ({ harness }) => {
    const h = await harness();
    const queued = await h.store.enqueue([create('local-c'), edit('s1', '1'), reprocess('P-9', true), reprocess('P-8', false)]);
    // What a process killed mid-call leaves on disk.
    await h.store.update(queued.map(({ entry }) => markSending(entry, h.clock.now())));
    await h.engine.stop();
    const recovered = await h.store.recoverInterrupted();
    expect(recovered.map((entry) => entry.state)).toEqual(['needs-review', 'pending', 'needs-review', 'pending']);
    expect(recovered[0]!.problem?.message).toMatch(/may have created it/);
    expect(recovered[1]!.problem?.kind).toBe('interrupted');
  });

  it('writes a create and an emailing reprocess to disk as sending before their request leaves; edits need not wait', async ({ harness }) => {
    const h = await harness();
    const queued = await h.store.enqueue([create('local-c'), reprocess('P-9', true), edit('s1', '1'), reprocess('P-8', false)]);
    const ids = queued.map(({ entry }) => entry.id);
    // At the instant each request is made, is its 'sending' mark committed (seen by another connection)?
    const onDisk = new Map<string, boolean>();
    const reader = new Database(join(h.dataDir, DATABASE_FILE), { readonly: true });
    const stateOf = reader.prepare<[string], string>('SELECT state FROM outbox WHERE id = ?').pluck();
    h.client.auto = (call) => {
      const index = call.kind === 'site' ? (call.edit.siteId === undefined ? 0 : 2) : call.request.processId === 'P-9' ? 1 : 3;
      onDisk.set(['create', 'emailing reprocess', 'edit', 'quiet reprocess'][index]!, stateOf.get(ids[index]!) === 'sending');
      return null;
    };
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the four calls to be made')).toBe(4);
    expect(onDisk.get('create')).toBe(true);
    expect(onDisk.get('emailing reprocess')).toBe(true);
    for (const call of h.client.unsettled()) h.client.success(call);
    await h.engine.untilSettled();
    // Either way every result is on disk once the queue has settled.
    const reopened = (await OutboxStore.open({ dataDir: h.dataDir, clock: h.clock })).store;
    expect(ids.map((id) => reopened.get(id)?.state)).toEqual(['done', 'done', 'done', 'done']);
    await reopened.close();
  });

  it('settles with nothing blocked once everything is sent', async ({ harness }) => {
    const h = await harness();
    h.client.auto = (call) => {
      h.client.success(call);
      return null;
    };
    await h.store.enqueue([edit('s1', '1'), create('local-d'), reprocess('P-1', true)]);
    h.engine.kick();
    const settled = await h.engine.untilSettled();
    expect(settled.blocked).toBeNull();
    expect(h.store.countsOf('p1').done).toBe(3);
  });

  it('stops before sending when the profile has no key, and says so', async ({ harness }) => {
    let noKey = true;
    const h = await harness({ precheck: () => (noKey ? { reason: 'no-key', message: 'No key.' } : null) });
    await h.store.enqueue([edit('s1', '1')]);
    h.engine.kick();
    const settled = await h.engine.untilSettled();
    expect(settled.blocked?.reason).toBe('no-key');
    expect(h.client.calls).toHaveLength(0);
    noKey = false;
    h.client.auto = (call) => {
      h.client.success(call);
      return null;
    };
    h.engine.kick();
    await expect.poll(() => h.store.countsOf('p1').done, waiting('sent once the key is there')).toBe(1);
  });
});
