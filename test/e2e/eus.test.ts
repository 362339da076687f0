// EUS reprocess from the panel: the email choice has no default (the form says so until one is
// picked), the request is queued, its history shows the service's answer, and the sandbox's mail
// outbox has the email to the account's EUS recipients.
import type { MailMessage, SandboxState } from '../../electron/sandbox/state';
import { describe, expect, test } from './fixtures';
import { inspect } from './helpers';
import { allEntries } from './outbox-listing';

describe('EUS reprocess', () => {
  test('asks for the email choice, queues the reprocess, and the email reaches the sandbox mail outbox', async ({ app, page, session, sandboxUrl: base }) => {
    const state = await inspect<SandboxState>(base, 'state');
    const submission = state.submissions[0]!;
    const target = state.multiMaps.find((m) => m.id !== submission.multiMapId) ?? state.multiMaps[0]!;
    const recipients = state.accounts.find((a) => a.id === submission.account)!.recipients;

    await page.getByRole('button', { name: 'EUS', exact: true }).click();
    await page.getByLabel('Process ID').fill(submission.processId);
    await page.getByLabel('Multi Map ID').fill(target.id);
    // No default: queuing without a choice is refused inline.
    await page.getByRole('button', { name: 'Queue reprocess' }).click();
    await page.getByText('Choose whether to send the email again (yes or no).').waitFor();
    expect(await allEntries(app.call)).toEqual([]);

    await page.getByRole('radio', { name: /Yes, send the email again/ }).check();
    await page.getByRole('button', { name: 'Queue reprocess' }).click();

    const entry = page.getByRole('article', { name: /: done$/ });
    await entry.waitFor({ timeout: 60_000 });
    await entry.getByText(/Service answered:/).waitFor();
    await session.screenshot('eus-reprocess-done');

    const mail = (await inspect<MailMessage[]>(base, 'mail')).filter((m) => m.processId === submission.processId);
    expect(mail.map((m) => m.to).sort()).toEqual([...recipients].sort());
    const after = await inspect<SandboxState>(base, 'state');
    expect(after.submissions.find((s) => s.processId === submission.processId)!.multiMapId).toBe(target.id);
    expect(session.errors).toEqual([]);
  });
});
