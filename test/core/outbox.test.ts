// The outbox and its sync engine on a manual clock, with a scripted stand-in for the service client
// (the real client against the sandbox is in integration.test.ts and crash.test.ts): coalescing,
// temporary IDs, ordering, per-site FIFO, the concurrency limit, backoff with jitter, what every
// kind of failure leads to (pause, offline and crash recovery are in outbox-recovery.test.ts).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { backoffDelay, decide, DEFAULT_RETRY } from '../../electron/core/outbox/policy';
import type { Draft } from '../../electron/core/outbox/store';
import type { OutboxEntry } from '../../electron/core/outbox/types';
import type { CallError } from '../../electron/core/service/types';
import { waiting } from '../support/wait';
import { ERRORS } from './helpers';
import { create, edit, it, reprocess, state } from './outbox-harness';

describe('outbox: queueing', () => {
  it('merges consecutive pending edits of one site into one entry, later fields winning', async ({ harness }) => {
    const h = await harness();
    h.engine.setConnectivity(false);
    const [first] = await h.store.enqueue([edit('s1', '500', { name: 'Old', height: 30, group: 'North' })]);
    const [second] = await h.store.enqueue([edit('s1', '500', { name: 'New', height: 45 })]);
    expect(second!.coalesced).toBe(true);
    expect(second!.entry.id).toBe(first!.entry.id);
    expect(h.store.list()).toHaveLength(1);
    expect(state(h, first!.entry.id).kind === 'site' && state(h, first!.entry.id).payload).toEqual({ siteId: '500', name: 'New', height: 45, group: 'North' });
  });

  it('does not merge into an edit that is being sent: the new edit queues behind it', async ({ harness }) => {
    const h = await harness();
    const [first] = await h.store.enqueue([edit('s1', '500', { height: 30 })]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first edit to be sent')).toBe(1);
    const [second] = await h.store.enqueue([edit('s1', '500', { height: 45 })]);
    expect(second!.coalesced).toBe(false);
    h.client.success(h.client.calls[0]!);
    await expect.poll(() => h.client.calls.length, waiting('the second edit to be sent')).toBe(2);
    expect(h.client.calls.map((call) => call.kind === 'site' && call.edit.height)).toEqual([30, 45]);
    expect(state(h, first!.entry.id).state).toBe('done');
  });

  it('queues 10,000 drafts in one transaction and keeps them across a reopen', async ({ harness }) => {
    const h = await harness();
    h.engine.setConnectivity(false);
    const before = h.store.writeStats.commits;
    const drafts = Array.from({ length: 10_000 }, (_, n) => edit(`s${n}`, String(n + 1)));
    const enqueued = await h.store.enqueue(drafts);
    expect(h.store.writeStats.commits - before).toBe(1);
    expect(new Set(enqueued.map((item) => item.entry.id)).size).toBe(10_000);
    await h.reopen();
    expect(h.store.list()).toHaveLength(10_000);
    const counts = h.store.countsOf('p1');
    expect(counts.pending + counts.sending).toBe(10_000);
  });
});

describe('outbox: ordering and concurrency', () => {
  it('sends one site\'s edits one at a time, oldest first', async ({ harness }) => {
    const h = await harness();
    h.engine.setConnectivity(false);
    // Three edits that cannot merge: each waits for the one before to be on its way.
    await h.store.enqueue([edit('s1', '500', { height: 1 })]);
    h.engine.setConnectivity(true);
    await expect.poll(() => h.client.calls.length, waiting('the first send')).toBe(1);
    await h.store.enqueue([edit('s1', '500', { height: 2 })]);
    await h.clock.advance(0);
    expect(h.client.calls).toHaveLength(1);
    h.client.success(h.client.calls[0]!);
    await expect.poll(() => h.client.calls.length, waiting('the second send')).toBe(2);
    await h.store.enqueue([edit('s1', '500', { height: 3 })]);
    h.client.success(h.client.calls[1]!);
    await expect.poll(() => h.client.calls.length, waiting('the third send')).toBe(3);
    h.client.success(h.client.calls[2]!);
    expect(h.client.calls.map((call) => call.kind === 'site' && call.edit.height)).toEqual([1, 2, 3]);
    expect(h.client.maxInFlight).toBe(1);
  });

  it('sends different sites in parallel, never more than the concurrency limit', async ({ harness }) => {
    const h = await harness({ concurrency: 3 });
    h.client.auto = null;
    await h.store.enqueue(Array.from({ length: 10 }, (_, n) => edit(`s${n}`, String(100 + n))));
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('three in flight')).toBe(3);
    await h.clock.advance(0);
    expect(h.client.inFlight).toBe(3);
    while (h.client.calls.length < 10 || h.client.unsettled().length > 0) {
      const open = h.client.unsettled();
      if (open.length > 0) h.client.success(open[0]!);
      await expect.poll(() => h.client.unsettled().length, waiting('the next send')).toBe(Math.min(3, 10 - h.client.calls.filter((call) => call.settled).length));
    }
    expect(h.client.maxInFlight).toBe(3);
    await expect.poll(() => h.store.countsOf('p1').done, waiting('all ten to be done')).toBe(10);
    // Oldest first across sites too.
    expect(h.client.calls.map((call) => call.kind === 'site' && call.edit.siteId)).toEqual(Array.from({ length: 10 }, (_, n) => String(100 + n)));
  });

  it('holds edits of a site created offline until the create is answered, then sends them with the new ID', async ({ harness }) => {
    const h = await harness();
    h.engine.setConnectivity(false);
    const [created] = await h.store.enqueue([create('local-a', { name: 'Ridge' })]);
    h.engine.setConnectivity(true);
    await expect.poll(() => h.client.calls.length, waiting('the create to be sent')).toBe(1);
    const [edited] = await h.store.enqueue([edit('local-a', undefined, { height: 60 })]);
    await h.clock.advance(0);
    expect(h.client.calls).toHaveLength(1);
    const held = state(h, edited!.entry.id);
    expect(held.kind === 'site' && held.payload.siteId).toBeUndefined();
    h.client.success(h.client.calls[0]!); // the service gives ID 1000
    await expect.poll(() => h.client.calls.length, waiting('the edit to be sent')).toBe(2);
    const call = h.client.calls[1]!;
    expect(call.kind === 'site' && call.edit).toEqual({ siteId: '1000', height: 60 });
    const createEntry = state(h, created!.entry.id);
    expect(createEntry.state).toBe('done');
    expect(createEntry.kind === 'site' && createEntry.resultSiteId).toBe('1000');
  });

  it('folds an edit made before the create was sent into the create itself', async ({ harness }) => {
    const h = await harness();
    h.engine.setConnectivity(false);
    await h.store.enqueue([create('local-b', { name: 'Ridge', height: 30 })]);
    const [later] = await h.store.enqueue([edit('local-b', undefined, { height: 50 })]);
    expect(later!.coalesced).toBe(true);
    h.engine.setConnectivity(true);
    await expect.poll(() => h.client.calls.length, waiting('one create to be sent')).toBe(1);
    const call = h.client.calls[0]!;
    expect(call.kind === 'site' && call.edit).toEqual({ name: 'Ridge', height: 50, latitude: 45, longitude: -93 });
  });
});

describe('outbox: backoff', () => {
  it('keeps every wait within full-jitter bounds: 0 ≤ wait < min(cap, base·2^(attempt−1))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, r) => {
        const wait = backoffDelay(attempt, DEFAULT_RETRY, () => r);
        const window = Math.min(DEFAULT_RETRY.capMs, DEFAULT_RETRY.baseMs * 2 ** (attempt - 1));
        return wait >= 0 && wait < window && Number.isInteger(wait);
      }),
    );
  });

  it('spreads retries over the whole window rather than bunching them', () => {
    const waits = Array.from({ length: 1000 }, (_, n) => backoffDelay(4, { baseMs: 1000, capMs: 60_000 }, () => n / 1000));
    expect(Math.min(...waits)).toBe(0);
    expect(Math.max(...waits)).toBeGreaterThan(7900);
  });

  it('retries a 503 after its backoff, not before, and the edit then succeeds', async ({ harness }) => {
    const h = await harness({ random: () => 0.75 });
    const [queued] = await h.store.enqueue([edit('s1', '500')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first try to be made')).toBe(1);
    const sentAt = h.clock.now();
    h.client.fail(h.client.calls[0]!, ERRORS.http503());
    await expect.poll(() => [state(h, queued!.entry.id).state, state(h, queued!.entry.id).nextAttemptAt !== null], waiting('the retry to be scheduled')).toEqual(['pending', true]);
    // attempt 1: window = base (1000 ms), wait = 0.75 × 1000
    expect(state(h, queued!.entry.id).nextAttemptAt).toBe(sentAt + 750);
    await h.clock.advance(700);
    expect(h.client.calls).toHaveLength(1);
    await h.clock.advance(60);
    await expect.poll(() => h.client.calls.length, waiting('the retry')).toBe(2);
    h.client.success(h.client.calls[1]!);
    await expect.poll(() => state(h, queued!.entry.id).state, waiting('the entry to be done')).toBe('done');
    // The service said it was away: that try is not counted towards giving up, but it was a try.
    expect(state(h, queued!.entry.id)).toMatchObject({ attempts: 1, totalAttempts: 2 });
  });

  it('gives up on a site edit after the maximum number of attempts and keeps the error', async ({ harness }) => {
    const h = await harness({ random: () => 0 });
    const [queued] = await h.store.enqueue([edit('s1', '500')]);
    h.engine.kick();
    h.client.auto = () => ({ ok: false, error: ERRORS.timeout() });
    await expect.poll(() => state(h, queued!.entry.id).state, waiting('the entry to fail for good')).toBe('failed');
    const entry = state(h, queued!.entry.id);
    expect(entry.attempts).toBe(5);
    expect(entry.problem?.kind).toBe('gave-up');
    expect(entry.problem?.message).toMatch(/Gave up after 5 attempts/);
  });
});

describe('outbox: what each failure leads to', () => {
  type Subject = 'create' | 'edit' | 'reprocess+email' | 'reprocess';
  const subjects: Record<Subject, () => Draft> = {
    create: () => create('local-x'),
    edit: () => edit('s9', '900'),
    'reprocess+email': () => reprocess('P-1', true),
    reprocess: () => reprocess('P-2', false),
  };
  // [error, create, edit, reprocess with email, reprocess without]
  const table: Array<[keyof typeof ERRORS, string, string, string, string]> = [
    ['invalidInput', 'failed', 'failed', 'failed', 'failed'],
    ['noKey', 'paused', 'paused', 'paused', 'paused'],
    ['validationFault', 'failed', 'failed', 'failed', 'failed'],
    ['notFoundFault', 'failed', 'failed', 'failed', 'failed'],
    ['serverFault', 'pending', 'pending', 'pending', 'pending'],
    ['quotaFault', 'paused', 'paused', 'paused', 'paused'],
    ['authFault', 'paused', 'paused', 'paused', 'paused'],
    ['http503', 'needs-review', 'pending', 'needs-review', 'pending'],
    ['http502', 'needs-review', 'pending', 'needs-review', 'pending'],
    ['http504', 'needs-review', 'pending', 'needs-review', 'pending'],
    ['http429', 'pending', 'pending', 'pending', 'pending'],
    ['http404', 'failed', 'failed', 'failed', 'failed'],
    ['protocolDamaged', 'needs-review', 'pending', 'needs-review', 'pending'],
    ['protocolWrongShape', 'needs-review', 'failed', 'needs-review', 'failed'],
    ['refused', 'pending', 'pending', 'pending', 'pending'],
    ['reset', 'needs-review', 'pending', 'needs-review', 'pending'],
    ['timeout', 'needs-review', 'pending', 'needs-review', 'pending'],
  ];

  for (const [error, ...expected] of table) {
    it(`${error}: create → ${expected[0]}, edit → ${expected[1]}, reprocess with email → ${expected[2]}, without → ${expected[3]}`, () => {
      const subjectsInOrder: Subject[] = ['create', 'edit', 'reprocess+email', 'reprocess'];
      subjectsInOrder.forEach((subject, index) => {
        const draft = subjects[subject]();
        const entry = { ...draft, id: 'o1', seq: 1, state: 'sending', attempts: 1, createdAt: 0, updatedAt: 0, nextAttemptAt: null, result: null, problem: null, resultSiteId: null } as OutboxEntry;
        const decision = decide(entry, ERRORS[error]() as CallError, DEFAULT_RETRY);
        expect(decision.state, `${subject}`).toBe(expected[index]);
        // An entry held for review is not tried again, and its sentence must not say it will be.
        if (decision.state === 'needs-review') expect(decision.problem.message, subject).not.toMatch(/(will|can) be tried again/);
      });
    });
  }

  it('never resends a create after an ambiguous failure: it waits in review with the reason', async ({ harness }) => {
    const h = await harness();
    const [queued] = await h.store.enqueue([create('local-y')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the call to be made')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.reset());
    await expect.poll(() => state(h, queued!.entry.id).state, waiting('the entry to wait for review')).toBe('needs-review');
    await h.clock.advance(3_600_000);
    expect(h.client.calls).toHaveLength(1);
    expect(state(h, queued!.entry.id).problem?.message).toMatch(/may have been created; it was not sent again/);
  });

  it('sends a create for review when the service accepted it but gave no site ID', async ({ harness }) => {
    const h = await harness();
    const [queued] = await h.store.enqueue([create('local-z')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the call to be made')).toBe(1);
    const call = h.client.calls[0]!;
    if (call.kind !== 'site') throw new Error('expected a site call');
    call.settle({ ok: true, value: { siteId: null, message: 'Saved.', raw: 'Saved.' } });
    await expect.poll(() => state(h, queued!.entry.id).state, waiting('the entry to wait for review')).toBe('needs-review');
    expect(state(h, queued!.entry.id).problem?.kind).toBe('no-site-id');
  });

  it('does not count a request that never left as an attempt', async ({ harness }) => {
    const h = await harness();
    const [queued] = await h.store.enqueue([edit('s1', '500')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the call to be made')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.refused());
    await expect.poll(() => h.engine.status().online, waiting('the engine to go offline')).toBe(false);
    expect(state(h, queued!.entry.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: null });
  });
});
