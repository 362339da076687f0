// How a selection of sites changes, as list and map users expect from a file manager or QGIS:
// a plain click selects one site; Ctrl/Cmd-click adds or removes one; Shift-click selects the
// range from the last clicked site (the anchor) in the order shown, added to what Ctrl built;
// a box (Shift-drag on the map) selects what it covers, added to the selection with Ctrl held;
// "Select all shown" takes exactly the sites shown. Pure: the same rules for list, map and table.

export interface Selection {
  /** Local IDs, in the order they were selected. */
  readonly ids: ReadonlySet<string>;
  /** Where a Shift-click range starts: the last site clicked without Shift. */
  readonly anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

export interface ClickKeys {
  shift?: boolean;
  /** Ctrl on Windows and Linux, Cmd on a Mac. */
  toggle?: boolean;
}

/** A click on `id`, with `order` the sites as shown (list or table order; the map has none). */
export function clickSelect(selection: Selection, id: string, order: readonly string[], keys: ClickKeys = {}): Selection {
  if (keys.shift && selection.anchor !== null) {
    const from = order.indexOf(selection.anchor);
    const to = order.indexOf(id);
    if (from >= 0 && to >= 0) {
      const [start, end] = from <= to ? [from, to] : [to, from];
      const range = order.slice(start, end + 1);
      // Shift alone replaces the selection with the range; with Ctrl too it adds the range.
      const ids = new Set(keys.toggle ? [...selection.ids, ...range] : range);
      return { ids, anchor: selection.anchor };
    }
  }
  if (keys.toggle || keys.shift) {
    const ids = new Set(selection.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  return { ids: new Set([id]), anchor: id };
}

/** A box drawn over `covered` sites: replaces the selection, or adds to it with Ctrl/Cmd. */
export function boxSelect(selection: Selection, covered: readonly string[], add: boolean): Selection {
  const ids = new Set(add ? [...selection.ids, ...covered] : covered);
  return { ids, anchor: selection.anchor };
}

/** "Select all shown": exactly the sites the list (search and filters) shows. */
export function selectAll(shown: readonly string[]): Selection {
  return { ids: new Set(shown), anchor: shown[0] ?? null };
}

/** Drops sites that no longer exist (removed, another profile): a selection never names a ghost. */
export function keepExisting(selection: Selection, exists: (id: string) => boolean): Selection {
  let changed = false;
  const ids = new Set<string>();
  for (const id of selection.ids) {
    if (exists(id)) ids.add(id);
    else changed = true;
  }
  const anchorGone = selection.anchor !== null && !exists(selection.anchor);
  if (!changed && !anchorGone) return selection;
  return { ids, anchor: anchorGone ? null : selection.anchor };
}

/** How many of the selected sites are among `shown` (the rest are hidden by the search or filters). */
export function shownCount(selection: Selection, shown: ReadonlySet<string>): number {
  let n = 0;
  for (const id of selection.ids) if (shown.has(id)) n++;
  return n;
}
