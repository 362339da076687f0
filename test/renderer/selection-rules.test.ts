// The selection rules the list, the map and the attribute table share.
import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, boxSelect, clickSelect, keepExisting, selectAll, shownCount, type Selection } from '../../renderer/src/features/selection/selection-rules';

const ORDER = ['a', 'b', 'c', 'd', 'e'];
const ids = (selection: Selection) => [...selection.ids].sort();

describe('selecting sites', () => {
  it('selects one site on a plain click, replacing what was selected', () => {
    const one = clickSelect(EMPTY_SELECTION, 'b', ORDER);
    expect(ids(clickSelect(one, 'd', ORDER))).toEqual(['d']);
  });

  it('adds and removes one site with Ctrl/Cmd-click', () => {
    let selection = clickSelect(EMPTY_SELECTION, 'a', ORDER);
    selection = clickSelect(selection, 'c', ORDER, { toggle: true });
    expect(ids(selection)).toEqual(['a', 'c']);
    selection = clickSelect(selection, 'a', ORDER, { toggle: true });
    expect(ids(selection)).toEqual(['c']);
  });

  it('selects the range from the last clicked site with Shift-click, in either direction, in the order shown', () => {
    const anchored = clickSelect(EMPTY_SELECTION, 'd', ORDER);
    expect(ids(clickSelect(anchored, 'b', ORDER, { shift: true }))).toEqual(['b', 'c', 'd']);
    // The anchor stays: a second Shift-click re-draws the range from it.
    const again = clickSelect(clickSelect(anchored, 'b', ORDER, { shift: true }), 'e', ORDER, { shift: true });
    expect(ids(again)).toEqual(['d', 'e']);
  });

  it('adds a Shift range to a Ctrl selection when both keys are held', () => {
    let selection = clickSelect(EMPTY_SELECTION, 'a', ORDER);
    selection = clickSelect(selection, 'c', ORDER, { toggle: true });
    selection = clickSelect(selection, 'e', ORDER, { shift: true, toggle: true });
    expect(ids(selection)).toEqual(['a', 'c', 'd', 'e']);
  });

  it('toggles the site on Shift-click when there is no anchor or it is not shown (a map click has no order)', () => {
    expect(ids(clickSelect(EMPTY_SELECTION, 'c', ORDER, { shift: true }))).toEqual(['c']);
    const anchored = clickSelect(EMPTY_SELECTION, 'x', []);
    expect(ids(clickSelect(anchored, 'c', ORDER, { shift: true }))).toEqual(['c', 'x']);
  });

  it('replaces the selection with what a box covers, or adds it with Ctrl', () => {
    const start = clickSelect(EMPTY_SELECTION, 'a', ORDER);
    expect(ids(boxSelect(start, ['c', 'd'], false))).toEqual(['c', 'd']);
    expect(ids(boxSelect(start, ['c', 'd'], true))).toEqual(['a', 'c', 'd']);
  });

  it('selects exactly the sites shown, and counts how many selected ones the search hides', () => {
    const all = selectAll(['b', 'c']);
    expect(ids(all)).toEqual(['b', 'c']);
    expect(shownCount(all, new Set(['c', 'd']))).toBe(1);
  });

  it('forgets sites that no longer exist, and keeps the same selection object when none went', () => {
    const selection = selectAll(['a', 'b', 'c']);
    expect(keepExisting(selection, () => true)).toBe(selection);
    const kept = keepExisting(selection, (id) => id !== 'a');
    expect(ids(kept)).toEqual(['b', 'c']);
    expect(kept.anchor).toBeNull();
  });
});
