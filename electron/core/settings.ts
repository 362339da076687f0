// The app's settings (tile server, units, theme, GPS receiver, accuracy gates, sync concurrency), kept
// in the core's key-value store beside the profiles. One zod schema says what a valid setting is: the
// contract's patch schema (what a call may carry at all) extended with the domain's rules (a tile
// address the map can use, an attribution shown as text, a receiver's host). A patch is checked with
// it before anything is written, and each stored value is read back through the same field schema,
// so a value that is missing or no longer valid reads as its default. The settings as last saved are
// kept here, for what asks on every tile or fix, and every save is told to the listeners.
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_SETTINGS, settingsPatchSchema, type SettingsPatch, type SettingsView } from '../shared/contract/index';
import type { Result } from '../shared/result';
import { findXmlForbidden } from '../shared/validation/index';
import type { KeyValueStore } from './profiles/kv';
import { templateAddressIssue } from './tiles/template-policy';

/** The key the accuracy gates are stored under (profile ID → metres). */
const GPS_GATES_KEY = 'gpsGates';

/** Turns a sentence-giving check into a zod refinement, so the sentence is the issue's message. */
function sentence(issueOf: (value: string) => string | null) {
  return (value: string, context: z.RefinementCtx) => {
    const message = issueOf(value);
    if (message !== null) context.addIssue({ code: 'custom', message });
  };
}

/** What a setting may be: the contract's limits plus the domain's rules (strings are stored trimmed). */
export const settingsSchema = settingsPatchSchema.extend({
  tileUrl: settingsPatchSchema.shape.tileUrl.unwrap().superRefine(sentence(tileUrlIssue)).trim().optional(),
  tileAttribution: settingsPatchSchema.shape.tileAttribution.unwrap().superRefine(sentence(attributionIssue)).trim().optional(),
  gpsHost: settingsPatchSchema.shape.gpsHost.unwrap().superRefine(sentence(gpsHostIssue)).transform(gpsHostValue).optional(),
});

/** The settings stored one key each, with the value their field schema reads. */
const STORED_KEYS = ['tileUrl', 'tileAttribution', 'syncConcurrency', 'heightUnit', 'theme', 'gpsSource', 'gpsHost', 'gpsPort', 'welcomed'] as const;

const gateSchema = settingsSchema.shape.gpsGate.unwrap();

export type SettingsListener = (settings: SettingsView, patch: SettingsPatch) => void;

export class Settings {
  private current: SettingsView;
  private readonly listeners = new Set<SettingsListener>();

  constructor(private readonly store: KeyValueStore) {
    this.current = this.read();
  }

  /** The settings as last saved (a copy: the caller may keep it). */
  now(): SettingsView {
    return { ...this.current, gpsGates: { ...this.current.gpsGates } };
  }

  /** Checks the whole patch first: a refused patch writes nothing. Tells every listener on success. */
  save(patch: SettingsPatch): Result<SettingsView> {
    const parsed = settingsSchema.safeParse(patch);
    if (!parsed.success) {
      return { ok: false, issues: parsed.error.issues.map((issue) => ({ field: String(issue.path[0] ?? 'settings'), message: issue.message })) };
    }
    const checked = parsed.data;
    for (const key of STORED_KEYS) {
      const value = checked[key];
      if (value !== undefined) this.store.set(key, value);
    }
    if (checked.gpsGate !== undefined) {
      const gates = readGates(this.store.get(GPS_GATES_KEY));
      if (checked.gpsGate.meters === null) delete gates[checked.gpsGate.profileId];
      else gates[checked.gpsGate.profileId] = checked.gpsGate.meters;
      this.store.set(GPS_GATES_KEY, gates);
    }
    this.current = this.read();
    for (const listener of [...this.listeners]) listener(this.now(), patch);
    return { ok: true, value: this.now() };
  }

  /** Called after every save with the new settings and the patch that made them. Returns the unsubscribe. */
  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private read(): SettingsView {
    const settings: SettingsView = { ...DEFAULT_SETTINGS, gpsGates: readGates(this.store.get(GPS_GATES_KEY)) };
    for (const key of STORED_KEYS) {
      const parsed = settingsSchema.shape[key].safeParse(this.store.get(key));
      if (parsed.success && parsed.data !== undefined) Object.assign(settings, { [key]: parsed.data });
    }
    return settings;
  }
}

/** The stored gates, keeping only profile IDs with a gate in range (a hand-edited file loses nothing else). */
function readGates(stored: unknown): Record<string, number> {
  const gates: Record<string, number> = {};
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return gates;
  for (const [profileId, meters] of Object.entries(stored)) {
    const gate = gateSchema.safeParse({ profileId, meters });
    if (gate.success && gate.data.meters !== null) gates[profileId] = gate.data.meters;
  }
  return gates;
}

// ---------- the domain's rules, as sentences ----------

/** A tile URL must be an http(s) template with {z}, {x} and {y} whose host a browser can name. */
function tileUrlIssue(tileUrl: string): string | null {
  const text = tileUrl.trim();
  if (!/^https?:\/\//i.test(text)) return 'The tile server address must start with https:// (or http://), like https://tile.openstreetmap.org/{z}/{x}/{y}.png.';
  if (!['{z}', '{x}', '{y}'].every((part) => text.includes(part))) return 'The tile server address must contain {z}, {x} and {y}, where the map puts the tile numbers.';
  if (/\s/.test(text)) return 'The tile server address cannot contain spaces.';
  if (tileOrigin(text) === null) return 'The tile server\'s host name cannot be used; only the first part of it may be a {placeholder}.';
  return templateAddressIssue(text);
}

/**
 * The origin a tile URL template loads from, or null when it cannot be written as a CSP source
 * (a wildcard only as the whole leftmost label, so `{s}.tile.example.org` is `*.tile.example.org`).
 * The page no longer loads tiles itself (they come through the hosts' /tiles/), but a host name
 * with a placeholder elsewhere is still refused, as it always was.
 */
function tileOrigin(tileUrl: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!.toLowerCase();
  const portMatch = /:(\d{1,5})$/.exec(authority);
  const host = portMatch ? authority.slice(0, -portMatch[0].length) : authority;
  const labels = host.split('.');
  const mapped = labels.map((label, index) => (label.includes('{') ? (index === 0 ? '*' : null) : label));
  if (mapped.some((label) => label === null || label === '')) return null;
  const cspHost = mapped.join('.');
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(cspHost) && !/^\[[0-9a-f:.]+\]$/.test(cspHost)) return null;
  return `${scheme}://${cspHost}${portMatch ? `:${portMatch[1]}` : ''}`;
}

/** Leaflet shows the attribution as HTML: entities like &copy; are fine, tags are not. */
function attributionIssue(attribution: string): string | null {
  if (/[<>]/.test(attribution)) return 'The map attribution is shown as text: it cannot contain < or >.';
  if (findXmlForbidden(attribution)) return 'The map attribution contains an invisible control character.';
  if (attribution.length > 500) return 'The map attribution is longer than 500 characters.';
  return null;
}

/** A receiver's host: a name or an IP address, nothing that could carry a path or a scheme. */
function gpsHostIssue(host: string): string | null {
  const text = gpsHostValue(host);
  if (text === '') return 'Enter the receiver\'s host, like 127.0.0.1 for gpsd on this computer.';
  if (isIP(text) === 0 && !HOST_NAME.test(text)) return 'The receiver\'s host is a name or an IP address, like 127.0.0.1, ::1 or gps.local (no http://, no port).';
  return null;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** The host as a socket takes it: an IPv6 address written in brackets ([::1], as in a URL) loses them. */
function gpsHostValue(host: string): string {
  const text = host.trim();
  return /^\[[^\]]*\]$/.test(text) ? text.slice(1, -1) : text;
}
