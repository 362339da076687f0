// KML text → the features geo.ts turns into a table, in one streaming pass (saxes, events only).
// The whole document is never held: each Placemark / GroundOverlay / NetworkLink keeps its own small
// element list until its end tag, is read into a feature there (kml-feature.ts: exactly what
// @tmcw/togeojson, our previous reader, gave), and is dropped. Folders, SimpleField types and the row
// order follow the document; SimpleData is typed once the whole file (every <SimpleField>) has been read.
import { SaxesParser, type SaxesAttributeNS } from 'saxes';
import { finishFeature, localName, readFeature, TYPE_CONVERTERS, type Element, type GeoFeature, type PendingFeature, type TypeConverter } from './kml-feature';
import { MAX_NESTING_DEPTH, nestingSentence } from './limits';

export type { GeoFeature } from './kml-feature';

export interface FeatureEntry {
  feature: GeoFeature;
  folder?: string;
}

/** `final`: reading again (with positions) would say nothing more. */
export type KmlRead = { ok: true; entries: FeatureEntry[] } | { ok: false; problem: string; final?: boolean };

/** Thrown inside the parser's handler to stop at the nesting limit. */
class TooDeep extends Error {}

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
