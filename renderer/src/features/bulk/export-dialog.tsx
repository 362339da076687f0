// Export the sites of the active profile: CSV with the import's own columns (a file exported and
// imported again changes nothing), KML with pins coloured as on the map (Google Earth), or GeoJSON
// (GIS tools). Every site, or only the sites the list shows (its search and filters). The host writes
// the file; the browser or Electron asks where to save it.
import { useId, useMemo, useState } from 'react';
import { saveFile } from './files';
import { countOf } from '../../shared/format';
import { isEmptyFilter, siteMatcher, type SiteFilter } from '../../shared/site-filter';
import { useAppState } from '../../shared/store/app-store';
import { Modal } from '../../shared/ui/dialog';
import { useUi } from '../../shared/ui/ui-context';

type Format = 'csv' | 'kml' | 'geojson';

const FORMATS: Array<[Format, string, string]> = [
  ['csv', 'CSV spreadsheet', 'Siteid, Sitename, height, Latitude, Longitude, Description, Group, Pinstyle: edit it in a spreadsheet and import it back.'],
  ['kml', 'KML for Google Earth', 'One pin per site, coloured by its pin colour.'],
  ['geojson', 'GeoJSON', 'Points for GIS tools such as QGIS.'],
];

export function ExportDialog({ open, onClose, filter }: { open: boolean; onClose: () => void; filter: SiteFilter }) {
  const ui = useUi();
  const id = useId();
  const [format, setFormat] = useState<Format>('csv');
  const [busy, setBusy] = useState(false);
  const [notes, setNotes] = useState<string[]>([]);
  const [which, setWhich] = useState<'shown' | 'all'>('shown');
  const sites = useAppState(ui.store, (s) => s.sites);
  const filtering = !isEmptyFilter(filter);
  const shown = useMemo(() => (open && filtering ? [...sites.values()].filter(siteMatcher(filter)).map((site) => site.localId) : null), [open, filtering, sites, filter]);
  const onlyShown = shown !== null && which === 'shown';

  async function exportNow() {
    setBusy(true);
    const result = await ui.call(() => ui.api.exportSites(format, onlyShown ? { localIds: shown } : {}));
    setBusy(false);
    if (!result) return;
    if (!result.ok) {
      setNotes(result.issues.map((issue) => issue.message));
      return;
    }
    saveFile(result.value);
    setNotes(result.value.notes);
    ui.toast(`Exported ${result.value.fileName}.`, { tone: 'success' });
  }

  return (
    <Modal
      open={open}
      onClose={() => {
        setNotes([]);
        onClose();
      }}
      labelledBy={`${id}-title`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void exportNow();
        }}
      >
        <h2 id={`${id}-title`}>Export sites</h2>
        <fieldset>
          <legend>Format</legend>
          {FORMATS.map(([value, label, help]) => (
            <label key={value} className="choice-line">
              <input type="radio" name={`${id}-format`} value={value} checked={format === value} onChange={() => setFormat(value)} />
              <span>
                <strong>{label}</strong>
                <br />
                <small>{help}</small>
              </span>
            </label>
          ))}
        </fieldset>
        {shown !== null && (
          <fieldset>
            <legend>Which sites</legend>
            <label className="choice-line">
              <input type="radio" name={`${id}-which`} checked={which === 'shown'} onChange={() => setWhich('shown')} />
              <span>
                <strong>Only the sites shown ({countOf(shown.length, 'site', 'sites')})</strong>
                <br />
                <small>The list's search and filters decide, as on the map.</small>
              </span>
            </label>
            <label className="choice-line">
              <input type="radio" name={`${id}-which`} checked={which === 'all'} onChange={() => setWhich('all')} />
              <span>
                <strong>Every site ({countOf(sites.size, 'site', 'sites')})</strong>
              </span>
            </label>
          </fieldset>
        )}
        {notes.length > 0 && (
          <ul className="notes" role="status">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Exporting…' : 'Export'}
          </button>
          <button
            type="button"
            onClick={() => {
              setNotes([]);
              onClose();
            }}
          >
            Close
          </button>
        </div>
      </form>
    </Modal>
  );
}
