// The site list: search and filters (name/ID, group, sync state), the rows (SiteRows: windowed, one
// Tab stop with the grid's keys), the selected site's details, and the
// unsaved drafts, so typed input that was never saved is always one click away. A profile of one's
// own with no sites yet gets a first-run card instead of an empty list: the service has no operation
// that lists an account's sites, so they come from a file or by their IDs.
import { useMemo, useState } from 'react';
import type { SiteView, SyncState } from '../../../../electron/shared/contract/index';
import { siteMatcher, type SiteFilter, type StateFilter } from '../../shared/site-filter';
import type { HeightUnit } from '../../../../electron/shared/domain';
import { useAppState } from '../../shared/store/app-store';
import { SYNC_LABELS, countOf, formatCount, siteTitle, relativeTime } from '../../shared/format';
import { deleteDraft, listDrafts } from './drafts';
import { formatHeight } from '../../shared/units';
import { formatDecimal, formatDms } from '../../shared/coords';
import { PinIcon, SyncBadge } from '../../shared/ui/badge';
import { Problem } from '../../shared/ui/problem';
import { useNow, useUi } from '../../shared/ui/ui-context';
import { measurementText } from '../location';
import { siteIdText } from './site-id-text';
import { SiteRows } from './site-rows';
import { lazyPart, PartLoader } from '../../shared/ui/lazy-part';
import { SelectionBar, selectAll, useSelectionStore } from '../selection';

/** Loaded when first opened: the first screen shows the list, not the table. */
const AttributeTable = lazyPart(() => import('./attribute-table').then((m) => m.AttributeTable));

/** One collator for every comparison: localeCompare with options builds a new one each call (seconds for 10,000 sites). */
const BY_TITLE = new Intl.Collator(undefined, { numeric: true });

export function SitesPanel({ selectedId, onAddSite, movingId, onToggleMove, draftsVersion, onDraftsChanged, filter, onFilterChange, mapFollowsList, onMapFollowsListChange }: {
  selectedId: string | null;
  onAddSite: () => void;
  /** The site in move mode (its pin can be dragged), or null. */
  movingId: string | null;
  /** The card's Move button: into move mode for that site, or out of it again. */
  onToggleMove: (localId: string) => void;
  draftsVersion: number;
  onDraftsChanged: () => void;
  /** The search and filters (kept by the app, so the map can follow them). */
  filter: SiteFilter;
  onFilterChange: (filter: SiteFilter) => void;
  /** Whether the map shows only the sites listed here. */
  mapFollowsList: boolean;
  onMapFollowsListChange: (on: boolean) => void;
}) {
  const ui = useUi();
  const sites = useAppState(ui.store, (s) => s.sites);
  const unit = useAppState(ui.store, (s) => s.settings.heightUnit);
  const activeProfile = useAppState(ui.store, (s) => s.profiles.find((profile) => profile.active) ?? null);
  const { query, group, state } = filter;
  const setQuery = (value: string) => onFilterChange({ ...filter, query: value });
  const setGroup = (value: string) => onFilterChange({ ...filter, group: value });
  const setState = (value: StateFilter) => onFilterChange({ ...filter, state: value });
  useNow();

  const all = useMemo(() => {
    // Titles computed once per site, not once per comparison: the list is sorted again on every change during a sync.
    const titled = [...sites.values()].map((site) => ({ site, title: siteTitle(site) }));
    titled.sort((a, b) => BY_TITLE.compare(a.title, b.title));
    return titled.map((entry) => entry.site);
  }, [sites]);
  const groups = useMemo(() => [...new Set(all.map((s) => s.group).filter(Boolean))].sort(BY_TITLE.compare), [all]);
  const counts = useMemo(() => {
    const c: Record<SyncState, number> = { synced: 0, pending: 0, failed: 0, 'needs-review': 0 };
    for (const s of all) c[s.syncState]++;
    return c;
  }, [all]);

  const filtered = useMemo(() => all.filter(siteMatcher({ query, group, state })), [all, query, group, state]);
  const shownIds = useMemo(() => new Set(filtered.map((site) => site.localId)), [filtered]);
  const selection = useSelectionStore();
  const [tableOpen, setTableOpen] = useState(false);
  // Once opened, the table stays mounted (closed), as it always was before it was loaded lazily.
  const [tableMounted, setTableMounted] = useState(false);
  if (tableOpen && !tableMounted) setTableMounted(true);

  // eslint-friendly: reading localStorage on every render is cheap (a handful of keys).
  void draftsVersion;
  const drafts = listDrafts();
  const [draftsOpen, setDraftsOpen] = useState(false);
  const selected = selectedId ? sites.get(selectedId) ?? null : null;
  const firstRun = all.length === 0 && activeProfile !== null && !activeProfile.builtIn;

  return (
    <div className="sites-panel">
      <div className="panel-actions">
        <button type="button" onClick={onAddSite}>
          Add on the map
        </button>
        <button type="button" onClick={() => ui.openSiteForm({ mode: 'existing' })}>
          Add by site ID
        </button>
        <button type="button" onClick={() => ui.openBulk('import')}>
          Import file…
        </button>
        <button type="button" onClick={() => ui.openBulk('export')}>
          Export…
        </button>
        {/* The shortest windows (1024×640) keep the drafts behind this, beside the actions, so the list keeps its rows (app/compact.css). */}
        {drafts.length > 0 && (
          <button type="button" className="drafts-toggle" aria-expanded={draftsOpen} aria-controls="drafts-box" onClick={() => setDraftsOpen(!draftsOpen)}>
            Drafts ({drafts.length})
          </button>
        )}
      </div>

      {selected && <SiteDetails site={selected} unit={unit} moving={movingId === selected.localId} onToggleMove={() => onToggleMove(selected.localId)} />}

      {drafts.length > 0 && (
        <section id="drafts-box" className={`drafts ${draftsOpen ? 'open' : ''}`} aria-labelledby="drafts-title">
          <h3 id="drafts-title">Unsaved drafts ({drafts.length})</h3>
          <ul>
            {drafts.map((d) => {
              const site = d.localId ? sites.get(d.localId) : null;
              const label = d.mode === 'edit' ? `Changes to ${site ? siteTitle(site) : 'a site'}` : d.mode === 'existing' ? `Site ID ${d.fields.siteId || '(none yet)'}` : `New site ${d.fields.name || '(no name yet)'}`;
              return (
                <li key={d.key}>
                  <span>
                    {label} <small>· {relativeTime(d.savedAt)}</small>
                  </span>
                  <span className="row-actions">
                    <button
                      type="button"
                      onClick={() =>
                        ui.openSiteForm(d.mode === 'edit' && d.localId ? { mode: 'edit', localId: d.localId, draftKey: d.key } : d.mode === 'existing' ? { mode: 'existing', draftKey: d.key } : { mode: 'new', lat: null, lng: null, draftKey: d.key })}
                    >
                      Resume
                    </button>
                    <button
                      type="button"
                      className="danger-outline"
                      onClick={async () => {
                        const ok = await ui.confirm({ title: 'Discard this draft?', body: `${label}: what was typed will be thrown away.`, confirmLabel: 'Discard draft', danger: true });
                        if (ok) {
                          deleteDraft(d.key);
                          onDraftsChanged();
                        }
                      }}
                    >
                      Discard
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {firstRun ? (
        <FirstRun profileName={activeProfile.name} onAddSite={onAddSite} />
      ) : (
        <>
          <div className="filters" role="search">
            <label className="field">
              <span>Search sites</span>
              <input type="search" value={query} placeholder="Name, site ID, group…" onChange={(e) => setQuery(e.target.value)} />
            </label>
            <div className="filter-row">
              <label className="field">
                <span>Group</span>
                <select value={group} onChange={(e) => setGroup(e.target.value)}>
                  <option value="">All groups</option>
                  {groups.map((g) => (
                    <option key={g} value={g}>
                      {g}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>State</span>
                <select value={state} onChange={(e) => setState(e.target.value as StateFilter)}>
                  <option value="all">All states ({count(all.length)})</option>
                  <option value="synced">
                    {SYNC_LABELS.synced} ({count(counts.synced)})
                  </option>
                  <option value="pending">
                    {SYNC_LABELS.pending} ({count(counts.pending)})
                  </option>
                  <option value="attention">Needs attention ({count(counts.failed + counts['needs-review'])})</option>
                  <option value="failed">
                    {SYNC_LABELS.failed} ({count(counts.failed)})
                  </option>
                  <option value="needs-review">
                    {SYNC_LABELS['needs-review']} ({count(counts['needs-review'])})
                  </option>
                </select>
              </label>
            </div>
            <p className="result-count" aria-live="polite" data-filtered={filtered.length === all.length ? undefined : ''}>
              {filtered.length === all.length ? countOf(all.length, 'site', 'sites') : `Showing ${count(filtered.length)} of ${countOf(all.length, 'site', 'sites')}`}
            </p>
            <label className="check map-follows">
              <input type="checkbox" checked={mapFollowsList} onChange={(e) => onMapFollowsListChange(e.target.checked)} />
              <span>Show only these sites on the map</span>
            </label>
            {/* Short screens show these two as icons beside the count (their names stay for screen readers and tooltips). */}
            <span className="list-tools">
              <button type="button" className="select-all" title="Select all the sites shown" disabled={filtered.length === 0} onClick={() => selection.update(selectAll(filtered.map((site) => site.localId)))}>
                <ToolIcon drawing="select-all" />
                <span className="tool-text">Select all shown</span>
              </button>
              <button type="button" className="open-table" title="Attribute table of the sites shown" disabled={filtered.length === 0} onClick={() => setTableOpen(true)}>
                <ToolIcon drawing="table" />
                <span className="tool-text">Table…</span>
              </button>
            </span>
          </div>
          <SelectionBar shown={shownIds} />
          {tableMounted && (
            <PartLoader what="the attribute table" overlay>
              <AttributeTable open={tableOpen} sites={filtered} onClose={() => setTableOpen(false)} />
            </PartLoader>
          )}

          <SiteRows sites={filtered} selectedId={selectedId} unit={unit} searched={`${query}\n${group}\n${state}`} />
        </>
      )}
    </div>
  );
}

/** What each list tool's icon draws on a 20 × 20 grid: a box (16 wide, 2 in) and a line over it. */
const TOOL_DRAWINGS = {
  'select-all': { box: { y: 2, height: 16, rx: 2 }, line: 'M6 10l3 3 5-6' },
  table: { box: { y: 3, height: 14, rx: 1 }, line: 'M2 8h16M2 12.5h16M8 3v14' },
};

/** A list tool's icon: a line drawing in the text's colour, hidden from screen readers (the tool's words say it). */
function ToolIcon({ drawing }: { drawing: keyof typeof TOOL_DRAWINGS }) {
  return (
    <svg className="tool-icon" aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="2" width="16" {...TOOL_DRAWINGS[drawing].box} />
      <path d={TOOL_DRAWINGS[drawing].line} />
    </svg>
  );
}

/** A real account with no sites in Sitewalk yet: why the list is empty, and the ways to fill it. */
function FirstRun({ profileName, onAddSite }: { profileName: string; onAddSite: () => void }) {
  const ui = useUi();
  return (
    <section className="first-run panel-card" aria-labelledby="first-run-title">
      <h3 id="first-run-title">No sites in {profileName} yet</h3>
      <p>
        The service has no operation that lists an account&apos;s sites, so Sitewalk cannot fetch the ones you already have. It shows the sites you add here: import them from a file
        (CSV, KML or GeoJSON, such as an export from the web interface), or add each one by its site ID. New towers can be added on the map.
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={() => ui.openBulk('import')}>
          Import file…
        </button>
        <button type="button" onClick={() => ui.openSiteForm({ mode: 'existing' })}>
          Add by site ID
        </button>
        <button type="button" onClick={onAddSite}>
          Add on the map
        </button>
      </div>
    </section>
  );
}

function SiteDetails({ site, unit, moving, onToggleMove }: { site: SiteView; unit: HeightUnit; moving: boolean; onToggleMove: () => void }) {
  const ui = useUi();
  // The compact layout shows the essentials; "More details" shows the rest (app/compact.css hides .more there).
  const [more, setMore] = useState(false);
  // The register keeps how the position was measured (the queued edits overlaid), so the card says it
  // long after the outbox's history of the edit is gone.
  const { measurement } = site;
  return (
    // Focusable from script only: focus lands here after the site is saved from the form.
    <section className={`site-details panel-card ${more ? 'show-more' : ''}`} aria-labelledby="site-details-title" tabIndex={-1} data-site-card={site.localId}>
      <header>
        <h3 id="site-details-title">
          <PinIcon style={site.pinStyle} size={26} /> {siteTitle(site)}
        </h3>
        <button type="button" className="icon-button" aria-label="Clear selection" onClick={() => ui.selectSite(null)}>
          ×
        </button>
      </header>
      <p className="card-state">
        <SyncBadge state={site.syncState} />
        <button type="button" className="more-toggle" aria-expanded={more} onClick={() => setMore(!more)}>
          {more ? 'Fewer details' : 'More details'}
        </button>
      </p>
      <dl>
        <dt>Site ID</dt>
        <dd>{siteIdText(site)}</dd>
        <dt>Height</dt>
        <dd>{formatHeight(site.height, unit)}</dd>
        <dt>Position</dt>
        <dd>
          {site.latitude !== null && site.longitude !== null ? (
            <>
              {formatDecimal(site.latitude)}, {formatDecimal(site.longitude)}
              <small className="dms more">
                {formatDms(site.latitude, 'lat')} {formatDms(site.longitude, 'lon')}
              </small>
            </>
          ) : (
            'Unknown'
          )}
        </dd>
        {site.group && (
          <>
            <dt className="more">Group</dt>
            <dd className="more">{site.group}</dd>
          </>
        )}
        {site.description && (
          <>
            <dt className="more">Description</dt>
            <dd className="more prewrap">{site.description}</dd>
          </>
        )}
        {measurement && (
          <>
            <dt className="more">Measured</dt>
            <dd className="more" data-testid="site-measurement">
              {measurementText(measurement, unit)}
            </dd>
          </>
        )}
        <dt className="more">Changed</dt>
        <dd className="more">{relativeTime(site.updatedAt)}</dd>
      </dl>
      {site.lastError && <Problem problem={site.lastError} />}
      <div className="actions">
        <button type="button" className="primary" onClick={() => ui.openSiteForm({ mode: 'edit', localId: site.localId })}>
          Edit site
        </button>
        {site.latitude !== null && (
          <button type="button" onClick={() => ui.selectSite(site.localId, true)}>
            Show on map
          </button>
        )}
        {site.latitude !== null && site.longitude !== null && (
          // Pins never move by accident: only this makes the site's pin draggable (pressed again, or Esc, ends it).
          <button type="button" aria-pressed={moving} data-move-site={site.localId} onClick={onToggleMove}>
            Move
          </button>
        )}
        {site.syncState !== 'synced' && (
          <button type="button" onClick={() => ui.openPanel('outbox')}>
            Open outbox
          </button>
        )}
      </div>
    </section>
  );
}

/** A count as people read it: 50,025, not 50025. */
const count = formatCount;
