// Where keyboard focus goes when the control that had it goes away (a toolbar that swaps its buttons,
// a form or a menu that closes): never to <body>, where a keyboard user would have to start over.
// A target is looked up when it is needed, after React has drawn the new screen, because the control
// to return to may be a new element by then (the "+ Add site" button is drawn again after add mode).

/** Something focus can go to, found when it is needed; null or undefined when it is not on screen. */
export type FocusTarget = () => Focusable | null | undefined;

export interface Focusable {
  readonly isConnected: boolean;
  focus(options?: FocusOptions): void;
}

/** The places focus may go back to after the site form closes, best first. */
export type FormReturn = 'site-card' | 'site-row' | 'opener' | 'selected-card' | 'map';

/**
 * After a save, the saved site's card (its details: what the user just made), then its row; after
 * Close, Discard or Escape, the control that opened the form. The map when nothing else is left.
 */
export function formReturnOrder(saved: boolean): FormReturn[] {
  return saved ? ['site-card', 'site-row', 'opener', 'map'] : ['opener', 'selected-card', 'map'];
}

/** The first target that is on the page now. */
export function firstPresent(targets: readonly FocusTarget[]): Focusable | null {
  for (const target of targets) {
    const found = target();
    if (found?.isConnected) return found;
  }
  return null;
}

/** Whether focus has fallen out of everything (onto the page itself, or nowhere). */
export function focusLost(active: Element | null, body: Element | null): boolean {
  return active === null || active === body;
}

/** The element that has focus now, as a target to come back to (null when focus is on the page itself). */
export function currentFocus(doc: Document = document): FocusTarget {
  const active = doc.activeElement;
  const held = active instanceof HTMLElement && !focusLost(active, doc.body) ? active : null;
  return () => held;
}
