// The site list from the keyboard: with 5,000 sites only a few dozen rows exist in the DOM, yet the
// list is one Tab stop whose arrow keys, Home/End and PgUp/PgDn reach every site (the grid pattern:
// each row holds the site and its Edit button), the active row scrolled into view; Enter selects.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { SiteRows } from '../../renderer/src/features/sites/site-rows';
import { renderWithHost, siteView } from './support/shell';
import { leaveAndComeBack, tabIntoOneStop, walk } from './support/tab-stop';

const SITES = Array.from({ length: 5_000 }, (_, i) => {
  const n = String(i + 1).padStart(4, '0');
  return siteView({ localId: `L${n}`, name: `Tower ${n}`, siteId: String(100_000 + i), height: 30, latitude: 40 + i / 10_000, longitude: -80 });
});

function setup() {
  return renderWithHost({ sites: SITES }, () => (
    <div style={{ display: 'flex', flexDirection: 'column', height: 600 }}>
      <button type="button">Before the list</button>
      <SiteRows sites={SITES} selectedId={null} unit="m" />
      <button type="button">After the list</button>
    </div>
  ));
}

/** The focused element's accessible text: a row's site name, or "Edit …". */
function focusedText(): string {
  const el = document.activeElement as HTMLElement | null;
  return el?.getAttribute('aria-label') ?? el?.querySelector('.row-name')?.firstChild?.textContent ?? el?.textContent ?? '';
}

describe('the site list by keyboard', () => {
  it('is one Tab stop that reaches all 5,000 sites with End, Home, the arrows and the page keys, and Enter selects', async () => {
    const { screen, navigation } = await setup();
    expect(document.querySelectorAll('[role="row"]').length).toBeLessThan(100);
    await tabIntoOneStop(screen.getByRole('button', { name: 'Before the list' }), focusedText, 'Tower 0001', 'After the list');
    expect(focusedText()).toBe('Tower 0001');

    await walk(focusedText, [
      ['{ArrowDown}{ArrowDown}', 'Tower 0003'],
      ['{End}', 'Tower 5000'],
    ]);
    // The last row is rendered and in view.
    const list = document.querySelector('.site-rows')!.getBoundingClientRect();
    const row = (document.activeElement as HTMLElement).getBoundingClientRect();
    expect(row.top).toBeGreaterThanOrEqual(list.top - 1);
    expect(row.bottom).toBeLessThanOrEqual(list.bottom + 1);
    expect(document.activeElement?.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('5000');
    await walk(focusedText, [
      ['{ArrowDown}', 'Tower 5000'],
      ['{ArrowUp}', 'Tower 4999'],
      ['{Home}', 'Tower 0001'],
    ]);
    // A page is what fits in view, less one row; PgUp comes back to the same site.
    await userEvent.keyboard('{PageDown}');
    await expect.poll(focusedText).not.toBe('Tower 0001');
    const paged = Number(focusedText().slice(-4));
    expect(paged).toBeGreaterThan(2);
    await walk(focusedText, [
      ['{PageDown}', `Tower ${String(2 * paged - 1).padStart(4, '0')}`],
      ['{PageUp}', `Tower ${String(paged).padStart(4, '0')}`],
    ]);

    await userEvent.keyboard('{End}');
    await expect.poll(focusedText).toBe('Tower 5000');
    await userEvent.keyboard('{Enter}');
    expect(navigation).toContainEqual({ to: 'select', value: 'L5000' });
    await userEvent.keyboard('{ArrowUp} ');
    expect(navigation).toContainEqual({ to: 'select', value: 'L4999' });
  });

  it('moves to the row\'s Edit button with the right arrow, and Tab comes back to the cell last used', async () => {
    const { screen, navigation } = await setup();
    await screen.getByRole('button', { name: 'Before the list' }).click();
    await userEvent.tab();
    await userEvent.keyboard('{End}{ArrowRight}');
    await expect.poll(focusedText).toBe('Edit Tower 5000');
    await userEvent.keyboard('{ArrowRight}');
    expect(focusedText()).toBe('Edit Tower 5000');
    await userEvent.keyboard('{Enter}');
    expect(navigation).toContainEqual({ to: 'form', value: { mode: 'edit', localId: 'L5000' } });
    await leaveAndComeBack(focusedText, 'After the list');
    expect(focusedText()).toBe('Edit Tower 5000');
    await userEvent.keyboard('{ArrowLeft}');
    await expect.poll(focusedText).toBe('Tower 5000');
  });

  it('starts a new search at its first match, not where the list was scrolled', async () => {
    function Searching() {
      const [query, setQuery] = useState('');
      const shown = query ? SITES.filter((site) => site.name.includes(query)) : SITES;
      return (
        <div style={{ display: 'flex', flexDirection: 'column', height: 600 }}>
          <button type="button" onClick={() => setQuery('Tower 3')}>
            Search
          </button>
          <SiteRows sites={shown} selectedId={null} unit="m" searched={query} />
        </div>
      );
    }
    const { screen } = await renderWithHost({ sites: SITES }, () => <Searching />);
    await expect.poll(() => document.querySelector('.site-rows')).not.toBeNull();
    const list = document.querySelector<HTMLElement>('.site-rows')!;
    list.scrollTop = 60_000;
    list.dispatchEvent(new Event('scroll'));
    await expect.poll(() => document.querySelector('[role="row"][aria-rowindex="940"]')).not.toBeNull();
    await screen.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => list.scrollTop).toBe(0);
    await expect.poll(() => document.querySelector('[role="row"][aria-rowindex="1"] .row-name')?.textContent).toContain('Tower 3000');
  });
});
