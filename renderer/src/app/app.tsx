// The application shell: status bar and banners on top, a sidebar with the panels (sites, outbox,
// EUS, rendering qualities, settings), the map filling the rest and the site form docked over it.
// It composes the features and hands them the UI context (calls, toasts, confirmations, navigation);
// what the user is doing with the map (the active tool, the menu, the form) is the interaction
// (map/tools/interaction.ts), and the steps between modes, with where focus goes, are use-site-flow.ts.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type AppStore, describeError, useAppState } from '../shared/store/app-store';
import type { HostLink } from '../api';
import { MapView, type MapHandle } from '../map/map-view';
import { InteractionStore, useInteraction } from '../map/tools/interaction-store';
import { SitesPanel } from '../features/sites/sites-panel';
import { useSiteFilter } from '../features/sites/use-site-filter';
import { Onboarding } from '../features/settings';
import { Banners, StatusBar } from '../features/status/status-bar';
import { useHostLink } from '../features/status/use-host-link';
import { LocationControl, pickedFix } from '../features/location';
import { BasemapControls } from '../features/basemaps';
import { ConfirmDialog, useConfirmDialog } from '../shared/ui/dialog';
import { ToastRegion, useToasts } from '../shared/ui/toast';
import { UiContext, type BulkDialog, type Panel, type Ui } from '../shared/ui/ui-context';
import { useApplyTheme } from '../shared/theme';
import { gateFor } from '../../../electron/shared/gps/gate';
import { BulkDialogs } from './bulk-dialogs';
import { BasemapSettings, EusPanel, OutboxPanel, PositionSettings, QualitiesPanel, SettingsPanel, SiteForm } from './lazy-parts';
import { PartLoader } from '../shared/ui/lazy-part';
import { currentFocus } from './focus';
import { MapToolbar } from './map-toolbar';
import { useFocusSoon } from './use-focus-soon';
import { useAfterFirstFrame } from './use-after-first-frame';
import { useSiteFlow } from './use-site-flow';
import { useMapSelection } from '../features/selection';

const PANELS: { id: Panel; label: string; title: string }[] = [
  { id: 'sites', label: 'Sites', title: 'Sites' },
  { id: 'outbox', label: 'Outbox', title: 'Outbox: changes to send' },
  { id: 'eus', label: 'EUS', title: 'EUS reprocess' },
  { id: 'qualities', label: 'Qualities', title: 'Rendering qualities' },
  { id: 'settings', label: 'Settings', title: 'Settings' },
];

/** The docked form's width (app/base.css --form). */
const FORM_WIDTH = 420;

export function App({ store, onHostLink }: { store: AppStore; onHostLink: (listener: (link: HostLink) => void) => () => void }) {
  const api = store.api;
  const panelsShown = useAfterFirstFrame();
  const [{ panel, focus: panelFocus }, setPanelState] = useState<{ panel: Panel; focus?: string }>({ panel: 'sites' });
  const openPanel = useCallback((next: Panel, focus?: string) => setPanelState({ panel: next, focus }), []);
  const [bulkDialog, setBulkDialog] = useState<BulkDialog | null>(null);
  const [interaction] = useState(() => new InteractionStore());
  const tool = useInteraction(interaction, (s) => s.tool);
  const form = useInteraction(interaction, (s) => s.form);
  const picked = useInteraction(interaction, (s) => s.picked);
  const sites = useSiteFilter();
  const link = useHostLink(store, onHostLink);
  const hostDown = link.state !== 'ok';
  const { toasts, toast, dismiss: dismissToast, hold: holdToasts } = useToasts();
  const { state: confirmState, confirm, close: closeConfirm } = useConfirmDialog();
  const mapHandle = useRef<MapHandle>(null);
  const mapSelection = useMapSelection();
  const focusSoon = useFocusSoon();
  const outbox = useAppState(store, (s) => s.outbox);
  const settings = useAppState(store, (s) => s.settings);
  const loaded = useAppState(store, (s) => s.loaded);
  const gateM = useAppState(store, (s) => gateFor(s.settings.gpsGates, s.profiles.find((p) => p.active)?.id));
  useApplyTheme(loaded ? settings.theme : null);
  const attention = useMemo(() => [...outbox.values()].filter((e) => e.state === 'failed' || e.state === 'needs-review' || e.state === 'paused').length, [outbox]);

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

  const flow = useSiteFlow({ store, api, call, confirm, toast }, interaction, mapHandle, focusSoon, openPanel);
  const { selectedId, move, selectSite, openSiteForm, onPick } = flow;
  const ui = useMemo<Ui>(
    () => ({ store, api, toast, confirm, openPanel, openSiteForm, openBulk: setBulkDialog, selectSite, call }),
    [store, api, toast, confirm, openPanel, openSiteForm, selectSite, call],
  );
  const closeForm = flow.closeForm;
  const { draftsChanged } = sites;
  const onFormClosed = useCallback(
    (saved: Parameters<typeof closeForm>[0]) => {
      closeForm(saved);
      draftsChanged();
    },
    [closeForm, draftsChanged],
  );
  const onFormPlace = useCallback((place: { lat: number; lng: number } | null) => void interaction.dispatch({ type: 'form-place', place }), [interaction]);

  // The form docks over the map's right side once its code is there: a form that could not be
  // loaded is a sentence over the page, and the map keeps its whole width (and its controls their place).
  const [formFailed, setFormFailed] = useState(false);
  const formOpen = form !== null && !formFailed;
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
                {panel === 'sites' && panelsShown && (
                  <SitesPanel
                    selectedId={selectedId}
                    onAddSite={() => flow.startAddMode('new', currentFocus())}
                    movingId={move.movableId}
                    onToggleMove={(localId) => (move.movableId === localId ? move.cancelMove() : flow.startMoveFrom(localId, 'card'))}
                    draftsVersion={sites.draftsVersion}
                    onDraftsChanged={draftsChanged}
                    filter={sites.filter}
                    onFilterChange={sites.setFilter}
                    mapFollowsList={sites.mapFollowsList}
                    onMapFollowsListChange={sites.setMapFollowsList}
                  />
                )}
                {/* The other tabs' panels load when first opened (lazy-parts.ts). */}
                <PartLoader key={panel} what="this panel" fallback={<p className="empty">Loading…</p>}>
                  {panel === 'outbox' && <OutboxPanel />}
                  {panel === 'eus' && <EusPanel />}
                  {panel === 'qualities' && <QualitiesPanel />}
                  {panel === 'settings' && (
                    <SettingsPanel focusProfileId={panelFocus}>
                      <PositionSettings />
                      <BasemapSettings focus={panelFocus === 'basemaps'} />
                    </SettingsPanel>
                  )}
                </PartLoader>
              </fieldset>
            </div>
          </aside>
          <main className="map-area">
            <fieldset className="app-controls" disabled={hostDown}>
              <MapToolbar
                tool={tool}
                flow={flow}
                onShowAll={() => mapHandle.current?.fitAll()}
                onUseCentre={() => {
                  const c = mapHandle.current?.center();
                  if (c) onPick(c.lat, c.lng);
                }}
              />
              <MapView
                store={store}
                settings={settings}
                selectedId={selectedId}
                filter={sites.mapFollowsList ? sites.filter : null}
                interaction={interaction}
                movePreview={move.preview}
                onPick={onPick}
                onDownloadArea={() => interaction.dispatch({ type: 'start-download-area' })}
                controls={(map) => (
                  <BasemapControls
                    map={map}
                    downloadOpen={tool.id === 'download-area'}
                    onDownloadOpen={(open) => interaction.dispatch(open ? { type: 'start-download-area' } : { type: 'end', tool: 'download-area' })}
                  />
                )}
                bottomRight={(map) => (
                  <LocationControl
                    map={map}
                    settings={settings}
                    gateM={gateM}
                    stakeRequest={tool.id === 'stake' ? { seq: tool.seq, target: tool.target } : null}
                    onAddSiteHere={(result) => onPick(result.lat, result.lon, pickedFix(result))}
                    onStakeDone={(result) => interaction.dispatch({ type: 'stake-done', place: result ? { lat: result.lat, lng: result.lon, fix: pickedFix(result) } : null })}
                  />
                )}
                onSelect={(id) => selectSite(id)}
                {...mapSelection}
                onDrop={(id, lat, lng) => void move.moveSite(id, lat, lng)}
                onNudge={move.nudge}
                onStartMove={(id) => flow.startMoveFrom(id, 'menu')}
                onEdit={(id) => openSiteForm({ mode: 'edit', localId: id })}
                onCancelAdd={flow.cancelAddMode}
                rightInset={formOpen ? FORM_WIDTH : 0}
                placing={formOpen ? (form.place ?? null) : null}
                handle={mapHandle}
              />
              {form && (
                <PartLoader what="the site form" overlay onFailure={setFormFailed}>
                  <SiteForm
                    key={`${form.seq}`}
                    request={form.request}
                    onClose={onFormClosed}
                    picked={picked}
                    onPickOnMap={() => flow.startAddMode('pick', currentFocus())}
                    onStakeHere={(target) => interaction.dispatch({ type: 'start-stake', target })}
                    onPlace={onFormPlace}
                  />
                </PartLoader>
              )}
            </fieldset>
          </main>
        </div>
        {/* Over the sidebar's foot, never over the map; outside the held-back controls, so a message
            can still be dismissed while Sitewalk itself is stopped. */}
        <ToastRegion toasts={toasts} dismiss={dismissToast} onHold={holdToasts} />
        <Onboarding />
        <BulkDialogs open={bulkDialog} onClose={() => setBulkDialog(null)} filter={sites.filter} />
        <ConfirmDialog state={confirmState} onDone={closeConfirm} />
      </div>
    </UiContext.Provider>
  );
}
