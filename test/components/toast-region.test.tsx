// Messages (toasts) never over the map: at 1366×768 and 1024×640 the Sandbox's welcome sits over the
// sidebar's foot, clear of the map, where App puts the map (right of the sidebar); a press anywhere
// on the map — beside the message too — is the map's; the region is a polite live region that stays
// in the page, so every message is read out; and a message can be dismissed. A message stays while
// it is being read (pointer on it, focus in it) and goes its time after; the sidebar's panel leaves
// room under its end, so a card's buttons under a message can be brought above it.
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { OutboxPanel } from '../../renderer/src/features/outbox/outbox-panel';
import { RESUME_MIN_MS, TOAST_MS, ToastRegion, useToasts } from '../../renderer/src/shared/ui/toast';
import { useUi, type Ui } from '../../renderer/src/shared/ui/ui-context';
import { entryView, renderWithHost, siteView } from './support/shell';
import { mapElement, TestMap } from './support/test-map';
import { waiting } from '../support/wait';

const WELCOME = 'You are using the Sandbox: a practice service on this computer with demo sites. Nothing is sent anywhere else.';

/** The shell's layout in short: the map takes the window right of the sidebar, as in App. */
function MapBesideSidebar() {
  const ui = useUi();
  useEffect(() => ui.toast(WELCOME, { tone: 'info' }), [ui]);
  return (
    <main className="map-area" style={{ position: 'fixed', top: 0, bottom: 0, left: 'var(--sidebar)', right: 0 }}>
      <TestMap />
    </main>
  );
}

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** Whether what a press at (x, y) lands on belongs to the map. */
function pressReachesMap(x: number, y: number): boolean {
  return mapElement().contains(document.elementFromPoint(x, y));
}

afterEach(async () => {
  vi.useRealTimers();
  await page.viewport(1280, 720);
});

/** The app's messages as App has them (their timers, their hold), with `toast` handed to the test. */
async function renderMessages() {
  let toast: Ui['toast'] | null = null;
  function Messages() {
    const messages = useToasts();
    toast = messages.toast;
    return <ToastRegion toasts={messages.toasts} dismiss={messages.dismiss} onHold={messages.hold} />;
  }
  const screen = await render(
    <>
      <button type="button">Elsewhere</button>
      <Messages />
    </>,
  );
  await vi.waitFor(() => expect(toast).not.toBeNull(), waiting('the toast'));
  // The pointer starts off the messages (an earlier test may have left it where they appear).
  await userEvent.hover(screen.getByRole('button', { name: 'Elsewhere' }));
  return { screen, toast: toast! };
}

/** Moves the test's clock on, and lets the page draw what follows. */
async function wait(ms: number) {
  vi.advanceTimersByTime(ms);
  await new Promise((resolve) => requestAnimationFrame(resolve));
}

describe('a message', () => {
  for (const [width, height] of [
    [1366, 768],
    [1024, 640],
  ] as const) {
    it(`at ${width}×${height} stays clear of the map, and every press on the map beside it is the map's`, async () => {
      await page.viewport(width, height);
      const { screen } = await renderWithHost({ sites: [siteView({ localId: 'L1', name: 'Ridge', latitude: 45.5, longitude: -111 })] }, () => <MapBesideSidebar />);
      await expect.element(screen.getByText(WELCOME)).toBeVisible();
      const toast = document.querySelector('.toast')!.getBoundingClientRect();
      const map = mapElement().getBoundingClientRect();
      expect(map.width).toBeGreaterThan(width / 2);
      expect(map.height).toBeGreaterThan(height / 2);
      expect(overlaps(toast, map)).toBe(false);
      expect(toast.bottom).toBeLessThanOrEqual(height);
      // Level with the message, right of the map's own corner stack (the coordinates), and at the
      // map's left edge just above that stack: the map's surface.
      const corner = document.querySelector('.map-stack-left')!.getBoundingClientRect();
      expect(pressReachesMap(corner.right + 8, (toast.top + toast.bottom) / 2)).toBe(true);
      expect(pressReachesMap(map.left + 8, corner.top - 8)).toBe(true);
      // The region itself takes no presses: above the message, what is under it gets them.
      const region = document.querySelector('.toasts')!.getBoundingClientRect();
      expect(document.elementFromPoint(region.left + 20, toast.top - 4)?.closest('.toasts')).toBeNull();
    });
  }

  it('is read out from a polite status region that stays in the page, and goes when dismissed', async () => {
    const { screen } = await renderWithHost({ sites: [] }, () => <MapBesideSidebar />);
    const region = screen.getByRole('status');
    await expect.element(region).toHaveAttribute('aria-live', 'polite');
    await expect.element(region).toHaveTextContent(WELCOME);
    await screen.getByRole('button', { name: 'Dismiss message' }).click();
    await expect.element(screen.getByText(WELCOME)).not.toBeInTheDocument();
    // Still there, empty: the next message is added to a region the screen reader already follows.
    expect(document.querySelector('.toasts[role="status"][aria-live="polite"]')).not.toBeNull();
  });

  describe('while it is being read', () => {
    const SAVED = "Saved 'North Ridge'. It is sent when the service answers.";

    it('goes after its time when nobody is on it', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { screen, toast } = await renderMessages();
      toast(SAVED, { tone: 'success' });
      await expect.element(screen.getByText(SAVED)).toBeVisible();
      await wait(TOAST_MS - 100);
      await expect.element(screen.getByText(SAVED)).toBeVisible();
      await wait(200);
      await expect.element(screen.getByText(SAVED)).not.toBeInTheDocument();
    });

    it('stays while the pointer rests on it, and goes a few seconds after the pointer leaves', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { screen, toast } = await renderMessages();
      toast(SAVED, { tone: 'success' });
      await wait(TOAST_MS - 500);
      await userEvent.hover(screen.getByText(SAVED));
      // Long past its time: a crew reading it with a finger on it keeps it.
      await wait(TOAST_MS * 4);
      await expect.element(screen.getByText(SAVED)).toBeVisible();
      await userEvent.hover(screen.getByRole('button', { name: 'Elsewhere' }));
      // It had half a second left; it gets a few seconds, not a blink.
      await wait(RESUME_MIN_MS - 200);
      await expect.element(screen.getByText(SAVED)).toBeVisible();
      await wait(400);
      await expect.element(screen.getByText(SAVED)).not.toBeInTheDocument();
    });

    it('stays while focus is in it, with every message of the stack, and goes after focus leaves', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { screen, toast } = await renderMessages();
      toast('Older message.', { tone: 'info' });
      await wait(1_000);
      toast(SAVED, { tone: 'success', action: { label: 'Undo', run: () => undefined } });
      // Focus on the newer message's Undo: the older one above it waits too, so nothing moves.
      await expect.element(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
      (screen.getByRole('button', { name: 'Undo' }).element() as HTMLElement).focus();
      await wait(TOAST_MS * 4);
      await expect.element(screen.getByText('Older message.')).toBeVisible();
      await expect.element(screen.getByText(SAVED)).toBeVisible();
      (screen.getByRole('button', { name: 'Elsewhere' }).element() as HTMLElement).focus();
      // The older one had 7 s left, the newer one (with an action) its 16 s.
      await wait(TOAST_MS - 1_000 + 100);
      await expect.element(screen.getByText('Older message.')).not.toBeInTheDocument();
      await expect.element(screen.getByText(SAVED)).toBeVisible();
      await wait(TOAST_MS * 2);
      await expect.element(screen.getByText(SAVED)).not.toBeInTheDocument();
    });

    it('is dismissed at once while the pointer is on it, and the hold ends with it', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { screen, toast } = await renderMessages();
      toast(SAVED, { tone: 'success' });
      await userEvent.hover(screen.getByText(SAVED));
      await screen.getByRole('button', { name: 'Dismiss message' }).click();
      await expect.element(screen.getByText(SAVED)).not.toBeInTheDocument();
      // Taken away under the pointer, it never heard the pointer leave: the hold ends all the same.
      await userEvent.hover(screen.getByRole('button', { name: 'Elsewhere' }));
      toast('Next message.', { tone: 'info' });
      await wait(TOAST_MS + 100);
      await expect.element(screen.getByText('Next message.')).not.toBeInTheDocument();
    });
  });

  it("at 1024×640 leaves room under the outbox's last card, whose buttons come clear of the message by scrolling or by Tab", async () => {
    await page.viewport(1024, 640);
    const problem = { kind: 'fault', message: 'The service refused the height.', detail: 'HTTP 500' };
    const entries = Array.from({ length: 2 }, (_, i) =>
      entryView({ id: `e${i}`, localId: `L${i}`, state: 'failed', summary: `Edit site 'Ridge ${i + 1}'`, attempts: 1, problem, createdAt: `2026-01-01T00:00:0${i}.000Z` }),
    );
    function Sidebar() {
      const ui = useUi();
      useEffect(() => {
        ui.toast(WELCOME, { tone: 'info' });
        ui.toast('That did not work: Sitewalk did not answer in time. Try again in a moment.', { tone: 'error' });
      }, [ui]);
      // Below the top bar and the tabs, as in App.
      return (
        <aside className="sidebar" style={{ position: 'fixed', top: 90, bottom: 0, left: 0 }}>
          <div className="panel" role="region" aria-label="Outbox">
            <OutboxPanel />
          </div>
        </aside>
      );
    }
    const { screen } = await renderWithHost({ entries }, () => <Sidebar />);
    await expect.element(screen.getByText(WELCOME)).toBeVisible();
    // The top of the stack: two messages take the sidebar's foot up to the second card's buttons.
    const message = () => document.querySelector('.toast')!.getBoundingClientRect();
    const panel = screen.getByRole('region', { name: 'Outbox' }).element() as HTMLElement;
    const last = screen.getByRole('article', { name: "Edit site 'Ridge 1': failed" });
    const discard = last.getByRole('button', { name: 'Discard' });
    await expect.element(discard).toBeInTheDocument();
    // Scrolled to its end, the panel shows the last card's buttons above the message.
    await vi.waitFor(() => {
      panel.scrollTop = panel.scrollHeight;
      expect(discard.element().getBoundingClientRect().bottom).toBeLessThanOrEqual(message().top);
    }, waiting('the last card clear of the message'));
    // From the top, Tab to them: the panel scrolls them clear of the message, not just into the window.
    panel.scrollTop = 0;
    (last.getByRole('button', { name: 'Retry' }).element() as HTMLElement).focus();
    await userEvent.tab();
    await userEvent.tab();
    await expect.element(discard).toHaveFocus();
    expect(discard.element().getBoundingClientRect().bottom).toBeLessThanOrEqual(message().top);
  });
});
