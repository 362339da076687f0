// Rendering qualities: a reference list (ID, name, error) for the coverage operation. The main process
// caches it on disk, so the panel works offline and says when it shows the saved copy; refresh asks
// the service again, and each ID can be copied with one tap.
import { useCallback, useEffect, useState } from 'react';
import type { RenderingQualitiesView } from '../../../../electron/shared/contract/index';
import { relativeTime } from '../../shared/format';
import { Problem } from '../../shared/ui/problem';
import { useUi } from '../../shared/ui/ui-context';

export function QualitiesPanel() {
  const ui = useUi();
  const [view, setView] = useState<RenderingQualitiesView | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (refresh: boolean) => {
      setLoading(true);
      const result = await ui.call(() => ui.api.getRenderingQualities({ refresh }));
      setLoading(false);
      if (result) setView(result);
    },
    [ui],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  async function copy(id: number) {
    const text = String(id);
    try {
      await navigator.clipboard.writeText(text);
      ui.toast(`Copied rendering quality ID ${text}.`, { tone: 'success' });
    } catch {
      ui.toast(`Could not reach the clipboard; the ID is ${text}.`, { tone: 'error' });
    }
  }

  return (
    <div className="qualities-panel">
      <div className="panel-actions">
        <button type="button" className="primary" disabled={loading} onClick={() => void load(true)}>
          {loading ? 'Loading…' : 'Refresh from the service'}
        </button>
      </div>
      {view && (
        <p className="form-help" role="status">
          {view.fetchedAt ? `${view.fromCache ? 'Saved copy' : 'Fetched'} ${relativeTime(view.fetchedAt)}.` : 'Not fetched yet.'}
          {view.fromCache && view.fetchedAt && ' Shown from this computer’s copy.'}
        </p>
      )}
      {view?.problem && <Problem problem={view.problem} alert />}
      {view && view.items.length > 0 && (
        <table className="qualities">
          <caption className="visually-hidden">Rendering qualities</caption>
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Name</th>
              <th scope="col">Error</th>
              <th scope="col">
                <span className="visually-hidden">Copy</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.items.map((item) => (
              <tr key={item.id}>
                <td className="num">{item.id}</td>
                <td>{item.name}</td>
                <td>{item.error ? item.error : <span className="muted">none</span>}</td>
                <td>
                  <button type="button" aria-label={`Copy ID ${item.id} (${item.name})`} onClick={() => void copy(item.id)}>
                    Copy ID
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view && view.items.length === 0 && !view.problem && <p className="empty">The service listed no rendering qualities.</p>}
    </div>
  );
}
