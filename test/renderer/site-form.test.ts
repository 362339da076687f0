// The site form's rules, without the form: what it opens with, what a save sends (an edit of a site
// the service has sends only what changed, so the web interface's newer values are not overwritten),
// which sentence a field shows when several speak, and coordinates pasted as text.
import { describe, expect, it } from 'vitest';
import type { SiteInput, SiteView } from '../../electron/shared/contract/index';
import type { SiteEdit } from '../../electron/shared/domain';
import { parseSiteEdit } from '../../electron/shared/validation';
import type { SiteDraftFields } from '../../renderer/src/features/sites/drafts';
import {
  SITE_ID_REQUIRED,
  buildPayload,
  coordinateFill,
  draftKeyFor,
  fieldIssues,
  formPlace,
  heightHint,
  pastedPair,
  readForm,
  savedMessage,
  startingFields,
  withoutChanged,
} from '../../renderer/src/features/sites/site-form-rules';
import { siteView } from './site-view';

function site(patch: Partial<SiteView> = {}): SiteView {
  return siteView({ description: 'North slope', group: 'East', pinStyle: 2, ...patch });
}

function fields(patch: Partial<SiteDraftFields> = {}): SiteDraftFields {
  return { name: 'Ridge', height: '30', heightUnit: 'm', latitude: '40.5', longitude: '-80.25', description: 'North slope', group: 'East', pinStyle: '2', siteId: '', ...patch };
}

/** The shared schema's reading of what the form gives it; the tests here only save valid input. */
function valid(input: SiteInput): SiteEdit {
  const edit = parseSiteEdit(input);
  if (!edit.ok) throw new Error(JSON.stringify(edit.issues));
  return edit.value;
}

/** What a save of an edit of `original` sends after the fields were changed to `typed`. */
function editPayload(original: SiteView, typed: SiteDraftFields) {
  const edit = valid(readForm(typed, 'edit', original.siteId).input);
  return buildPayload(edit, { mode: 'edit', heightOptional: false, site: original, pinStyleText: typed.pinStyle });
}

describe('what the form opens with', () => {
  it("shows an edited site's height in the chosen unit", () => {
    expect(startingFields({ mode: 'edit', localId: 'L1' }, site(), 'ft')).toMatchObject({ height: '98', heightUnit: 'ft', pinStyle: '2', siteId: '4711' });
  });

  it('puts a new site where the map was clicked, red unless chosen otherwise', () => {
    expect(startingFields({ mode: 'new', lat: 40.4461111, lng: -79.9822222 }, null, 'm')).toMatchObject({ latitude: '40.446111', longitude: '-79.982222', pinStyle: '1' });
  });

  it('leaves the colour of a site added by its ID unknown, so the service keeps its own', () => {
    expect(startingFields({ mode: 'existing' }, null, 'm').pinStyle).toBe('');
  });

  it("keys an edit's draft by its site, and gives every new form a draft of its own", () => {
    expect(draftKeyFor({ mode: 'edit', localId: 'L1' })).toBe('site:L1');
    expect(draftKeyFor({ mode: 'new', lat: null, lng: null, draftKey: 'new:abc' })).toBe('new:abc');
    const a = draftKeyFor({ mode: 'new', lat: null, lng: null });
    expect(a).toMatch(/^new:/);
    expect(draftKeyFor({ mode: 'new', lat: null, lng: null })).not.toBe(a);
  });
});

describe('what a save sends', () => {
  it('sends the height and only the changed fields when editing a site the service has', () => {
    expect(editPayload(site(), fields({ height: '31' }))).toEqual({ siteId: '4711', height: 31 });
    expect(editPayload(site(), fields({ group: 'West' }))).toEqual({ siteId: '4711', height: 30, group: 'West' });
  });

  it('sends both coordinates when only one of them changed', () => {
    expect(editPayload(site(), fields({ longitude: '-80.3' }))).toEqual({ siteId: '4711', height: 30, latitude: 40.5, longitude: -80.3 });
  });

  it('sends a changed colour, and never a colour the user did not touch', () => {
    expect(editPayload(site(), fields({ pinStyle: '4' }))).toMatchObject({ pinStyle: 4 });
    expect(editPayload(site(), fields())).not.toHaveProperty('pinStyle');
  });

  it('converts a height typed in feet to whole meters before the schema sees it', () => {
    expect(readForm(fields({ height: '98 ft' }), 'new', null).input.height).toBe('30');
    expect(readForm(fields({ height: '100', heightUnit: 'ft' }), 'new', null).input.height).toBe('30');
    expect(editPayload(site(), fields({ height: '328', heightUnit: 'ft' }))).toEqual({ siteId: '4711', height: 100 });
  });

  it('sends every field of a new site, red when no colour was chosen', () => {
    const edit = valid(readForm(fields({ pinStyle: '' }), 'new', null).input);
    expect(buildPayload(edit, { mode: 'new', heightOptional: false, site: null, pinStyleText: '' })).toEqual({
      name: 'Ridge',
      height: 30,
      latitude: 40.5,
      longitude: -80.25,
      description: 'North slope',
      group: 'East',
      pinStyle: 1,
    });
  });

  it('adds a site by its ID without a height or a colour when neither is known', () => {
    const typed = fields({ siteId: '9001', height: '', pinStyle: '' });
    const reading = readForm(typed, 'existing', null);
    expect(reading.heightOptional).toBe(true);
    const payload = buildPayload(valid(reading.input), { mode: 'existing', heightOptional: true, site: null, pinStyleText: '' });
    expect(payload).toMatchObject({ siteId: '9001', height: undefined, pinStyle: null });
  });
});

describe('which sentence a field shows', () => {
  it('says what is wrong with feet itself, since the schema never sees them', () => {
    const typed = fields({ height: 'ninety ft' });
    const reading = readForm(typed, 'new', null);
    const issues = fieldIssues(typed, 'new', reading, parseSiteEdit(reading.input), {});
    expect(issues.height).toBe('Height in feet must be a number, like 98.');
  });

  it("gives the shared schema's sentence for meters", () => {
    const typed = fields({ height: 'thirty', latitude: '95' });
    const reading = readForm(typed, 'new', null);
    const issues = fieldIssues(typed, 'new', reading, parseSiteEdit(reading.input), {});
    expect(issues.height).toBe('Height must be a number of meters, like 30, or of feet, like 98 ft.');
    expect(issues.latitude).toMatch(/^Latitude must be between -90 and 90 degrees/);
  });

  it("lets the host's answer to the last save speak over the form's own reading", () => {
    const typed = fields({ height: 'abc ft' });
    const reading = readForm(typed, 'new', null);
    const issues = fieldIssues(typed, 'new', reading, parseSiteEdit(reading.input), { height: 'Too tall for this account.', '': 'General trouble.' });
    expect(issues.height).toBe('Too tall for this account.');
    expect(Object.keys(issues)).toEqual(['height']);
  });

  it('asks for the site ID of a site added by its ID', () => {
    const typed = fields({ siteId: '  ' });
    const reading = readForm(typed, 'existing', null);
    expect(fieldIssues(typed, 'existing', reading, parseSiteEdit(reading.input), {}).siteId).toBe(SITE_ID_REQUIRED);
  });

  it('forgets what the host said about a field once it is changed (the unit is part of the height)', () => {
    const server = { height: 'Too tall.', name: 'Taken.', '': 'General.' };
    expect(withoutChanged(server, { heightUnit: 'ft' })).toEqual({ name: 'Taken.', '': 'General.' });
    expect(withoutChanged(server, { name: 'Other' })).toEqual({ height: 'Too tall.', '': 'General.' });
  });

  it('shows the meters a height in feet will be stored as, and how to type one otherwise', () => {
    const typed = fields({ height: '98 ft' });
    expect(heightHint(readForm(typed, 'new', null).height, false)).toBe('= 30 m (98 ft) — converted to whole meters');
    expect(heightHint(readForm(fields({ height: '' }), 'new', null).height, false)).toBe('Whole meters, or feet like “98 ft”.');
  });
});

describe('coordinates typed or pasted as text', () => {
  it('fills both fields from a pasted pair, in the order its hemisphere letters say', () => {
    const fill = pastedPair('79°58\'56"W 40°26\'46"N');
    expect(fill).toEqual({ patch: { latitude: '40.446111', longitude: '-79.982222' }, note: 'Read from “79°58\'56"W 40°26\'46"N”.', pair: true });
  });

  it('leaves a paste of one coordinate to the field', () => {
    expect(pastedPair('40.446')).toBeNull();
  });

  it('turns DMS left in a field into a decimal, but not a coordinate of the other axis', () => {
    expect(coordinateFill('latitude', '40°26\'46"N')?.patch).toEqual({ latitude: '40.446111' });
    expect(coordinateFill('longitude', '40°26\'46"N')).toBeNull();
    expect(coordinateFill('latitude', '40.446')).toBeNull();
  });

  it('fills both fields from a pair left in the longitude field too', () => {
    expect(coordinateFill('longitude', '40.446, -79.982')).toMatchObject({ patch: { latitude: '40.446', longitude: '-79.982' }, pair: true });
  });
});

describe('the place the form names, for the map', () => {
  it('is where the coordinates are while both can be read, and not an edited site\'s own place', () => {
    expect(formPlace(readForm(fields(), 'new', null), null)).toEqual({ lat: 40.5, lng: -80.25 });
    expect(formPlace(readForm(fields({ latitude: '40°30\'00"N' }), 'new', null), null)).toEqual({ lat: 40.5, lng: -80.25 });
    for (const latitude of ['', '95', 'north']) expect(formPlace(readForm(fields({ latitude }), 'new', null), null)).toBeNull();
    const ridge = site({ latitude: 40.5, longitude: -80.25 });
    expect(formPlace(readForm(fields(), 'edit', ridge.siteId), ridge)).toBeNull();
    expect(formPlace(readForm(fields({ longitude: '-80.3' }), 'edit', ridge.siteId), ridge)).toEqual({ lat: 40.5, lng: -80.3 });
  });
});

const CONNECTED = { state: 'online' as const, lastError: null, nextTryAt: null };

describe('after a save', () => {
  it('says whether the site is on its way now or waits for the service', () => {
    expect(savedMessage('new', site(), { online: true, blocked: null, connection: CONNECTED })).toBe('Saved Ridge — sending to the service.');
    expect(savedMessage('edit', site(), { online: false, blocked: { reason: 'offline', message: 'The service cannot be reached.' }, connection: CONNECTED })).toBe('Saved Ridge on this computer — it will be sent when the service is reachable.');
    expect(savedMessage('edit', site(), null)).toBe('Saved Ridge on this computer — it will be sent when the service is reachable.');
    expect(savedMessage('existing', site(), { online: false, blocked: null, connection: CONNECTED })).toBe('Added Ridge to your sites.');
    // Reachable but not moving: never "sending" (a 503 hold, a pause).
    expect(savedMessage('edit', site(), { online: true, blocked: { reason: 'unavailable', message: 'The service says…' }, connection: CONNECTED })).toBe(
      'Saved Ridge on this computer — the service says it is unavailable for now; it will be sent when it answers again.',
    );
    // Nothing held yet, but the last call or probe found the service away.
    expect(savedMessage('new', site(), { online: true, blocked: null, connection: { ...CONNECTED, state: 'not-answering' } })).toBe(
      'Saved Ridge on this computer — the service says it is unavailable for now; it will be sent when it answers again.',
    );
    expect(savedMessage('new', site(), { online: true, blocked: { reason: 'paused', message: 'The account has no API calls left.' }, connection: CONNECTED })).toBe(
      'Saved Ridge on this computer — it waits in the outbox: The account has no API calls left.',
    );
  });
});
