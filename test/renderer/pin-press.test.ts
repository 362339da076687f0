// What a press on the pin canvas becomes: only the pin in move mode can be dragged; a press on any
// other pin belongs to the map, so dragging pans (also across a crowd of pins), and it selects the
// pin only when it is let go where it started; a finger held still opens the pin's menu instead.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PRESS_DEFAULTS, longPressOpensMenu, pressOwner, tapOutcome, type Tap } from '../../renderer/src/map/pins/press';

function tap(patch: Partial<Tap> = {}): Tap {
  return { startX: 100, startY: 100, x: 100, y: 100, mapMoved: false, menuShown: false, ...patch };
}

describe('which pin a press can drag', () => {
  it('drags no pin while none is in move mode: every press on a pin is the map’s', () => {
    expect(pressOwner('A', null, false)).toBe('tap');
    expect(pressOwner('A', null, true)).toBe('tap');
  });

  it('drags only the pin in move mode; the others stay fixed', () => {
    expect(pressOwner('A', 'A', true)).toBe('drag');
    expect(pressOwner('B', 'A', true)).toBe('tap');
  });

  it('drags nothing while dragging is switched off, even the pin in move mode', () => {
    expect(pressOwner('A', 'A', false)).toBe('tap');
  });

  it('leaves a press beside every pin to the map', () => {
    expect(pressOwner(null, 'A', true)).toBe('map');
    expect(pressOwner(null, null, false)).toBe('map');
  });
});

describe('click or pan', () => {
  it('selects the pin when the press is let go where it started', () => {
    expect(tapOutcome(tap())).toBe('click');
    expect(tapOutcome(tap({ x: 103, y: 104 }))).toBe('click');
  });

  it('pans, and selects nothing, once the pointer has moved past the tolerance', () => {
    expect(tapOutcome(tap({ x: 106, y: 100 }))).toBe('pan');
    expect(tapOutcome(tap({ x: 400, y: 260 }))).toBe('pan');
  });

  it('pans when the map moved, even if the pointer came back to where it started', () => {
    expect(tapOutcome(tap({ mapMoved: true }))).toBe('pan');
  });

  it('does nothing more on release once a long press has opened the menu', () => {
    expect(tapOutcome(tap({ menuShown: true }))).toBe('menu');
  });

  it('never turns a press that travelled past the tolerance into a click, whatever the path', () => {
    const far = fc.double({ min: PRESS_DEFAULTS.clickTolerance + 1e-6, max: 2000, noNaN: true });
    fc.assert(
      fc.property(far, fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.boolean(), (distance, angle, mapMoved) => {
        const end = tap({ x: 100 + distance * Math.cos(angle), y: 100 + distance * Math.sin(angle), mapMoved });
        expect(tapOutcome(end)).toBe('pan');
      }),
    );
  });
});

describe('long press', () => {
  it('opens the pin’s menu for a finger or a pen held still', () => {
    expect(longPressOpensMenu(tap(), 'touch')).toBe(true);
    expect(longPressOpensMenu(tap({ x: 102 }), 'pen')).toBe(true);
  });

  it('leaves the mouse to its right button', () => {
    expect(longPressOpensMenu(tap(), 'mouse')).toBe(false);
  });

  it('does not open the menu when the finger is panning the map, or a second time', () => {
    expect(longPressOpensMenu(tap({ x: 130 }), 'touch')).toBe(false);
    expect(longPressOpensMenu(tap({ mapMoved: true }), 'touch')).toBe(false);
    expect(longPressOpensMenu(tap({ menuShown: true }), 'touch')).toBe(false);
  });
});
