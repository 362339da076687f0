// The site form: create, edit, or add an existing service site by its ID. Validation is the shared
// schema (parseSiteEdit) run on every keystroke, so the form says exactly what the core would; the
// form only translates feet and DMS first (the rules are in site-form-rules.ts). Every keystroke is kept as
// a draft until the save is queued, so closing the form, a reload or a crash never loses typed input.
import { useEffect, useId, useMemo, useRef, useState, type ClipboardEvent } from 'react';
import type { SiteView } from '../../../../electron/shared/contract/index';
import { HEIGHT_UNITS, PIN_STYLES } from '../../../../electron/shared/domain';
import { parseSiteEdit } from '../../../../electron/shared/validation';
import { formatDecimal } from '../../shared/coords';
import { deleteDraft, loadDraft, saveDraft, type SiteDraft, type SiteDraftFields } from './drafts';
import { relativeTime } from '../../shared/format';
import { issuesByField } from '../../shared/issues';
import { convertHeightText } from '../../shared/units';
import {
  FIELD_ORDER,
  buildPayload,
  coordinateFill,
  coordinateHint,
  DISCARD_CONFIRM,
  draftKeyFor,
  fieldIssues,
  firstIssue,
  formPlace,
  formTitle,
  heightHint,
  pastedPair,
  readForm,
  sameAsStart,
  savedMessage,
  startingFields,
  withoutChanged,
  type CoordinateFill,
  type FieldName,
  type ServerIssues,
  type PickedFix,
  type SiteFormRequest,
} from './site-form-rules';
import { StakeFromForm, accuracyNote, formatAccuracy, measurementFor, measurementText } from '../location';
import { PIN_NAMES } from '../../shared/sprites';
import { useAppState } from '../../shared/store/app-store';
import { Field, FieldError } from '../../shared/ui/field';
import { PinIcon, SyncBadge } from '../../shared/ui/badge';
import { Problem } from '../../shared/ui/problem';
import { useUi } from '../../shared/ui/ui-context';
import { RefusalNotice } from '../settings';

export interface SiteFormProps {
  request: SiteFormRequest;
  onClose: (saved: SiteView | null) => void;
  /** Asks the map for a click; the form gets the coordinates back through `picked`. */
  onPickOnMap: () => void;
  picked: { lat: number; lng: number; seq: number; fix?: PickedFix } | null;
  /** "Stake here" (a new site) or "Move site to my position" (`target`: where the site is now): My location averages. */
  onStakeHere?: (target: { lat: number; lon: number } | null) => void;
  /** Where the coordinates put the site now, for the map to mark (null while they cannot be read, or are the site's own). */
  onPlace?: (place: { lat: number; lng: number } | null) => void;
}

type CoordinateField = 'latitude' | 'longitude';

export function SiteForm({ request, onClose, onPickOnMap, picked, onStakeHere, onPlace }: SiteFormProps) {
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
    return { fields: restored?.fields ?? startingFields(request, site, settings.heightUnit), restored };
  });
  const [fields, setFields] = useState<SiteDraftFields>(initial.fields);
  const [restored, setRestored] = useState<SiteDraft | null>(initial.restored);
  const [touched, setTouched] = useState<Set<FieldName>>(() => new Set(initial.restored ? FIELD_ORDER : []));
  const [submitted, setSubmitted] = useState(false);
  const [serverIssues, setServerIssues] = useState<ServerIssues>({});
  const [saving, setSaving] = useState(false);
  const [notes, setNotes] = useState<Partial<Record<CoordinateField, string>>>({});
  const dirty = useRef(initial.restored !== null);
  const formRef = useRef<HTMLFormElement>(null);
  // A position from "My location": its accuracy is shown, and goes into the description only if asked.
  const [fix, setFix] = useState<PickedFix | null>(request.mode === 'new' ? (request.fix ?? null) : null);
  const [noteOn, setNoteOn] = useState(false);
  const measured = fix?.measurement ? measurementText(fix.measurement, settings.heightUnit) : null;
  const note = measured ?? (fix && fix.accuracyM !== null ? accuracyNote(fix.accuracyM, settings.heightUnit, fix.qualityLabel) : null);

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
    update({ latitude: formatDecimal(picked.lat), longitude: formatDecimal(picked.lng), ...(noteOn && note ? { description: withoutNote(fields.description, note) } : {}) });
    setNotes({ latitude: picked.fix ? 'From My location.' : 'Picked on the map.' });
    // A new position: the old fix's accuracy no longer applies (nor its note).
    setFix(picked.fix ?? null);
    setNoteOn(false);
  }, [picked]); // update() only sets state, so it need not be a dependency

  function update(patch: Partial<SiteDraftFields>) {
    dirty.current = true;
    setFields((f) => ({ ...f, ...patch }));
    setServerIssues((issues) => withoutChanged(issues, patch));
  }

  function noteAccuracy(on: boolean) {
    if (!note) return;
    setNoteOn(on);
    const text = fields.description;
    if (on && !text.includes(note)) update({ description: text.trim() === '' ? note : `${text.trimEnd()} ${note}` });
    if (!on) update({ description: withoutNote(text, note) });
  }

  function touch(field: FieldName) {
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  }

  const isExisting = request.mode === 'existing';
  const isEdit = request.mode === 'edit';
  const reading = useMemo(() => readForm(fields, request.mode, site?.siteId ?? null), [fields, request.mode, site?.siteId]);
  const validation = useMemo(() => parseSiteEdit(reading.input), [reading]);
  useEffect(() => void onPlace?.(formPlace(reading, site)), [reading, site, onPlace]);
  const activeProfile = useAppState(store, (s) => s.profiles.find((profile) => profile.active) ?? null);
  const issues = fieldIssues(fields, request.mode, reading, validation, serverIssues);
  const shown = (field: FieldName) => (submitted || touched.has(field) ? issues[field] : undefined);
  const generalIssue = serverIssues[''];

  /** Coordinates read from text: a pair fills both fields and counts as touching both. */
  function fill(field: CoordinateField, read: CoordinateFill) {
    update(read.patch);
    if (read.pair) {
      setNotes({ latitude: read.note });
      touch('latitude');
      touch('longitude');
    } else {
      setNotes((n) => ({ ...n, [field]: read.note }));
    }
  }

  function leaveCoordinate(field: CoordinateField) {
    const read = coordinateFill(field, fields[field]);
    if (read) fill(field, read);
    touch(field);
  }

  async function submit() {
    setSubmitted(true);
    const firstBad = firstIssue(issues);
    if (firstBad || !validation.ok) {
      focusField(firstBad ?? 'height');
      return;
    }
    setSaving(true);
    const payload = buildPayload(validation.value, { mode: request.mode, heightOptional: reading.heightOptional, site, pinStyleText: fields.pinStyle });
    if (isEdit) payload.localId = request.localId;
    const measurement = measurementFor(payload, fix);
    if (measurement) payload.measurement = measurement;
    const result = await ui.call(() => (isExisting ? api.addExistingSite(payload) : api.saveSite(payload)));
    setSaving(false);
    if (!result) return; // the call failed outright; ui.call said so and the draft is kept
    if (!result.ok) {
      const byField = issuesByField(result.issues, FIELD_ORDER);
      setServerIssues(byField);
      const first = FIELD_ORDER.find((f) => byField[f]);
      if (first) focusField(first);
      return;
    }
    deleteDraft(draftKey);
    store.applySite(result.value);
    ui.toast(savedMessage(request.mode, result.value, store.getState().status), { tone: 'success' });
    onClose(result.value);
  }

  function focusField(field: FieldName) {
    const el = formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(ids(field))}`);
    el?.focus();
  }

  async function discard() {
    if (!(await ui.confirm(DISCARD_CONFIRM))) return;
    deleteDraft(draftKey);
    dirty.current = false;
    onClose(null);
  }

  function close() {
    if (dirty.current && sameAsStart(fields, request, site)) deleteDraft(draftKey);
    else if (dirty.current) ui.toast('Your unsaved changes are kept as a draft — find them under Sites.', { tone: 'info' });
    onClose(null);
  }

  const errorCount = FIELD_ORDER.filter((f) => issues[f]).length;

  /** Latitude and longitude: DMS or a pair is read when the field is left; a valid value shows its DMS. */
  const coordinateField = (field: CoordinateField, label: string, onPaste?: (e: ClipboardEvent<HTMLInputElement>) => void) => (
    <Field label={label} id={ids(field)} error={shown(field)} hint={notes[field] ?? coordinateHint(reading[field].value, field === 'latitude' ? 'lat' : 'lon', !!issues[field])}>
      {(db) => (
        <input
          id={ids(field)}
          value={fields[field]}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!shown(field)}
          aria-describedby={db}
          onChange={(e) => {
            update({ [field]: e.target.value });
            setNotes((n) => ({ ...n, [field]: undefined }));
          }}
          onBlur={() => leaveCoordinate(field)}
          onPaste={onPaste}
        />
      )}
    </Field>
  );

  // Opening the form takes keyboard focus into it, to its first field (App puts focus back on close).
  useEffect(() => {
    focusField(isExisting ? 'siteId' : 'name');
  }, []); // once, when the form opens

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
        <h2 id={ids('title')}>{formTitle(request.mode, site)}</h2>
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
      {site?.lastError && <Problem problem={site.lastError} alert />}
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
              <input id={ids('siteId')} value={fields.siteId} inputMode="numeric" autoComplete="off" aria-invalid={!!shown('siteId')} aria-describedby={db} onChange={(e) => update({ siteId: e.target.value })} onBlur={() => touch('siteId')} />
            )}
          </Field>
        )}
        <Field label="Name" id={ids('name')} error={shown('name')}>
          {(db) => <input id={ids('name')} value={fields.name} autoComplete="off" aria-invalid={!!shown('name')} aria-describedby={db} onChange={(e) => update({ name: e.target.value })} onBlur={() => touch('name')} />}
        </Field>

        <Field label={`Height (${fields.heightUnit === 'ft' ? 'feet' : 'meters'})`} id={ids('height')} error={shown('height')} hint={heightHint(reading.height, !!issues.height)}>
          {(db) => (
            <div className="with-unit">
              <input id={ids('height')} value={fields.height} inputMode="decimal" autoComplete="off" aria-invalid={!!shown('height')} aria-describedby={db} onChange={(e) => update({ height: e.target.value })} onBlur={() => touch('height')} />
              <fieldset className="unit-toggle">
                <legend className="visually-hidden">Height unit</legend>
                {HEIGHT_UNITS.map((unit) => (
                  <label key={unit} className={fields.heightUnit === unit ? 'checked' : ''}>
                    <input type="radio" name={ids('unit')} value={unit} checked={fields.heightUnit === unit} onChange={() => update({ heightUnit: unit, height: convertHeightText(fields.height, fields.heightUnit, unit) })} />
                    {unit}
                  </label>
                ))}
              </fieldset>
            </div>
          )}
        </Field>

        <div className="coord-row">
          {coordinateField('latitude', 'Latitude', (e) => {
            const pair = pastedPair(e.clipboardData.getData('text'));
            if (!pair) return;
            e.preventDefault();
            fill('latitude', pair);
          })}
          {coordinateField('longitude', 'Longitude')}
        </div>
        <p className="form-help">
          Decimal degrees, or paste degrees-minutes-seconds such as 40°26'46"N 79°58'56"W (both at once go in Latitude).{' '}
          <button type="button" className="link-button" onClick={onPickOnMap}>
            Pick on the map
          </button>
          {onStakeHere && settings.gpsSource !== 'off' && !isExisting && <StakeFromForm site={isEdit ? site : null} onStakeHere={onStakeHere} />}
        </p>
        {fix && (
          <div className="field">
            <p className="form-help" data-testid="fix-accuracy">
              {measured ?? `Position from My location (${fix.qualityLabel}), accurate to ${formatAccuracy(fix.accuracyM, settings.heightUnit)}.`}
            </p>
            {note && (
              <label className="checkbox">
                <input type="checkbox" checked={noteOn} onChange={(e) => noteAccuracy(e.target.checked)} />
                Note the accuracy ({formatAccuracy(fix.accuracyM, settings.heightUnit)}) in the description
              </label>
            )}
          </div>
        )}

        <Field label="Description" id={ids('description')} error={shown('description')}>
          {(db) => (
            <textarea id={ids('description')} rows={3} value={fields.description} aria-invalid={!!shown('description')} aria-describedby={db} onChange={(e) => update({ description: e.target.value })} onBlur={() => touch('description')} />
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
          {PIN_STYLES.map((style) => (
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
        {/* Values the service's ASP.NET front refuses over HTTP GET/POST: said before saving. */}
        {!isExisting && <RefusalNotice edit={validation.ok ? validation.value : null} profile={activeProfile} />}
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

/** The description without the accuracy note (and the space before it). */
function withoutNote(text: string, note: string): string {
  if (!text.includes(note)) return text;
  return text.replace(` ${note}`, '').replace(note, '').trim();
}
