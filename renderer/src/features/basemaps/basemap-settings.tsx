// Settings → Basemaps: every basemap with what it covers (a file's zoom range and area, a server's
// address and whether its terms allow downloading areas), switching, editing the tile servers
// (street, satellite, topo, others), adding a raster MBTiles or PMTiles file by its path on this
// computer (in Electron also with a file picker), and removing what the user added. What the host
// refuses is shown beside the field it is about.
import { useEffect, useId, useRef, useState } from 'react';
import type { BasemapSourceInput, BasemapView } from '../../../../electron/shared/contract/index';
import { DEFAULT_SETTINGS } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { issuesByField } from '../../shared/issues';
import { hostKind, pathForFile } from '../../api/index';
import { KIND_LABELS, boundsCentreText, formatBytes, isFileBasemap, zoomRangeText } from '../../map/basemaps';
import { CheckboxField, FormActions, InputField, SelectField, TitledForm, useFormValues } from '../../shared/ui/field';
import { callWithToast, ConfirmButton, UseButton, useUi } from '../../shared/ui/ui-context';
import { DownloadedTiles } from './downloaded-tiles';
import './basemaps.css';
import { applyBasemaps } from './basemaps-slice';

/** The servers Sitewalk comes with: edited, never removed. */
const BUILT_IN = new Set(['street', 'satellite', 'topo']);

type ServerKind = BasemapSourceInput['kind'];
const SERVER_KINDS: ServerKind[] = ['street', 'satellite', 'topo', 'custom'];

/** Attribution is stored as text with entities (&copy;); shown here as the characters they stand for. */
function attributionText(attribution: string): string {
  return new DOMParser().parseFromString(`<p>${attribution.replace(/</g, '&lt;')}</p>`, 'text/html').body.textContent ?? attribution;
}

export function BasemapSettings({ focus }: { focus?: boolean }) {
  const ui = useUi();
  const basemaps = useAppState(ui.store, (s) => s.basemaps);
  const [editing, setEditing] = useState<BasemapView | 'new' | null>(null);
  const [addingFile, setAddingFile] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (focus) sectionRef.current?.scrollIntoView({ block: 'start' });
  }, [focus]);

  return (
    <section ref={sectionRef} className="panel-card" aria-labelledby="basemaps-title">
      <h3 id="basemaps-title">Basemaps</h3>
      <p className="form-help">The map&apos;s background: tile servers (tiles seen online are kept for offline use) and MBTiles or PMTiles files made in the office, read where they are.</p>
      {basemaps.length === 0 && <p>Loading basemaps…</p>}
      <ul className="basemap-cards">
        {basemaps.map((b) => (
          <li key={b.id}>
            <BasemapCard basemap={b} onEdit={() => setEditing(b)} />
          </li>
        ))}
      </ul>
      {editing && <ServerForm basemap={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      {addingFile && <FileForm onDone={() => setAddingFile(false)} />}
      {!editing && !addingFile && (
        <div className="actions">
          <button type="button" onClick={() => setAddingFile(true)}>
            Add a basemap file…
          </button>
          <button type="button" onClick={() => setEditing('new')}>
            Add a tile server
          </button>
        </div>
      )}
      <DownloadedTiles />
    </section>
  );
}

function BasemapCard({ basemap: b, onEdit }: { basemap: BasemapView; onEdit: () => void }) {
  const ui = useUi();
  const file = isFileBasemap(b);
  const removable = file || !BUILT_IN.has(b.id);
  return (
    <article className={`basemap-card panel-card ${b.active ? 'active' : ''}`} aria-label={`Basemap ${b.name}`}>
      <h4>
        {b.name} {KIND_LABELS[b.kind].toLowerCase() !== b.name.trim().toLowerCase() && <span className="tag tag-muted">{KIND_LABELS[b.kind]}</span>}{' '}
        {b.active && <span className="tag">On the map</span>}
      </h4>
      {b.problem && (
        <p className="basemap-problem" role="alert">
          {b.problem}
        </p>
      )}
      <dl>
        {file ? (
          <>
            <dt>File</dt>
            <dd>
              {b.fileName ?? '—'}
              {b.sizeBytes !== null && ` (${formatBytes(b.sizeBytes)})`}
            </dd>
            <dt>Covers</dt>
            <dd>
              {zoomRangeText(b)}
              {b.bounds ? `, around ${boundsCentreText(b.bounds)}` : ', the whole world'}
            </dd>
          </>
        ) : (
          <>
            <dt>Address</dt>
            <dd>{b.template || '—'}</dd>
            <dt>Zoom</dt>
            <dd>{zoomRangeText(b)}</dd>
            <dt>Download</dt>
            <dd>{b.downloadRefusal ?? 'Its terms allow downloading areas.'}</dd>
          </>
        )}
        <dt>Credit</dt>
        <dd>{b.attribution ? attributionText(b.attribution) : '—'}</dd>
      </dl>
      <div className="actions">
        <UseButton
          active={b.active}
          use={() => ui.api.useBasemap(b.id)}
          onUsed={(basemaps) => {
            applyBasemaps(ui.store, basemaps);
            ui.toast(`The map now shows ${b.name}.`, { tone: 'success' });
          }}
        >
          Show on the map
        </UseButton>
        {!file && (
          <button type="button" onClick={onEdit}>
            Edit
          </button>
        )}
        {removable && (
          <ConfirmButton
            confirm={{
              title: `Remove ${b.name}?`,
              body: file ? 'It leaves the list of basemaps. The file itself stays where it is.' : 'It leaves the list of basemaps.',
              confirmLabel: 'Remove basemap',
            }}
            onConfirmed={async () => {
              const done = await callWithToast(ui, () => ui.api.removeBasemap(b.id));
              if (!done) return;
              applyBasemaps(ui.store, done.value);
              ui.toast(`Removed ${b.name}.`, { tone: 'info' });
            }}
          >
            Remove
          </ConfirmButton>
        )}
      </div>
    </article>
  );
}

type ServerField = 'name' | 'kind' | 'template' | 'attribution' | 'minZoom' | 'maxZoom' | 'allowsDownload';
const SERVER_FIELDS: ServerField[] = ['name', 'kind', 'template', 'attribution', 'minZoom', 'maxZoom', 'allowsDownload'];

function ServerForm({ basemap, onDone }: { basemap: BasemapView | null; onDone: () => void }) {
  const ui = useUi();
  const id = useId();
  const { values, setValues, issues, setIssues, text } = useFormValues(id, {
    name: basemap?.name ?? '',
    kind: (basemap && basemap.kind !== 'mbtiles' && basemap.kind !== 'pmtiles' ? basemap.kind : 'custom') as ServerKind,
    template: basemap?.template ?? '',
    attribution: basemap?.attribution ?? '',
    minZoom: String(basemap?.minZoom ?? 0),
    maxZoom: String(basemap?.maxZoom ?? 19),
  });
  const [allowsDownload, setAllowsDownload] = useState(basemap?.allowsDownload ?? false);
  const [busy, setBusy] = useState(false);
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const zoom = (name: 'minZoom' | 'maxZoom', label: string) => (
    <InputField label={label} id={`${id}-${name}`} error={issues[name]} value={values[name]} inputMode="numeric" autoComplete="off" onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
  );

  return (
    <TitledForm
      id={id}
      title={basemap ? `Edit ${basemap.name}` : 'New tile server'}
      autoComplete="off"
      onSubmit={async () => {
        const zoomIssues: Partial<Record<string, string>> = {};
        const zoomOf = (name: 'minZoom' | 'maxZoom') => {
          const v = values[name].trim();
          if (!/^\d{1,2}$/.test(v) || Number(v) > 22) zoomIssues[name] = 'A whole number from 0 to 22.';
          return Number(v);
        };
        const minZoom = zoomOf('minZoom');
        const maxZoom = zoomOf('maxZoom');
        if (!zoomIssues['minZoom'] && !zoomIssues['maxZoom'] && minZoom > maxZoom) zoomIssues['maxZoom'] = 'The deepest zoom cannot be above the shallowest.';
        if (Object.keys(zoomIssues).length > 0) {
          setIssues(zoomIssues);
          return;
        }
        const input: BasemapSourceInput = { name: values.name, kind: values.kind, template: values.template.trim(), attribution: values.attribution, minZoom, maxZoom, allowsDownload };
        if (basemap) input.id = basemap.id;
        setBusy(true);
        const result = await ui.call(() => ui.api.saveBasemapSource(input));
        setBusy(false);
        if (!result) return;
        if (!result.ok) {
          setIssues(issuesByField(result.issues, SERVER_FIELDS));
          return;
        }
        applyBasemaps(ui.store, result.value);
        ui.toast(`Saved ${values.name.trim()}.`, { tone: 'success' });
        onDone();
      }}
    >
      {text('name', 'Name', undefined, firstRef)}
      <SelectField label="Kind" id={`${id}-kind`} error={issues['kind']} value={values.kind} options={SERVER_KINDS} labels={KIND_LABELS} onChange={(kind) => setValues({ ...values, kind })} />
      {text('template', 'Tile address', 'A URL template with {z}, {x} and {y}, for example https://tiles.example.net/{z}/{x}/{y}.png')}
      {text('attribution', 'Credit shown on the map', 'As the server’s terms ask, for example © OpenStreetMap contributors. Plain text; entities such as &copy; are allowed.')}
      {basemap?.id === 'street' && (
        <button type="button" className="link-button" onClick={() => setValues({ ...values, template: DEFAULT_SETTINGS.tileUrl, attribution: DEFAULT_SETTINGS.tileAttribution })}>
          Use OpenStreetMap (default)
        </button>
      )}
      <div className="basemap-zooms">
        {zoom('minZoom', 'Shallowest zoom')}
        {zoom('maxZoom', 'Deepest zoom')}
      </div>
      <CheckboxField
        id={`${id}-allows`}
        label="This server's terms allow downloading areas"
        checked={allowsDownload}
        onChange={setAllowsDownload}
        error={issues['allowsDownload']}
        hint="Only tick this when the provider says so (your own server, or a plan that permits offline copies). The public OpenStreetMap servers never allow it."
      />
      <FormActions error={issues['']} submitLabel="Save tile server" busy={busy} busyLabel="Saving…" onCancel={onDone} />
    </TitledForm>
  );
}

function FileForm({ onDone }: { onDone: () => void }) {
  const ui = useUi();
  const id = useId();
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [issues, setIssues] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const pathRef = useRef<HTMLInputElement>(null);
  const electron = hostKind() === 'electron' && typeof window.sitewalk?.pathForFile === 'function';
  useEffect(() => pathRef.current?.focus(), []);

  return (
    <TitledForm
      id={id}
      title="Add a basemap file"
      autoComplete="off"
      onSubmit={async () => {
        if (path.trim() === '') {
          setIssues({ path: 'Enter where the file is on this computer, for example /home/crew/maps/valley.mbtiles.' });
          return;
        }
        setBusy(true);
        const before = new Set(ui.store.getState().basemaps.map((b) => b.id));
        const result = await ui.call(() => ui.api.addBasemapFile(name.trim() === '' ? { path: path.trim() } : { path: path.trim(), name: name.trim() }));
        setBusy(false);
        if (!result) return;
        if (!result.ok) {
          setIssues(issuesByField(result.issues, ['path', 'name']));
          return;
        }
        applyBasemaps(ui.store, result.value);
        const added = result.value.find((b) => !before.has(b.id));
        ui.toast(added ? `Added ${added.name}.` : 'Added the basemap file.', { tone: 'success' });
        onDone();
      }}
    >
      <p className="form-help">A raster MBTiles or PMTiles file on this computer. Sitewalk reads it where it is, so leave it there.</p>
      {electron && (
        <div className="field basemap-file-picker">
          <label htmlFor={`${id}-pick`}>Choose the file</label>
          <input
            id={`${id}-pick`}
            type="file"
            accept=".mbtiles,.pmtiles"
            onChange={(e) => {
              const picked = e.target.files?.[0];
              const found = picked ? pathForFile(picked) : null;
              if (found) {
                setPath(found);
                setIssues({});
              }
            }}
          />
        </div>
      )}
      <InputField
        label="Path of the file"
        id={`${id}-path`}
        error={issues['path']}
        hint={electron ? 'Filled in when you choose the file, or type it.' : 'For example /home/crew/maps/valley.mbtiles or C:\\Maps\\valley.pmtiles'}
        inputRef={pathRef}
        value={path}
        spellCheck={false}
        onChange={(e) => {
          setPath(e.target.value);
          setIssues({ ...issues, path: undefined });
        }}
      />
      <InputField label="Name (optional)" id={`${id}-name`} error={issues['name']} hint="Otherwise the name stored in the file, or the file's name." value={name} onChange={(e) => setName(e.target.value)} />
      <FormActions error={issues['']} submitLabel="Add basemap" busy={busy} busyLabel="Reading the file…" onCancel={onDone} />
    </TitledForm>
  );
}
