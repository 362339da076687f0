// Emailing a submission twice by accident: a reprocess with email for a submission that has one
// waiting, sending or done in the last 24 hours is refused until the user confirms (force).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../electron/core/clock';
import { openCore, type SitewalkCore } from '../../electron/core/open-core';
import { createSessionSecretStore } from '../../electron/core/profiles/session';
import { builtInSandbox } from '../../electron/sandbox/builtin';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function core(options: { sandbox?: boolean } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-email-'));
  const clock = createManualClock(Date.parse('2026-11-20T08:00:00Z'));
  const opened: SitewalkCore = await openCore({ dataDir, secretStore: createSessionSecretStore(), autoSync: false, clock, sandbox: options.sandbox ? builtInSandbox : false });
  cleanups.push(async () => {
    await opened.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { core: opened, clock };
}

const emailing = { processId: 'P-77', multiMapId: '12', sendEmail: true };

describe('the duplicate-email guard', () => {
  it('asks before queuing a second email for a submission whose email is still waiting', async () => {
    const { core: c } = await core();
    expect((await c.reprocess(emailing)).ok).toBe(true);
    const again = await c.reprocess(emailing);
    expect(again).toMatchObject({ ok: false, issues: [{ field: 'duplicateEmail', message: expect.stringMatching(/P-77 already has a reprocess with email waiting to be sent/) }] });
    expect(c.outbox.list()).toHaveLength(1);
    // Without email there is nothing to send twice; with the user's confirmation it goes.
    expect((await c.reprocess({ ...emailing, sendEmail: false })).ok).toBe(true);
    expect((await c.reprocess(emailing, { force: true })).ok).toBe(true);
    expect(c.outbox.list()).toHaveLength(3);
  });

  it('refuses a second email within 24 hours of one that was sent, and allows it after', async () => {
    const { core: c, clock } = await core({ sandbox: true });
    expect((await c.reprocess({ ...emailing, processId: '880101', multiMapId: '4101' })).ok).toBe(true);
    c.sync.start();
    expect((await c.sync.untilSettled()).counts.done).toBe(1);
    expect(await c.reprocess({ ...emailing, processId: '880101', multiMapId: '4101' })).toMatchObject({ ok: false, issues: [{ field: 'duplicateEmail', message: expect.stringMatching(/sent just now/) }] });
    await clock.advance(24 * 3600_000 + 1000);
    expect((await c.reprocess({ ...emailing, processId: '880101', multiMapId: '4101' })).ok).toBe(true);
  });

  it('refuses two emails for one submission in the same batch', async () => {
    const { core: c } = await core();
    const batch = await c.reprocessMany([emailing, emailing]);
    expect(batch).toMatchObject({ ok: false, issues: [{ index: 1, field: 'duplicateEmail', message: expect.stringMatching(/earlier in this batch/) }] });
    expect(c.outbox.list()).toHaveLength(0);
  });
});
