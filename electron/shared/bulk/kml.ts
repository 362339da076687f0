// KML text → the features geo.ts turns into a table, in one streaming pass (saxes, events only).
// The whole document is never held: each Placemark / GroundOverlay / NetworkLink keeps its own small
// element list until its end tag, is read into a feature there, and is dropped. What a feature gets
// is exactly what @tmcw/togeojson (our previous reader) gave: the same "first descendant named X"
// lookups, the same property order and overrides, the same number parsing — test/bulk proves the
// tables equal against a copy of that reader. Folders, SimpleField types and the row order follow
// the document; SimpleData is typed once the whole file (every <SimpleField>) has been read.
import { SaxesParser, type SaxesAttributeNS } from 'saxes';
import { MAX_NESTING_DEPTH, nestingSentence } from './limits';

export interface GeoFeature {
  type?: unknown;
  geometry?: unknown;
  properties?: unknown;
}

export interface FeatureEntry {
  feature: GeoFeature;
  folder?: string;
}

/** `final`: reading again (with positions) would say nothing more. */
export type KmlRead = { ok: true; entries: FeatureEntry[] } | { ok: false; problem: string; final?: boolean };

/** Thrown inside the parser's handler to stop at the nesting limit. */
class TooDeep extends Error {}

// ---- a placemark's own elements -----------------------------------------------------------------

/** A CDATA section: told apart from plain text only for a description's HTML. */
interface CData {
  cdata: string;
}

interface Element {
  tag: string;
  /** By qualified name, as getAttribute reads them. */
  attributes: Record<string, SaxesAttributeNS>;
  children: Array<Element | string | CData>;
  parent: Element | undefined;
}

type Properties = Record<string, unknown>;
type TypeConverter = (value: string) => unknown;

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

function localName(tag: string): string {
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
    .replace(/\s*/g, '')
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
interface PendingFeature {
  geometry: Geometry | null;
  /** Properties before ExtendedData, in togeojson's order. */
  head: Properties;
  /** Properties after it (track times, a network link's Link and Lod). */
  tail: Properties;
  extended: { data: Array<[string, string]>; simple: Array<[string, string]> } | null;
}

function readFeature(element: Element): PendingFeature {
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

// Plain objects on purpose, as togeojson has them: a SimpleField type or SimpleData name that is
// also an Object.prototype member behaves the same in both readers.
const TYPE_CONVERTERS: Record<string, TypeConverter> = {
  string: (x) => x,
  int: (x) => Number(x),
  uint: (x) => Number(x),
  short: (x) => Number(x),
  ushort: (x) => Number(x),
  float: (x) => Number(x),
  double: (x) => Number(x),
  bool: (x) => Boolean(x),
};

function finishFeature(pending: PendingFeature, schema: Record<string, TypeConverter>): GeoFeature {
  let extended: Properties = {};
  if (pending.extended !== null) {
    extended = {};
    for (const [name, value] of pending.extended.data) extended[name] = value;
    for (const [name, raw] of pending.extended.simple) {
      const typeConverter = schema[name] || TYPE_CONVERTERS.string!;
      extended[name] = typeConverter(raw);
    }
  }
  const properties = Object.assign(pending.head, extended, pending.tail);
  if (properties.visibility !== undefined) properties.visibility = properties.visibility !== '0';
  return { type: 'Feature', geometry: pending.geometry, properties };
}

// ---- the streaming pass --------------------------------------------------------------------------

const FEATURE_TAGS = new Set(['Placemark', 'GroundOverlay', 'NetworkLink']);

/**
 * Slips the DOM reader let through (it read them as written, and so does saxes after reporting
 * them): an unquoted attribute value, and "]]>" in text. Every other error refuses the file.
 */
const TOLERATED = [/: unquoted attribute value\.$/, /: the string "\]\]>" is disallowed in char data\.$/];

interface Folder {
  /** The text of its last direct <name> child, if any. */
  name: string | undefined;
  parent: Folder | undefined;
  depth: number;
}

interface Slot {
  folder: Folder | undefined;
  pending: PendingFeature | undefined;
}

/** Reads a KML document's features in document order (a folder before what it holds). Never throws. */
export function readKmlFeatures(text: string): KmlRead {
  const source = escapeBareAmpersands(text);
  // Tracking line and column costs a good part of the pass: only a file that fails is read again
  // with it, so the problem can say where.
  const read = readFeatures(source, false);
  if (read.ok || read.final) return read;
  return readFeatures(source, true);
}

// A bare "&" (not starting an entity or character reference), as in a hand-written
// <name>Tom & Jerry</name>: the DOM reader took it as text, so it is escaped before the strict pass
// — outside CDATA sections and comments, where it is already text.
const BARE_AMPERSAND = /&(?![A-Za-z_][\w.-]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)/g;
const VERBATIM = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g;

function escapeBareAmpersands(text: string): string {
  BARE_AMPERSAND.lastIndex = 0;
  if (!BARE_AMPERSAND.test(text)) return text;
  let out = '';
  let from = 0;
  for (const match of text.matchAll(VERBATIM)) {
    out += text.slice(from, match.index).replace(BARE_AMPERSAND, '&amp;') + match[0];
    from = match.index + match[0].length;
  }
  return out + text.slice(from).replace(BARE_AMPERSAND, '&amp;');
}

function readFeatures(text: string, position: boolean): KmlRead {
  // Namespaces on: an unbound prefix (gx: without its xmlns:gx) was an error for the DOM reader too.
  const parser = new SaxesParser({ xmlns: true, position });
  const schema: Record<string, TypeConverter> = {};
  const slots: Slot[] = [];
  // Features still open, innermost last; the elements below the outermost one are being kept.
  const open: Array<{ element: Element; slot: Slot }> = [];
  let current: Element | undefined;
  let folder: Folder | undefined;
  // Direct <name> children of folders being read (text below them counts, as textContent does).
  const folderNames: Array<{ folder: Folder; depth: number; text: string }> = [];
  let depth = 0;
  let root: string | undefined;
  let isKml = false;

  parser.on('error', (error) => {
    if (!TOLERATED.some((pattern) => pattern.test(error.message))) throw error;
  });
  parser.on('opentag', (tag) => {
    // Deeper nesting makes the lookups below (and the folder chain) cost depth × elements.
    if (++depth > MAX_NESTING_DEPTH) throw new TooDeep();
    const name = tag.name;
    if (root === undefined) {
      root = localName(name);
      isKml = root === 'kml';
    }
    if (!isKml) return;
    const attributes = tag.attributes as Record<string, SaxesAttributeNS>;
    if (name === 'SimpleField') schema[attributes.name?.value || ''] = TYPE_CONVERTERS[attributes.type?.value || ''] || TYPE_CONVERTERS.string!;
    if (name === 'name' && folder !== undefined && folder.depth === depth - 1) folderNames.push({ folder, depth, text: '' });
    const isFeature = FEATURE_TAGS.has(name);
    if (current !== undefined || isFeature) {
      const element: Element = { tag: name, attributes, children: [], parent: current };
      current?.children.push(element);
      current = element;
      if (isFeature) {
        const slot: Slot = { folder, pending: undefined };
        slots.push(slot);
        open.push({ element, slot });
      }
    }
    if (name === 'Folder') folder = { name: undefined, parent: folder, depth };
  });
  parser.on('text', (value) => {
    if (current !== undefined) current.children.push(value);
    for (const capture of folderNames) capture.text += value;
  });
  parser.on('cdata', (value) => {
    // The DOM reader made no node for an empty section: it is no HTML description either.
    if (value === '') return;
    if (current !== undefined) current.children.push({ cdata: value });
    for (const capture of folderNames) capture.text += value;
  });
  parser.on('closetag', () => {
    if (current !== undefined) {
      const element = current;
      current = element.parent;
      const innermost = open[open.length - 1];
      if (innermost !== undefined && innermost.element === element) {
        open.pop();
        innermost.slot.pending = readFeature(element);
      }
    }
    const capture = folderNames[folderNames.length - 1];
    if (capture !== undefined && capture.depth === depth) {
      folderNames.pop();
      capture.folder.name = capture.text;
    }
    if (folder !== undefined && folder.depth === depth) folder = folder.parent;
    depth--;
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof TooDeep) return { ok: false, problem: nestingSentence('KML'), final: true };
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, problem: `The KML is not well-formed XML (${message}). Export it again from Google Earth or the mapping tool.` };
  }
  if (!isKml) return { ok: false, problem: `The file is XML but not KML (its root element is <${root ?? '?'}>, not <kml>).` };
  try {
    return { ok: true, entries: slots.map((slot) => entryOf(slot, schema)) };
  } catch (error) {
    return { ok: false, problem: `The KML could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
}

function entryOf(slot: Slot, schema: Record<string, TypeConverter>): FeatureEntry {
  const feature = finishFeature(slot.pending!, schema);
  const folder = folderName(slot.folder);
  return folder === undefined ? { feature } : { feature, folder };
}

/** The innermost folder with a non-blank name, trimmed. */
function folderName(folder: Folder | undefined): string | undefined {
  for (let at = folder; at !== undefined; at = at.parent) {
    if (at.name !== undefined && at.name.trim() !== '') return at.name.trim();
  }
  return undefined;
}
