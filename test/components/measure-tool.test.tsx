// The measure tool on the real map: while it is the active tool the map's clicks are its points (a
// line between two, with the distance and bearing said in words), Esc clears the points and a second
// Esc leaves the tool; starting add-site mode ends it, since one tool at a time has the clicks.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { InteractionStore, useInteraction } from '../../renderer/src/map/tools/interaction-store';
import { renderWithHost, siteView } from './support/shell';
import { mapElement, TestMap } from './support/test-map';

const RIDGE = siteView({ localId: 'L1', name: 'Ridge', height: 30, latitude: 40.5, longitude: -80.25 });
const VALLEY = siteView({ localId: 'L2', name: 'Valley', height: 20, latitude: 40.52, longitude: -80.2 });

function MapWithTools({ picks }: { picks: string[] }) {
  const [interaction] = useState(() => new InteractionStore());
  const tool = useInteraction(interaction, (s) => s.tool.id);
  return (
    <div style={{ width: 800, height: 500, display: 'flex', flexDirection: 'column' }}>
      <button type="button" onClick={() => interaction.dispatch({ type: 'start-add', purpose: 'new' })}>
        Add site
      </button>
      <p data-testid="tool">{tool ?? 'none'}</p>
      <div style={{ position: 'relative', flex: 1 }}>
        <TestMap
          interaction={interaction}
          onPick={(lat, lng) => picks.push(`${lat.toFixed(3)},${lng.toFixed(3)}`)}
          onCancelAdd={() => interaction.dispatch({ type: 'end', tool: 'add' })}
        />
      </div>
    </div>
  );
}

/** A click on the map at a fraction of its width and height, as Leaflet hears it. */
function clickMap(fx: number, fy: number): void {
  const box = mapElement().getBoundingClientRect();
  mapElement().dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, clientX: box.left + box.width * fx, clientY: box.top + box.height * fy }));
}

/** The measure line's drawn shapes (two lines and two ends once both points are in). */
function measureShapes(): number {
  return document.querySelectorAll('.leaflet-overlay-pane path').length;
}

async function setup() {
  const picks: string[] = [];
  const rendered = await renderWithHost({ sites: [RIDGE, VALLEY] }, () => <MapWithTools picks={picks} />);
  await expect.poll(() => document.querySelector('[data-testid="map"].leaflet-container'), { message: 'the map mounted' }).not.toBeNull();
  return { ...rendered, picks, measure: rendered.screen.getByRole('button', { name: 'Measure' }) };
}

describe('the measure tool', () => {
  it('takes two clicks on the map as its points and says the distance between them', async () => {
    const { screen, measure, picks } = await setup();
    await measure.click();
    await expect.element(measure).toHaveAttribute('aria-pressed', 'true');
    await expect.element(screen.getByText('Click the first point or site. Esc to stop measuring.')).toBeVisible();
    expect(mapElement().classList.contains('measuring')).toBe(true);
    clickMap(0.3, 0.5);
    await expect.element(screen.getByText(/click the second point or site/)).toBeVisible();
    clickMap(0.7, 0.5);
    await expect.element(screen.getByTestId('measure-distance')).toHaveTextContent(/\d/);
    await expect.element(screen.getByTestId('measure-bearing')).toHaveTextContent(/°/);
    expect(measureShapes()).toBe(4);
    // The clicks were the tool's: none became a place for a new site.
    expect(picks).toEqual([]);
  });

  it('clears its points on Esc and leaves on a second Esc, taking its line with it', async () => {
    const { screen, measure } = await setup();
    await measure.click();
    clickMap(0.3, 0.5);
    clickMap(0.7, 0.5);
    await expect.element(screen.getByTestId('measure-distance')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(screen.getByText('Click the first point or site. Esc to stop measuring.')).toBeVisible();
    expect(measureShapes()).toBe(0);
    await userEvent.keyboard('{Escape}');
    await expect.element(measure).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('measure-result').query()).toBeNull();
    expect(mapElement().classList.contains('measuring')).toBe(false);
  });

  it('ends when add-site mode starts: the next click on the map is a place for a new site', async () => {
    const { screen, measure, picks } = await setup();
    await measure.click();
    clickMap(0.3, 0.5);
    await screen.getByRole('button', { name: 'Add site' }).click();
    await expect.element(screen.getByTestId('tool')).toHaveTextContent('add');
    await expect.element(measure).toHaveAttribute('aria-pressed', 'false');
    expect(measureShapes()).toBe(0);
    expect(mapElement().classList.contains('adding')).toBe(true);
    clickMap(0.5, 0.5);
    await expect.poll(() => picks.length).toBe(1);
  });
});
