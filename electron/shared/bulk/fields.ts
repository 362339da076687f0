// The alias table every import format shares (CSV headers, KML ExtendedData names, GeoJSON property
// names): a column or property name is matched case-, space-, underscore- and punctuation-
// insensitively to one site field. Pure and browser-safe; a mapping is plain data so it can cross a
// Web Worker boundary.

/** What a column can feed: a site field, a height given in feet, or nothing. */
export type ImportTarget =
  | 'siteId'
  | 'name'
  | 'height'
  | 'heightFeet'
  | 'latitude'
  | 'longitude'
  | 'description'
  | 'group'
  | 'pinStyle'
  | 'ignore';

export const IMPORT_TARGETS: readonly ImportTarget[] = [
  'siteId',
  'name',
  'height',
  'heightFeet',
  'latitude',
  'longitude',
  'description',
  'group',
  'pinStyle',
  'ignore',
];

/** The fields a site carries, in the canonical column order (also the export order). */
export type SiteField = Exclude<ImportTarget, 'heightFeet' | 'ignore'>;

/**
 * Canonical CSV headers, one per field, in export order. They are the service's own parameter
 * names so a file exported here reads the same to someone who knows the service; importing them maps
 * straight back (each header is also an alias below), which makes CSV → register → CSV lossless.
 */
export const CANONICAL_HEADERS: ReadonlyArray<readonly [SiteField, string]> = [
  ['siteId', 'Siteid'],
  ['name', 'Sitename'],
  ['height', 'height'],
  ['latitude', 'Latitude'],
  ['longitude', 'Longitude'],
  ['description', 'Description'],
  ['group', 'Group'],
  ['pinStyle', 'Pinstyle'],
];

/** A header as compared: lower case, accents dropped, only letters and digits kept. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

// Written as people write them; normalizeHeader is applied when the table is built. "x"/"y" are
// longitude/latitude as GIS tools export them. Deliberately absent: "site" and "tower" alone,
// which some sheets use for the name and others for the ID — such a column stays unmapped and the
// preview asks for a manual mapping rather than guessing.
const ALIASES: Record<Exclude<ImportTarget, 'ignore'>, string[]> = {
  siteId: ['Siteid', 'site_id', 'site id', 'id', 'site no', 'site number', 'tower id', 'towerid'],
  name: ['Sitename', 'name', 'site name', 'site_name', 'tower name', 'title'],
  height: ['height', 'height_m', 'height (m)', 'height m', 'height meters', 'height metres', 'height in meters', 'tower height', 'tower height (m)', 'height agl', 'height agl (m)', 'agl'],
  heightFeet: ['height_ft', 'height (ft)', 'height ft', 'height feet', 'height in feet', 'tower height (ft)', 'tower height ft', 'height agl (ft)'],
  latitude: ['Latitude', 'lat', 'y', 'lat (deg)', 'latitude (deg)', 'latitude decimal'],
  longitude: ['Longitude', 'lon', 'lng', 'long', 'x', 'lon (deg)', 'longitude (deg)', 'longitude decimal'],
  description: ['Description', 'desc', 'notes', 'note', 'comment', 'comments'],
  group: ['Group', 'group name', 'site group', 'groups'],
  pinStyle: ['Pinstyle', 'pin', 'pin style', 'pin_style', 'colour', 'color', 'pin colour', 'pin color', 'style'],
};

const ALIAS_INDEX: ReadonlyMap<string, Exclude<ImportTarget, 'ignore'>> = (() => {
  const index = new Map<string, Exclude<ImportTarget, 'ignore'>>();
  for (const [target, aliases] of Object.entries(ALIASES) as [Exclude<ImportTarget, 'ignore'>, string[]][]) {
    for (const alias of aliases) {
      const key = normalizeHeader(alias);
      const known = index.get(key);
      if (known && known !== target) throw new Error(`Alias "${alias}" maps to both ${known} and ${target}.`);
      index.set(key, target);
    }
  }
  return index;
})();

/** The field a header stands for, or null when it is not a known alias. */
export function targetForHeader(header: string): Exclude<ImportTarget, 'ignore'> | null {
  return ALIAS_INDEX.get(normalizeHeader(header)) ?? null;
}

/** How each target is named to a person; a Record so a new target cannot go unnamed. */
const TARGET_LABELS: Readonly<Record<ImportTarget, string>> = {
  siteId: 'Site ID',
  name: 'Site name',
  height: 'Height (m)',
  heightFeet: 'Height (ft)',
  latitude: 'Latitude',
  longitude: 'Longitude',
  description: 'Description',
  group: 'Group',
  pinStyle: 'Pin style',
  ignore: '(ignored)',
};

/** How a target is named to a person ("Height (ft)", "Latitude"…). */
export function targetLabel(target: ImportTarget): string {
  return TARGET_LABELS[target];
}

/**
 * Reads a target name typed by a person in a manual mapping: the domain name ("heightFeet"), its
 * label ("Height (ft)"), any alias ("lat") or "ignore"/"skip"/"none". Null when unrecognised.
 */
export function parseTarget(text: string): ImportTarget | null {
  const key = normalizeHeader(text);
  if (key === '') return null;
  if (key === 'ignore' || key === 'skip' || key === 'none') return 'ignore';
  for (const target of IMPORT_TARGETS) {
    if (normalizeHeader(target) === key || normalizeHeader(targetLabel(target)) === key) return target;
  }
  return ALIAS_INDEX.get(key) ?? null;
}

/** One foot in meters and one conversion, for the form, the import and the CLI. */
export { feetToMeters, METERS_PER_FOOT } from '../validation/height';

/** Colour names a sheet may use for the pin style, in the service's numbering. */
export const PIN_STYLE_COLOURS: Readonly<Record<1 | 2 | 3 | 4, string>> = { 1: 'red', 2: 'blue', 3: 'orange', 4: 'green' };
