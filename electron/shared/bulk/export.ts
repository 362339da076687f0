// The register as CSV, KML or GeoJSON. CSV uses the import's canonical headers so CSV → register →
// CSV changes nothing; KML pins are coloured by pin style for Google Earth; GeoJSON is a
// FeatureCollection of Points in [longitude, latitude] order. Pure and browser-safe: text in, text
// out. CSV cells that a spreadsheet would run as a formula get a leading apostrophe (text fields
// only: numbers such as a negative longitude stay numbers), and the import strips it again.
import Papa from 'papaparse';
import { XMLBuilder } from 'fast-xml-parser';
import type { PinStyle } from '../domain';
import type { SiteMeasurement } from '../validation/measurement';
import { formatCoordinate } from '../validation';
import { CANONICAL_HEADERS, PIN_STYLE_COLOURS, type SiteField } from './fields';

/** A site as exported: the register's view of it. */
export interface ExportSite {
  /** The service's site ID; null for a site whose create has not been confirmed yet. */
  siteId: string | null;
  name?: string | null;
  height?: number | null;
  latitude?: number | null;
  longitude?: number | null;
  description?: string | null;
  group?: string | null;
  pinStyle?: PinStyle | null;
  /** How a receiver measured its position, when it did (the site's newest outbox entry that says). */
  measurement?: SiteMeasurement | null;
}

/**
 * The measurement as columns (CSV headers, GeoJSON property names), written only when some exported
 * site has one, so a file of sites placed by hand is unchanged. The import ignores them.
 */
export const MEASUREMENT_COLUMNS = [
  ['measuredWith', (m: SiteMeasurement) => m.source],
  ['measuredQuality', (m: SiteMeasurement) => m.quality],
  ['fixesAveraged', (m: SiteMeasurement) => m.fixes],
  ['fixesSkipped', (m: SiteMeasurement) => m.skipped],
  ['spreadEastM', (m: SiteMeasurement) => m.spreadEastM],
  ['spreadNorthM', (m: SiteMeasurement) => m.spreadNorthM],
  ['accuracyM', (m: SiteMeasurement) => m.accuracyM],
  ['accuracyFromHdop', (m: SiteMeasurement) => m.accuracyEstimated],
  ['gateM', (m: SiteMeasurement) => m.gateM],
  ['gateOverridden', (m: SiteMeasurement) => m.overridden],
  ['measuredAt', (m: SiteMeasurement) => m.at],
] as const satisfies ReadonlyArray<readonly [string, (m: SiteMeasurement) => string | number | boolean | null]>;

function anyMeasured(sites: readonly ExportSite[]): boolean {
  return sites.some((site) => site.measurement);
}

function round2(value: string | number | boolean | null): string | number | boolean | null {
  return typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value;
}

export type ExportFormat = 'csv' | 'kml' | 'geojson';

export interface ExportResult {
  text: string;
  /** Sites written. */
  count: number;
  /** Sites left out, with the reason (only KML and GeoJSON leave out sites without a position). */
  omitted: Array<{ siteId: string | null; name: string; reason: string }>;
  /** Sites written without a service ID: importing the file again would create them again. */
  withoutId: number;
}

// Cells starting with these run as formulas in Excel, LibreOffice and Google Sheets (OWASP's list).
const FORMULA_START = /^[=+\-@\t\r]/;
/** The guard the export adds and the import removes. */
export const FORMULA_GUARD = "'";

/** Text as written to a CSV cell: a formula-looking value gets a leading apostrophe. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `${FORMULA_GUARD}${text}` : text;
}

/** Undoes guardFormula on an imported text cell. Only an apostrophe before a formula character is removed. */
export function unguardFormula(text: string): string {
  return text.startsWith(FORMULA_GUARD) && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

const TEXT_FIELDS: ReadonlySet<SiteField> = new Set(['siteId', 'name', 'description', 'group']);

function cellFor(site: ExportSite, field: SiteField): string {
  switch (field) {
    case 'height':
      return site.height == null ? '' : String(site.height);
    case 'latitude':
      return site.latitude == null ? '' : formatCoordinate(site.latitude);
    case 'longitude':
      return site.longitude == null ? '' : formatCoordinate(site.longitude);
    case 'pinStyle':
      return site.pinStyle == null ? '' : String(site.pinStyle);
    default: {
      const value = site[field] ?? '';
      return TEXT_FIELDS.has(field) ? guardFormula(value) : value;
    }
  }
}

export interface CsvExportOptions {
  /** Start with a UTF-8 byte-order mark so Excel reads accents correctly (default false; the CLI sets it for files). */
  bom?: boolean;
}

/**
 * CSV with the headers Siteid,Sitename,height,Latitude,Longitude,Description,Group,Pinstyle, CRLF
 * line ends (RFC 4180, what Excel writes), values quoted only when needed, sites in the given order.
 */
export function exportCsv(sites: readonly ExportSite[], options: CsvExportOptions = {}): ExportResult {
  const fields = CANONICAL_HEADERS.map(([field]) => field);
  const measured = anyMeasured(sites);
  const data = sites.map((site) => {
    const cells = fields.map((field) => cellFor(site, field));
    if (measured) for (const [, read] of MEASUREMENT_COLUMNS) cells.push(site.measurement ? String(round2(read(site.measurement)) ?? '') : '');
    return cells;
  });
  const headers = [...CANONICAL_HEADERS.map(([, header]) => header), ...(measured ? MEASUREMENT_COLUMNS.map(([name]) => name) : [])];
  const text = Papa.unparse({ fields: headers, data }, { newline: '\r\n', quotes: false, escapeFormulae: false });
  return {
    text: `${options.bom ? '\uFEFF' : ''}${text}\r\n`,
    count: sites.length,
    omitted: [],
    withoutId: sites.filter((site) => !site.siteId).length,
  };
}

/** Google Earth's colour order is aabbggrr. */
export const KML_PIN_COLOURS: Readonly<Record<PinStyle, string>> = {
  1: 'ff0000ff', // red
  2: 'ffff0000', // blue
  3: 'ff0080ff', // orange
  4: 'ff00c000', // green
};

// A white pushpin tinted by <color> is the usual way to get any colour in Google Earth.
const PIN_ICON = 'https://maps.google.com/mapfiles/kml/pushpin/wht-pushpin.png';

function hasPosition(site: ExportSite): site is ExportSite & { latitude: number; longitude: number } {
  return typeof site.latitude === 'number' && typeof site.longitude === 'number';
}

export interface KmlExportOptions {
  /** The document's name in Google Earth's places list. */
  title?: string;
}

/**
 * KML 2.2: one Style per pin style (tinted pushpin), one Placemark per site with a position.
 * ExtendedData carries the fields the placemark itself does not (Siteid, height, Group, Pinstyle)
 * under the import's canonical names, so importing the KML gives the same sites back. Name and
 * description live in <name> and <description>; the position in <Point>.
 */
export function exportKml(sites: readonly ExportSite[], options: KmlExportOptions = {}): ExportResult {
  const omitted: ExportResult['omitted'] = [];
  const placemarks: unknown[] = [];
  for (const site of sites) {
    if (!hasPosition(site)) {
      omitted.push({ siteId: site.siteId, name: site.name ?? '', reason: 'The register has no position for this site.' });
      continue;
    }
    const data: Array<{ '@_name': string; value: string }> = [];
    if (site.siteId) data.push({ '@_name': 'Siteid', value: site.siteId });
    if (site.height != null) data.push({ '@_name': 'height', value: String(site.height) });
    if (site.group) data.push({ '@_name': 'Group', value: site.group });
    data.push({ '@_name': 'Pinstyle', value: String(site.pinStyle ?? 1) });
    const placemark: Record<string, unknown> = {};
    if (site.siteId) placemark['@_id'] = `site-${site.siteId}`;
    if (site.name) placemark.name = site.name;
    if (site.description) placemark.description = site.description;
    placemark.styleUrl = `#pin-${site.pinStyle ?? 1}`;
    placemark.ExtendedData = { Data: data };
    placemark.Point = { coordinates: `${formatCoordinate(site.longitude)},${formatCoordinate(site.latitude)},0` };
    placemarks.push(placemark);
  }
  const styles = ([1, 2, 3, 4] as const).map((style) => ({
    '@_id': `pin-${style}`,
    IconStyle: { color: KML_PIN_COLOURS[style], scale: '1.1', Icon: { href: PIN_ICON }, hotSpot: { '@_x': '20', '@_y': '2', '@_xunits': 'pixels', '@_yunits': 'pixels' } },
    LabelStyle: { scale: '0.8' },
  }));
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    kml: {
      '@_xmlns': 'http://www.opengis.net/kml/2.2',
      Document: {
        name: options.title ?? 'Sitewalk sites',
        Style: styles,
        Placemark: placemarks,
      },
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true, processEntities: true });
  return { text: builder.build(document), count: placemarks.length, omitted, withoutId: countWithoutId(sites, omitted) };
}

/**
 * GeoJSON FeatureCollection of Points ([longitude, latitude]); properties use the domain names
 * (siteId, name, height, description, group, pinStyle), which the import maps back, plus
 * simplestyle's marker-color so web map viewers colour the pins. A site without a position is a
 * Feature with a null geometry (valid GeoJSON), so nothing is lost.
 */
export function exportGeoJson(sites: readonly ExportSite[]): ExportResult {
  const features = sites.map((site) => {
    const properties: Record<string, string | number> = {};
    if (site.siteId) properties.siteId = site.siteId;
    if (site.name) properties.name = site.name;
    if (site.height != null) properties.height = site.height;
    if (site.description) properties.description = site.description;
    if (site.group) properties.group = site.group;
    properties.pinStyle = site.pinStyle ?? 1;
    properties['marker-color'] = MARKER_COLOURS[site.pinStyle ?? 1];
    if (site.measurement) {
      for (const [name, read] of MEASUREMENT_COLUMNS) {
        const value = round2(read(site.measurement));
        if (value !== null) properties[name] = typeof value === 'boolean' ? String(value) : value;
      }
    }
    const feature: Record<string, unknown> = { type: 'Feature' };
    if (site.siteId) feature.id = site.siteId;
    feature.geometry = hasPosition(site) ? { type: 'Point', coordinates: [site.longitude, site.latitude] } : null;
    feature.properties = properties;
    return feature;
  });
  const text = `${JSON.stringify({ type: 'FeatureCollection', features }, null, 2)}\n`;
  return { text, count: features.length, omitted: [], withoutId: countWithoutId(sites, []) };
}

const MARKER_COLOURS: Readonly<Record<PinStyle, string>> = { 1: '#d32f2f', 2: '#1976d2', 3: '#f57c00', 4: '#388e3c' };

function countWithoutId(sites: readonly ExportSite[], omitted: ExportResult['omitted']): number {
  return sites.filter((site) => !site.siteId).length - omitted.filter((entry) => !entry.siteId).length;
}

/** Any of the three formats. */
export function exportSites(sites: readonly ExportSite[], format: ExportFormat, options: CsvExportOptions & KmlExportOptions = {}): ExportResult {
  if (format === 'csv') return exportCsv(sites, options);
  if (format === 'kml') return exportKml(sites, options);
  return exportGeoJson(sites);
}

/** The colour name of a pin style, for messages and legends. */
export function pinColourName(style: PinStyle | null | undefined): string {
  return PIN_STYLE_COLOURS[style ?? 1];
}
