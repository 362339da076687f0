// The map's basemap controls. The switcher, under the zoom buttons: a compact layers button that
// opens the list of basemaps (radio buttons: arrow keys move, Escape closes) with "Download this
// area…" or, where a server's terms forbid it, the reason. The notices about the basemap sit at the
// top of the map, in the middle, where the eye goes after a pan or a switch: "you are outside this
// basemap" with a "Go there", a file that can no longer be read, a running area download. MapView's
// own tile notice is in its bottom-left stack, above the coordinates.
import { useEffect, useId, useRef, useState } from 'react';
import L from 'leaflet';
import type { BasemapView } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { useUi } from '../../shared/ui/ui-context';
import { issueText } from '../../shared/issues';
import { userNavigated } from '../../map/navigation';
import { basemapNote, boundsCentre, canDownloadArea, formatCount, isFileBasemap, outsideOf, outsideSentence, type MapViewState } from '../../map/basemaps';
import './basemaps.css';
import { applyBasemaps } from './basemaps-slice';
import { lazyPart, PartLoader } from '../../shared/ui/lazy-part';

// The download dialog is loaded when it is first opened: most sessions never open it.
const DownloadDialog = lazyPart(() => import('./download-dialog').then((m) => m.DownloadDialog));

export interface BasemapControlsProps {
  map: L.Map | null;
  /** The download dialog is open (the map's menu opens it too). */
  downloadOpen: boolean;
  onDownloadOpen: (open: boolean) => void;
}

/** The map's view, kept current as it moves. */
function useMapView(map: L.Map | null): MapViewState | null {
  const [view, setView] = useState<MapViewState | null>(null);
  useEffect(() => {
    if (!map) return;
    const read = () => {
      const b = map.getBounds();
      setView({ bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom: map.getZoom() });
    };
    read();
    map.on('moveend zoomend resize', read);
    return () => {
      map.off('moveend zoomend resize', read);
    };
  }, [map]);
  return view;
}

/** Shows all of a basemap's area at a zoom it has tiles for. */
export function goTo(map: L.Map, basemap: BasemapView): void {
  userNavigated(map);
  const zoomOf = (z: number) => Math.max(basemap.minZoom, Math.min(basemap.maxZoom, z));
  if (!basemap.bounds) {
    map.setZoom(zoomOf(map.getZoom()));
    return;
  }
  const [west, south, east, north] = basemap.bounds;
  const area = L.latLngBounds([south, west], [north, east >= west ? east : east + 360]);
  const zoom = zoomOf(map.getBoundsZoom(area, false));
  const [lat, lng] = boundsCentre(basemap.bounds);
  map.setView([lat, lng], zoom);
}

export function BasemapControls({ map, downloadOpen, onDownloadOpen }: BasemapControlsProps) {
  const ui = useUi();
  const basemaps = useAppState(ui.store, (s) => s.basemaps);
  const downloads = useAppState(ui.store, (s) => s.downloads);
  const active = basemaps.find((b) => b.active) ?? null;
  const view = useMapView(map);
  const [open, setOpen] = useState(false);
  // The basemap just chosen, shown checked while the host switches to it.
  const [choosing, setChoosing] = useState<string | null>(null);
  const listId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const running = [...downloads.values()].find((d) => d.state === 'running') ?? null;

  // Escape or a press elsewhere closes the list; Escape gives focus back to its button.
  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    (panel?.querySelector<HTMLInputElement>('input:checked') ?? panel?.querySelector<HTMLInputElement>('input'))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, [open]);

  if (basemaps.length === 0) return null;

  const outside = active && view && !active.problem ? outsideOf(active, view) : null;
  const downloadable = canDownloadArea(active);

  async function choose(basemap: BasemapView) {
    if (basemap.active) return;
    setChoosing(basemap.id);
    const result = await ui.call(() => ui.api.useBasemap(basemap.id));
    setChoosing(null);
    if (!result) return;
    if (result.ok) applyBasemaps(ui.store, result.value);
    else ui.toast(issueText(result.issues), { tone: 'error' });
  }

  const notices = (
    <>
      {active?.problem && (
        <div className="basemap-notice basemap-problem" role="alert">
          <strong>{active.name}:</strong> {active.problem}
        </div>
      )}
      {active && outside && map && (
        <div className="basemap-notice" role="status" data-testid="basemap-outside">
          <span>{outsideSentence(active)}</span>
          <button type="button" onClick={() => goTo(map, active)}>
            Go there
          </button>
        </div>
      )}
      {running && !downloadOpen && (
        <div className="basemap-notice basemap-download-chip">
          <span>
            Downloading an area: {formatCount(running.tilesDone)} of {formatCount(running.tiles)} tiles
          </span>
          <button type="button" onClick={() => onDownloadOpen(true)}>
            Show
          </button>
        </div>
      )}
    </>
  );

  return (
    <>
      <div className="basemap-notices">{notices}</div>

      <div className="basemap-switcher">
        <button
          ref={buttonRef}
          type="button"
          className="basemap-button"
          title={active ? `Basemap: ${active.name}` : 'Basemap'}
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          onClick={() => setOpen(!open)}
        >
          <LayersIcon />
          <span className="visually-hidden">Basemap: {active?.name ?? 'none'}</span>
        </button>

        {open && (
          <div ref={panelRef} className="basemap-panel" id={listId}>
            <fieldset className="basemap-list">
              <legend>Basemap</legend>
              {basemaps.map((b) => (
                <label key={b.id} className={`basemap-option ${(choosing ?? active?.id) === b.id ? 'checked' : ''}`}>
                  <input type="radio" name={`${listId}-basemap`} checked={(choosing ?? active?.id) === b.id} onChange={() => void choose(b)} />
                  <span className="basemap-option-text">
                    <span className="basemap-option-name">{b.name}</span>
                    <span className="basemap-option-meta">{basemapNote(b)}</span>
                    {b.problem && <span className="basemap-option-problem">{b.problem}</span>}
                  </span>
                </label>
              ))}
            </fieldset>
            <div className="basemap-panel-actions">
              {downloadable ? (
                <button
                  type="button"
                  onClick={() => {
                    setOpen(false);
                    onDownloadOpen(true);
                  }}
                >
                  Download this area…
                </button>
              ) : (
                active?.downloadRefusal &&
                !isFileBasemap(active) && (
                  <p className="basemap-refusal" data-testid="download-refusal">
                    {active.downloadRefusal}
                  </p>
                )
              )}
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setOpen(false);
                  ui.openPanel('settings', 'basemaps');
                }}
              >
                Manage basemaps…
              </button>
            </div>
          </div>
        )}
      </div>

      {map && active && downloadOpen && (
        <PartLoader what="the download dialog" overlay>
          <DownloadDialog map={map} basemap={active} onClose={() => onDownloadOpen(false)} />
        </PartLoader>
      )}
    </>
  );
}

function LayersIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M12 3 2 8.5 12 14l10-5.5z" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" />
      <path d="m2 13 10 5.5L22 13" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" />
    </svg>
  );
}
