// The map marks its bottom strip narrow (data-narrow) at 31rem or less — beside the docked form, or in
// a small window — and unmarks it when it widens: My location's panel then takes the coordinates'
// room and averaging is set tighter (features/location/location.css, location-panel.test.tsx). A
// container query did this once, and Chromium sometimes left the whole strip unlaid after it changed.
import { describe, expect, it } from 'vitest';
import { renderWithHost } from './support/shell';
import { TestMap } from './support/test-map';

describe("the map's bottom strip", () => {
  it('is marked narrow at 31rem or less and unmarked when the map widens again', async () => {
    const rendered = await renderWithHost({}, () => (
      <div data-testid="frame" style={{ width: 900, height: 500, position: 'relative' }}>
        <TestMap />
      </div>
    ));
    const bottom = () => document.querySelector<HTMLElement>('.map-bottom')!;
    await expect.poll(() => bottom().getBoundingClientRect().width).toBeGreaterThan(600);
    expect(bottom().hasAttribute('data-narrow')).toBe(false);
    const frame = rendered.screen.getByTestId('frame').element() as HTMLElement;
    frame.style.width = '400px';
    await expect.poll(() => bottom().hasAttribute('data-narrow')).toBe(true);
    frame.style.width = '900px';
    await expect.poll(() => bottom().hasAttribute('data-narrow')).toBe(false);
  });
});
