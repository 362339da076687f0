// The application shell: status bar and banners on top, a sidebar with the panels (sites, outbox,
// EUS, rendering qualities, settings), the map filling the rest and the site form docked over it.
// It owns the cross-panel state (selection, add-site mode, the open form; move mode and a pin being
// moved are useMoveWithUndo's), the UI context every panel uses for calls, toasts and confirmations,
// and where keyboard focus goes when a mode ends or the form closes (app/focus.ts: never to <body>).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SiteView } from '../../../electron/shared/contract/index';
import { type AppStore, describeError, useAppState } from '../shared/store/app-store';
import type { HostLink } from '../api';
import { MapView, type MapHandle } from '../map/map-view';
import { SiteForm } from '../features/sites/site-form';
import { SitesPanel } from '../features/sites/sites-panel';
import { formatDistance } from '../shared/format';
import { NO_FILTER, readMapFollowsList, writeMapFollowsList, type SiteFilter } from '../shared/site-filter';
import { OutboxPanel } from '../features/outbox/outbox-panel';
import { EusPanel } from '../features/eus/eus-panel';
import { QualitiesPanel } from '../features/eus/qualities-panel';
import { SettingsPanel } from '../features/settings/settings-panel';
import { Onboarding } from '../features/settings/onboarding';
import { Banners, StatusBar } from '../features/status/status-bar';
import { ConfirmDialog, useConfirmDialog } from '../shared/ui/dialog';
import { ToastRegion } from '../shared/ui/toast';
import { UiContext, type BulkDialog, type Panel, type Toast, type Ui } from '../shared/ui/ui-context';
import { ImportDialog } from '../features/bulk/import-dialog';
import { ExportDialog } from '../features/bulk/export-dialog';
import { ReprocessFileDialog } from '../features/bulk/reprocess-file-dialog';
import { useMoveWithUndo } from '../features/sites/use-move-with-undo';
import type { PickedFix, SiteFormRequest } from '../shared/ui/ui-context';
import { LocationControl, pickedFix, type StakeRequest, type StakeResult } from '../features/location';
import { BasemapControls } from '../features/basemaps';
import { currentFocus, firstPresent, focusLost, formReturnOrder, type FocusTarget, type FormReturn } from './focus';
import { useApplyTheme } from '../shared/theme';
import { gateFor } from '../../../electron/shared/gps/gate';
import { useMapSelection } from '../features/selection';

const PANELS: { id: Panel; label: string; title: string }[] = [
  { id: 'sites', label: 'Sites', title: 'Sites' },
  { id: 'outbox', label: 'Outbox', title: 'Outbox: changes to send' },
  { id: 'eus', label: 'EUS', title: 'EUS reprocess' },
  { id: 'qualities', label: 'Qualities', title: 'Rendering qualities' },
  { id: 'settings', label: 'Settings', title: 'Settings' },
];

const TOAST_MS = 8_000;
/** The docked form's width (app/base.css --form). */
const FORM_WIDTH = 420;

function byData(name: string, value: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${name}="${CSS.escape(value)}"]`);
}
const siteCard = (localId: string) => byData('data-site-card', localId);
const siteRow = (localId: string) => byData('data-local-id', localId)?.querySelector<HTMLElement>('.row-main') ?? null;
const moveButton = (localId: string) => byData('data-move-site', localId);

export function App({ store, onHostLink }: { store: AppStore; onHostLink: (listener: (link: HostLink) => void) => () => void }) {
  const api = store.api;
  const [panel, setPanel] = useState<Panel>('sites');
  const [panelFocus, setPanelFocus] = useState<string | undefined>(undefined);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // The list's search and filters live here, so the map can show exactly what the list shows.
  const [siteFilter, setSiteFilter] = useState<SiteFilter>(NO_FILTER);
  const [mapFollowsList, setMapFollowsList] = useState(readMapFollowsList);
  const [form, setForm] = useState<{ request: SiteFormRequest; seq: number } | null>(null);
  const [addMode, setAddMode] = useState<'new' | 'pick' | null>(null);
  const [picked, setPicked] = useState<{ lat: number; lng: number; seq: number; fix?: PickedFix } | null>(null);
  // "Stake here" / "Move site to my position" from the form: My location averages, the form gets the result as a pick.
  const [stakeRequest, setStakeRequest] = useState<StakeRequest | null>(null);
  const onStakeDone = useCallback((result: StakeResult | null) => {
    if (result) setPicked((p) => ({ lat: result.lat, lng: result.lon, seq: (p?.seq ?? 0) + 1, fix: pickedFix(result) }));
  }, []);
  const [downloadOpen, setDownloadOpen] = useState(false);
  const gateM = useAppState(store, (s) => gateFor(s.settings.gpsGates, s.profiles.find((p) => p.active)?.id));
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [draftsVersion, setDraftsVersion] = useState(0);
  const [link, setLink] = useState<HostLink>({ state: 'ok' });
  const hostDown = link.state !== 'ok';
  const [bulkDialog, setBulkDialog] = useState<BulkDialog | null>(null);
  const { state: confirmState, confirm, close: closeConfirm } = useConfirmDialog();
  const mapHandle = useRef<MapHandle>(null);
  const mapSelection = useMapSelection();
  const toastSeq = useRef(0);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const useCentreRef = useRef<HTMLButtonElement>(null);
  const cancelMoveRef = useRef<HTMLButtonElement>(null);
  /** The control that started add-site or pick mode, and the one that opened the form: focus goes back there. */
  const addOpener = useRef<FocusTarget | null>(null);
  const formOpener = useRef<FocusTarget | null>(null);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selectedId;
  // Focus moves after React has drawn the screen it belongs to (the target may be a new element).
  const [focusRequest, setFocusRequest] = useState<{ targets: FocusTarget[]; onlyIfLost: boolean; seq: number } | null>(null);
  const focusSoon = useCallback((targets: Array<FocusTarget | null>, onlyIfLost = false) => {
    setFocusRequest((r) => ({ targets: targets.filter((t): t is FocusTarget => t !== null), onlyIfLost, seq: (r?.seq ?? 0) + 1 }));
  }, []);
  useEffect(() => {
    if (!focusRequest) return;
    if (focusRequest.onlyIfLost && !focusLost(document.activeElement, document.body)) return;
    firstPresent(focusRequest.targets)?.focus();
  }, [focusRequest]);
  const mapTarget = useCallback<FocusTarget>(() => mapHandle.current?.element(), []);
  const outbox = useAppState(store, (s) => s.outbox);
  const settings = useAppState(store, (s) => s.settings);
  const loaded = useAppState(store, (s) => s.loaded);
  useApplyTheme(loaded ? settings.theme : null);
  const attention = useMemo(() => [...outbox.values()].filter((e) => e.state === 'failed' || e.state === 'needs-review' || e.state === 'paused').length, [outbox]);

  useEffect(() => {
    let down = false;
    return onHostLink((next) => {
      setLink(next);
      // Back (restarted and its new address pasted, or reachable again): events were missed meanwhile.
      if (down && next.state === 'ok') void store.start();
      down = next.state !== 'ok';
    });
  }, [onHostLink, store]);

  const dismissToast = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);

  const toast = useCallback<Ui['toast']>(
    (message, options) => {
      const id = ++toastSeq.current;
      setToasts((t) => [...t.slice(-3), { id, message, tone: options?.tone ?? 'info', ...(options?.action ? { action: options.action } : {}) }]);
      setTimeout(() => dismissToast(id), options?.action ? TOAST_MS * 2 : TOAST_MS);
    },
    [dismissToast],
  );

  const call = useCallback<Ui['call']>(
    async (run) => {
      try {
        const value = await run();
        store.setConnectionError(null);
        return value;
      } catch (error) {
        toast(`That did not work: ${describeError(error)}`, { tone: 'error' });
        return undefined;
      }
    },
    [store, toast],
  );

  const openPanel = useCallback((next: Panel, focus?: string) => {
    setPanel(next);
    setPanelFocus(focus);
  }, []);

  const move = useMoveWithUndo(
    { store, api, call, confirm, toast },
    {
      // Back to the card's Move button (or the card, or the map) if the control that had focus is gone.
      onEnded: () => {
        const id = selectedRef.current;
        focusSoon(id ? [() => moveButton(id), () => siteCard(id), mapTarget] : [mapTarget], true);
      },
    },
  );
  const { cancelMove, startMove, selected: moveSelected } = move;

  const openSiteForm = useCallback(
    (request: SiteFormRequest) => {
      cancelMove();
      // Opened from add mode: back to what started it (its buttons are gone by now).
      formOpener.current = addOpener.current ?? currentFocus();
      addOpener.current = null;
      setAddMode(null);
      setForm((f) => ({ request, seq: (f?.seq ?? 0) + 1 }));
      if (request.mode === 'edit') {
        setSelectedId(request.localId);
        moveSelected(request.localId);
      }
    },
    [cancelMove, moveSelected],
  );

  const selectSite = useCallback(
    (localId: string | null, pan = false) => {
      setSelectedId(localId);
      moveSelected(localId);
      if (localId) {
        setPanel('sites');
        if (pan) mapHandle.current?.showSite(localId);
      }
    },
    [moveSelected],
  );

  /** Add-site mode ('new') or picking a position for the open form ('pick'); focus goes to "Use map centre", the keyboard's way on. */
  const startAddMode = useCallback(
    (kind: 'new' | 'pick', opener: FocusTarget) => {
      cancelMove();
      addOpener.current = opener;
      setAddMode(kind);
      focusSoon([() => useCentreRef.current]);
    },
    [cancelMove, focusSoon],
  );

  const cancelAddMode = useCallback(() => {
    setAddMode(null);
    focusSoon([addOpener.current, mapTarget]);
    addOpener.current = null;
  }, [focusSoon, mapTarget]);

  const startMoveFrom = useCallback(
    (localId: string, from: 'card' | 'menu') => {
      setAddMode(null);
      addOpener.current = null;
      selectSite(localId);
      if (!startMove(localId)) return;
      mapHandle.current?.ensureVisible(localId);
      // From the card, focus stays on its (now pressed) Move button; from the menu, which is gone, to Cancel move.
      if (from === 'menu') focusSoon([() => cancelMoveRef.current, mapTarget]);
    },
    [focusSoon, mapTarget, selectSite, startMove],
  );

  const ui = useMemo<Ui>(
    () => ({ store, api, toast, confirm, openPanel, openSiteForm, openBulk: setBulkDialog, selectSite, call }),
    [store, api, toast, confirm, openPanel, openSiteForm, selectSite, call],
  );

  const closeForm = useCallback(
    (saved: SiteView | null) => {
      setForm(null);
      setAddMode(null);
      setDraftsVersion((v) => v + 1);
      if (saved) {
        setSelectedId(saved.localId);
        moveSelected(saved.localId);
        setPanel('sites');
      }
      const opener = formOpener.current;
      formOpener.current = null;
      const selected = saved?.localId ?? selectedRef.current;
      const places: Record<FormReturn, FocusTarget | null> = {
        'site-card': saved ? () => siteCard(saved.localId) : null,
        'site-row': saved ? () => siteRow(saved.localId) : null,
        opener,
        'selected-card': selected ? () => siteCard(selected) : null,
        map: mapTarget,
      };
      focusSoon(formReturnOrder(saved !== null).map((place) => places[place]));
    },
    [focusSoon, mapTarget, moveSelected],
  );

  const onPick = useCallback(
    (lat: number, lng: number, fix?: PickedFix) => {
      if (addMode === 'pick') {
        setPicked((p) => ({ lat, lng, seq: (p?.seq ?? 0) + 1, ...(fix ? { fix } : {}) }));
        // Back in the form, on the control that asked for the pick.
        cancelAddMode();
        return;
      }
      openSiteForm({ mode: 'new', lat, lng, ...(fix ? { fix } : {}) });
    },
    [addMode, cancelAddMode, openSiteForm],
  );

  const formOpen = form !== null;
  const editedId = form?.request.mode === 'edit' ? form.request.localId : null;
  // The site being edited stays in sight beside the form.
  useEffect(() => {
    if (editedId) mapHandle.current?.ensureVisible(editedId);
  }, [editedId]);

  return (
    <UiContext.Provider value={ui}>
      <div className={`app ${formOpen ? 'form-open' : ''}`}>
        {/* With Sitewalk itself stopped every action would fail: they are held back, visibly, until it
            is back. The panel's scrolling box stays outside them, so the keyboard can still scroll it. */}
        <fieldset className="app-controls" disabled={hostDown}>
          <StatusBar hostDown={hostDown} />
          <Banners hostLink={link} />
        </fieldset>
        <div className="body">
          <aside className="sidebar" aria-label="Panels">
            <fieldset className="app-controls" disabled={hostDown}>
              <nav className="tabs" aria-label="Panels">
                {PANELS.map((p) => (
                  <button key={p.id} type="button" className={`tab ${panel === p.id ? 'current' : ''}`} aria-current={panel === p.id ? 'page' : undefined} onClick={() => openPanel(p.id)}>
                    {p.label}
                    {p.id === 'outbox' && attention > 0 && <span className="count" aria-label={`${attention} need attention`}>{attention}</span>}
                  </button>
                ))}
              </nav>
            </fieldset>
            <div className="panel" role="region" aria-labelledby="panel-title" tabIndex={hostDown ? 0 : undefined}>
              <fieldset className="app-controls" disabled={hostDown}>
                <h2 id="panel-title" className="panel-title">
                  {PANELS.find((p) => p.id === panel)?.title}
                </h2>
                {panel === 'sites' && (
                  <SitesPanel
                    selectedId={selectedId}
                    onAddSite={() => startAddMode('new', currentFocus())}
                    movingId={move.movableId}
                    onToggleMove={(localId) => (move.movableId === localId ? cancelMove() : startMoveFrom(localId, 'card'))}
                    draftsVersion={draftsVersion}
                    onDraftsChanged={() => setDraftsVersion((v) => v + 1)}
                    filter={siteFilter}
                    onFilterChange={setSiteFilter}
                    mapFollowsList={mapFollowsList}
                    onMapFollowsListChange={(on) => {
                      setMapFollowsList(on);
                      writeMapFollowsList(on);
                    }}
                  />
                )}
                {panel === 'outbox' && <OutboxPanel />}
                {panel === 'eus' && <EusPanel />}
                {panel === 'qualities' && <QualitiesPanel />}
                {panel === 'settings' && <SettingsPanel focusProfileId={panelFocus} />}
              </fieldset>
            </div>
          </aside>
          <main className="map-area">
            <fieldset className="app-controls" disabled={hostDown}>
              <div className="map-toolbar">
                {addMode === null && move.mode.phase === 'armed' ? (
                  <div className="map-hint move-hint" role="status">
                    <span className="move-words">
                      <strong>Drag the pin to its new place — Esc to cancel</strong>
                      <span className="move-keys">
                        {move.nudgedMeters === null ? 'or nudge it with the arrow keys, then Enter' : `${formatDistance(move.nudgedMeters)} from the site — Enter to confirm`}
                      </span>
                    </span>
                    <button ref={cancelMoveRef} type="button" onClick={cancelMove}>
                      Cancel move
                    </button>
                  </div>
                ) : addMode === null ? (
                  <>
                    <button ref={addButtonRef} type="button" className="primary add-site" onClick={() => startAddMode('new', () => addButtonRef.current)}>
                      + Add site
                    </button>
                    <button type="button" onClick={() => mapHandle.current?.fitAll()}>
                      Show all sites
                    </button>
                  </>
                ) : (
                  <div className="map-hint" role="status">
                    <strong>{addMode === 'new' ? 'Click the map where the new site is.' : 'Click the map to set the position.'}</strong>
                    <button
                      ref={useCentreRef}
                      type="button"
                      onClick={() => {
                        const c = mapHandle.current?.center();
                        if (c) onPick(c.lat, c.lng);
                      }}
                    >
                      Use map centre
                    </button>
                    <button type="button" onClick={cancelAddMode}>
                      Cancel
                    </button>
                  </div>
                )}
              </div>
              <MapView
                store={store}
                settings={settings}
                selectedId={selectedId}
                filter={mapFollowsList ? siteFilter : null}
                addMode={addMode !== null}
                movableId={move.movableId}
                movePreview={move.preview}
                onPick={onPick}
                onDownloadArea={() => setDownloadOpen(true)}
                controls={(map) => <BasemapControls map={map} downloadOpen={downloadOpen} onDownloadOpen={setDownloadOpen} />}
                bottomRight={(map) => (
                  <LocationControl
                    map={map}
                    settings={settings}
                    gateM={gateM}
                    stakeRequest={stakeRequest}
                    onAddSiteHere={(result) => onPick(result.lat, result.lon, pickedFix(result))}
                    onStakeDone={onStakeDone}
                  />
                )}
                onSelect={(id) => selectSite(id)}
                {...mapSelection}
                onDrop={(id, lat, lng) => void move.moveSite(id, lat, lng)}
                onNudge={move.nudge}
                onStartMove={(id) => startMoveFrom(id, 'menu')}
                onEdit={(id) => openSiteForm({ mode: 'edit', localId: id })}
                onCancelAdd={cancelAddMode}
                rightInset={formOpen ? FORM_WIDTH : 0}
                handle={mapHandle}
                messages={<ToastRegion toasts={toasts} dismiss={dismissToast} />}
              />
              {form && (
                <SiteForm
                  key={`${form.seq}`}
                  request={form.request}
                  onClose={closeForm}
                  picked={picked}
                  onPickOnMap={() => startAddMode('pick', currentFocus())}
                  onStakeHere={(target) => setStakeRequest((r) => ({ seq: (r?.seq ?? 0) + 1, target }))}
                />
              )}
            </fieldset>
          </main>
        </div>
        <Onboarding />
        <ImportDialog open={bulkDialog === 'import'} onClose={() => setBulkDialog(null)} />
        <ExportDialog open={bulkDialog === 'export'} onClose={() => setBulkDialog(null)} filter={siteFilter} />
        <ReprocessFileDialog open={bulkDialog === 'reprocess'} onClose={() => setBulkDialog(null)} />
        <ConfirmDialog state={confirmState} onDone={closeConfirm} />
      </div>
    </UiContext.Provider>
  );
}
