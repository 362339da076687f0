// Where keyboard focus goes when the control that had it goes away: after the site form is saved, to
// the saved site; after it is closed, back to what opened it; never to the page itself.
import { describe, expect, it } from 'vitest';
import { firstPresent, focusLost, formReturnOrder, type Focusable } from '../../renderer/src/app/focus';

function control(isConnected: boolean): Focusable {
  return { isConnected, focus: () => undefined };
}

describe('focus after the site form closes', () => {
  it('goes to the saved site (its card, else its row) after a save, before the control that opened the form', () => {
    expect(formReturnOrder(true)).toEqual(['site-card', 'site-row', 'opener', 'map']);
  });

  it('goes back to the control that opened the form after Close, Discard or Escape', () => {
    expect(formReturnOrder(false)[0]).toBe('opener');
  });

  it('always ends with a place that is there: the map', () => {
    expect(formReturnOrder(true).at(-1)).toBe('map');
    expect(formReturnOrder(false).at(-1)).toBe('map');
  });
});

describe('finding where focus can go', () => {
  it('takes the first target still on the page, skipping ones that are gone or not drawn', () => {
    const gone = control(false);
    const there = control(true);
    const later = control(true);
    expect(firstPresent([() => null, () => gone, () => undefined, () => there, () => later])).toBe(there);
  });

  it('finds nothing when none is on the page', () => {
    expect(firstPresent([() => control(false), () => null])).toBeNull();
  });

  it('knows focus is lost when it is on the page itself or nowhere', () => {
    const body = {} as Element;
    const button = {} as Element;
    expect(focusLost(null, body)).toBe(true);
    expect(focusLost(body, body)).toBe(true);
    expect(focusLost(button, body)).toBe(false);
  });
});
