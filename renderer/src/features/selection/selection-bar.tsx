// What can be done with the selected sites, shown while more than one is selected: edit them
// together (one batch), export them, or clear the selection. It says how many of them the search or
// filters hide, since an action takes every selected site, shown or not.
import { useId, useState } from 'react';
import { countOf, formatCount } from '../../shared/format';
import { saveFile } from '../bulk';
import { useUi } from '../../shared/ui/ui-context';
import { lazyPart, PartLoader } from '../../shared/ui/lazy-part';
import { useSelection, useSelectionStore } from './selection-store';
import { shownCount } from './selection-rules';

/** Loaded when first opened: most selections are exported or cleared, not edited. */
const BatchEditDialog = lazyPart(() => import('./batch-edit-dialog').then((m) => m.BatchEditDialog));

type Format = 'csv' | 'kml' | 'geojson';
const FORMAT_LABELS: Record<Format, string> = { csv: 'CSV', kml: 'KML', geojson: 'GeoJSON' };

export function SelectionBar({ shown }: { shown: ReadonlySet<string> }) {
  const ui = useUi();
  const id = useId();
  const selection = useSelection();
  const store = useSelectionStore();
  const [editing, setEditing] = useState(false);
  const [format, setFormat] = useState<Format>('csv');
  const count = selection.ids.size;
  if (count < 2 && !editing) return null;
  const hidden = count - shownCount(selection, shown);
  const ids = [...selection.ids];

  async function exportSelection() {
    const result = await ui.call(() => ui.api.exportSites(format, { localIds: ids }));
    if (!result) return;
    if (!result.ok) {
      ui.toast(result.issues.map((issue) => issue.message).join(' '), { tone: 'error' });
      return;
    }
    saveFile(result.value);
    ui.toast(`Exported ${countOf(count, 'site', 'sites')} to ${result.value.fileName}.`, { tone: 'success' });
  }

  return (
    <section className="selection-bar" aria-labelledby={`${id}-count`}>
      <p id={`${id}-count`} role="status">
        <strong>{formatCount(count)} selected</strong>
        {hidden > 0 ? ` (${formatCount(hidden)} hidden by the search or filters)` : ''}
      </p>
      <div className="selection-actions">
        <button type="button" className="primary" onClick={() => setEditing(true)}>
          Edit together…
        </button>
        <span className="export-selection">
          <label htmlFor={`${id}-format`} className="visually-hidden">
            Export format
          </label>
          <select id={`${id}-format`} value={format} onChange={(e) => setFormat(e.target.value as Format)}>
            {(Object.keys(FORMAT_LABELS) as Format[]).map((key) => (
              <option key={key} value={key}>
                {FORMAT_LABELS[key]}
              </option>
            ))}
          </select>
          <button type="button" onClick={() => void exportSelection()}>
            Export
          </button>
        </span>
        <button type="button" onClick={() => store.clear()}>
          Deselect all
        </button>
      </div>
      {editing && (
        <PartLoader what="the batch edit" overlay>
          <BatchEditDialog open localIds={ids} onClose={() => setEditing(false)} />
        </PartLoader>
      )}
    </section>
  );
}
