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
import { runReprocess } from '../../electron/core/bulk/apply';
import { coreOutboxPort } from '../../electron/core/bulk/core-port';
import { planReprocess, readEusCsv, type EusPlanOptions } from '../../electron/shared/bulk/eus';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function core(options: { sandbox?: boolean } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sitewalk-email-'));
  const clock = createManualClock(Date.parse('2026-11-20T08:00:00Z'));
  // The service is re-checked hourly here, not every 20 s: a day moved on the clock would otherwise
  // run 4,320 free probes against the sandbox, which this file does not test.
  const opened: SitewalkCore = await openCore({ dataDir, secretStore: createSessionSecretStore(), autoSync: false, clock, sandbox: options.sandbox ? builtInSandbox : false, checkEveryMs: 3_600_000 });
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

  it('keeps the guard for a bulk file: submissions emailed in the last 24 h are marked and left out, and only the ticked ones are emailed again', async () => {
    const { core: c } = await core({ sandbox: true });
    expect((await c.reprocess({ ...emailing, processId: '880104', multiMapId: '4101' })).ok).toBe(true);
    expect(Object.fromEntries([...c.recentEmails(['880104'])].map(([id, email]) => [id, email.label]))).toEqual({ 880104: 'Email waiting to be sent' });
    expect((await c.reprocess({ ...emailing, processId: '880101', multiMapId: '4101' })).ok).toBe(true);
    c.sync.start();
    expect((await c.sync.untilSettled()).counts.done).toBe(2);

    const recent = c.recentEmails(['880101', '880104', '880107']);
    expect(Object.fromEntries([...recent].map(([id, email]) => [id, email.label]))).toEqual({ 880101: 'Emailed just now', 880104: 'Emailed just now' });

    const table = readEusCsv(new TextEncoder().encode('ProcessID,Name\n880101,Ann\n880104,Bo\n880107,Cy\n'));
    const planWith = (extra: Partial<EusPlanOptions>) =>
      planReprocess(table, { multiMapId: '4102', sendEmail: true, recentEmails: Object.fromEntries([...recent].map(([id, email]) => [id, email.label])), ...extra });
    const plan = planWith({});
    expect(plan.rows.map((row) => [row.processId, row.ready, row.heldBack ?? false])).toEqual([
      ['880101', false, true],
      ['880104', false, true],
      ['880107', true, false],
    ]);
    expect(plan.summary.heldBack).toBe(2);
    // Without the email nothing is held back, though the rows stay marked.
    expect(planWith({ sendEmail: false }).rows.map((row) => [row.ready, row.recentEmail])).toEqual([
      [true, 'Emailed just now'],
      [true, 'Emailed just now'],
      [true, undefined],
    ]);

    const before = c.outbox.list().length;
    const run = await runReprocess(coreOutboxPort(c), plan, { follow: false });
    expect(run.rows.map((row) => [row.siteId, row.status])).toEqual(expect.arrayContaining([
      ['880101', 'skipped'],
      ['880104', 'skipped'],
      ['880107', 'queued'],
    ]));
    expect(run.rows.find((row) => row.siteId === '880101')!.message).toMatch(/^Left out: emailed just now, within the last 24 hours/);
    expect(c.outbox.list().length).toBe(before + 1);

    // Ticked: 880101 goes (the core lets that one through), 880104 still does not.
    const ticked = planWith({ emailAgain: [2], selectedRows: [2, 3] });
    expect(ticked.rows.map((row) => [row.processId, row.ready])).toEqual([
      ['880101', true],
      ['880104', false],
    ]);
    const again = await runReprocess(coreOutboxPort(c), ticked, { follow: false });
    expect(again.outcome).toBe('queued');
    expect(c.outbox.list().filter((entry) => entry.kind === 'reprocess' && entry.payload['processId'] === '880101')).toHaveLength(2);
    expect(await c.reprocessMany([{ ...emailing, processId: '880104', multiMapId: '4102' }], { emailAgain: ['880101'] })).toMatchObject({
      ok: false,
      issues: [{ index: 0, field: 'duplicateEmail' }],
    });
  });
});
