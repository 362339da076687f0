// The domain's vocabulary, defined once for every layer (renderer, core, CLI, hosts): a site edit,
// an EUS reprocess, the bindings, pin styles and the states an edit goes through. Each enum is an
// `as const` array, so a type, a zod enum and a list for a form all come from the same values.
// Domain words only: the spec's parameter names (Siteid, Pinstyle, emailsend…) live in the wire layer.
import type { SiteMeasurement } from './validation/measurement';

export const BINDINGS = ['http-post', 'http-get', 'soap11', 'soap12'] as const;
export type Binding = (typeof BINDINGS)[number];

/** Pin styles the service knows (its Pinstyle parameter): 1 red, 2 blue, 3 orange, 4 green. */
export const PIN_STYLES = [1, 2, 3, 4] as const;
export type PinStyle = (typeof PIN_STYLES)[number];
export const PIN_STYLE_COLOURS: Readonly<Record<PinStyle, string>> = { 1: 'red', 2: 'blue', 3: 'orange', 4: 'green' };

/** An outbox entry's state (see electron/core/outbox/transitions.ts for the arrows between them). */
export const OUTBOX_STATES = ['pending', 'sending', 'done', 'failed', 'needs-review', 'paused'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** A site's state as the list and the map show it, derived from its unfinished outbox entries. */
export const SYNC_STATES = ['synced', 'pending', 'failed', 'needs-review'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** Where a profile's API key is kept; 'session-only' means it is forgotten when Sitewalk quits. */
export const KEY_STORE_KINDS = ['safe-storage', 'os-keyring', 'session-only'] as const;
export type KeyStoreKind = (typeof KEY_STORE_KINDS)[number];

export const HEIGHT_UNITS = ['m', 'ft'] as const;
export type HeightUnit = (typeof HEIGHT_UNITS)[number];

/** The colour scheme: 'system' follows the operating system's light or dark setting. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

// Where "My location" comes from: defined with the rest of the position contract, which the site's
// measurement (below, in SiteEdit) also builds on; named here with the other domain words.
export { GPS_SOURCE_KINDS, type GpsSourceKind } from './contract/gps';

/** Where a profile's calls go. All of it is configurable per profile. */
export interface Connection {
  baseUrl: string;
  servicePath: string;
  namespace: string;
  binding: Binding;
}

/** The real service's published defaults (its request examples use these). */
export const REAL_SERVICE: Readonly<Connection> = {
  baseUrl: 'https://api.towercoverage.com',
  servicePath: '/towercoverage.asmx',
  namespace: 'http://tempuri.org/',
  binding: 'http-post',
};

/** A create (no siteId) or an edit of an existing site. Blank optional text = leave unchanged. */
export interface SiteEdit {
  siteId?: string;
  name?: string;
  /** Whole meters, >= 0. */
  height: number;
  /** Decimal degrees; required for a create. */
  latitude?: number;
  longitude?: number;
  description?: string;
  group?: string;
  /** Omitted = blank on the wire (the service's default, 1). */
  pinStyle?: PinStyle;
  /**
   * How the position was measured when it came from a receiver. Kept with the edit (the outbox entry
   * carries it as given) and never sent: the service has no such field, so it is not in SITE_FIELDS.
   */
  measurement?: SiteMeasurement;
}

/** The fields of a site an edit can set on the service, besides its service ID: the one list everything copies by. */
export const SITE_FIELDS = ['name', 'height', 'latitude', 'longitude', 'description', 'group', 'pinStyle'] as const satisfies readonly (keyof SiteEdit)[];

/** Copies each of `keys` that `from` sets (not undefined) onto `to`. */
export function assignDefined<T extends object, K extends keyof T>(to: T, from: { readonly [P in K]?: T[P] | undefined }, keys: readonly K[]): T {
  for (const key of keys) {
    const value = from[key];
    if (value !== undefined) to[key] = value as T[K];
  }
  return to;
}

/** Reprocess an end-user submission into a Multi Map, optionally sending its email again. */
export interface EusReprocess {
  processId: string;
  /** Digits only. */
  multiMapId: string;
  sendEmail: boolean;
}

export interface RenderingQuality {
  id: number;
  name: string;
  /** null when the element was absent, '' when it was present and empty. */
  error: string | null;
}

/** One thing wrong with an input, named by its domain field (height, latitude, multiMapId…). */
export interface InputIssue {
  field: string;
  message: string;
}
