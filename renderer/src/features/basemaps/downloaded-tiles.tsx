// Settings → Basemaps → Downloaded areas: what the area downloads take on disk together, the one
// limit the user sets for all of them, and "Clear downloaded tiles". Read again whenever a download
// changes, so the figure follows a running download.
import { useEffect, useId, useState } from 'react';
import type { OfflineTilesView } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { issuesByField } from '../../shared/issues';
import { formatBytes } from '../../map/basemaps';
import { InputField } from '../../shared/ui/field';
import { callWithToast, ConfirmButton, useUi } from '../../shared/ui/ui-context';

const MB = 1024 * 1024;

export function DownloadedTiles() {
  const ui = useUi();
  const downloads = useAppState(ui.store, (s) => s.downloads);
  const [view, setView] = useState<OfflineTilesView | null>(null);
  const [limit, setLimit] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();

  useEffect(() => {
    let live = true;
    void ui.call(() => ui.api.getOfflineTiles()).then((next) => {
      if (live && next) setView(next);
    });
    return () => {
      live = false;
    };
  }, [ui, downloads]);

  const limitBytes = view?.limitBytes;
  useEffect(() => {
    if (limitBytes !== undefined) setLimit(String(Math.round(limitBytes / MB)));
  }, [limitBytes]);

  if (!view) return null;
  return (
    <div className="downloaded-tiles" aria-labelledby={`${id}-title`} role="group">
      <h4 id={`${id}-title`}>Downloaded areas</h4>
      <p>
        Downloaded tiles take <strong>{formatBytes(view.bytesOnDisk)}</strong> on disk of the {formatBytes(view.limitBytes)} allowed for all of them.
      </p>
      <form
        className="downloaded-tiles-limit"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const megabytes = Number(limit);
          if (!Number.isFinite(megabytes) || megabytes <= 0) {
            setError('Give the limit in megabytes, like 2048.');
            return;
          }
          const result = await ui.call(() => ui.api.setOfflineTilesLimit(Math.round(megabytes * MB)));
          if (!result) return;
          if (!result.ok) {
            setError(issuesByField(result.issues)['limitBytes'] ?? result.issues[0]?.message);
            return;
          }
          setError(undefined);
          setView(result.value);
          ui.toast(`Downloaded tiles may now take up to ${formatBytes(result.value.limitBytes)}.`, { tone: 'info' });
        }}
      >
        <InputField label="Limit for all downloaded tiles (MB)" id={`${id}-limit`} inputMode="numeric" value={limit} error={error} onChange={(event) => setLimit(event.target.value)} />
        <div className="actions">
          <button type="submit">Save limit</button>
          <ConfirmButton
            confirm={{
              title: 'Clear downloaded tiles?',
              body: 'Every area downloaded for offline use is removed (a running download stops first). Tiles seen while browsing stay in the cache.',
              confirmLabel: 'Clear downloaded tiles',
            }}
            onConfirmed={async () => {
              const done = await callWithToast(ui, () => ui.api.clearDownloadedTiles());
              if (!done) return;
              setView(done.value);
              ui.toast('Downloaded tiles cleared.', { tone: 'info' });
            }}
          >
            Clear downloaded tiles
          </ConfirmButton>
        </div>
      </form>
    </div>
  );
}
