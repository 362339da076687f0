// The site form: create, edit, or add an existing service site by its ID. Validation is the shared
// schema (parseSiteEdit) run on every keystroke, so the form says exactly what the core would; the
// form only translates feet and DMS first. Every keystroke is kept as a draft until the save is
// queued, so closing the form, a reload or a crash never loses typed input.
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SiteInput, SiteView } from '../../../electron/shared/contract/index';
import type { SiteEdit } from '../../../electron/core/service/types';
import { parseSiteEdit } from '../../../electron/shared/validation';
import { coordinateFieldValue, formatDecimal, formatDms, readCoordinates } from '../lib/coords';
import { deleteDraft, loadDraft, newDraftKey, saveDraft, type SiteDraft, type SiteDraftFields } from '../lib/drafts';
import { formatHeight, heightFieldText, readHeight, type HeightUnit } from '../lib/units';
import { PIN_NAMES, type PinStyle } from '../map/sprites';
import { siteTitle, relativeTime } from '../lib/format';
import { FieldError, PinIcon, SyncBadge, useUi, type SiteFormRequest } from './ui';
import { useAppState } from '../store';

type FieldName = 'siteId' | 'name' | 'height' | 'latitude' | 'longitude' | 'description' | 'group' | 'pinStyle';
const FIELD_ORDER: FieldName[] = ['siteId', 'name', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle'];

function emptyFields(unit: HeightUnit): SiteDraftFields {
  return { name: '', height: '', heightUnit: unit, latitude: '', longitude: '', description: '', group: '', pinStyle: '1', siteId: '' };
}

function fieldsFromSite(site: SiteView, unit: HeightUnit): SiteDraftFields {
  return {
    name: site.name,
    height: heightFieldText(site.height, unit),
    heightUnit: unit,
    latitude: site.latitude === null ? '' : formatDecimal(site.latitude),
    longitude: site.longitude === null ? '' : formatDecimal(site.longitude),
    description: site.description,
    group: site.group,
    pinStyle: String(site.pinStyle),
    siteId: site.siteId ?? '',
  };
}

function draftKeyFor(request: SiteFormRequest): string {
  if (request.draftKey) return request.draftKey;
  if (request.mode === 'edit') return `site:${request.localId}`;
  return newDraftKey(request.mode);
}

export interface SiteFormProps {
  request: SiteFormRequest;
  onClose: (saved: SiteView | null) => void;
  /** Asks the map for a click; the form gets the coordinates back through `picked`. */
  onPickOnMap: () => void;
  picked: { lat: number; lng: number; seq: number } | null;
}

export function SiteForm({ request, onClose, onPickOnMap, picked }: SiteFormProps) {
  const ui = useUi();
  const { api, store } = ui;
  const settings = useAppState(store, (s) => s.settings);
  const sites = useAppState(store, (s) => s.sites);
  const site = request.mode === 'edit' ? sites.get(request.localId) ?? null : null;
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;

  // The draft key is fixed for the life of the form.
  const [draftKey] = useState(() => draftKeyFor(request));
  const [initial] = useState<{ fields: SiteDraftFields; restored: SiteDraft | null }>(() => {
    const restored = loadDraft(draftKey);
    if (restored) return { fields: restored.fields, restored };
    if (request.mode === 'edit' && site) return { fields: fieldsFromSite(site, settings.heightUnit), restored: null };
    const fields = emptyFields(settings.heightUnit);
    // A site added by ID keeps whatever colour the service has unless the user knows it.
    if (request.mode === 'existing') fields.pinStyle = '';
    if (request.mode === 'new' && request.lat !== null && request.lng !== null) {
      fields.latitude = formatDecimal(request.lat);
      fields.longitude = formatDecimal(request.lng);
    }
    return { fields, restored: null };
  });
  const [fields, setFields] = useState<SiteDraftFields>(initial.fields);
  const [restored, setRestored] = useState<SiteDraft | null>(initial.restored);
  const [touched, setTouched] = useState<Set<FieldName>>(() => new Set(initial.restored ? FIELD_ORDER : []));
  const [submitted, setSubmitted] = useState(false);
  const [serverIssues, setServerIssues] = useState<Partial<Record<string, string>>>({});
  const [saving, setSaving] = useState(false);
  const [notes, setNotes] = useState<{ latitude?: string; longitude?: string }>({});
  const dirty = useRef(initial.restored !== null);
  const formRef = useRef<HTMLFormElement>(null);

  // Keep every change as a draft, at once.
  useEffect(() => {
    if (!dirty.current) return;
    saveDraft({ key: draftKey, localId: request.mode === 'edit' ? request.localId : null, mode: request.mode, fields, savedAt: new Date().toISOString() });
  }, [fields, draftKey, request]);

  // Coordinates chosen on the map while the form is open.
  const lastPick = useRef(picked?.seq ?? 0);
  useEffect(() => {
    if (!picked || picked.seq === lastPick.current) return;
    lastPick.current = picked.seq;
    update({ latitude: formatDecimal(picked.lat), longitude: formatDecimal(picked.lng) });
    setNotes({ latitude: 'Picked on the map.' });
  }, [picked]); // update() only sets state, so it need not be a dependency

  function update(patch: Partial<SiteDraftFields>) {
    dirty.current = true;
    setFields((f) => ({ ...f, ...patch }));
    setServerIssues((issues) => {
      const next = { ...issues };
      for (const key of Object.keys(patch)) delete next[key === 'heightUnit' ? 'height' : key];
      return next;
    });
  }

  function touch(field: FieldName) {
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  }

  const isExisting = request.mode === 'existing';
  const isEdit = request.mode === 'edit';
  const height = readHeight(fields.height, fields.heightUnit);
  const lat = coordinateFieldValue(fields.latitude, 'lat');
  const lon = coordinateFieldValue(fields.longitude, 'lon');

  // Adding an existing site sends nothing, so its height may stay unknown (the core checks the same).
  const heightOptional = isExisting && fields.height.trim() === '';
  const input: SiteInput = useMemo(() => {
    const value: SiteInput = {
      name: fields.name,
      height: heightOptional ? '0' : height.schemaInput,
      latitude: lat.value,
      longitude: lon.value,
      description: fields.description,
      group: fields.group,
      pinStyle: fields.pinStyle,
    };
    if (isEdit && site?.siteId) value.siteId = site.siteId;
    if (isExisting) value.siteId = fields.siteId;
    return value;
  }, [fields, height.schemaInput, heightOptional, lat.value, lon.value, isEdit, isExisting, site?.siteId]);

  const validation = useMemo(() => parseSiteEdit(input), [input]);
  const issues: Partial<Record<FieldName, string>> = {};
  if (!validation.ok) {
    for (const issue of validation.issues) {
      const field = issue.field as FieldName;
      if (FIELD_ORDER.includes(field) && !issues[field]) issues[field] = issue.message;
    }
  }
  // Our own readings speak first: the schema never saw the feet or the DMS text.
  if (height.message) issues.height = height.message;
  if (lat.message) issues.latitude = lat.message;
  if (lon.message) issues.longitude = lon.message;
  if (isExisting && fields.siteId.trim() === '') issues.siteId = 'Site ID is required: it is at the end of the site\'s address in the web interface.';
  for (const [field, message] of Object.entries(serverIssues)) {
    if (message && FIELD_ORDER.includes(field as FieldName)) issues[field as FieldName] = message;
  }
  const shown = (field: FieldName) => (submitted || touched.has(field) ? issues[field] : undefined);
  const generalIssue = serverIssues[''];

  /** A pasted pair or DMS text becomes decimals in both fields. */
  function readCoordinateField(field: 'latitude' | 'longitude') {
    const text = fields[field];
    const reading = readCoordinates(text);
    if (reading.kind === 'pair') {
      update({ latitude: formatDecimal(reading.latitude), longitude: formatDecimal(reading.longitude) });
      setNotes({ latitude: `Read from “${text.trim()}”.` });
      touch('latitude');
      touch('longitude');
    } else if (reading.kind === 'single' && reading.coordinate.converted) {
      const axis = field === 'latitude' ? 'lat' : 'lon';
      if (reading.coordinate.axis === null || reading.coordinate.axis === axis) {
        update({ [field]: formatDecimal(reading.coordinate.value) });
        setNotes((n) => ({ ...n, [field]: `Read from “${text.trim()}”.` }));
      }
    }
    touch(field);
  }

  async function submit() {
    setSubmitted(true);
    const firstBad = FIELD_ORDER.find((f) => issues[f]);
    if (firstBad || !validation.ok) {
      focusField(firstBad ?? 'height');
      return;
    }
    setSaving(true);
    const edit = validation.value;
    const payload = buildPayload(edit, { mode: request.mode, heightOptional, site, pinStyleText: fields.pinStyle });
    if (isEdit) payload.localId = request.localId;
    const result = await ui.call(() => (isExisting ? api.addExistingSite(payload) : api.saveSite(payload)));
    setSaving(false);
    if (!result) return; // the call failed outright; ui.call said so and the draft is kept
    if (!result.ok) {
      const byField: Record<string, string> = {};
      for (const issue of result.issues) byField[FIELD_ORDER.includes(issue.field as FieldName) ? issue.field : ''] ??= issue.message;
      setServerIssues(byField);
      const first = FIELD_ORDER.find((f) => byField[f]);
      if (first) focusField(first);
      return;
    }
    deleteDraft(draftKey);
    store.applySite(result.value);
    const online = store.getState().status?.online ?? false;
    ui.toast(
      isExisting
        ? `Added ${siteTitle(result.value)} to your sites.`
        : online
          ? `Saved ${siteTitle(result.value)} — sending to the service.`
          : `Saved ${siteTitle(result.value)} on this computer — it will be sent when the service is reachable.`,
      { tone: 'success' },
    );
    onClose(result.value);
  }

  function focusField(field: FieldName) {
    const el = formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(ids(field))}`);
    el?.focus();
  }

  async function discard() {
    const ok = await ui.confirm({
      title: 'Discard your changes?',
      body: 'What you typed in this form will be thrown away. The site itself stays as it is.',
      confirmLabel: 'Discard changes',
      danger: true,
    });
    if (!ok) return;
    deleteDraft(draftKey);
    dirty.current = false;
    onClose(null);
  }

  function close() {
    if (dirty.current) ui.toast('Your unsaved changes are kept as a draft — find them under Sites.', { tone: 'info' });
    onClose(null);
  }

  const title = isExisting ? 'Add an existing site by its ID' : isEdit ? `Edit ${site ? siteTitle(site) : 'site'}` : 'New site';
  const errorCount = FIELD_ORDER.filter((f) => issues[f]).length;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const groups = useMemo(() => [...new Set([...sites.values()].map((s) => s.group).filter(Boolean))].sort().slice(0, 200), [sites]);

  return (
    <section className="site-form panel-card" aria-labelledby={ids('title')}>
      <header className="form-header">
        <h2 id={ids('title')}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close the form (changes are kept as a draft)" onClick={close}>
          ×
        </button>
      </header>
      {site && (
        <p className="form-state">
          <SyncBadge state={site.syncState} />
          {site.siteId ? <span>Service ID {site.siteId}</span> : <span>Not yet on the service</span>}
        </p>
      )}
      {site?.lastError && (
        <div className="problem" role="alert">
          <p>{site.lastError.message}</p>
          <details>
            <summary>Details for support</summary>
            <pre>{site.lastError.detail}</pre>
          </details>
        </div>
      )}
      {restored && (
        <div className="notice" role="status">
          Restored your unsaved changes from {relativeTime(restored.savedAt)}.{' '}
          <button type="button" className="link-button" onClick={() => void discard()}>
            Discard them
          </button>
          <button type="button" className="link-button" onClick={() => setRestored(null)}>
            Keep
          </button>
        </div>
      )}
      <form
        ref={formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {isExisting && (
          <Field label="Site ID" id={ids('siteId')} error={shown('siteId')} hint="The number at the end of the site's address in the web interface. Nothing is sent: the site is only added to your list.">
            {(db) => (
              <>
            <input id={ids('siteId')} value={fields.siteId} inputMode="numeric" autoComplete="off" aria-invalid={!!shown('siteId')} aria-describedby={db} onChange={(e) => update({ siteId: e.target.value })} onBlur={() => touch('siteId')} />
          
              </>
            )}
          </Field>
        )}
        <Field label="Name" id={ids('name')} error={shown('name')}>
          {(db) => (
            <>
          <input id={ids('name')} value={fields.name} autoComplete="off" aria-invalid={!!shown('name')} aria-describedby={db} onChange={(e) => update({ name: e.target.value })} onBlur={() => touch('name')} />
        
            </>
          )}
        </Field>

        <Field
          label={`Height (${fields.heightUnit === 'ft' ? 'feet' : 'meters'})`}
          id={ids('height')}
          error={shown('height')}
          hint={height.meters !== null && !issues.height ? `= ${formatHeight(height.meters, 'm')}${height.feet !== null ? ' — converted to whole meters' : ''}` : 'Whole meters, or feet like “98 ft”.'}
        >
          {(db) => (
            <>
          <div className="with-unit">
            <input id={ids('height')} value={fields.height} inputMode="decimal" autoComplete="off" aria-invalid={!!shown('height')} aria-describedby={db} onChange={(e) => update({ height: e.target.value })} onBlur={() => touch('height')} />
            <fieldset className="unit-toggle">
              <legend className="visually-hidden">Height unit</legend>
              {(['m', 'ft'] as HeightUnit[]).map((unit) => (
                <label key={unit} className={fields.heightUnit === unit ? 'checked' : ''}>
                  <input type="radio" name={ids('unit')} value={unit} checked={fields.heightUnit === unit} onChange={() => update({ heightUnit: unit })} />
                  {unit === 'm' ? 'm' : 'ft'}
                </label>
              ))}
            </fieldset>
          </div>
        
            </>
          )}
        </Field>

        <div className="coord-row">
          <Field label="Latitude" id={ids('latitude')} error={shown('latitude')} hint={notes.latitude ?? coordinateHint(lat.value, 'lat', !!issues.latitude)}>
            {(db) => (
              <>
            <input id={ids('latitude')} value={fields.latitude} autoComplete="off" spellCheck={false} aria-invalid={!!shown('latitude')} aria-describedby={db} onChange={(e) => {
              update({ latitude: e.target.value });
              setNotes((n) => ({ ...n, latitude: undefined }));
            }} onBlur={() => readCoordinateField('latitude')} onPaste={(e) => {
              const text = e.clipboardData.getData('text');
              if (readCoordinates(text).kind === 'pair') {
                e.preventDefault();
                const reading = readCoordinates(text);
                if (reading.kind === 'pair') {
                  update({ latitude: formatDecimal(reading.latitude), longitude: formatDecimal(reading.longitude) });
                  setNotes({ latitude: `Read from “${text.trim()}”.` });
                  touch('latitude');
                  touch('longitude');
                }
              }
            }} />
          
              </>
            )}
          </Field>
          <Field label="Longitude" id={ids('longitude')} error={shown('longitude')} hint={notes.longitude ?? coordinateHint(lon.value, 'lon', !!issues.longitude)}>
            {(db) => (
              <>
            <input id={ids('longitude')} value={fields.longitude} autoComplete="off" spellCheck={false} aria-invalid={!!shown('longitude')} aria-describedby={db} onChange={(e) => {
              update({ longitude: e.target.value });
              setNotes((n) => ({ ...n, longitude: undefined }));
            }} onBlur={() => readCoordinateField('longitude')} />
          
              </>
            )}
          </Field>
        </div>
        <p className="form-help">
          Decimal degrees, or paste degrees-minutes-seconds such as 40°26'46"N 79°58'56"W (both at once go in Latitude).{' '}
          <button type="button" className="link-button" onClick={onPickOnMap}>
            Pick on the map
          </button>
        </p>

        <Field label="Description" id={ids('description')} error={shown('description')}>
          {(db) => (
            <>
          <textarea id={ids('description')} rows={3} value={fields.description} aria-invalid={!!shown('description')} aria-describedby={db} onChange={(e) => update({ description: e.target.value })} onBlur={() => touch('description')} />
        
            </>
          )}
        </Field>

        <Field label="Group" id={ids('group')} error={shown('group')}>
          {(db) => (
            <>
          <input id={ids('group')} value={fields.group} list={ids('groups')} autoComplete="off" aria-invalid={!!shown('group')} aria-describedby={db} onChange={(e) => update({ group: e.target.value })} onBlur={() => touch('group')} />
          <datalist id={ids('groups')}>
            {groups.map((g) => (
              <option key={g} value={g} />
            ))}
          </datalist>
        
            </>
          )}
        </Field>

        <fieldset className="pin-choice" aria-describedby={shown('pinStyle') ? ids('pinStyle-error') : undefined}>
          <legend>Pin colour</legend>
          {([1, 2, 3, 4] as PinStyle[]).map((style) => (
            <label key={style} className={fields.pinStyle === String(style) ? 'checked' : ''}>
              <input type="radio" name={ids('pin')} value={style} checked={fields.pinStyle === String(style)} onChange={() => update({ pinStyle: String(style) })} />
              <PinIcon style={style} decorative /> {PIN_NAMES[style]}
            </label>
          ))}
          {isExisting && (
            <label className={fields.pinStyle === '' ? 'checked' : ''}>
              <input type="radio" name={ids('pin')} value="" checked={fields.pinStyle === ''} onChange={() => update({ pinStyle: '' })} />
              Not known
            </label>
          )}
          <FieldError id={ids('pinStyle-error')} message={shown('pinStyle')} />
        </fieldset>

        {isEdit && <p className="form-help">Blank name, description or group keep what the service has.</p>}
        {generalIssue && <p className="field-error" role="alert">{generalIssue}</p>}
        {submitted && errorCount > 0 && (
          <p className="field-error" role="alert">
            {errorCount === 1 ? 'One field needs fixing' : `${errorCount} fields need fixing`} before the site can be saved. Nothing was queued.
          </p>
        )}
        <div className="actions sticky-actions">
          <button type="submit" className="primary" disabled={saving}>
            {saving ? 'Saving…' : isExisting ? 'Add site' : 'Save site'}
          </button>
          <button type="button" onClick={close}>
            Close
          </button>
          {(dirty.current || restored) && (
            <button type="button" className="danger-outline" onClick={() => void discard()}>
              Discard
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

/**
 * What is sent. A create or an added site sends every field given. An edit of a site the service
 * already has sends the height (always required) and only the fields changed here: blank means
 * "leave as it is" on the wire, so an unchanged field that the web interface changed meanwhile is
 * not overwritten with this computer's older copy, and a colour the register never knew (a site
 * added by ID shows the default) is not forced on the service.
 */
function buildPayload(
  edit: SiteEdit,
  context: { mode: SiteFormRequest['mode']; heightOptional: boolean; site: SiteView | null; pinStyleText: string },
): SiteInput {
  const { mode, site } = context;
  if (mode === 'edit' && site?.siteId) {
    const payload: SiteInput = { siteId: site.siteId, height: edit.height };
    if ((edit.name ?? '') !== site.name.trim()) payload.name = edit.name ?? '';
    if (edit.latitude !== undefined && (edit.latitude !== site.latitude || edit.longitude !== site.longitude)) {
      payload.latitude = edit.latitude;
      payload.longitude = edit.longitude;
    }
    if ((edit.description ?? '') !== site.description.trim()) payload.description = edit.description ?? '';
    if ((edit.group ?? '') !== site.group.trim()) payload.group = edit.group ?? '';
    if (context.pinStyleText !== String(site.pinStyle)) payload.pinStyle = edit.pinStyle ?? null;
    return payload;
  }
  const payload: SiteInput = {
    name: edit.name ?? '',
    height: context.heightOptional ? undefined : edit.height,
    latitude: edit.latitude,
    longitude: edit.longitude,
    description: edit.description ?? '',
    group: edit.group ?? '',
    pinStyle: edit.pinStyle ?? (mode === 'existing' ? null : 1),
  };
  if (edit.siteId) payload.siteId = edit.siteId;
  return payload;
}

function coordinateHint(value: string, axis: 'lat' | 'lon', invalid: boolean): string | undefined {
  if (invalid || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? `= ${formatDms(n, axis)}` : undefined;
}

/** A labelled field; its child gets the ids of whatever describes it right now (hint or error). */
function Field({ label, id, error, hint, children }: { label: string; id: string; error?: string; hint?: string; children: (describedBy: string | undefined) => ReactNode }) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(describedBy)}
      {hint && !error && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
