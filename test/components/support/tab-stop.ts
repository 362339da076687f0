// A composite widget (a grid) from the keyboard: it is one Tab stop (Tab from the control before it
// lands on one cell, the next Tab leaves it for the control after it, and Shift+Tab comes back in),
// and its keys walk focus from cell to cell. `focused` reads what has focus in the words the test
// uses for it (a cell's text, a button's name, a cell's row:column).
import { expect } from 'vitest';
import { userEvent, type Locator } from 'vitest/browser';

type Focused = () => string | null | undefined;

/** From inside the widget: Tab leaves it for `after`, then Shift+Tab comes back in. */
export async function leaveAndComeBack(focused: Focused, after: string): Promise<void> {
  await userEvent.tab();
  expect(focused()).toBe(after);
  await userEvent.tab({ shift: true });
}

/** From the control `before` the widget: Tab enters it at `first`, and it is one stop (leaveAndComeBack). */
export async function tabIntoOneStop(before: Locator, focused: Focused, first: string, after: string): Promise<void> {
  await before.click();
  await userEvent.tab();
  expect(focused()).toBe(first);
  await leaveAndComeBack(focused, after);
}

/** Presses each step's keys in turn, waiting each time for focus to land where the step says. */
export async function walk(focused: Focused, steps: ReadonlyArray<readonly [keys: string, lands: string]>): Promise<void> {
  for (const [keys, lands] of steps) {
    await userEvent.keyboard(keys);
    await expect.poll(focused, { message: `focus after ${keys}` }).toBe(lands);
  }
}
