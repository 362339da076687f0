// The map's right-click menu offers "Download this area…" whatever the basemap: usable when the
// basemap allows it, and otherwise disabled with the reason beside it (a file is offline already, a
// server's terms forbid it), still reachable with the arrow keys so the reason is read out.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { BasemapView } from '../../electron/shared/contract/index';
import { BasemapControls } from '../../renderer/src/features/basemaps';
import { renderWithHost } from './support/shell';
import { TestMap } from './support/test-map';
import { applyBasemaps } from '../../renderer/src/features/basemaps/basemaps-slice';

function MapOnly() {
  // The download dialog is the basemaps feature's: the shell wires it to the map as App does.
  const [downloadOpen, setDownloadOpen] = useState(false);
  return (
    <div style={{ width: 800, height: 500, position: 'relative' }}>
      <TestMap
        onDownloadArea={() => setDownloadOpen(true)}
        controls={(map) => <BasemapControls map={map} downloadOpen={downloadOpen} onDownloadOpen={setDownloadOpen} />}
      />
    </div>
  );
}

const SERVER: BasemapView = {
  id: 'custom-1',
  name: 'Our tiles',
  kind: 'custom',
  template: 'https://tiles.example.net/{z}/{x}/{y}.png',
  attribution: 'Ours',
  minZoom: 0,
  maxZoom: 18,
  bounds: null,
  fileName: null,
  sizeBytes: null,
  allowsDownload: true,
  downloadRefusal: null,
  active: true,
  problem: null,
};

/** A right click in the middle of the map, as Leaflet hears it. */
function rightClickMap(): void {
  const map = document.querySelector<HTMLElement>('[data-testid="map"]')!;
  const box = map.getBoundingClientRect();
  map.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }));
}

async function openMenuWith(basemap: BasemapView) {
  const rendered = await renderWithHost({}, () => <MapOnly />);
  applyBasemaps(rendered.host.store, [basemap]);
  // Leaflet hears a right click only once it has mounted the map.
  await expect.poll(() => document.querySelector('[data-testid="map"].leaflet-container'), { message: 'the map mounted' }).not.toBeNull();
  rightClickMap();
  const menu = rendered.screen.getByRole('menu', { name: 'Map actions' });
  await expect.element(menu).toBeVisible();
  return { ...rendered, menu, item: menu.getByRole('menuitem', { name: /^Download this area…/ }) };
}

describe("the map's right-click menu", () => {
  it('offers "Download this area…" when the basemap allows it, and opens the download', async () => {
    const { screen, item } = await openMenuWith(SERVER);
    await expect.element(item).not.toHaveAttribute('aria-disabled');
    await item.click();
    await expect.element(screen.getByRole('dialog', { name: 'Download this area' })).toBeVisible();
  });

  it('shows it disabled with the server\'s reason when its terms do not allow downloads, and reachable by the arrow keys', async () => {
    const reason = 'This server is not marked as allowing downloads; check its terms and mark it in Settings → Basemaps.';
    const { screen, item } = await openMenuWith({ ...SERVER, allowsDownload: false, downloadRefusal: reason });
    await expect.element(item).toHaveAttribute('aria-disabled', 'true');
    await expect.element(item).toHaveAccessibleDescription(reason);
    await expect.element(item.getByText(reason)).toBeVisible();
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(item).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Download this area' }).query()).toBeNull();
  });

  it('says a file basemap is offline already', async () => {
    const { item } = await openMenuWith({ ...SERVER, kind: 'mbtiles', template: null, fileName: 'area.mbtiles', sizeBytes: 1024, downloadRefusal: null });
    await expect.element(item).toHaveAttribute('aria-disabled', 'true');
    await expect.element(item).toHaveAccessibleDescription('This basemap is a file, so it is offline already.');
  });
});
