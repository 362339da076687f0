// The site list's rows: windowed (only the rows in view exist in the DOM, so 10,000 sites stay quick)
// and one Tab stop, as the WAI-ARIA grid pattern has it. Each row has two cells, the site (Enter or
// Space selects it) and its Edit button, so the rows are a grid rather than a listbox, whose options
// may not hold buttons. The arrow keys, Home/End and PgUp/PgDn move through every site, not only the
// rendered ones (the list scrolls the active row into view and renders it); Left/Right move between
// the site and Edit. Roving tabindex: the active cell's button is the one with tabIndex 0.
import { useEffect, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import type { SiteView } from '../../../../electron/shared/contract/index';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { siteTitle } from '../../shared/format';
import { formatHeight } from '../../shared/units';
import { PinIcon, SyncBadge } from '../../shared/ui/badge';
import { useUi } from '../../shared/ui/ui-context';
import { PIN_NAMES } from '../../shared/sprites';
import { nextCell, type Cell } from './grid-keys';
import { clickSelect, useSelection, useSelectionStore } from '../selection';

/** A row's height in pixels: app/base.css's --row-height on the list (64, or less in the compact layout). */
const ROW_HEIGHT = 64;
const OVERSCAN = 6;
const COLUMNS = 2;

/** `searched` names the search and filters the list shows: a new one starts the list at its first match. */
export function SiteRows({ sites, selectedId, unit, searched = '' }: { sites: SiteView[]; selectedId: string | null; unit: HeightUnit; searched?: string }) {
  const ui = useUi();
  const selection = useSelection();
  const selectionStore = useSelectionStore();
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(400);
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  // The active cell, by site (a new search or filter keeps it on the same site when it is still listed).
  const [active, setActive] = useState<{ localId: string; column: number } | null>(null);
  // Set when a key moved the active cell: focus follows once its row is rendered.
  const focusPending = useRef(false);

  // The list's height and the row height change together with the layout (a resize, the compact media query).
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      setViewHeight(el.clientHeight);
      setRowHeight(Number.parseFloat(getComputedStyle(el).getPropertyValue('--row-height')) || ROW_HEIGHT);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    measure();
    return () => observer.disconnect();
    // The list element appears once there are sites (an empty list is a sentence instead).
  }, [sites.length === 0]);

  /** Scrolls the list so the row at `index` is in view (a third down when it has to jump). */
  const scrollToRow = (index: number) => {
    const el = ref.current;
    if (!el) return;
    const top = index * rowHeight;
    if (top >= el.scrollTop && top + rowHeight <= el.scrollTop + el.clientHeight) return;
    el.scrollTop = Math.max(0, top - el.clientHeight / 3);
    // Render the rows there now rather than on the scroll event, so the row can take focus.
    setScrollTop(el.scrollTop);
  };

  // A new search or filter shows its first matches, not rows deep in the list where the last one was
  // scrolled (a selected site still listed is brought into view by the effect below).
  useEffect(() => {
    const el = ref.current;
    if (!el || el.scrollTop === 0) return;
    el.scrollTop = 0;
    setScrollTop(0);
  }, [searched]);

  // A pin picked on the map scrolls its row into view, and the list's keys carry on from it.
  useEffect(() => {
    if (!selectedId) return;
    const index = sites.findIndex((s) => s.localId === selectedId);
    if (index < 0) return;
    scrollToRow(index);
    setActive((a) => (a?.localId === selectedId ? a : { localId: selectedId, column: 0 }));
  }, [selectedId, sites, rowHeight]);

  const activeIndex = active ? sites.findIndex((s) => s.localId === active.localId) : -1;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(sites.length, Math.ceil((scrollTop + viewHeight) / rowHeight) + OVERSCAN);
  const rows = sites.slice(first, last);
  // The one Tab stop: the active cell when its row is rendered, else the first row in view.
  const tabStop: Cell = activeIndex >= first && activeIndex < last ? { row: activeIndex, column: active!.column } : { row: Math.min(sites.length - 1, Math.floor(scrollTop / rowHeight)), column: 0 };

  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    ref.current?.querySelector<HTMLElement>(`[data-row="${tabStop.row}"] [data-column="${tabStop.column}"]`)?.focus();
  });

  if (sites.length === 0) {
    return <p className="empty">No sites match. Clear the search or filters, or add a site.</p>;
  }

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.metaKey) return;
    const pageRows = Math.max(1, Math.floor((ref.current?.clientHeight ?? viewHeight) / rowHeight) - 1);
    const next = nextCell(e.key, tabStop, { rows: sites.length, columns: COLUMNS, pageRows, ctrl: e.ctrlKey });
    if (!next) return;
    e.preventDefault();
    const site = sites[next.row];
    if (!site) return;
    setActive({ localId: site.localId, column: next.column });
    scrollToRow(next.row);
    focusPending.current = true;
  };

  // A cell's part in the grid's one Tab stop: its column, whether Tab reaches it, and focus making it the active cell.
  const cellProps = (localId: string, row: number, column: number) => ({
    'data-column': column,
    tabIndex: tabStop.row === row && tabStop.column === column ? 0 : -1,
    onFocus: () => setActive({ localId, column }),
  });

  return (
    <div ref={ref} className="site-rows" onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}>
      <ul role="grid" aria-label="Sites" aria-rowcount={sites.length} aria-colcount={COLUMNS} style={{ height: sites.length * rowHeight }} onKeyDown={onKeyDown}>
        {rows.map((site, i) => {
          const index = first + i;
          const title = siteTitle(site);
          const chosen = selection.ids.has(site.localId);
          return (
            <li
              key={site.localId}
              role="row"
              aria-rowindex={index + 1}
              aria-selected={chosen || site.localId === selectedId}
              className={`site-row ${site.localId === selectedId ? 'selected' : ''} ${chosen ? 'chosen' : ''}`}
              style={{ transform: `translateY(${index * rowHeight}px)` }}
              data-local-id={site.localId}
              data-row={index}
            >
              <span role="gridcell" className="row-cell">
                <button
                  type="button"
                  className="row-main"
                  {...cellProps(site.localId, index, 0)}
                  aria-current={site.localId === selectedId ? 'true' : undefined}
                  onClick={(e) => {
                    // Shift and Ctrl/Cmd build a selection to act on together; a plain click picks one site.
                    const keys = { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey };
                    selectionStore.update((current) => clickSelect(current, site.localId, sites.map((s) => s.localId), keys));
                    if (!keys.shift && !keys.toggle) ui.selectSite(site.localId, true);
                  }}
                >
                  <PinIcon style={site.pinStyle} decorative />
                  <span className="row-text">
                    <span className="row-name">
                      {title}
                      <span className="visually-hidden">, {PIN_NAMES[site.pinStyle].toLowerCase()} pin,</span>
                    </span>
                    {/* The height first: the number a crew looks for, and the last to be cut off on a narrow list. */}
                    <span className="row-sub">
                      {formatHeight(site.height, unit)} · {site.siteId ? `ID ${site.siteId}` : 'New'}
                      {site.group ? ` · ${site.group}` : ''}
                    </span>
                  </span>
                  <SyncBadge state={site.syncState} short />
                </button>
              </span>
              <span role="gridcell" className="row-cell">
                <button
                  type="button"
                  className="row-edit"
                  {...cellProps(site.localId, index, 1)}
                  aria-label={`Edit ${title}`}
                  onClick={() => ui.openSiteForm({ mode: 'edit', localId: site.localId })}
                >
                  Edit
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
