// The attribute table of the shown sites, as a QGIS or Field Maps user expects: sortable columns,
// one cell edited in place (Enter or F2, or a double click; Enter queues the edit, Esc leaves it),
// and the WAI-ARIA grid's keys — one Tab stop; arrows, Home/End (Ctrl for the corners), PgUp/PgDn;
// the header row is the grid's first row, where Enter sorts. Shift+Space adds a row to the selection
// the list and the map share. Windowed: only the rows in view exist, so 50,000 sites stay quick.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { SiteView } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { Modal } from '../../shared/ui/dialog';
import { useUi } from '../../shared/ui/ui-context';
import { countOf } from '../../shared/format';
import { clickSelect, useSelection, useSelectionStore } from '../selection';
import { cellEdit, cellText, COLUMNS, editStartText, nextSort, sortSites, tableKey, type ColumnKey, type Sort } from './attribute-table-model';
import type { Cell } from './grid-keys';
import './attribute-table.css';

const ROW_HEIGHT = 40;
const OVERSCAN = 8;

export function AttributeTable({ open, sites, onClose }: { open: boolean; sites: readonly SiteView[]; onClose: () => void }) {
  const id = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={`${id}-title`} className="attribute-table-dialog">
      <div className="attribute-table-head">
        <h2 id={`${id}-title`}>Attribute table</h2>
        <button type="button" onClick={onClose}>
          Close table
        </button>
      </div>
      <p className="hint">
        {countOf(sites.length, 'site', 'sites')} shown (the list&apos;s search and filters apply). Enter or F2 edits a cell; Enter on a column&apos;s header sorts by it.
      </p>
      <SiteTable sites={sites} labelledBy={`${id}-title`} />
    </Modal>
  );
}

interface Editing {
  localId: string;
  column: ColumnKey;
  text: string;
  error: string | null;
  busy: boolean;
}

export function SiteTable({ sites, labelledBy }: { sites: readonly SiteView[]; labelledBy: string }) {
  const ui = useUi();
  const id = useId();
  const unit = useAppState(ui.store, (s) => s.settings.heightUnit);
  const selection = useSelection();
  const selectionStore = useSelectionStore();
  const [sort, setSort] = useState<Sort | null>(null);
  const rows = useMemo(() => sortSites(sites, sort), [sites, sort]);
  // The active cell: row 0 is the header, site k is row k + 1; kept by site, so a sort keeps it.
  const [active, setActive] = useState<{ localId: string | null; column: number }>({ localId: null, column: 0 });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [status, setStatus] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(400);
  const scroller = useRef<HTMLDivElement>(null);
  const focusPending = useRef(false);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight));
    observer.observe(el);
    setViewHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  const activeRow = active.localId === null ? 0 : rows.findIndex((site) => site.localId === active.localId) + 1;
  const cell: Cell = { row: Math.max(0, activeRow), column: active.column };
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewHeight) / ROW_HEIGHT) + OVERSCAN);

  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    scroller.current?.querySelector<HTMLElement>(`[data-cell="${cell.row}:${cell.column}"]`)?.focus();
  });

  const moveTo = (next: Cell) => {
    const site = next.row === 0 ? null : rows[next.row - 1];
    setActive({ localId: site ? site.localId : null, column: next.column });
    const el = scroller.current;
    if (el && next.row > 0) {
      const top = (next.row - 1) * ROW_HEIGHT;
      const header = ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight - header) el.scrollTop = top + ROW_HEIGHT - el.clientHeight + header;
      setScrollTop(el.scrollTop);
    }
    focusPending.current = true;
  };

  const startEdit = (site: SiteView, column: ColumnKey) => {
    const spec = COLUMNS.find((c) => c.key === column);
    if (!spec?.edit) {
      setStatus(`${spec?.label ?? 'This column'} cannot be edited here.`);
      return;
    }
    setEditing({ localId: site.localId, column, text: editStartText(site, column, unit), error: null, busy: false });
  };

  const endEdit = () => {
    setEditing(null);
    focusPending.current = true;
  };

  async function commit(edit: Editing) {
    const site = rows.find((s) => s.localId === edit.localId);
    if (!site) return endEdit();
    if (edit.text === editStartText(site, edit.column, unit)) return endEdit();
    const change = cellEdit(site, edit.column, edit.text, unit);
    if (!change.ok) {
      setEditing({ ...edit, error: change.message });
      return;
    }
    setEditing({ ...edit, busy: true, error: null });
    const result = await ui.call(() => ui.api.saveSite(change.input));
    if (!result) {
      setEditing({ ...edit, busy: false });
      return;
    }
    if (!result.ok) {
      setEditing({ ...edit, busy: false, error: result.issues.map((issue) => issue.message).join(' ') });
      return;
    }
    ui.store.applySite(result.value);
    const label = COLUMNS.find((c) => c.key === edit.column)!.label;
    setStatus(`Queued: ${label.toLowerCase()} of ${result.value.name || site.localId} is now ${cellText(result.value, edit.column, unit)}.`);
    endEdit();
  }

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (editing || e.altKey || e.metaKey) return;
    const site = cell.row === 0 ? null : rows[cell.row - 1];
    const column = COLUMNS[cell.column]!;
    if ((e.key === 'Enter' || e.key === 'F2') && site) {
      e.preventDefault();
      startEdit(site, column.key);
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && !site) {
      e.preventDefault();
      setSort((current) => nextSort(current, column.key));
      return;
    }
    if (e.key === ' ' && e.shiftKey && site) {
      e.preventDefault();
      selectionStore.update((current) => clickSelect(current, site.localId, [], { toggle: true }));
      return;
    }
    const pageRows = Math.max(1, Math.floor(viewHeight / ROW_HEIGHT) - 2);
    const next = tableKey(e.key, cell, { rows: rows.length + 1, columns: COLUMNS.length, pageRows, ctrl: e.ctrlKey });
    if (!next) return;
    e.preventDefault();
    moveTo(next);
  };

  const tabIndex = (row: number, column: number) => (cell.row === row && cell.column === column ? 0 : -1);
  const sortOf = (key: ColumnKey) => (sort?.column === key ? sort.direction : 'none');

  return (
    <div className="attribute-table">
      <div ref={scroller} className="attribute-table-scroll" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
        <div role="grid" aria-labelledby={labelledBy} aria-rowcount={rows.length + 1} aria-colcount={COLUMNS.length} onKeyDown={onKeyDown} style={{ height: (rows.length + 1) * ROW_HEIGHT }}>
          <div role="row" aria-rowindex={1} className="attribute-row header">
            {COLUMNS.map((column, c) => (
              <div
                key={column.key}
                role="columnheader"
                aria-colindex={c + 1}
                aria-sort={sortOf(column.key)}
                tabIndex={tabIndex(0, c)}
                data-cell={`0:${c}`}
                className={`attribute-cell col-${column.key}`}
                onFocus={() => setActive({ localId: null, column: c })}
                onClick={() => setSort((current) => nextSort(current, column.key))}
              >
                {column.label}
                <span aria-hidden="true">{sortOf(column.key) === 'ascending' ? ' ▲' : sortOf(column.key) === 'descending' ? ' ▼' : ''}</span>
              </div>
            ))}
          </div>
          {rows.slice(first, last).map((site, i) => {
            const index = first + i;
            const row = index + 1;
            return (
              <div
                key={site.localId}
                role="row"
                aria-rowindex={row + 1}
                aria-selected={selection.ids.has(site.localId)}
                className={`attribute-row ${selection.ids.has(site.localId) ? 'chosen' : ''}`}
                style={{ transform: `translateY(${row * ROW_HEIGHT}px)` }}
              >
                {COLUMNS.map((column, c) => {
                  const isEditing = editing?.localId === site.localId && editing.column === column.key;
                  return (
                    <div
                      key={column.key}
                      role="gridcell"
                      aria-colindex={c + 1}
                      aria-readonly={column.edit === null ? true : undefined}
                      tabIndex={isEditing ? undefined : tabIndex(row, c)}
                      data-cell={`${row}:${c}`}
                      className={`attribute-cell col-${column.key} ${isEditing ? 'editing' : ''}`}
                      onFocus={(e) => {
                        if (e.target === e.currentTarget) setActive({ localId: site.localId, column: c });
                      }}
                      onDoubleClick={() => startEdit(site, column.key)}
                      onPointerEnter={titleIfCut}
                      onPointerLeave={dropTitle}
                    >
                      {isEditing ? <CellEditor id={`${id}-edit`} editing={editing} unit={unit} label={`${column.label} of ${site.name || site.localId}`} onChange={(text) => setEditing({ ...editing, text, error: null })} onCommit={() => void commit(editing)} onCancel={endEdit} /> : <span className="cell-text">{cellText(site, column.key, unit)}</span>}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      <p className="attribute-status" role="status">
        {status}
      </p>
    </div>
  );
}

/**
 * A cell whose text is cut (an ellipsis ends it) gives the whole text as its title while the pointer
 * is on it; a focused cell shows it whole (attribute-table.css). The title goes when the pointer
 * leaves: left in place, a screen reader would read the text twice when the keyboard reaches it.
 */
function titleIfCut(e: PointerEvent<HTMLElement>): void {
  const text = e.currentTarget.querySelector<HTMLElement>('.cell-text');
  if (text && text.scrollWidth > text.clientWidth) e.currentTarget.title = text.textContent ?? '';
}

function dropTitle(e: PointerEvent<HTMLElement>): void {
  e.currentTarget.removeAttribute('title');
}

function CellEditor({ id, editing, unit, label, onChange, onCommit, onCancel }: {
  id: string;
  editing: Editing;
  unit: string;
  label: string;
  onChange: (text: string) => void;
  onCommit: () => void;
  onCancel: () => void;
}) {
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // The grid's keys stay out of the editor; Enter and Esc end it.
    e.stopPropagation();
    if (e.key === 'Enter') {
      e.preventDefault();
      onCommit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    }
  };
  const described = editing.error ? `${id}-error` : undefined;
  return (
    <span className="cell-editor">
      {editing.column === 'pinStyle' ? (
        <select aria-label={label} autoFocus value={editing.text} disabled={editing.busy} onChange={(e) => onChange(e.target.value)} onKeyDown={onKeyDown} aria-describedby={described}>
          <option value="1">Red</option>
          <option value="2">Blue</option>
          <option value="3">Orange</option>
          <option value="4">Green</option>
        </select>
      ) : (
        <input
          aria-label={editing.column === 'height' ? `${label} (${unit})` : label}
          autoFocus
          value={editing.text}
          disabled={editing.busy}
          aria-invalid={editing.error !== null}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      {editing.error && (
        <span id={`${id}-error`} className="cell-error" role="alert">
          {editing.error}
        </span>
      )}
    </span>
  );
}
