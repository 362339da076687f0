// The site form's rules, apart from its rendering: the fields a form opens with, what the shared
// schema is given (feet and DMS read first), which sentence each field shows (the host's answer,
// then our own readings, then the schema's), what a save sends (an edit sends only what changed),
// and coordinates typed or pasted as text read into decimals. Plain functions: no React, no DOM.
import type { SiteInput, SiteView, SyncStatus } from '../../../../electron/shared/contract/index';
import type { HeightUnit, SiteEdit } from '../../../../electron/shared/domain';
import type { ValidationResult } from '../../../../electron/shared/validation';
import { coordinateFieldValue, formatDecimal, formatDms, readCoordinates, type Axis, type CoordinateReading } from '../../shared/coords';
import { newDraftKey, type SiteDraftFields } from './drafts';
import { serviceAway, type SiteFormRequest } from '../../shared/ui/ui-context';
import { siteTitle } from '../../shared/format';
import { heightFieldText, readHeight, type HeightReading } from '../../shared/units';
export { heightHint } from '../../shared/units';

// What opens the form is the shell's navigation request (shared/ui/ui-context.tsx); named here too.
export type { PickedFix, SiteFormRequest } from '../../shared/ui/ui-context';

export type SiteFormMode = SiteFormRequest['mode'];

/** The form's fields, top to bottom: the first one with a problem gets the focus. */
export const FIELD_ORDER = ['siteId', 'name', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle'] as const;
export type FieldName = (typeof FIELD_ORDER)[number];
export type FieldIssues = Partial<Record<FieldName, string>>;
/** What the host said about a save, by field; '' is the form's general line. */
export type ServerIssues = Partial<Record<string, string>>;

export const SITE_ID_REQUIRED = "Site ID is required: it is at the end of the site's address in the web interface.";

/** A form's draft key: the one it was resumed with, the site's own, or a fresh one for a new form. */
export function draftKeyFor(request: SiteFormRequest): string {
  if (request.draftKey) return request.draftKey;
  if (request.mode === 'edit') return `site:${request.localId}`;
  return newDraftKey(request.mode);
}

/** The fields a form opens with when no draft is restored: the edited site's, or blanks. */
export function startingFields(request: SiteFormRequest, site: SiteView | null, unit: HeightUnit): SiteDraftFields {
  if (request.mode === 'edit' && site) {
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
  const fields: SiteDraftFields = { name: '', height: '', heightUnit: unit, latitude: '', longitude: '', description: '', group: '', pinStyle: '1', siteId: '' };
  // A site added by ID keeps whatever colour the service has unless the user knows it.
  if (request.mode === 'existing') fields.pinStyle = '';
  if (request.mode === 'new' && request.lat !== null && request.lng !== null) {
    fields.latitude = formatDecimal(request.lat);
    fields.longitude = formatDecimal(request.lng);
  }
  return fields;
}

/**
 * Whether the fields say nothing the form did not start with (the site as it is now, its height in
 * the unit the form shows): a draft that holds no change is not kept, and closing says nothing of one.
 */
export function sameAsStart(fields: SiteDraftFields, request: SiteFormRequest, site: SiteView | null): boolean {
  const start = startingFields(request, site, fields.heightUnit);
  return (Object.keys(start) as Array<keyof SiteDraftFields>).every((key) => fields[key].trim() === start[key].trim());
}

/** The fields as read before the schema sees them, and the input the schema gets. */
export interface FormReading {
  height: HeightReading;
  latitude: { value: string; message: string | null };
  longitude: { value: string; message: string | null };
  /** Adding an existing site sends nothing, so its height may stay unknown (the core checks the same). */
  heightOptional: boolean;
  input: SiteInput;
}

/** Reads the fields; `siteId` is the service ID of the site being edited, if it has one. */
export function readForm(fields: SiteDraftFields, mode: SiteFormMode, siteId: string | null): FormReading {
  const height = readHeight(fields.height, fields.heightUnit);
  const latitude = coordinateFieldValue(fields.latitude, 'lat');
  const longitude = coordinateFieldValue(fields.longitude, 'lon');
  const heightOptional = mode === 'existing' && fields.height.trim() === '';
  const input: SiteInput = {
    name: fields.name,
    height: heightOptional ? '0' : height.schemaInput,
    latitude: latitude.value,
    longitude: longitude.value,
    description: fields.description,
    group: fields.group,
    pinStyle: fields.pinStyle,
  };
  if (mode === 'edit' && siteId) input.siteId = siteId;
  if (mode === 'existing') input.siteId = fields.siteId;
  return { height, latitude, longitude, heightOptional, input };
}

/**
 * The sentence each field shows. The host's answer to the last save speaks first, then the form's own
 * readings (the schema never saw the feet or the DMS text), then the schema.
 */
export function fieldIssues(fields: SiteDraftFields, mode: SiteFormMode, reading: FormReading, validation: ValidationResult<SiteEdit>, server: ServerIssues): FieldIssues {
  const issues: FieldIssues = {};
  if (!validation.ok) {
    for (const issue of validation.issues) {
      if (isField(issue.field)) issues[issue.field] ??= issue.message;
    }
  }
  if (reading.height.message) issues.height = reading.height.message;
  if (reading.latitude.message) issues.latitude = reading.latitude.message;
  if (reading.longitude.message) issues.longitude = reading.longitude.message;
  if (mode === 'existing' && fields.siteId.trim() === '') issues.siteId = SITE_ID_REQUIRED;
  for (const [field, message] of Object.entries(server)) {
    if (message && isField(field)) issues[field] = message;
  }
  return issues;
}

function isField(name: string): name is FieldName {
  return (FIELD_ORDER as readonly string[]).includes(name);
}

/** The first field, top to bottom, that has a problem. */
export function firstIssue(issues: FieldIssues): FieldName | undefined {
  return FIELD_ORDER.find((field) => issues[field]);
}

/** The host's complaints minus those about fields just changed (a unit is part of the height). */
export function withoutChanged(server: ServerIssues, patch: Partial<SiteDraftFields>): ServerIssues {
  const next = { ...server };
  for (const key of Object.keys(patch)) delete next[key === 'heightUnit' ? 'height' : key];
  return next;
}

/**
 * What is sent. A create or an added site sends every field given. An edit of a site the service
 * already has sends the height (always required) and only the fields changed here: blank means
 * "leave as it is" on the wire, so an unchanged field that the web interface changed meanwhile is
 * not overwritten with this computer's older copy, and a colour the register never knew (a site
 * added by ID shows the default) is not forced on the service.
 */
export function buildPayload(edit: SiteEdit, context: { mode: SiteFormMode; heightOptional: boolean; site: SiteView | null; pinStyleText: string }): SiteInput {
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

/** Coordinate text read into decimals: `patch` for the fields, and a note saying what was read. */
export interface CoordinateFill {
  patch: Partial<SiteDraftFields>;
  note: string;
  /** Both coordinates were in the text: both fields were filled. */
  pair: boolean;
}

/** A pasted latitude/longitude pair, in any form the form reads; null for anything else. */
export function pastedPair(text: string): CoordinateFill | null {
  return pairFill(readCoordinates(text), text);
}

/**
 * A coordinate field's text once the user leaves it: a pair fills both fields, DMS or a hemisphere
 * letter of this field's axis becomes a decimal. Null when there is nothing to convert (a plain
 * decimal, an error the schema or the reader words, a coordinate of the other axis).
 */
export function coordinateFill(field: 'latitude' | 'longitude', text: string): CoordinateFill | null {
  const reading = readCoordinates(text);
  const pair = pairFill(reading, text);
  if (pair) return pair;
  if (reading.kind !== 'single' || !reading.coordinate.converted) return null;
  const axis: Axis = field === 'latitude' ? 'lat' : 'lon';
  if (reading.coordinate.axis !== null && reading.coordinate.axis !== axis) return null;
  return { patch: { [field]: formatDecimal(reading.coordinate.value) }, note: readFrom(text), pair: false };
}

function pairFill(reading: CoordinateReading, text: string): CoordinateFill | null {
  if (reading.kind !== 'pair') return null;
  return { patch: { latitude: formatDecimal(reading.latitude), longitude: formatDecimal(reading.longitude) }, note: readFrom(text), pair: true };
}

function readFrom(text: string): string {
  return `Read from “${text.trim()}”.`;
}

/** The DMS form of a valid decimal coordinate, shown under its field. */
export function coordinateHint(value: string, axis: Axis, invalid: boolean): string | undefined {
  if (invalid || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? `= ${formatDms(n, axis)}` : undefined;
}

export function formTitle(mode: SiteFormMode, site: SiteView | null): string {
  if (mode === 'existing') return 'Add an existing site by its ID';
  if (mode === 'edit') return `Edit ${site ? siteTitle(site) : 'site'}`;
  return 'New site';
}

/**
 * The toast after a save: an added site is only listed, a saved one is on its way now, or waits and
 * says for what (the service away, the outbox paused): "sending" only when the queue can move.
 */
export function savedMessage(mode: SiteFormMode, saved: SiteView, status: Pick<SyncStatus, 'online' | 'blocked' | 'connection'> | null): string {
  const title = siteTitle(saved);
  if (mode === 'existing') return `Added ${title} to your sites.`;
  const blocked = status?.blocked ?? null;
  const away = status !== null && serviceAway(status);
  if (status?.online && blocked === null && !away) return `Saved ${title} — sending to the service.`;
  if (away) return `Saved ${title} on this computer — the service says it is unavailable for now; it will be sent when it answers again.`;
  if (status?.online && blocked) return `Saved ${title} on this computer — it waits in the outbox: ${blocked.message}`;
  return `Saved ${title} on this computer — it will be sent when the service is reachable.`;
}

/** "Discard your changes?": what the form's Discard asks first. */
export const DISCARD_CONFIRM = {
  title: 'Discard your changes?',
  body: 'What you typed in this form will be thrown away. The site itself stays as it is.',
  confirmLabel: 'Discard changes',
  danger: true,
};

/**
 * Where the form's coordinates put the site, for the map to mark: null while either cannot be read,
 * and for an edit while they are still the site's own (its pin already shows it).
 */
export function formPlace(reading: FormReading, site: SiteView | null): { lat: number; lng: number } | null {
  const { latitude, longitude } = reading;
  if (latitude.message || longitude.message || latitude.value.trim() === '' || longitude.value.trim() === '') return null;
  const lat = Number(latitude.value);
  const lng = Number(longitude.value);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return site && site.latitude === lat && site.longitude === lng ? null : { lat, lng };
}
