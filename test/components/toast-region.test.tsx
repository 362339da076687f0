// Messages (toasts) never over the map: at 1366×768 and 1024×640 the Sandbox's welcome sits over the
// sidebar's foot, clear of the map, where App puts the map (right of the sidebar); a press anywhere
// on the map — beside the message too — is the map's; the region is a polite live region that stays
// in the page, so every message is read out; and a message can be dismissed.
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { useUi } from '../../renderer/src/shared/ui/ui-context';
import { renderWithHost, siteView } from './support/shell';
import { mapElement, TestMap } from './support/test-map';

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
  await page.viewport(1280, 720);
});

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
});
