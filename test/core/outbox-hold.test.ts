// The queue held while the service says it is away (503, 502, 504, 429): on a manual clock with a
// scripted stand-in for the service client (the same outage against the sandbox over real HTTP is in
// outage.test.ts). One burst of at most `concurrency` requests, then nothing until the hold ends, then
// one entry at a time until the service takes a request; no entry spends its tries or gives up over
// an outage; the status and a one-pass sync say why the queue waits.
import { describe, expect } from 'vitest';
import { QueueHold } from '../../electron/core/outbox/queue-hold';
import { httpError, RETRY_AFTER_MAX_MS } from '../../electron/core/service/errors';
import { waiting } from '../support/wait';
import { ERRORS } from './helpers';
import { create, edit, it, state, type Harness } from './outbox-harness';

const ERRORS_503 = { status: 503, statusText: 'Service Unavailable', contentType: 'text/html', body: '', endpoint: 'https://api.example.test/Service.asmx' };

/** Lets the engine take every step it can without the clock moving, with nothing in flight (answers recorded, passes made). */
async function settle(h: Harness): Promise<void> {
  await h.engine.untilIdle();
}

/** Lets the engine make the passes it has queued (each is a microtask) while a call is in flight. */
const passes = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Nothing goes until `holdMs` has passed; then exactly one entry tries the service (the `calls`-th call). */
async function oneTriesAfter(h: Harness, holdMs: number, calls: number): Promise<void> {
  await h.clock.advance(holdMs - 1);
  expect(h.client.calls).toHaveLength(calls - 1);
  await h.clock.advance(1);
  await expect.poll(() => h.client.calls.length, waiting(`call ${calls}: one entry to try the service`)).toBe(calls);
  await passes();
  expect(h.client.calls).toHaveLength(calls);
}

describe('outbox: a service that says it is away holds the queue', () => {
  it('sends one burst, then one entry at a time on backoff, and the rest once the service takes a request', async ({ harness }) => {
    const h = await harness({ random: () => 0.5, concurrency: 4 });
    const queued = await h.store.enqueue(Array.from({ length: 20 }, (_, n) => edit(`s${n}`, String(100 + n))));
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first burst')).toBe(4);
    for (const call of h.client.unsettled()) h.client.fail(call, ERRORS.http503());
    await settle(h);
    // Held: nothing more goes, however many passes are made.
    expect(h.engine.status().blocked).toMatchObject({ reason: 'unavailable', message: expect.stringMatching(/HTTP 503.*one entry at a time.*nothing is lost/) });
    h.engine.kick();
    await settle(h);
    expect(h.client.calls).toHaveLength(4);

    // The first hold: half of the retry base (random 0.5 of 1,000 ms); then exactly one entry tries.
    await oneTriesAfter(h, 500, 5);
    h.client.fail(h.client.unsettled()[0]!, ERRORS.http503());
    await settle(h);

    // Away again: the hold doubles (1,000 ms), still one at a time.
    await oneTriesAfter(h, 1_000, 6);

    // Taken: the hold ends and the queue goes on at full concurrency.
    h.client.success(h.client.unsettled()[0]!);
    await expect.poll(() => h.client.inFlight, waiting('the queue to go on')).toBe(4);
    h.client.auto = (call) => (h.client.success(call), null);
    for (const call of h.client.unsettled()) h.client.success(call);
    await expect.poll(() => queued.every(({ entry }) => state(h, entry.id).state === 'done'), waiting('every edit to be sent')).toBe(true);
    expect(h.engine.status().blocked).toBeNull();
    // The answers that said "away" cost no try: each edit counts only the try that went through.
    for (const { entry } of queued) expect(state(h, entry.id).attempts).toBe(1);
    expect(h.client.calls).toHaveLength(20 + 5);
  });

  it('gives up nothing over a ten-minute outage, trying the service at most about twice a minute once the hold has grown', async ({ harness }) => {
    const h = await harness({ random: () => 0.5 });
    const [queued] = await h.store.enqueue([edit('s1', '500')]);
    h.client.auto = () => ({ ok: false, error: ERRORS.http503() });
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first answer')).toBe(1);
    // The harness gives up after 5 attempts. Holds of 0.5, 1, 2, 4… s, at most 30 s (random 0.5 of the 60 s cap).
    for (let second = 0; second < 600; second += 10) await h.clock.advance(10_000);
    await settle(h);
    const tries = h.client.calls.length;
    expect(tries).toBeGreaterThan(12);
    expect(tries).toBeLessThanOrEqual(7 + Math.ceil((600_000 - 31_500) / 30_000));
    expect(state(h, queued!.entry.id)).toMatchObject({ state: 'pending', attempts: 0, totalAttempts: tries });
    h.client.auto = (call) => (h.client.success(call), null);
    await h.clock.advance(60_000);
    await expect.poll(() => state(h, queued!.entry.id).state, waiting('the edit to be sent')).toBe('done');
    expect(state(h, queued!.entry.id)).toMatchObject({ attempts: 1, totalAttempts: tries + 1 });
  });

  it('lets one pass settle at once with the reason, and a wait until settled ride out a hold as long as it would retry an entry', async ({ harness }) => {
    const h = await harness({ random: () => 0.5, concurrency: 1 });
    await h.store.enqueue([edit('s1', '500'), edit('s2', '501')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first try')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.http502());
    const pass = await h.engine.untilIdle();
    expect(pass.blocked?.reason).toBe('unavailable');

    let settled: { blocked: { reason: string } | null } | null = null;
    void h.engine.untilSettled().then((result) => (settled = result));
    // The harness tries an entry 5 times: a wait until settled rides out that many "away" answers in a row.
    for (let answers = 2; answers <= 5; answers++) {
      expect(settled).toBeNull();
      await h.clock.advance(60_000);
      await expect.poll(() => h.client.calls.length, waiting(`try ${answers}`)).toBe(answers);
      h.client.fail(h.client.calls[answers - 1]!, ERRORS.http503());
    }
    await expect.poll(() => settled?.blocked?.reason ?? null, waiting('the wait to stop and say why')).toBe('unavailable');
    expect(h.engine.status().pendingCount).toBe(2);
  });

  it('"Sync now" sends one entry at once instead of waiting out the hold', async ({ harness }) => {
    const h = await harness({ random: () => 0.99, concurrency: 4 });
    await h.store.enqueue(Array.from({ length: 6 }, (_, n) => edit(`s${n}`, String(100 + n))));
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first burst')).toBe(4);
    for (const call of h.client.unsettled()) h.client.fail(call, ERRORS.http504());
    await settle(h);
    await h.clock.advance(1);
    h.engine.syncNow();
    await expect.poll(() => h.client.calls.length, waiting('one entry to try the service')).toBe(5);
    await passes();
    expect(h.client.calls).toHaveLength(5);
  });

  it('says the later next try when a late answer lengthens the hold, and tries no sooner', async ({ harness }) => {
    const h = await harness({ random: () => 0.5, concurrency: 2 });
    await h.store.enqueue([edit('s1', '500'), edit('s2', '501')]);
    const t0 = h.clock.now();
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the first burst')).toBe(2);
    const [first, late] = h.client.unsettled();
    h.client.fail(first!, ERRORS.http503());
    await passes();
    await expect.poll(() => h.engine.status().connection.nextTryAt, waiting('the first hold to be said')).toBe(t0 + 500);
    // The other request's answer comes later and asks for 30 s: the status says so at once.
    await h.clock.advance(100);
    h.client.fail(late!, httpError({ ...ERRORS_503, retryAfter: '30' }));
    await settle(h);
    expect(h.engine.status().connection.nextTryAt).toBe(t0 + 30_100);
    expect(h.engine.status().blocked?.message).toMatch(/asking for 30 s/);
    await oneTriesAfter(h, 30_000, 3);
  });

  it('holds the queue behind a create that went to review over a 503, and ends the hold on any answer of the service itself', async ({ harness }) => {
    const h = await harness({ random: () => 0.5, concurrency: 1 });
    const [created, edited] = await h.store.enqueue([create('local-a'), edit('s2', '502')]);
    h.engine.kick();
    await expect.poll(() => h.client.calls.length, waiting('the create')).toBe(1);
    h.client.fail(h.client.calls[0]!, ERRORS.http503());
    await expect.poll(() => state(h, created!.entry.id).state, waiting('the create to wait for review')).toBe('needs-review');
    await settle(h);
    expect(h.client.calls).toHaveLength(1);
    expect(h.engine.status().blocked?.reason).toBe('unavailable');
    await h.clock.advance(500);
    await expect.poll(() => h.client.calls.length, waiting('the edit to try the service')).toBe(2);
    // A server exception is the service's own code answering: no longer held, the edit backs off as usual.
    h.client.fail(h.client.calls[1]!, ERRORS.serverFault());
    await expect.poll(() => state(h, edited!.entry.id).problem?.kind ?? null, waiting('the answer to be recorded')).toBe('fault');
    expect(h.engine.status().blocked).toBeNull();
    expect(state(h, edited!.entry.id).attempts).toBe(1);
  });
});

describe('the hold itself', () => {
  const away = ERRORS.http503();

  it('joins late answers to the hold without lengthening it (nor resetting the entry trying), and lengthens it for the entry that tried', () => {
    const hold = new QueueHold({ baseMs: 1_000, capMs: 60_000, maxAttempts: 5 }, () => 0.5);
    expect(hold.hold('p1', 'a', away, 0)).toBe(500);
    // b left before the hold began: its answer joins it.
    expect(hold.hold('p1', 'b', away, 10)).toBe(500);
    expect(hold.allowance('p1', 499, -Infinity)).toEqual({ entries: 0, until: 500 });
    expect(hold.allowance('p1', 500, -Infinity)).toEqual({ entries: 1, until: 500 });
    hold.trying('c');
    expect(hold.allowance('p1', 600, -Infinity)?.entries).toBe(0);
    // d's slow answer comes after the hold's end while c is trying the service: it joins, c still trying.
    expect(hold.hold('p1', 'd', away, 650)).toBe(500);
    expect(hold.allowance('p1', 660, -Infinity)?.entries).toBe(0);
    expect(hold.hold('p1', 'c', away, 700)).toBe(1_700);
    hold.answered('c');
    // Another profile is not held; a release ends it.
    expect(hold.allowance('p2', 800, -Infinity)).toBeNull();
    expect(hold.release('p1')).toBe(true);
    expect(hold.allowance('p1', 800, -Infinity)).toBeNull();
  });

  it('lets the next entry go at once when a free probe finds the service answering, never while one is trying', () => {
    const hold = new QueueHold({ baseMs: 1_000, capMs: 60_000, maxAttempts: 5 }, () => 0.9);
    hold.hold('p1', 'a', away, 0);
    expect(hold.serviceAnswered('p1', 100)).toBe(true);
    expect(hold.allowance('p1', 100, -Infinity)?.entries).toBe(1);
    hold.trying('b');
    expect(hold.serviceAnswered('p1', 200)).toBe(false);
    expect(hold.allowance('p1', 200, -Infinity)?.entries).toBe(0);
  });
});

describe("a service's Retry-After", () => {
  const answer = (status: number, retryAfter: string | null, date: string | null = null) =>
    httpError({ status, statusText: '', contentType: 'text/html', body: '', endpoint: 'https://api.example.test/Service.asmx', retryAfter, date });
  const asked = (status: number, retryAfter: string | null, date: string | null = null) => {
    const error = answer(status, retryAfter, date);
    return error.kind === 'http' ? error.retryAfterMs : 'not an http error';
  };

  it('is read as seconds, or as a date against the answer\'s own Date, and bounded', () => {
    expect(asked(503, '120')).toBe(120_000);
    expect(asked(429, ' 0 ')).toBe(0);
    // The server's clock against itself: this computer's clock may be hours wrong.
    expect(asked(503, 'Wed, 25 Nov 2026 10:05:00 GMT', 'Wed, 25 Nov 2026 10:00:30 GMT')).toBe(270_000);
    expect(asked(503, 'Wed, 25 Nov 2026 09:00:00 GMT', 'Wed, 25 Nov 2026 10:00:30 GMT')).toBe(0);
    expect(asked(503, '86400')).toBe(RETRY_AFTER_MAX_MS);
    expect(asked(503, '99999999999')).toBe(RETRY_AFTER_MAX_MS);
    // A header sent twice reaches the client joined: its first value.
    expect(asked(503, '120, 120')).toBe(120_000);
    // asctime names no zone and is GMT all the same, whatever this computer's zone (the suite's may be any).
    expect(asked(503, 'Wed Nov 25 10:05:00 2026', 'Wed, 25 Nov 2026 10:00:30 GMT')).toBe(270_000);
    expect(asked(503, 'Wednesday, 25-Nov-26 10:05:00 GMT', 'Wed Nov 25 10:00:30 2026')).toBe(270_000);
    // A date with nothing to read it against, words, a negative or fractional number: not read.
    for (const unread of ['Wed, 25 Nov 2026 10:05:00 GMT', 'soon', '-5', '1.5', '', null]) expect(asked(503, unread)).toBeUndefined();
    for (const unread of ['-5', '1.5', 'soon', '10:05']) expect(asked(503, unread, 'Wed, 25 Nov 2026 10:00:30 GMT')).toBeUndefined();
    // Only an answer worth trying again says when: a 404's Retry-After means nothing here.
    expect(asked(404, '120')).toBeUndefined();
  });

  it('holds the queue at least that long, which a free probe does not shorten and "Sync now" does', () => {
    const hold = new QueueHold({ baseMs: 1_000, capMs: 60_000, maxAttempts: 5 }, () => 0.5);
    expect(hold.hold('p1', 'a', answer(503, '120'), 0)).toBe(120_000);
    expect(hold.block('p1')?.message).toMatch(/HTTP 503, asking for 2 min/);
    // The WSDL answering does not end the wait the service asked for.
    expect(hold.serviceAnswered('p1', 1_000)).toBe(false);
    expect(hold.allowance('p1', 119_999, -Infinity)).toEqual({ entries: 0, until: 120_000 });
    expect(hold.allowance('p1', 120_000, -Infinity)?.entries).toBe(1);
    // The person who asks for a sync now is obeyed.
    expect(hold.allowance('p1', 5_000, 4_000)?.entries).toBe(1);
    // An answer that asks for less than the backoff waits the backoff (a "0" is not "at once, again").
    const short = new QueueHold({ baseMs: 1_000, capMs: 60_000, maxAttempts: 5 }, () => 0.5);
    expect(short.hold('p1', 'a', answer(503, '0'), 0)).toBe(500);
  });

  it('lengthens a hold when a late answer asks for more, and a probe ends the backoff beyond the asked wait', () => {
    const hold = new QueueHold({ baseMs: 10_000, capMs: 60_000, maxAttempts: 5 }, () => 0.9);
    expect(hold.hold('p1', 'a', answer(503, null), 0)).toBe(9_000);
    // b left before the hold began; its answer asks for 30 s, past the hold's end: the hold is set
    // again from it (a "Sync now" pressed before it no longer ends it), and the status quotes it.
    expect(hold.allowance('p1', 50, 40)?.entries).toBe(1);
    expect(hold.hold('p1', 'b', answer(503, '30'), 100)).toBe(30_100);
    expect(hold.allowance('p1', 150, 40)?.entries).toBe(0);
    expect(hold.block('p1')?.message).toMatch(/HTTP 503, asking for 30 s/);
    // c tried the service after that hold and is told to come back in 5 s; the backoff is longer.
    const next = hold.hold('p1', 'c', answer(503, '5'), 31_000);
    expect(next).toBe(31_000 + 18_000);
    // The probe finds the service answering: the next entry may go once the 5 s asked for are over.
    expect(hold.serviceAnswered('p1', 32_000)).toBe(true);
    expect(hold.allowance('p1', 35_999, -Infinity)).toEqual({ entries: 0, until: 36_000 });
    expect(hold.allowance('p1', 36_000, -Infinity)?.entries).toBe(1);
  });
});
