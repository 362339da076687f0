// The attribute table as a WAI-ARIA grid: one Tab stop, the arrows, Home/End and Ctrl+Home/End move
// through every cell (the header row included, where Enter sorts), Enter edits a cell in place and
// queues the edit, Esc leaves it, and a value the site rules refuse says why without leaving the cell.
// A name or description too long for its column ends in an ellipsis, and its whole text is there.
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { SiteTable } from '../../renderer/src/features/sites/attribute-table';
import { useAppState } from '../../renderer/src/shared/store/app-store';
import type { AppStore } from '../../renderer/src/shared/store/app-store';
import { renderWithHost, siteView } from './support/shell';
import { tabIntoOneStop, walk } from './support/tab-stop';

const SITES = Array.from({ length: 2_000 }, (_, i) => {
  const n = String(i + 1).padStart(4, '0');
  return siteView({ localId: `L${n}`, name: `Tower ${n}`, siteId: String(100_000 + i), height: 10 + (i % 50), group: i % 2 ? 'North' : 'South', pinStyle: 1, latitude: 40, longitude: -80 });
});

/** The table of the store's sites, as the sites panel gives it. */
function StoreTable({ store }: { store: AppStore }) {
  const sites = useAppState(store, (s) => s.sites);
  const list = [...sites.values()].sort((a, b) => a.localId.localeCompare(b.localId));
  return <SiteTable sites={list} labelledBy="table-title" />;
}

function setup() {
  return renderWithHost({ sites: SITES }, (host) => (
    <div>
      <h2 id="table-title">Sites</h2>
      <button type="button">Before the table</button>
      <StoreTable store={host.store} />
      <button type="button">After the table</button>
    </div>
  ));
}

const focused = () => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '';
const focusedCell = () => document.activeElement?.getAttribute('data-cell');

describe('the attribute table', () => {
  it('is one Tab stop whose keys reach every cell of 2,000 sites, with only the rows in view drawn', async () => {
    const { screen } = await setup();
    expect(document.querySelectorAll('[role="row"]').length).toBeLessThan(80);
    await tabIntoOneStop(screen.getByRole('button', { name: 'Before the table' }), focused, 'Name', 'After the table');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowRight}');
    await expect.poll(focused).toBe('100001');
    await walk(focusedCell, [
      ['{End}', '2:6'],
      ['{Home}', '2:0'],
      ['{Control>}{End}{/Control}', '2000:6'],
    ]);
    expect(document.activeElement?.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('2001');
    await userEvent.keyboard('{Control>}{Home}{/Control}');
    await expect.poll(focused).toBe('Name');
  });

  it('sorts by a column from its header, with aria-sort saying which way', async () => {
    const { screen } = await setup();
    const height = screen.getByRole('columnheader', { name: /Height/ });
    await height.click();
    await expect.element(height).toHaveAttribute('aria-sort', 'ascending');
    await expect.element(screen.getByRole('row').nth(1)).toHaveTextContent(/Tower 0001.*10 m/);
    await height.click();
    await expect.element(height).toHaveAttribute('aria-sort', 'descending');
    await expect.element(screen.getByRole('row').nth(1)).toHaveTextContent(/Tower 0050.*59 m/);
    // From the keyboard: Enter on a header.
    (height.element() as HTMLElement).focus();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}{Enter}');
    await expect.element(screen.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('edits one cell in place and queues it; Esc leaves a cell as it was; a refused value says why', async () => {
    const { screen, host } = await setup();
    await screen.getByRole('button', { name: 'Before the table' }).click();
    await userEvent.tab();
    await userEvent.keyboard('{ArrowDown}{ArrowRight}{ArrowRight}{Enter}');
    const group = screen.getByRole('textbox', { name: 'Group of Tower 0001' });
    await expect.element(group).toHaveFocus();
    await userEvent.keyboard('{Control>}a{/Control}East{Enter}');
    await expect.element(screen.getByRole('status').filter({ hasText: 'Queued' })).toHaveTextContent('Queued: group of Tower 0001 is now East.');
    expect(host.callsOf('saveSite')).toEqual([[{ localId: 'L0001', group: 'East' }]]);
    await expect.poll(focusedCell).toBe('1:2');

    await userEvent.keyboard('{F2}');
    await userEvent.keyboard('{Control>}a{/Control}West{Escape}');
    await expect.poll(focusedCell).toBe('1:2');
    expect(focused()).toBe('East');
    expect(host.callsOf('saveSite')).toHaveLength(1);

    await userEvent.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    await userEvent.keyboard('{Control>}a{/Control}1,200{Enter}');
    await expect.element(screen.getByRole('alert')).toHaveTextContent(/could be 1200 or 1.200/);
    await userEvent.keyboard('{Control>}a{/Control}98 ft{Enter}');
    await expect.poll(() => host.callsOf('saveSite').length).toBe(2);
    expect(host.callsOf('saveSite')[1]).toEqual([{ localId: 'L0001', height: '30' }]);
  });

  it('shows a three-digit height in feet whole at 1024×640, in a table as wide as its dialog there', async () => {
    await page.viewport(1024, 640);
    const { screen } = await renderWithHost({ sites: [siteView({ localId: 'L1', name: 'Belgrade Elevator', siteId: '100008', height: 300, group: 'Gallatin Valley', latitude: 45, longitude: -111 })] }, (host) => (
      // The attribute table's dialog leaves the table 946 px at 1024×640.
      <div style={{ width: '946px' }}>
        <StoreTable store={host.store} />
      </div>
    ));
    const cell = screen.getByRole('gridcell', { name: '300 m (984 ft)' });
    await expect.element(cell).toBeVisible();
    // It was cut to "42 m (138 …": a height a crew reads off the table must be whole.
    const text = (cell.element() as HTMLElement).querySelector<HTMLElement>('.cell-text')!;
    expect(text.scrollWidth).toBeLessThanOrEqual(text.clientWidth);
  });

  it('ends a name too long for its column in an ellipsis at 1024×640, and gives the whole text: on hover, on focus, to a screen reader', async () => {
    await page.viewport(1024, 640);
    const name = 'Airport Road North Ridge Relay Tower Number Two';
    const { screen } = await renderWithHost({ sites: [siteView({ localId: 'L1', name, siteId: '100009', height: 30, group: 'Gallatin Valley', latitude: 45, longitude: -111 })] }, (host) => (
      <StoreTable store={host.store} />
    ));
    // The cell's accessible text is the whole name, as the keyboard reads it.
    const cell = screen.getByRole('gridcell', { name });
    await expect.element(cell).toBeVisible();
    const element = cell.element() as HTMLElement;
    const text = element.querySelector<HTMLElement>('.cell-text')!;
    expect(text.scrollWidth).toBeGreaterThan(text.clientWidth);
    expect(getComputedStyle(text).textOverflow).toBe('ellipsis');
    // The pointer may rest where an earlier test left it, over this cell: move it off first.
    await userEvent.unhover(cell);
    await expect.element(cell).not.toHaveAttribute('title');

    await userEvent.hover(cell);
    await expect.element(cell).toHaveAttribute('title', name);
    await userEvent.unhover(cell);
    await expect.element(cell).not.toHaveAttribute('title');

    element.focus();
    await expect.poll(() => text.scrollWidth <= text.clientWidth, { message: 'the focused cell shows the whole name' }).toBe(true);
    expect(text.getBoundingClientRect().width).toBeGreaterThan(element.getBoundingClientRect().width);
  });
});

afterEach(async () => {
  await page.viewport(1280, 720);
});
