// The top bar says whether the service can be reached and how much is waiting, in words beside each
// picture; the banners under it say what stops all sending. Rendered in Chromium, fed by the store.
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Banners, StatusBar } from '../../renderer/src/features/status/status-bar';
import { PROFILE, renderWithHost, statusView } from './support/shell';

const bar = (hostDown = false) => () => (
  <>
    <StatusBar hostDown={hostDown} />
    <Banners hostLink={hostDown ? { state: 'gone', message: 'gone' } : { state: 'ok' }} />
  </>
);

/** What a screen reader reads of an element: its text without what is hidden from it (aria-hidden). */
function readOut(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

/** Whether an element shows all of its text: nothing cut by an ellipsis or its box. */
function wholeTextShown(element: HTMLElement): boolean {
  return element.scrollWidth <= element.clientWidth && element.getBoundingClientRect().width > 0;
}

const error = (message: string) => ({ message, at: new Date().toISOString() });
const inFortySeconds = () => new Date(Date.now() + 40_000).toISOString();

/** Every state the connection pill shows: its word, and the start of the sentence read out. */
const PILL_STATES = [
  { state: 'checking', word: 'Checking…', sentence: /^Checking the service…$/, status: { connection: { state: 'checking' as const, lastError: null, nextTryAt: null } } },
  { state: 'online', word: 'Online', sentence: /^Online$/, status: {} },
  { state: 'sending', word: 'Sending', sentence: /^Online · sending$/, status: { syncing: true } },
  {
    state: 'not answering',
    word: 'Unavailable',
    sentence: /^Service not answering — changes are kept\. The service answered 503\.$/,
    status: { connection: { state: 'not-answering' as const, lastError: error('The service answered 503.'), nextTryAt: inFortySeconds() } },
  },
  {
    state: 'offline',
    word: 'Offline',
    sentence: /^Offline — changes are kept and sent later\. No network\.$/,
    status: { online: false, connection: { state: 'offline' as const, lastError: error('No network.'), nextTryAt: null } },
  },
  {
    state: 'paused',
    word: 'Paused',
    sentence: /^Paused: sending waits because the account has no API calls left\./,
    status: { paused: { reason: 'quota' as const, message: 'No calls left this month.', since: new Date().toISOString() } },
  },
];

describe('the status bar', () => {
  afterEach(() => page.viewport(1280, 720));

  it('says online, how many changes wait and when the last sync was', async () => {
    const { screen } = await renderWithHost({ status: { pendingCount: 3, lastSyncAt: new Date(Date.now() - 5 * 60_000).toISOString() } }, bar());
    await expect.element(screen.getByText('Online')).toBeVisible();
    await expect.element(screen.getByRole('button', { name: '3 waiting' })).toBeVisible();
    await expect.element(screen.getByText(/Last sync 5 min/)).toBeVisible();
    await expect.element(screen.getByText(/need attention/)).not.toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled();
  });

  it('says offline, and that changes are kept', async () => {
    const { screen } = await renderWithHost({ status: { online: false, connection: { state: 'offline', lastError: { message: 'No network.', at: new Date().toISOString() }, nextTryAt: null } } }, bar());
    const pill = screen.getByTestId('connection');
    await expect.element(pill.getByText('Offline', { exact: true })).toBeVisible();
    expect(readOut(pill.element())).toMatch(/^Offline — changes are kept and sent later\. No network\./);
    await expect.element(screen.getByText('Online')).not.toBeInTheDocument();
  });

  it('tells a service that does not answer from being offline, with when it is tried next', async () => {
    const nextTryAt = new Date(Date.now() + 40_000).toISOString();
    const { screen } = await renderWithHost({ status: { connection: { state: 'not-answering', lastError: { message: 'The service answered 503.', at: new Date().toISOString() }, nextTryAt } } }, bar());
    const pill = screen.getByTestId('connection');
    await expect.element(pill.getByText('Unavailable')).toBeVisible();
    // The sentence is what a screen reader reads; the tooltip adds when it is tried next and when it failed.
    expect(readOut(pill.element())).toBe('Service not answering — changes are kept. The service answered 503.');
    expect(pill.element().getAttribute('title')).toMatch(/^Service not answering; next try in \d+ s — changes are kept\. The service answered 503\. \(/);
    await expect.element(screen.getByText(/Offline/)).not.toBeInTheDocument();
  });

  for (const [width, height] of [
    [1366, 768],
    [1024, 640],
  ] as const) {
    it(`stays one line at ${width}×${height} with the service not answering, changes waiting and one needing attention`, async () => {
      await page.viewport(width, height);
      const connection = { state: 'not-answering' as const, lastError: { message: 'The service answered 503.', at: new Date().toISOString() }, nextTryAt: new Date(Date.now() + 40_000).toISOString() };
      // The queue is held meanwhile (one entry at a time tries the service): the pill says so, the bar does not say it twice.
      const blocked = { reason: 'unavailable' as const, message: 'The service says it cannot take requests now (HTTP 503). Sitewalk holds the queue and tries one entry at a time until it answers again; nothing is lost.' };
      const { screen } = await renderWithHost({ status: { connection, blocked, pendingCount: 1, attentionCount: 1, lastSyncAt: new Date(Date.now() - 120_000).toISOString() } }, bar());
      await expect.element(screen.getByText('Unavailable')).toBeVisible();
      expect(screen.getByTestId('blocked').query()).toBeNull();
      const header = screen.getByRole('banner').element() as HTMLElement;
      const top = header.getBoundingClientRect().top;
      // Under a 503 the bar took two lines at 1366×768 and three at 1024×640, pushing the map down.
      const items = [...header.querySelectorAll<HTMLElement>(':scope > *, .status-items > *, button')].filter((el) => el.offsetParent !== null);
      for (const el of items) expect(el.getBoundingClientRect().top - top, `"${el.textContent}" on the first line at ${width}×${height}`).toBeLessThan(20);
      expect(header.getBoundingClientRect().right).toBeLessThanOrEqual(width);
      // What a short line leaves out is still there: in the tooltip, and read out in full.
      await expect.element(screen.getByRole('button', { name: '1 waiting' })).toBeVisible();
      await expect.element(screen.getByRole('button', { name: '1 needs attention' })).toBeVisible();
      expect(screen.getByTestId('connection').element().getAttribute('title')).toMatch(/The service answered 503\./);
      expect(screen.getByTestId('last-sync').element().getAttribute('title')).toMatch(/^Last sync 2 min/);
    });
  }

  describe('at 1024×640, with thousands waiting, hundreds needing attention and a long profile name', () => {
    afterEach(() => page.viewport(1280, 720));
    const many = { pendingCount: 12_345, attentionCount: 123, lastSyncAt: new Date(Date.now() - 120_000).toISOString() };
    const longName = [{ ...PROFILE, name: 'North Ridge field crew, second shift' }];

    for (const { state, word, sentence, status } of PILL_STATES) {
      it(`shows the pill's whole word when ${state}, with the whole sentence read out and in its tooltip`, async () => {
        await page.viewport(1024, 640);
        const { screen } = await renderWithHost({ status: { ...many, ...status }, profiles: longName }, bar());
        const pill = screen.getByTestId('connection');
        const shown = pill.getByText(word, { exact: true });
        await expect.element(shown).toBeVisible();
        // Under a 503 it was cut to "Servic…".
        expect(wholeTextShown(shown.element() as HTMLElement), `"${word}" shown whole`).toBe(true);
        expect(wholeTextShown(pill.element() as HTMLElement)).toBe(true);
        expect(readOut(pill.element())).toMatch(sentence);
        // The tooltip says the same, and may add the times a live region must not re-read at every tick.
        const said = readOut(pill.element());
        if (said !== word) expect(pill.element().getAttribute('title')?.replace(/; next try [^—]*(?= —)/, '').replace(/ \([^)]*\)$/, '')).toBe(said);
        // Nothing beside it is pushed over it or out of the bar.
        const header = screen.getByRole('banner').element();
        expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth);
        const right = pill.element().getBoundingClientRect().right;
        expect(screen.getByRole('button', { name: '12,345 waiting' }).element().getBoundingClientRect().left).toBeGreaterThan(right);
        const toggle = screen.getByTestId('theme-toggle').element().getBoundingClientRect();
        expect(screen.getByRole('button', { name: '123 need attention' }).element().getBoundingClientRect().right).toBeLessThanOrEqual(toggle.left);
        // The theme button shows its disc alone here; its words are still its name.
        await expect.element(screen.getByRole('button', { name: /^Theme: / })).toBeVisible();
      });
    }

    it('shows "Sitewalk stopped" whole when Sitewalk itself is gone', async () => {
      await page.viewport(1024, 640);
      const { screen } = await renderWithHost({ status: many, profiles: longName }, bar(true));
      const pill = screen.getByTestId('connection');
      await expect.element(pill.getByText('Sitewalk stopped', { exact: true })).toBeVisible();
      expect(wholeTextShown(pill.element() as HTMLElement)).toBe(true);
      expect(readOut(pill.element())).toMatch(/^Sitewalk stopped: this page cannot save or send anything until it runs again\.$/);
    });
  });

  it('says paused, with a banner that names the empty quota and a way to try again', async () => {
    const paused = { reason: 'quota' as const, message: 'The account has used its API calls for this month.', since: new Date().toISOString() };
    const { screen, host } = await renderWithHost({ status: { paused } }, bar());
    await expect.element(screen.getByText('Paused', { exact: true })).toBeVisible();
    const banner = screen.getByRole('alert').filter({ hasText: 'Sending is paused: the account has no API calls left.' });
    await expect.element(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Try again' }).click();
    // "Try again" is Sync now, which lifts the pause; the bar shows the answer at once.
    await expect.poll(() => host.callsOf('syncNow').length).toBe(1);
    await expect.element(screen.getByText('Online')).toBeVisible();
    await expect.element(banner).not.toBeInTheDocument();
  });

  it('sends a rejected key to the profile, from the paused banner', async () => {
    const paused = { reason: 'auth' as const, message: 'The service refused the API key.', since: new Date().toISOString() };
    const { screen, navigation } = await renderWithHost({ status: { paused } }, bar());
    await screen.getByRole('button', { name: 'Check profile' }).click();
    expect(navigation).toEqual([{ to: 'panel', value: ['settings', PROFILE.id] }]);
  });

  it('counts what needs attention, in the singular and the plural, and follows status events', async () => {
    const { screen, host } = await renderWithHost({ status: { attentionCount: 1 } }, bar());
    await expect.element(screen.getByRole('button', { name: '1 needs attention' })).toBeVisible();
    host.emit({ type: 'status', status: statusView({ attentionCount: 2, pendingCount: 7, revision: host.nextRevision() }) });
    await expect.element(screen.getByRole('button', { name: '2 need attention' })).toBeVisible();
    await expect.element(screen.getByRole('button', { name: '7 waiting' })).toBeVisible();
    // A late answer older than the event never takes the bar back.
    host.store.applyStatus(statusView({ attentionCount: 1, revision: 2 }));
    await expect.element(screen.getByRole('button', { name: '2 need attention' })).toBeVisible();
  });

  it('opens the outbox from the counts', async () => {
    const { screen, navigation } = await renderWithHost({ status: { pendingCount: 2 } }, bar());
    await screen.getByRole('button', { name: '2 waiting' }).click();
    expect(navigation).toEqual([{ to: 'panel', value: 'outbox' }]);
  });

  it('holds Sync now back while a sync runs', async () => {
    const { screen } = await renderWithHost({ status: { syncing: true } }, bar());
    await expect.element(screen.getByRole('button', { name: 'Syncing…' })).toBeDisabled();
    await expect.element(screen.getByText('Sending', { exact: true })).toBeVisible();
    expect(readOut(screen.getByTestId('connection').element())).toBe('Online · sending');
  });

  it('says Sitewalk has stopped when its host is gone, and no longer says online', async () => {
    const { screen } = await renderWithHost({}, bar(true));
    await expect.element(screen.getByTestId('connection')).toHaveTextContent('Sitewalk stopped');
    await expect.element(screen.getByText('Sitewalk has stopped.')).toBeVisible();
    await expect.element(screen.getByText('Online')).not.toBeInTheDocument();
  });

  it('says the service is being checked before anything is known of it', async () => {
    const { screen } = await renderWithHost({ status: { connection: { state: 'checking', lastError: null, nextTryAt: null } } }, bar());
    await expect.element(screen.getByText('Checking…')).toBeVisible();
    expect(readOut(screen.getByTestId('connection').element())).toBe('Checking the service…');
    await expect.element(screen.getByText('Not synced yet')).toBeVisible();
  });

  it("says when Sitewalk's background service cannot be reached, and loads everything on Try again", async () => {
    const { screen, host } = await renderWithHost({ status: { pendingCount: 4 } }, bar());
    host.answer('getStatus', async () => {
      throw new Error('Nothing answers on 127.0.0.1.');
    });
    await host.store.start();
    const banner = screen.getByRole('alert').filter({ hasText: "Sitewalk's background service cannot be reached." });
    await expect.element(banner).toHaveTextContent(/Nothing answers on 127\.0\.0\.1\./);
    host.answer('getStatus', async () => statusView({ pendingCount: 5, revision: host.nextRevision() }));
    await banner.getByRole('button', { name: 'Try again' }).click();
    await expect.element(banner).not.toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: '5 waiting' })).toBeVisible();
  });

  it('asks for the API key of a profile that has none', async () => {
    const { screen, navigation } = await renderWithHost({ profiles: [{ ...PROFILE, hasKey: false }] }, bar());
    await expect.element(screen.getByText(`No API key for ${PROFILE.name}.`)).toBeVisible();
    await screen.getByRole('button', { name: 'Enter API key' }).click();
    expect(navigation).toEqual([{ to: 'panel', value: ['settings', PROFILE.id] }]);
  });

  it('says what "Sync now" found once its try is answered, when the service is still away', async () => {
    const held = {
      blocked: { reason: 'unavailable' as const, message: 'The service says it cannot take requests now (HTTP 503).' },
      connection: { state: 'not-answering' as const, lastError: error('HTTP 503 Service Unavailable'), nextTryAt: inFortySeconds() },
    };
    const { screen, host } = await renderWithHost({ status: held }, bar());
    await screen.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => host.callsOf('syncNow').length, { message: 'Sync now asked' }).toBe(1);
    // Nothing is said before the try is answered; then the service is still away.
    expect(screen.getByText(/^Tried now/).query()).toBeNull();
    host.emit({ type: 'status', status: statusView({ ...held, revision: 10_000 }) });
    await expect.element(screen.getByText(/^Tried now: the service still says it is unavailable; next try in \d+ s\. Changes are kept\.$/)).toBeVisible();
  });
});
