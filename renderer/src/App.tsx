// The application shell: status bar and banners on top, a sidebar with the panels (sites, outbox,
// EUS, rendering qualities, settings), the map filling the rest and the site form docked over it.
// It owns the cross-panel state (selection, add-site mode, the open form; a pin being moved is
// useMoveWithUndo's) and the UI context every panel uses for calls, toasts and confirmations.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SiteView } from '../../electron/shared/contract/index';
import { type AppStore, describeError, useAppState } from './store';
import { MapView, type MapHandle } from './map/MapView';
import { SiteForm } from './components/SiteForm';
import { SitesPanel } from './components/SitesPanel';
import { OutboxPanel } from './components/OutboxPanel';
import { EusPanel } from './components/EusPanel';
import { QualitiesPanel } from './components/QualitiesPanel';
import { SettingsPanel } from './components/SettingsPanel';
import { Onboarding } from './components/Onboarding';
import { Banners, StatusBar } from './components/StatusBar';
import { ConfirmDialog, ToastRegion, UiContext, useConfirmDialog, type BulkDialog, type Panel, type Toast, type Ui } from './components/ui';
import { ImportDialog } from './components/bulk/ImportDialog';
import { ExportDialog } from './components/bulk/ExportDialog';
import { ReprocessFileDialog } from './components/bulk/ReprocessFileDialog';
import { useMoveWithUndo } from './hooks/useMoveWithUndo';
import type { SiteFormRequest } from './lib/siteForm';

const PANELS: { id: Panel; label: string; title: string }[] = [
  { id: 'sites', label: 'Sites', title: 'Sites' },
  { id: 'outbox', label: 'Outbox', title: 'Outbox: changes to send' },
  { id: 'eus', label: 'EUS', title: 'EUS reprocess' },
  { id: 'qualities', label: 'Qualities', title: 'Rendering qualities' },
  { id: 'settings', label: 'Settings', title: 'Settings' },
];

const TOAST_MS = 8_000;
/** The docked form's width (styles.css --form). */
const FORM_WIDTH = 420;

export function App({ store, onSessionProblem }: { store: AppStore; onSessionProblem: (listener: (message: string) => void) => () => void }) {
  const api = store.api;
  const [panel, setPanel] = useState<Panel>('sites');
  const [panelFocus, setPanelFocus] = useState<string | undefined>(undefined);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [form, setForm] = useState<{ request: SiteFormRequest; seq: number } | null>(null);
  const [addMode, setAddMode] = useState<'new' | 'pick' | null>(null);
  const [picked, setPicked] = useState<{ lat: number; lng: number; seq: number } | null>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [draftsVersion, setDraftsVersion] = useState(0);
  const [sessionProblem, setSessionProblem] = useState<string | null>(null);
  const [bulkDialog, setBulkDialog] = useState<BulkDialog | null>(null);
  const { state: confirmState, confirm, close: closeConfirm } = useConfirmDialog();
  const mapHandle = useRef<MapHandle>(null);
  const toastSeq = useRef(0);
  const outbox = useAppState(store, (s) => s.outbox);
  const settings = useAppState(store, (s) => s.settings);
  const attention = useMemo(() => [...outbox.values()].filter((e) => e.state === 'failed' || e.state === 'needs-review' || e.state === 'paused').length, [outbox]);

  useEffect(() => onSessionProblem(setSessionProblem), [onSessionProblem]);

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

  const openSiteForm = useCallback((request: SiteFormRequest) => {
    setAddMode(null);
    setForm((f) => ({ request, seq: (f?.seq ?? 0) + 1 }));
    if (request.mode === 'edit') setSelectedId(request.localId);
  }, []);

  const selectSite = useCallback((localId: string | null, pan = false) => {
    setSelectedId(localId);
    if (localId) {
      setPanel('sites');
      if (pan) mapHandle.current?.showSite(localId);
    }
  }, []);

  const ui = useMemo<Ui>(
    () => ({ store, api, toast, confirm, openPanel, openSiteForm, openBulk: setBulkDialog, selectSite, call }),
    [store, api, toast, confirm, openPanel, openSiteForm, selectSite, call],
  );

  const closeForm = useCallback((saved: SiteView | null) => {
    setForm(null);
    setAddMode(null);
    setDraftsVersion((v) => v + 1);
    if (saved) {
      setSelectedId(saved.localId);
      setPanel('sites');
    }
  }, []);

  const onPick = useCallback(
    (lat: number, lng: number) => {
      if (addMode === 'pick') {
        setPicked((p) => ({ lat, lng, seq: (p?.seq ?? 0) + 1 }));
        setAddMode(null);
        return;
      }
      openSiteForm({ mode: 'new', lat, lng });
    },
    [addMode, openSiteForm],
  );

  const { preview: movePreview, moveSite } = useMoveWithUndo(ui);

  const formOpen = form !== null;
  const editedId = form?.request.mode === 'edit' ? form.request.localId : null;
  // The site being edited stays in sight beside the form.
  useEffect(() => {
    if (editedId) mapHandle.current?.ensureVisible(editedId);
  }, [editedId]);

  return (
    <UiContext.Provider value={ui}>
      <div className={`app ${formOpen ? 'form-open' : ''}`}>
        <StatusBar />
        <Banners sessionProblem={sessionProblem} />
        <div className="body">
          <aside className="sidebar" aria-label="Panels">
            <nav className="tabs" aria-label="Panels">
              {PANELS.map((p) => (
                <button key={p.id} type="button" className={`tab ${panel === p.id ? 'current' : ''}`} aria-current={panel === p.id ? 'page' : undefined} onClick={() => openPanel(p.id)}>
                  {p.label}
                  {p.id === 'outbox' && attention > 0 && <span className="count" aria-label={`${attention} need attention`}>{attention}</span>}
                </button>
              ))}
            </nav>
            <div className="panel" role="region" aria-labelledby="panel-title">
              <h2 id="panel-title" className="panel-title">
                {PANELS.find((p) => p.id === panel)?.title}
              </h2>
              {panel === 'sites' && <SitesPanel selectedId={selectedId} onAddSite={() => setAddMode('new')} draftsVersion={draftsVersion} onDraftsChanged={() => setDraftsVersion((v) => v + 1)} />}
              {panel === 'outbox' && <OutboxPanel />}
              {panel === 'eus' && <EusPanel />}
              {panel === 'qualities' && <QualitiesPanel />}
              {panel === 'settings' && <SettingsPanel focusProfileId={panelFocus} />}
            </div>
          </aside>
          <main className="map-area">
            <div className="map-toolbar">
              {addMode === null ? (
                <>
                  <button type="button" className="primary add-site" onClick={() => setAddMode('new')}>
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
                    type="button"
                    onClick={() => {
                      const c = mapHandle.current?.center();
                      if (c) onPick(c.lat, c.lng);
                    }}
                  >
                    Use map centre
                  </button>
                  <button type="button" onClick={() => setAddMode(null)}>
                    Cancel
                  </button>
                </div>
              )}
            </div>
            <MapView
              store={store}
              settings={settings}
              selectedId={selectedId}
              addMode={addMode !== null}
              movePreview={movePreview}
              onPick={onPick}
              onSelect={(id) => selectSite(id)}
              onDrop={(id, lat, lng) => void moveSite(id, lat, lng)}
              onCancelAdd={() => setAddMode(null)}
              rightInset={formOpen ? FORM_WIDTH : 0}
              handle={mapHandle}
            />
            {form && (
              <SiteForm
                key={`${form.seq}`}
                request={form.request}
                onClose={closeForm}
                picked={picked}
                onPickOnMap={() => setAddMode('pick')}
              />
            )}
          </main>
        </div>
        <Onboarding />
        <ToastRegion toasts={toasts} dismiss={dismissToast} />
        <ImportDialog open={bulkDialog === 'import'} onClose={() => setBulkDialog(null)} />
        <ExportDialog open={bulkDialog === 'export'} onClose={() => setBulkDialog(null)} />
        <ReprocessFileDialog open={bulkDialog === 'reprocess'} onClose={() => setBulkDialog(null)} />
        <ConfirmDialog state={confirmState} onDone={closeConfirm} />
      </div>
    </UiContext.Provider>
  );
}
