// One KML feature (Placemark, GroundOverlay, NetworkLink) as the streaming pass in kml.ts keeps it —
// its own small element list — read into what @tmcw/togeojson (our previous reader) gave for it: the
// same "first descendant named X" lookups, property order and overrides, number parsing and geometry.
// test/bulk proves the tables equal against a copy of that reader. Browser-safe.
import type { SaxesAttributeNS } from 'saxes';

export interface GeoFeature {
  type?: unknown;
  geometry?: unknown;
  properties?: unknown;
}

// ---- a placemark's own elements -----------------------------------------------------------------

/** A CDATA section: told apart from plain text only for a description's HTML. */
interface CData {
  cdata: string;
}

export interface Element {
  tag: string;
  /** By qualified name, as getAttribute reads them. */
  attributes: Record<string, SaxesAttributeNS>;
  children: Array<Element | string | CData>;
  parent: Element | undefined;
}

type Properties = Record<string, unknown>;
export type TypeConverter = (value: string) => unknown;

function isElement(child: Element | string | CData): child is Element {
  return typeof child === 'object' && 'tag' in child;
}

/** textContent: every text and CDATA below the element, in order. */
function textOf(element: Element): string {
  let text = '';
  for (const child of element.children) {
    if (typeof child === 'string') text += child;
    else if (isElement(child)) text += textOf(child);
    else text += child.cdata;
  }
  return text;
}

/** A feature's own <name> as a refusal quotes it: trimmed, at most `max` characters, or '' when it has none yet. */
export function shortName(element: Element, max = 60): string {
  const name = element.children.find((child): child is Element => isElement(child) && child.tag === 'name');
  const text = name === undefined ? '' : textOf(name).trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function nodeVal(element: Element | null): string {
  return element === null ? '' : textOf(element);
}

/** getElementsByTagName(tag)[0]: the first descendant (not the element itself) in document order. */
function get1(element: Element, tag: string): Element | null {
  for (const child of element.children) {
    if (!isElement(child)) continue;
    if (child.tag === tag) return child;
    const found = get1(child, tag);
    if (found !== null) return found;
  }
  return null;
}

/** getElementsByTagName(tag): every descendant so named, in document order. */
function all(element: Element, test: (child: Element) => boolean, into: Element[] = []): Element[] {
  for (const child of element.children) {
    if (!isElement(child)) continue;
    if (test(child)) into.push(child);
    all(child, test, into);
  }
  return into;
}

function named(tag: string): (element: Element) => boolean {
  return (element) => element.tag === tag;
}

export function localName(tag: string): string {
  const colon = tag.indexOf(':');
  return colon === -1 ? tag : tag.slice(colon + 1);
}

function getMulti(element: Element, names: readonly string[]): Properties {
  const properties: Properties = {};
  for (const name of names) {
    const value = nodeVal(get1(element, name));
    if (value) properties[name] = value;
  }
  return properties;
}

function num1(element: Element, tag: string): number | undefined {
  const value = Number.parseFloat(nodeVal(get1(element, tag)));
  return Number.isNaN(value) ? undefined : value;
}

/** A description holding CDATA is HTML: its first CDATA section, marked as such (valueToCell reads it as text). */
function htmlDescription(element: Element): Properties {
  const description = get1(element, 'description');
  for (const child of description?.children ?? []) {
    if (typeof child === 'object' && !isElement(child)) return { description: { '@type': 'html', value: child.cdata } };
  }
  return {};
}

// ---- geometry, as togeojson builds it ------------------------------------------------------------

type Position = number[];
interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

function coord1(value: string): Position {
  return value
    // togeojson's /\s*/g removes the same characters, but matches (and replaces) the empty string
    // between every two of them: ~3 µs a point, half a second of a 140,000-placemark file.
    .replace(/\s+/g, '')
    .split(',')
    .map(Number.parseFloat)
    .filter((num) => !Number.isNaN(num))
    .slice(0, 3);
}

function coord(value: string): Position[] {
  return value
    .replace(/^\s*|\s*$/g, '')
    .split(/\s+/)
    .map(coord1)
    .filter((position) => position.length >= 2);
}

function fixRing(ring: Position[]): Position[] {
  if (ring.length === 0) return ring;
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  for (let i = 0; i < Math.max(first.length, last.length); i++) {
    if (first[i] !== last[i]) return ring.concat([first]);
  }
  return ring;
}

function coordinatesOf(element: Element): string {
  return nodeVal(get1(element, 'coordinates'));
}

function gxCoords(element: Element): { geometry: Geometry; times: string[] } | null {
  let coords = all(element, named('coord'));
  if (coords.length === 0) coords = all(element, (child) => localName(child.tag) === 'coord');
  const coordinates = coords.map((child) => nodeVal(child).split(' ').map(Number.parseFloat));
  if (coordinates.length === 0) return null;
  return {
    geometry: coordinates.length >= 2 ? { type: 'LineString', coordinates } : { type: 'Point', coordinates: coordinates[0] },
    times: all(element, named('when')).map((child) => nodeVal(child)),
  };
}

/** The element's own geometries (direct children, MultiGeometry unfolded) and track times. */
function geometryOf(element: Element, geometries: Geometry[] = [], coordTimes: string[][] = []): { geometries: Geometry[]; coordTimes: string[][] } {
  for (const child of element.children) {
    if (!isElement(child)) continue;
    switch (child.tag) {
      case 'MultiGeometry':
      case 'MultiTrack':
      case 'gx:MultiTrack':
        geometryOf(child, geometries, coordTimes);
        break;
      case 'Point': {
        const coordinates = coord1(coordinatesOf(child));
        if (coordinates.length >= 2) geometries.push({ type: 'Point', coordinates });
        break;
      }
      case 'LinearRing':
      case 'LineString': {
        const coordinates = coord(coordinatesOf(child));
        if (coordinates.length >= 2) geometries.push({ type: 'LineString', coordinates });
        break;
      }
      case 'Polygon': {
        const rings: Position[][] = [];
        for (const ring of all(child, named('LinearRing'))) {
          const fixed = fixRing(coord(coordinatesOf(ring)));
          if (fixed.length >= 4) rings.push(fixed);
        }
        if (rings.length > 0) geometries.push({ type: 'Polygon', coordinates: rings });
        break;
      }
      case 'Track':
      case 'gx:Track': {
        const track = gxCoords(child);
        if (!track) break;
        geometries.push(track.geometry);
        if (track.times.length > 0) coordTimes.push(track.times);
        break;
      }
    }
  }
  return { geometries, coordTimes };
}

const PLACEMARK_FIELDS = ['name', 'address', 'visibility', 'open', 'phoneNumber', 'description'] as const;
const NETWORK_LINK_FIELDS = ['name', 'address', 'visibility', 'open', 'phoneNumber', 'styleUrl', 'refreshVisibility', 'flyToView', 'description'] as const;
const LINK_FIELDS = ['href', 'refreshMode', 'refreshInterval', 'viewRefreshMode', 'viewRefreshTime', 'viewBoundScale', 'viewFormat', 'httpQuery'] as const;

/** Four numbers named north/west/east/south in `box`: the box is an area. */
function hasBox(box: Element | null): boolean {
  if (box === null) return false;
  return ['north', 'west', 'east', 'south'].every((side) => typeof num1(box, side) === 'number');
}

/**
 * What one feature element becomes, except its ExtendedData, which waits for the whole file's
 * SimpleField types. Style, time and id are left out: they never reach the table.
 */
export interface PendingFeature {
  geometry: Geometry | null;
  /** Properties before ExtendedData, in togeojson's order. */
  head: Properties;
  /** Properties after it (track times, a network link's Link and Lod). */
  tail: Properties;
  extended: { data: Array<[string, string]>; simple: Array<[string, string]> } | null;
}

export function readFeature(element: Element): PendingFeature {
  let geometry: Geometry | null = null;
  let head: Properties;
  let tail: Properties = {};
  if (element.tag === 'Placemark') {
    const { geometries, coordTimes } = geometryOf(element);
    geometry = geometries.length === 0 ? null : geometries.length === 1 ? geometries[0]! : { type: 'GeometryCollection', geometries };
    head = Object.assign(getMulti(element, PLACEMARK_FIELDS), htmlDescription(element));
    if (coordTimes.length > 0) tail = { coordinateProperties: { times: coordTimes.length === 1 ? coordTimes[0] : coordTimes } };
  } else if (element.tag === 'GroundOverlay') {
    // An overlay with a quad or a box is an area (its exact corners never reach the table).
    if (get1(element, 'gx:LatLonQuad') !== null || hasBox(get1(element, 'LatLonBox'))) geometry = { type: 'Polygon', coordinates: [] };
    head = Object.assign({ '@geometry-type': 'groundoverlay' }, getMulti(element, PLACEMARK_FIELDS), htmlDescription(element));
  } else {
    const region = get1(element, 'Region');
    if (region !== null && hasBox(get1(region, 'LatLonAltBox'))) geometry = { type: 'Polygon', coordinates: [] };
    head = Object.assign({ '@geometry-type': 'networklink' }, getMulti(element, NETWORK_LINK_FIELDS), htmlDescription(element));
    const link = get1(element, 'Link');
    tail = link === null ? {} : getMulti(link, LINK_FIELDS);
    if (region !== null) {
      const lod = get1(element, 'Lod');
      if (lod !== null) {
        tail = Object.assign(tail, {
          lod: [num1(lod, 'minLodPixels') ?? -1, num1(lod, 'maxLodPixels') ?? -1, num1(lod, 'minFadeExtent') ?? null, num1(lod, 'maxFadeExtent') ?? null],
        });
      }
    }
  }
  const extendedData = get1(element, 'ExtendedData');
  const extended =
    extendedData === null
      ? null
      : {
          data: all(extendedData, named('Data')).map((data): [string, string] => [data.attributes.name?.value || '', nodeVal(get1(data, 'value'))]),
          simple: all(extendedData, named('SimpleData')).map((data): [string, string] => [data.attributes.name?.value || '', nodeVal(data)]),
        };
  return { geometry, head, tail, extended };
}

/** A SimpleField's type as a converter; an unknown type (or one named like an Object member) reads as text. */
export const TYPE_CONVERTERS: Record<string, TypeConverter> = {
  string: (x) => x,
  int: (x) => Number(x),
  uint: (x) => Number(x),
  short: (x) => Number(x),
  ushort: (x) => Number(x),
  float: (x) => Number(x),
  double: (x) => Number(x),
  bool: (x) => Boolean(x),
};

export function converterFor(type: string): TypeConverter {
  return Object.hasOwn(TYPE_CONVERTERS, type) ? TYPE_CONVERTERS[type]! : TYPE_CONVERTERS.string!;
}

/**
 * The feature with its SimpleData typed by the document's SimpleFields. A Map, not an object as
 * togeojson had it: there a SimpleData named "toString" read as "[object Undefined]", and a SimpleField
 * named "__proto__" refused the whole file as not well-formed.
 */
export function finishFeature(pending: PendingFeature, schema: ReadonlyMap<string, TypeConverter>): GeoFeature {
  let extended: Properties = {};
  if (pending.extended !== null) {
    extended = {};
    for (const [name, value] of pending.extended.data) extended[name] = value;
    for (const [name, raw] of pending.extended.simple) {
      const typeConverter = schema.get(name) ?? TYPE_CONVERTERS.string!;
      extended[name] = typeConverter(raw);
    }
  }
  const properties = Object.assign(pending.head, extended, pending.tail);
  if (properties.visibility !== undefined) properties.visibility = properties.visibility !== '0';
  return { type: 'Feature', geometry: pending.geometry, properties };
}
