// The client against the sandbox on every binding: each operation's success, and each way the
// service refuses (wrong key, no calls left, a value it rejects, an unknown site or submission,
// injected server errors and proxy pages) — with what the service holds checked afterwards.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, SandboxSite, SandboxState } from '../../electron/sandbox/index';
import { BINDINGS, mayHaveBeenApplied, type CallError, type CallResult } from '../../electron/core/service/types';
import { clientFor, inspect, sandboxPerFile } from './helpers/sandbox';

let sandbox: RunningSandbox;
sandboxPerFile((started) => (sandbox = started));

function failure<T>(result: CallResult<T>): CallError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function value<T>(result: CallResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

const state = (): SandboxState => sandbox.snapshot();
const firstSite = () => state().sites[0]!;
const firstSubmission = () => state().submissions[0]!;
const otherMultiMap = (current: string) => state().multiMaps.find((map) => map.id !== current)!;

const FAULT_SOURCE = { 'http-post': 'http-text', 'http-get': 'http-text', soap11: 'soap11', soap12: 'soap12' } as const;

describe.each(BINDINGS)('against the sandbox over %s', (binding) => {
  it('creates a site and the service holds exactly what was typed', async () => {
    const client = clientFor(sandbox, binding);
    const created = value(
      await client.saveSite({ name: 'Ridge & Co <north> "A"', height: 45, latitude: 44.9537, longitude: -93.09, description: 'Line 1\r\nLine 2 🗼', group: 'Backhaul', pinStyle: 3 }),
    );
    expect(created.siteId).toMatch(/^\d+$/);
    expect(created.raw).toBe(created.siteId);
    const site = await inspect<SandboxSite>(sandbox, `sites/${created.siteId}`);
    expect(site).toMatchObject({
      id: created.siteId,
      name: 'Ridge & Co <north> "A"',
      height: 45,
      latitude: 44.9537,
      longitude: -93.09,
      description: 'Line 1\r\nLine 2 🗼',
      group: 'Backhaul',
      pinStyle: 3,
    });
  });

  it('edits a site, keeps its ID, and leaves blank fields unchanged', async () => {
    const before = firstSite();
    const edited = value(await clientFor(sandbox, binding).saveSite({ siteId: before.id, height: before.height + 1 }));
    expect(edited).toEqual({ siteId: before.id, message: `Site ${before.id} updated.`, raw: `Site ${before.id} updated.` });
    const after = await inspect<SandboxSite>(sandbox, `sites/${before.id}`);
    expect(after).toMatchObject({ height: before.height + 1, name: before.name, latitude: before.latitude, group: before.group, pinStyle: before.pinStyle });
  });

  it('lists the rendering qualities with numeric IDs', async () => {
    const qualities = value(await clientFor(sandbox, binding).listRenderingQualities());
    expect(qualities).toEqual(state().renderingQualities.map((quality) => ({ id: quality.id, name: quality.name, error: quality.error })));
    expect(qualities.length).toBeGreaterThan(0);
  });

  it('reprocesses a submission into another Multi Map, with and without the email', async () => {
    const submission = firstSubmission();
    const target = otherMultiMap(submission.multiMapId);
    const mailBefore = state().mail.length;
    const submissionsBefore = state().submissions.length;
    const withEmail = value(await clientFor(sandbox, binding).reprocessEus({ processId: submission.processId, multiMapId: target.id, sendEmail: true }));
    expect(withEmail.message).toBe(`Submission ${submission.processId} reprocessed into Multi Map ${target.id}. Email sent to 2 recipients.`);
    expect(state().mail.length).toBe(mailBefore + 2);
    const withoutEmail = value(await clientFor(sandbox, binding).reprocessEus({ processId: submission.processId, multiMapId: submission.multiMapId, sendEmail: false }));
    expect(withoutEmail.message).toMatch(/No email sent\.$/);
    expect(state().mail.length).toBe(mailBefore + 2);
    const after = state().submissions.find((entry) => entry.processId === submission.processId)!;
    expect(after.reprocessHistory.map((record) => record.sendEmail)).toEqual([true, false]);
    // Reprocessed in place: no new submission.
    expect(state().submissions).toHaveLength(submissionsBefore);
  });

  it('reports a wrong key as an auth fault on every operation, changing and consuming nothing', async () => {
    const client = clientFor(sandbox, binding, { key: 'not-the-key' });
    const before = state();
    const errors = [
      failure(await client.saveSite({ siteId: firstSite().id, height: 1 })),
      failure(await client.listRenderingQualities()),
      failure(await client.reprocessEus({ processId: firstSubmission().processId, multiMapId: firstSubmission().multiMapId, sendEmail: true })),
    ];
    for (const error of errors) {
      expect(error).toMatchObject({ kind: 'fault', source: FAULT_SOURCE[binding], authRejected: true, quotaExhausted: false, retryable: false });
      expect(error.message).toContain('Invalid account ID or API key.');
      expect(JSON.stringify(error)).not.toContain('not-the-key');
    }
    expect(state().sites).toEqual(before.sites);
    expect(state().accounts).toEqual(before.accounts);
  });

  it('reports an exhausted quota on every operation and changes nothing', async () => {
    await inspect(sandbox, `accounts/${sandbox.demo.account}`, { method: 'PATCH', body: { callsLeft: 0 } });
    const client = clientFor(sandbox, binding);
    const site = firstSite();
    const errors = [
      failure(await client.saveSite({ siteId: site.id, height: site.height + 5 })),
      failure(await client.listRenderingQualities()),
      failure(await client.reprocessEus({ processId: firstSubmission().processId, multiMapId: firstSubmission().multiMapId, sendEmail: false })),
    ];
    for (const error of errors) {
      expect(error).toMatchObject({ kind: 'fault', quotaExhausted: true, authRejected: false, retryable: false });
      expect(mayHaveBeenApplied(error)).toBe(false);
    }
    expect(state().sites.find((entry) => entry.id === site.id)?.height).toBe(site.height);
  });

  it('passes on the service\'s own validation message for a value the client itself would refuse', async () => {
    const error = failure(await clientFor(sandbox, binding).callRaw('SitesAPI', { Siteid: firstSite().id, height: '30.5' }));
    expect(error).toMatchObject({ kind: 'fault', source: FAULT_SOURCE[binding], retryable: false, quotaExhausted: false, authRejected: false });
    if (error.kind === 'fault') expect(error.reason).toMatch(/^Height must be a whole number of meters/);
    expect(error.message).not.toMatch(/Server was unable to process request|System\.\w+Exception/);
  });

  it('reports an unknown site and an unknown submission as refusals, not as retryable trouble', async () => {
    const client = clientFor(sandbox, binding);
    const site = failure(await client.saveSite({ siteId: '999999', height: 10 }));
    expect(site).toMatchObject({ kind: 'fault', retryable: false });
    if (site.kind === 'fault') expect(site.reason).toBe('Site 999999 was not found.');
    const submission = failure(await client.reprocessEus({ processId: 'NO-SUCH-SUBMISSION', multiMapId: firstSubmission().multiMapId, sendEmail: false }));
    expect(submission).toMatchObject({ kind: 'fault', retryable: false });
  });

  it('returns a created site ID only once: a rejected create leaves no site behind', async () => {
    const before = state().sites.length;
    const error = failure(await clientFor(sandbox, binding).callRaw('SitesAPI', { Sitename: 'x', height: '10', Latitude: '95', Longitude: '0' }));
    expect(error.kind).toBe('fault');
    expect(state().sites).toHaveLength(before);
  });

  it('treats an injected server error as retryable and not applied', async () => {
    sandbox.setFaults({ failureRate: 1 });
    const site = firstSite();
    const error = failure(await clientFor(sandbox, binding).saveSite({ siteId: site.id, height: site.height + 7 }));
    expect(error).toMatchObject({ kind: 'fault', retryable: true, quotaExhausted: false, authRejected: false });
    expect(state().sites.find((entry) => entry.id === site.id)?.height).toBe(site.height);
  });

  it('treats a proxy\'s HTML 503 page as a retryable http error', async () => {
    sandbox.setFaults({ proxy503Rate: 1 });
    const error = failure(await clientFor(sandbox, binding).listRenderingQualities());
    expect(error).toMatchObject({ kind: 'http', status: 503, retryable: true });
    expect(error.message).toMatch(/unavailable/);
  });
});
