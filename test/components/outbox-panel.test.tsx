// The outbox list: entries grouped by what the user must do (needs attention, waiting, done), each
// with a badge in words and only the actions its state allows; retry, discard and "it was created"
// go to the host and show its answer at once; the history comes a page at a time.
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { OutboxEntryView } from '../../electron/shared/contract/index';
import { OutboxPanel } from '../../renderer/src/features/outbox/outbox-panel';
import { entryView, renderWithHost, siteView } from './support/shell';

const problem = (message: string) => ({ kind: 'fault', message, detail: `HTTP 500: ${message}` });

const ENTRIES: OutboxEntryView[] = [
  entryView({ id: 'e-failed', state: 'failed', summary: "Edit site 'Rejected one'", attempts: 1, problem: problem('The service refused the height.'), createdAt: '2026-01-01T00:00:05.000Z' }),
  entryView({ id: 'e-review', state: 'needs-review', op: 'create', siteId: null, payload: { name: 'Maybe made' }, summary: "Create site 'Maybe made' (30 m)", attempts: 1, problem: { ...problem('No answer came back.'), mayHaveBeenApplied: true }, createdAt: '2026-01-01T00:00:04.000Z' }),
  entryView({ id: 'e-paused', state: 'paused', summary: "Edit site 'Paused one'", createdAt: '2026-01-01T00:00:03.000Z' }),
  entryView({ id: 'e-pending', state: 'pending', summary: "Edit site 'Waiting one'", createdAt: '2026-01-01T00:00:02.000Z' }),
  entryView({ id: 'e-sending', state: 'sending', summary: "Edit site 'Going one'", createdAt: '2026-01-01T00:00:01.000Z' }),
  entryView({ id: 'e-done', state: 'done', summary: "Edit site 'Sent one'", result: 'Saved', updatedAt: '2026-01-01T00:01:00.000Z' }),
];

const entry = (screen: Awaited<ReturnType<typeof renderWithHost>>['screen'], summary: string, state: string) => screen.getByRole('article', { name: `${summary}: ${state}` });

describe('the outbox list', () => {
  it('says "Gave up", not "Rejected", of an entry the service never refused (it was unavailable every time)', async () => {
    const gaveUp = entryView({ id: 'e-gave-up', state: 'failed', summary: "Edit site 'Outage one'", attempts: 12, problem: { kind: 'gave-up', message: 'The service is unavailable for now (HTTP 503). Gave up after 12 attempts; retry when the service is working again.', detail: 'HTTP 503' } });
    const { screen } = await renderWithHost({ entries: [gaveUp, ENTRIES[0]!] }, () => <OutboxPanel />);
    await expect.element(entry(screen, "Edit site 'Outage one'", 'failed').getByText('Gave up', { exact: true })).toBeVisible();
    expect(entry(screen, "Edit site 'Outage one'", 'failed').getByText('Rejected', { exact: true }).elements()).toHaveLength(0);
    await expect.element(entry(screen, "Edit site 'Rejected one'", 'failed').getByText('Rejected', { exact: true })).toBeVisible();
  });

  it('puts each entry under what the user must do, with its badge in words', async () => {
    const { screen } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    await expect.element(screen.getByRole('heading', { name: 'Needs attention (3)' })).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (2)' })).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Done (1)' })).toBeVisible();
    const attention = screen.getByRole('region', { name: 'Needs attention (3)' });
    await expect.element(attention.getByRole('article', { name: /Rejected one/ }).getByText('Rejected', { exact: true })).toBeVisible();
    await expect.element(attention.getByRole('article', { name: /Maybe made/ }).getByText('Check needed', { exact: true })).toBeVisible();
    await expect.element(attention.getByRole('article', { name: /Paused one/ }).getByText('Paused', { exact: true })).toBeVisible();
    const waiting = screen.getByRole('region', { name: 'Waiting to send (2)' });
    await expect.element(waiting.getByRole('article', { name: /Waiting one/ }).getByText('Waiting to send', { exact: true })).toBeVisible();
    await expect.element(waiting.getByRole('article', { name: /Going one/ }).getByText('Sending…', { exact: true })).toBeVisible();
    // A problem is a sentence, with the detail for support one click away.
    await expect.element(entry(screen, "Edit site 'Rejected one'", 'failed').getByText('The service refused the height.', { exact: true })).toBeVisible();
    await expect.element(entry(screen, "Edit site 'Rejected one'", 'failed').getByText('Details for support')).toBeVisible();
  });

  it('counts the waiting edits the host left out of its listing from the status, and follows it', async () => {
    // 1,200 edits waiting beyond those listed: the status counts them with the listed pending, sending and paused ones.
    const { screen, host } = await renderWithHost({ entries: ENTRIES, pendingLeftOut: 1_200, status: { pendingCount: 1_203 } }, () => <OutboxPanel />);
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (1,202)' })).toBeVisible();
    await expect.element(screen.getByText('…and 1,200 more, sent in order.')).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Needs attention (3)' })).toBeVisible();
    // Sent meanwhile: the count follows the status.
    host.emit({ type: 'status', status: { ...host.store.getState().status!, pendingCount: 803, revision: host.nextRevision() } });
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (802)' })).toBeVisible();
    await expect.element(screen.getByText('…and 800 more, sent in order.')).toBeVisible();
  });

  it('asks for the next waiting edits once those it holds are mostly sent', async () => {
    const next = Array.from({ length: 150 }, (_, k) => entryView({ id: `e-next-${k}`, state: 'pending', summary: `Edit site 'Next ${k}'`, createdAt: `2026-01-01T00:00:10.${String(k).padStart(3, '0')}Z` }));
    const { screen, host } = await renderWithHost({ entries: ENTRIES, pendingLeftOut: 1_200, status: { pendingCount: 1_203 } }, (host) => {
      // The host's next listing: the same unfinished entries, and the next 150 waiting.
      host.answer('listOutbox', async () => ({ active: [...ENTRIES.filter((e) => e.state !== 'done'), ...next], pendingLeftOut: 1_050, history: { entries: [], next: null, total: 0 } }));
      return <OutboxPanel />;
    });
    await expect.element(entry(screen, "Edit site 'Next 0'", 'pending')).toBeVisible();
    await expect.element(screen.getByText('…and 1,050 more, sent in order.')).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (1,202)' })).toBeVisible();
    expect(host.callsOf('listOutbox')).toHaveLength(2);
  });

  it('holds the first waiting edits an import brings while it is open, and counts the rest from the status', async () => {
    const { screen, host } = await renderWithHost({}, () => <OutboxPanel />);
    const queued = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => entryView({ id: `e-import-${from + k}`, state: 'pending', summary: `Create site 'Row ${from + k}'`, createdAt: `2026-01-01T00:${String(Math.floor((from + k) / 60) % 60).padStart(2, '0')}:${String((from + k) % 60).padStart(2, '0')}.000Z` }));
    // 500 rows queued elsewhere (an import, the CLI): one event with every entry, and the status counting them.
    host.emit({ type: 'changes', changes: { entries: queued(0, 500), entriesRemoved: [], sites: [], sitesRemoved: [] } });
    host.emit({ type: 'status', status: { ...host.store.getState().status!, pendingCount: 500, revision: host.nextRevision() } });
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (500)' })).toBeVisible();
    await expect.element(screen.getByText('…and 200 more, sent in order.')).toBeVisible();
    const waitingHeld = () => [...host.store.getState().outbox.values()].filter((e) => e.state === 'pending').map((e) => e.id);
    expect(waitingHeld()).toEqual(queued(0, 300).map((e) => e.id));
    // A row queued after them is behind those left out: counted, not held.
    host.emit({ type: 'outbox', entry: queued(500, 1)[0]! });
    host.emit({ type: 'status', status: { ...host.store.getState().status!, pendingCount: 501, revision: host.nextRevision() } });
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (501)' })).toBeVisible();
    expect(waitingHeld()).toHaveLength(300);
    // A held one being sent is kept as it changes.
    host.emit({ type: 'outbox', entry: { ...queued(0, 1)[0]!, state: 'sending', revision: host.nextRevision() } });
    await expect.element(entry(screen, "Create site 'Row 0'", 'sending')).toBeVisible();
  });

  it('offers only the actions each state allows', async () => {
    const { screen } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    const buttons = async (summary: string, state: string) => {
      await expect.element(entry(screen, summary, state)).toBeInTheDocument();
      return entry(screen, summary, state).getByRole('button').elements().map((b) => b.textContent);
    };
    expect(await buttons("Edit site 'Rejected one'", 'failed')).toEqual(['Retry', 'Edit', 'Discard']);
    expect(await buttons("Create site 'Maybe made' (30 m)", 'needs-review')).toEqual(['Send again', 'Edit', 'It was created — enter its site ID', 'Discard']);
    expect(await buttons("Edit site 'Paused one'", 'paused')).toEqual(['Retry', 'Edit', 'Discard']);
    expect(await buttons("Edit site 'Waiting one'", 'pending')).toEqual(['Edit', 'Discard']);
    expect(await buttons("Edit site 'Going one'", 'sending')).toEqual([]);
  });

  it('retries a rejected entry and moves it to waiting at once', async () => {
    const { screen, host } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    await entry(screen, "Edit site 'Rejected one'", 'failed').getByRole('button', { name: 'Retry' }).click();
    await expect.element(entry(screen, "Edit site 'Rejected one'", 'pending')).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Needs attention (2)' })).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (3)' })).toBeVisible();
    expect(host.callsOf('retryEntry')).toEqual([['e-failed']]);
  });

  it('counts every try of an entry that was retried, and those counting toward giving up', async () => {
    const { screen } = await renderWithHost({ entries: [entryView({ id: 'e-twice', state: 'failed', summary: "Edit site 'Tried twice'", attempts: 1, totalAttempts: 2, problem: problem('The service refused the height.') })] }, () => <OutboxPanel />);
    const tried = entry(screen, "Edit site 'Tried twice'", 'failed');
    await expect.element(tried.getByText(/· 2 attempts, 1 counting toward giving up/)).toBeVisible();
    await tried.getByRole('button', { name: 'Retry' }).click();
    await expect.element(entry(screen, "Edit site 'Tried twice'", 'pending').getByText(/· 2 attempts, none counting toward giving up/)).toBeVisible();
  });

  it("says the queue's next try while the service holds it, not an entry's own earlier one", async () => {
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    const own = entryView({ id: 'e-held', state: 'pending', summary: "Edit site 'Held one'", nextAttemptAt: at(10) });
    const held = { blocked: { reason: 'unavailable' as const, message: 'The service says it cannot take requests now (HTTP 503).' }, connection: { state: 'not-answering' as const, lastError: null, nextTryAt: at(45) } };
    const { screen } = await renderWithHost({ entries: [own], status: held }, () => <OutboxPanel />);
    await expect.element(entry(screen, "Edit site 'Held one'", 'pending').getByText(/· next try in 4\d s/)).toBeVisible();
  });

  it('asks before sending a create the service may have made again, and sends nothing on Cancel', async () => {
    const { screen, host } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    await entry(screen, "Create site 'Maybe made' (30 m)", 'needs-review').getByRole('button', { name: 'Send again' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Send it again?' });
    await expect.element(dialog.getByText(/can create a duplicate/)).toBeVisible();
    await expect.element(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    expect(host.callsOf('retryEntry')).toEqual([]);
    await entry(screen, "Create site 'Maybe made' (30 m)", 'needs-review').getByRole('button', { name: 'Send again' }).click();
    await screen.getByRole('dialog', { name: 'Send it again?' }).getByRole('button', { name: 'Send again' }).click();
    await expect.element(entry(screen, "Create site 'Maybe made' (30 m)", 'pending')).toBeVisible();
    expect(host.callsOf('retryEntry')).toEqual([['e-review']]);
  });

  it('discards an entry only once confirmed, and says so', async () => {
    const { screen, host } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    const waiting = entry(screen, "Edit site 'Waiting one'", 'pending');
    await waiting.getByRole('button', { name: 'Discard' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Discard this change?' });
    await expect.element(dialog.getByText("“Edit site 'Waiting one'” will not be sent.")).toBeVisible();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect.element(waiting).not.toBeInTheDocument();
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (1)' })).toBeVisible();
    await expect.element(screen.getByText('Discarded.')).toBeVisible();
    expect(host.callsOf('discardEntry')).toEqual([['e-pending']]);
  });

  it('says why, and shows the entry as it is now, when the host refuses a discard because it moved on', async () => {
    const { screen, host } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    // The sync engine took the entry meanwhile; the page has not heard yet.
    host.answer('discardEntry', async () => ({ ok: false as const, issues: [{ field: 'entryId', message: 'This change is being sent: it can no longer be discarded.' }] }));
    host.answer('getOutboxEntry', async (id) => ({ entries: [{ ...ENTRIES[3]!, id, state: 'sending' as const, revision: host.nextRevision() }], entriesRemoved: [], sites: [], sitesRemoved: [] }));
    await entry(screen, "Edit site 'Waiting one'", 'pending').getByRole('button', { name: 'Discard' }).click();
    await screen.getByRole('dialog', { name: 'Discard this change?' }).getByRole('button', { name: 'Discard' }).click();
    await expect.element(screen.getByText('This change is being sent: it can no longer be discarded.')).toBeVisible();
    await expect.element(entry(screen, "Edit site 'Waiting one'", 'sending')).toBeVisible();
  });

  it('marks a create as made with the site ID the user enters, and refuses a blank one', async () => {
    const { screen, host } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    await screen.getByRole('button', { name: 'It was created — enter its site ID' }).click();
    await screen.getByRole('button', { name: 'Confirm site ID' }).click();
    await expect.element(screen.getByText(/Enter the site ID the service gave this site/)).toBeVisible();
    expect(host.callsOf('resolveEntry')).toEqual([]);
    await screen.getByRole('textbox', { name: 'Site ID given by the service' }).fill('9876');
    await screen.getByRole('button', { name: 'Confirm site ID' }).click();
    await expect.element(screen.getByText('Marked as created with site ID 9876.')).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Done (2)' })).toBeVisible();
    expect(host.callsOf('resolveEntry')).toEqual([['e-review', '9876']]);
  });

  it('says whether a waiting EUS reprocess will email its recipients again, and offers no Edit for it', async () => {
    const { screen } = await renderWithHost(
      {
        entries: [
          entryView({ id: 'r1', kind: 'reprocess', localId: undefined, op: undefined, summary: 'Reprocess submission 77 into Multi Map 5, email resent', payload: { processId: '77', multiMapId: 5, sendEmail: true } }),
          entryView({ id: 'r2', kind: 'reprocess', localId: undefined, op: undefined, summary: 'Reprocess submission 78 into Multi Map 5', payload: { processId: '78', multiMapId: 5, sendEmail: false } }),
        ],
      },
      () => <OutboxPanel />,
    );
    const emailing = entry(screen, 'Reprocess submission 77 into Multi Map 5, email resent', 'pending');
    await expect.element(emailing.getByText('EUS reprocess')).toBeVisible();
    await expect.element(emailing.getByText("Will email the submission's recipients again when sent.")).toBeVisible();
    await expect.element(entry(screen, 'Reprocess submission 78 into Multi Map 5', 'pending').getByText('Sends no email.')).toBeVisible();
    await expect.element(emailing.getByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('opens the site form to edit a waiting change', async () => {
    const { screen, navigation } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    await entry(screen, "Edit site 'Waiting one'", 'pending').getByRole('button', { name: 'Edit' }).click();
    expect(navigation).toEqual([{ to: 'form', value: { mode: 'edit', localId: 'L1' } }]);
  });

  it('moves an entry between the groups as its events arrive', async () => {
    const { screen, host } = await renderWithHost({ entries: ENTRIES }, () => <OutboxPanel />);
    host.emit({ type: 'outbox', entry: { ...ENTRIES[4]!, state: 'done', result: 'Saved', updatedAt: '2026-01-01T00:02:00.000Z', revision: host.nextRevision() } });
    await expect.element(screen.getByRole('heading', { name: 'Waiting to send (1)' })).toBeVisible();
    await expect.element(screen.getByRole('heading', { name: 'Done (2)' })).toBeVisible();
  });

  it('shows the history a page at a time, newest first, asking the host for older pages', async () => {
    const done = Array.from({ length: 120 }, (_, i) =>
      entryView({ id: `d${String(i).padStart(3, '0')}`, state: 'done', summary: `Edit site 'Old ${i}'`, result: 'Saved', updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }),
    );
    const { screen, host } = await renderWithHost({ entries: done, historyPage: 50 }, () => <OutboxPanel />);
    await screen.getByText('Done (120)').click();
    const items = () => screen.getByRole('article', { name: /: done$/ }).elements().length;
    await expect.element(screen.getByText('Showing the latest 50 of 120.')).toBeVisible();
    expect(items()).toBe(50);
    await expect.element(screen.getByRole('article', { name: "Edit site 'Old 119': done" })).toBeVisible();
    await expect.element(screen.getByRole('article', { name: "Edit site 'Old 69': done" })).not.toBeInTheDocument();

    await screen.getByRole('button', { name: 'Show older' }).click();
    await expect.element(screen.getByText('Showing the latest 100 of 120.')).toBeVisible();
    await expect.element(screen.getByRole('article', { name: "Edit site 'Old 69': done" })).toBeVisible();
    expect(host.callsOf('listOutboxHistory')).toEqual([[{ before: 'd070', limit: 50 }]]);

    await screen.getByRole('button', { name: 'Show older' }).click();
    await expect.element(screen.getByRole('article', { name: "Edit site 'Old 0': done" })).toBeVisible();
    await expect.element(screen.getByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
    expect(items()).toBe(120);
  });

  it('names the site an edit is for when its summary gives only the service ID', async () => {
    const byId = entryView({ id: 'e-by-id', state: 'pending', kind: 'site', localId: 'L7', summary: 'Edit site 100023: 26 m' });
    const renamed = entryView({ id: 'e-renamed', state: 'pending', kind: 'site', localId: 'L8', summary: "Edit site 'Ridge North' [100024]: 30 m" });
    const { screen } = await renderWithHost(
      { entries: [byId, renamed], sites: [siteView({ localId: 'L7', siteId: '100023', name: 'Clyde Park' }), siteView({ localId: 'L8', siteId: '100024', name: 'Ridge North' })] },
      () => <OutboxPanel />,
    );
    await expect.element(entry(screen, 'Edit site 100023: 26 m', 'pending').getByText('Clyde Park', { exact: true })).toBeVisible();
    // A summary that already names the site says it once.
    await expect.element(entry(screen, "Edit site 'Ridge North' [100024]: 30 m", 'pending')).toBeVisible();
    expect(entry(screen, "Edit site 'Ridge North' [100024]: 30 m", 'pending').getByText('Ridge North', { exact: true }).elements()).toEqual([]);
  });

  it('keeps "Sync now" on one line in the sidebar at 1024×640', async () => {
    await page.viewport(1024, 640);
    // The sidebar's panel is 358 px wide at 1024×640.
    const { screen } = await renderWithHost({ entries: ENTRIES }, () => (
      <div style={{ width: '358px' }}>
        <OutboxPanel />
      </div>
    ));
    const button = screen.getByRole('button', { name: 'Sync now' });
    await expect.element(button).toBeVisible();
    // It shared the Sites panel's four-column grid, got a quarter of the width and broke as "Sync / now".
    const range = document.createRange();
    range.selectNodeContents(button.element());
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    expect(lines).toBe(1);
  });
});

afterEach(async () => {
  await page.viewport(1280, 720);
});
