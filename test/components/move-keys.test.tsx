// Moving a site from the keyboard, on the real map: in move mode the arrow keys nudge the pin by a
// step that follows the zoom (Shift: further), Enter asks the same confirmation as a drag and queues
// the move, Esc puts the pin back; outside move mode the arrows are the map's own panning again.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { useUi } from '../../renderer/src/shared/ui/ui-context';
import { useMoveWithUndo } from '../../renderer/src/features/sites/use-move-with-undo';
import { InteractionStore } from '../../renderer/src/map/tools/interaction-store';
import { distanceMeters } from '../../renderer/src/shared/format';
import { renderWithHost, siteView } from './support/shell';
import { TestMap } from './support/test-map';

const RIDGE = siteView({ localId: 'L1', name: 'Ridge', height: 30, latitude: 40.5, longitude: -80.25 });
const VALLEY = siteView({ localId: 'L2', name: 'Valley', height: 20, latitude: 40.52, longitude: -80.2 });

/** App's wiring of move mode to the map, with the hint's words and the map's zoom readable. */
function MapHarness() {
  const ui = useUi();
  // One interaction for move mode and the map, as App has.
  const [interaction] = useState(() => new InteractionStore());
  const move = useMoveWithUndo(ui, { interaction });
  return (
    <div style={{ width: 800, height: 500, display: 'flex', flexDirection: 'column' }}>
      <button type="button" onClick={() => move.startMove('L1')}>
        Move Ridge
      </button>
      <p>{move.mode.phase === 'armed' ? (move.nudgedMeters === null ? 'Not nudged' : `Nudged ${move.nudgedMeters.toFixed(1)} m`) : 'Not moving'}</p>
      <p data-testid="preview">{move.preview ? `${move.preview.lat},${move.preview.lng}` : ''}</p>
      <div style={{ position: 'relative', flex: 1 }}>
        <TestMap
          selectedId="L1"
          interaction={interaction}
          movePreview={move.preview}
          onDrop={(id, lat, lng) => void move.moveSite(id, lat, lng)}
          onNudge={move.nudge}
          onStartMove={(id) => move.startMove(id)}
        />
      </div>
    </div>
  );
}

const setup = () => renderWithHost({ sites: [RIDGE, VALLEY] }, () => <MapHarness />);

function previewAt(): { lat: number; lng: number } | null {
  const text = document.querySelector('[data-testid="preview"]')?.textContent ?? '';
  if (!text) return null;
  const [lat, lng] = text.split(',').map(Number);
  return { lat: lat!, lng: lng! };
}

/** The scale bar's words: they change with the zoom. */
function scaleText(): string {
  return [...document.querySelectorAll('.leaflet-control-scale-line')].map((el) => el.textContent).join(' ');
}

/** The map has stopped moving (its first fit to the sites, a zoom). */
async function mapStill(): Promise<void> {
  await expect.poll(() => document.querySelector<HTMLElement>('[data-testid="map"]')?.dataset['moving'] ?? '0').not.toBe('1');
  await expect.poll(() => document.querySelector('.leaflet-zoom-anim')).toBeNull();
}

describe('moving a site with the keyboard', () => {
  it('nudges the pin with the arrow keys by a step that follows the zoom, farther with Shift, and Enter asks before queueing', async () => {
    const { screen, host } = await setup();
    await mapStill();
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await expect.element(screen.getByText('Not nudged')).toBeVisible();

    await userEvent.keyboard('{ArrowRight}');
    await expect.poll(previewAt).not.toBeNull();
    const one = previewAt()!;
    expect(one.lat).toBeCloseTo(RIDGE.latitude!, 6);
    expect(one.lng).toBeGreaterThan(RIDGE.longitude!);
    const small = distanceMeters(RIDGE.latitude!, RIDGE.longitude!, one.lat, one.lng);
    expect(small).toBeGreaterThan(0);

    await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}');
    await expect.poll(() => previewAt()!.lng).toBeGreaterThan(one.lng);
    const two = previewAt()!;
    // Shift's step is ten times the plain one (east–west, degrees of longitude are in proportion to pixels).
    const plainStep = one.lng - RIDGE.longitude!;
    expect((two.lng - one.lng) / plainStep).toBeCloseTo(10, 3);
    expect(two.lat).toBeCloseTo(one.lat, 9);

    // Zoomed in by two (the map's own "+" key), the same key moves the pin a quarter as far.
    (document.querySelector('[data-testid="map"]') as HTMLElement).focus();
    for (let i = 0; i < 2; i++) {
      const scale = scaleText();
      await userEvent.keyboard('+');
      await expect.poll(scaleText).not.toBe(scale);
      await mapStill();
    }
    await userEvent.keyboard('{ArrowLeft}');
    await expect.poll(() => previewAt()!.lng).toBeLessThan(two.lng);
    const three = previewAt()!;
    expect((two.lng - three.lng) / plainStep).toBeCloseTo(0.25, 4);

    expect(host.callsOf('saveSite')).toEqual([]);
    await userEvent.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Move Ridge?' });
    await expect.element(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Move site' }).click();
    await expect.element(screen.getByText('Moved Ridge.')).toBeVisible();
    expect(host.callsOf('saveSite')).toHaveLength(1);
    const saved = host.callsOf('saveSite')[0]![0] as { latitude: number; longitude: number };
    expect(saved.latitude).toBeCloseTo(three.lat, 5);
    expect(saved.longitude).toBeCloseTo(three.lng, 5);
    await expect.element(screen.getByText('Not moving')).toBeVisible();
  });

  it('puts the pin back with Esc and moves nothing', async () => {
    const { screen, host } = await setup();
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    await expect.element(screen.getByText(/^Nudged \d/)).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(screen.getByText('Not moving')).toBeVisible();
    expect(previewAt()).toBeNull();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog').query()).toBeNull();
    expect(host.callsOf('saveSite')).toEqual([]);
  });

  it('leaves Enter to the focused control until the pin has been nudged, and the arrows to the map outside move mode', async () => {
    const { screen, host } = await setup();
    const pane = () => (document.querySelector('.leaflet-map-pane') as HTMLElement | null)?.style.transform ?? '';
    // Outside move mode, the arrows on the focused map pan it (Leaflet's keyboard) and move no pin.
    await expect.poll(() => document.querySelector('.leaflet-container'), { message: 'the map mounted' }).not.toBeNull();
    (document.querySelector('.leaflet-container') as HTMLElement).focus();
    const before = pane();
    await userEvent.keyboard('{ArrowRight}');
    await expect.poll(pane).not.toBe(before);
    expect(previewAt()).toBeNull();

    // In move mode, Enter on the focused Move button before any nudge is the button's (a second press).
    await screen.getByRole('button', { name: 'Move Ridge' }).click();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog').query()).toBeNull();
    expect(host.callsOf('saveSite')).toEqual([]);
  });
});
