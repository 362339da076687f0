// The connection status is re-checked, not left at the last call's result (issue 23): with nothing
// queued, a proxy's 503 in front of the service shows as "not answering" and its recovery as
// "online" within one check interval, by free probes of the WSDL (the sandbox's call log, which
// counts operations, does not move); and "Sync now" always asks afresh.
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { serviceCalls } from '../support/service-state';

const state = (core: { sync: { status(): { connection: { state: string } } } }) => core.sync.status().connection.state;

describe('the connection status follows the service with nothing queued', () => {
  it.override('coreOptions', { checkEveryMs: 150 });

  it('shows a 503 in front of the service as not answering, and its recovery as online, with no API call spent', async ({ core, sandbox }) => {
    core.sync.start();
    await expect.poll(() => state(core)).toBe('online');
    const calls = (await serviceCalls(sandbox.url)).length;
    expect(core.sync.status().pendingCount).toBe(0);

    sandbox.setFaults({ proxy503Rate: 1 });
    await expect.poll(() => state(core), { timeout: 10_000 }).toBe('not-answering');
    expect(core.sync.status().connection).toMatchObject({ lastError: { message: expect.stringMatching(/HTTP 503/) } });

    sandbox.setFaults({});
    await expect.poll(() => state(core), { timeout: 10_000 }).toBe('online');
    expect((await serviceCalls(sandbox.url)).length).toBe(calls);
  });
});

describe('"Sync now" re-checks the service', () => {
  // A check interval no test would live to see: only "Sync now" can change the status here.
  it.override('coreOptions', { checkEveryMs: 3_600_000 });

  it('asks the service afresh with an empty queue, both ways', async ({ core, sandbox }) => {
    core.sync.start();
    await expect.poll(() => state(core)).toBe('online');

    sandbox.setFaults({ proxy503Rate: 1 });
    await core.sync.syncNow();
    await expect.poll(() => state(core), { timeout: 10_000 }).toBe('not-answering');

    sandbox.setFaults({});
    await core.sync.syncNow();
    await expect.poll(() => state(core), { timeout: 10_000 }).toBe('online');
  });
});
