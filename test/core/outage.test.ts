// A service outage against the sandbox over real HTTP (a proxy's 503 in front of every operation),
// through the real service client, on a manual clock so the holds end only when the test says: a
// queue of edits sends one burst (at most the concurrency), then one request per hold, and no edit
// gives up however long the outage; once the service takes requests again every edit is applied
// exactly once. The engine's rules in detail are in outbox-hold.test.ts.
import { describe, expect } from 'vitest';
import { createManualClock } from '../../electron/core/clock';
import { useService } from '../support/core';
import { it } from '../support/fixtures';
import { serviceCalls, serviceSites } from '../support/service-state';
import { waiting } from '../support/wait';

describe('a service outage', () => {
  it('is met with one burst and then one request per hold, and every edit is applied exactly once after it', async ({ sandbox, openCore, binding }) => {
    const clock = createManualClock(Date.now());
    // Three tries before giving up: the outage below answers "unavailable" more often than that.
    const core = await openCore({ sandbox: false, clock, retry: { baseMs: 1_000, capMs: 60_000, maxAttempts: 3 } });
    await useService(core, sandbox.url, { binding });
    const towers: string[] = [];
    for (let n = 0; n < 12; n++) {
      const saved = await core.sites.save({ name: `Outage ${n}`, height: 30, latitude: 45 + n / 100, longitude: -93 });
      if (!saved.ok) throw new Error('save failed');
      towers.push(saved.value.site.localId);
    }
    expect((await core.sync.untilSettled()).blocked).toBeNull();

    sandbox.setFaults({ proxy503Rate: 1 });
    const refused = async () => (await serviceCalls(sandbox.url)).filter((call) => call.outcome === 'proxy-503').length;
    for (const localId of towers) await core.sites.save({ localId, height: 50 });
    // One pass: the burst is answered "unavailable", the queue is held and the pass says so.
    const pass = await core.sync.untilIdle();
    expect(pass.blocked).toMatchObject({ reason: 'unavailable', message: expect.stringMatching(/HTTP 503/) });
    const burst = await refused();
    expect(burst).toBeGreaterThanOrEqual(1);
    expect(burst).toBeLessThanOrEqual(4);

    // Five holds in a row: each ends with exactly one request, each answered "unavailable". The status
    // says when the next try is; the clock goes just there.
    const untilNextTry = () => Date.parse(core.sync.status().connection.nextTryAt ?? 'no next try') - clock.now();
    for (let hold = 1; hold <= 5; hold++) {
      expect(untilNextTry()).toBeGreaterThanOrEqual(0);
      await clock.advance(untilNextTry());
      await expect.poll(refused, waiting(`the request after hold ${hold}`)).toBe(burst + hold);
      await core.sync.untilIdle();
      expect(await refused()).toBe(burst + hold);
    }
    expect(towers.map((localId) => core.sites.get(localId)?.syncState)).toEqual(towers.map(() => 'pending'));
    expect(core.outbox.list().filter((entry) => entry.state === 'failed')).toEqual([]);

    sandbox.setFaults({});
    const before = (await serviceCalls(sandbox.url)).length;
    await clock.advance(untilNextTry());
    await expect.poll(() => towers.every((localId) => core.sites.get(localId)?.syncState === 'synced'), waiting('every edit to be sent')).toBe(true);
    expect((await core.sync.untilSettled()).blocked).toBeNull();
    const applied = (await serviceCalls(sandbox.url)).slice(before).filter((call) => call.operation === 'SitesAPI' && call.outcome === 'ok');
    expect(applied).toHaveLength(towers.length);
    const onService = (await serviceSites(sandbox.url)).filter((site) => site.name.startsWith('Outage '));
    expect(onService.map((site) => site.height)).toEqual(towers.map(() => 50));
  });

  it("waits as long as the proxy's Retry-After asks before one request tries again, and says so", async ({ sandbox, openCore }) => {
    const clock = createManualClock(Date.now());
    const core = await openCore({ sandbox: false, clock, retry: { baseMs: 1_000, capMs: 60_000, maxAttempts: 3 } });
    await useService(core, sandbox.url);
    const saved = await core.sites.save({ name: 'Retry-After', height: 30, latitude: 45, longitude: -93 });
    if (!saved.ok) throw new Error('save failed');
    expect((await core.sync.untilSettled()).blocked).toBeNull();

    // IIS with the site taken offline for maintenance: 503, come back in three minutes.
    sandbox.setFaults({ proxy503Rate: 1, retryAfterSeconds: 180 });
    const refused = async () => (await serviceCalls(sandbox.url)).filter((call) => call.outcome === 'proxy-503').length;
    await core.sites.save({ localId: saved.value.site.localId, height: 50 });
    const pass = await core.sync.untilIdle();
    expect(pass.blocked).toMatchObject({ reason: 'unavailable', message: expect.stringMatching(/HTTP 503, asking for 3 min/) });
    expect(await refused()).toBe(1);
    const untilNextTry = () => Date.parse(core.sync.status().connection.nextTryAt ?? 'no next try') - clock.now();
    // Not the backoff's half a second: the three minutes asked for.
    expect(untilNextTry()).toBe(180_000);
    await clock.advance(179_999);
    await core.sync.untilIdle();
    expect(await refused()).toBe(1);

    sandbox.setFaults({});
    await clock.advance(1);
    await expect.poll(() => core.sites.get(saved.value.site.localId)?.syncState, waiting('the edit to be sent after the wait')).toBe('synced');
    expect((await core.sync.untilSettled()).blocked).toBeNull();
  });
});
