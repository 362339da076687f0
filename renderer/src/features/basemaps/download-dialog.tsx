// "Download this area": the map's view when the dialog opened and a zoom range (from the current
// zoom to a chosen deepest one, within the source's range) and a size cap; the host's plan (tiles,
// already cached, estimated size, or why it would be refused) follows every change. Start shows the
// download's progress; Cancel stops it; after a cancel or a failure, Resume starts the same area
// again (the host skips the tiles it has). Closing the dialog leaves a running download running.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type L from 'leaflet';
import { DEFAULT_DOWNLOAD_CAP_BYTES, MAX_DOWNLOAD_BYTES, type BasemapView, type DownloadAreaInput, type DownloadPlanView, type DownloadView } from '../../../../electron/shared/contract/index';
import { Modal } from '../../shared/ui/dialog';
import { useUi } from '../../shared/ui/ui-context';
import { FormActions, FormError } from '../../shared/ui/field';
import { useAppState } from '../../shared/store/app-store';
import { issueText } from '../../shared/issues';
import { boundsCentreText, downloadBounds, downloadZoomChoices, formatBytes, formatCount } from '../../map/basemaps';
import { applyDownload } from './basemaps-slice';

const CAP_CHOICES = [100 * 1024 ** 2, 250 * 1024 ** 2, DEFAULT_DOWNLOAD_CAP_BYTES, 1024 ** 3, MAX_DOWNLOAD_BYTES];

const STATE_WORDS: Record<DownloadView['state'], string> = {
  running: 'Downloading',
  cancelled: 'Cancelled',
  done: 'Done',
  failed: 'Stopped',
};

export function DownloadDialog({ map, basemap, onClose }: { map: L.Map; basemap: BasemapView; onClose: () => void }) {
  const ui = useUi();
  const id = useId();
  const downloads = useAppState(ui.store, (s) => s.downloads);
  // The area is the view when the dialog opened: panning behind the dialog does not change it.
  const [opened] = useState(() => {
    const b = map.getBounds();
    return { bounds: downloadBounds([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]), zoom: map.getZoom() };
  });
  const { from, choices } = downloadZoomChoices(basemap, opened.zoom);
  const [maxZoom, setMaxZoom] = useState(() => Math.min(from + 2, basemap.maxZoom));
  const [capBytes, setCapBytes] = useState(DEFAULT_DOWNLOAD_CAP_BYTES);
  const [plan, setPlan] = useState<DownloadPlanView | null>(null);
  const [planError, setPlanError] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The download this dialog follows: one it started, or the one running for this basemap when it opened.
  const [downloadId, setDownloadId] = useState<string | null>(() => [...downloads.values()].find((d) => d.state === 'running' && d.basemapId === basemap.id)?.id ?? null);
  const download = downloadId ? (downloads.get(downloadId) ?? null) : null;

  const area = useMemo<DownloadAreaInput>(() => ({ basemapId: basemap.id, bounds: opened.bounds, minZoom: from, maxZoom, maxBytes: capBytes }), [basemap.id, opened.bounds, from, maxZoom, capBytes]);

  // The plan follows the choices; an answer to an older choice is dropped.
  const planSeq = useRef(0);
  useEffect(() => {
    if (download) return;
    const seq = ++planSeq.current;
    const timer = setTimeout(async () => {
      try {
        const result = await ui.api.planDownload(area);
        if (seq !== planSeq.current) return;
        if (result.ok) {
          setPlan(result.value);
          setPlanError(null);
        } else {
          setPlan(null);
          setPlanError(issueText(result.issues));
        }
      } catch (error) {
        if (seq === planSeq.current) setPlanError(error instanceof Error ? error.message : String(error));
      }
    }, 200);
    return () => clearTimeout(timer);
  }, [ui.api, area, download]);

  async function start(input: DownloadAreaInput) {
    setBusy(true);
    setStartError(null);
    const result = await ui.call(() => ui.api.startDownload(input));
    setBusy(false);
    if (!result) return;
    if (!result.ok) {
      setStartError(issueText(result.issues));
      return;
    }
    applyDownload(ui.store, result.value, true);
    setDownloadId(result.value.id);
  }

  async function cancel(current: DownloadView) {
    const result = await ui.call(() => ui.api.cancelDownload(current.id));
    if (!result) return;
    if (result.ok) applyDownload(ui.store, result.value, true);
    else ui.toast(issueText(result.issues), { tone: 'error' });
  }

  const [west, south, east, north] = opened.bounds;
  const refusal = planError ?? plan?.refusal ?? null;

  return (
    <Modal open onClose={onClose} labelledBy={`${id}-title`} className="download-dialog">
      <h2 id={`${id}-title`}>Download this area</h2>
      <p>
        Tiles of <strong>{basemap.name}</strong> for the area on the map, kept on this computer for use offline.
      </p>
      <dl className="download-area">
        <dt>Area</dt>
        <dd>
          around {boundsCentreText(opened.bounds)}
          <span className="download-bounds">
            {' '}
            (west {west.toFixed(3)}, south {south.toFixed(3)}, east {east.toFixed(3)}, north {north.toFixed(3)})
          </span>
        </dd>
      </dl>

      {!download ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (plan && !refusal) void start(area);
          }}
        >
          <div className="download-choices">
            <div className="field">
              <label htmlFor={`${id}-zoom`}>Zoom levels</label>
              <select id={`${id}-zoom`} value={maxZoom} onChange={(e) => setMaxZoom(Number(e.target.value))}>
                {choices.map((z) => (
                  <option key={z} value={z}>
                    {z === from ? `${from} only` : `${from} to ${z}`}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-cap`}>Stop at</label>
              <select id={`${id}-cap`} value={capBytes} onChange={(e) => setCapBytes(Number(e.target.value))}>
                {CAP_CHOICES.map((bytes) => (
                  <option key={bytes} value={bytes}>
                    {formatBytes(bytes)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="hint">
            From the map&apos;s zoom ({from}) to the deepest you choose; {basemap.name} has zoom {basemap.minZoom}–{basemap.maxZoom}. Each level deeper is about four times as many tiles.
          </p>
          <div className="download-plan" aria-live="polite" data-testid="download-plan">
            {plan ? (
              <dl>
                <dt>Tiles</dt>
                <dd data-testid="plan-tiles">{formatCount(plan.tiles)}</dd>
                <dt>Already on this computer</dt>
                <dd data-testid="plan-cached">{formatCount(plan.tilesCached)}</dd>
                <dt>Estimated size</dt>
                <dd data-testid="plan-size">about {formatBytes(plan.estimatedBytes)}</dd>
                <dt>Size cap</dt>
                <dd>{formatBytes(plan.capBytes)}</dd>
              </dl>
            ) : (
              !planError && <p>Counting tiles…</p>
            )}
            <FormError message={refusal} alert />
          </div>
          <FormActions error={startError} alert submitLabel="Start download" busy={busy} busyLabel="Starting…" disabled={!plan || refusal !== null || busy} cancelLabel="Close" onCancel={onClose} />
        </form>
      ) : (
        <DownloadProgress download={download} busy={busy} onCancel={() => void cancel(download)} onResume={() => void start(download.area)} onClose={onClose} error={startError} />
      )}
    </Modal>
  );
}

function DownloadProgress({ download, busy, error, onCancel, onResume, onClose }: {
  download: DownloadView;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onResume: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const share = download.tiles > 0 ? download.tilesDone / download.tiles : 0;
  const ended = download.state !== 'running';
  return (
    <div className={`download-progress download-${download.state}`} data-testid="download-progress" data-state={download.state}>
      {/* The host's message names the state ("Cancelled: 40 of 120 tiles saved…"); the word is for a message-less view. */}
      <p className="download-state" role="status">
        {download.message || STATE_WORDS[download.state]}
      </p>
      <progress id={`${id}-bar`} max={Math.max(1, download.tiles)} value={download.tilesDone} aria-describedby={`${id}-text`} />
      <p id={`${id}-text`} className="download-numbers" data-testid="download-numbers">
        {formatCount(download.tilesDone)} of {formatCount(download.tiles)} tiles ({Math.floor(share * 100)}%) · {formatBytes(download.bytes)} of at most {formatBytes(download.capBytes)}
        {download.tilesFailed > 0 && ` · ${formatCount(download.tilesFailed)} the server did not give`}
      </p>
      <FormError message={error} alert />
      <div className="actions">
        {!ended && (
          <button type="button" className="danger-outline" onClick={onCancel}>
            Cancel download
          </button>
        )}
        {(download.state === 'cancelled' || download.state === 'failed') && (
          <button type="button" className="primary" disabled={busy} onClick={onResume}>
            {busy ? 'Resuming…' : 'Resume'}
          </button>
        )}
        <button type="button" onClick={onClose}>
          {ended ? 'Close' : 'Hide (keeps downloading)'}
        </button>
      </div>
    </div>
  );
}
