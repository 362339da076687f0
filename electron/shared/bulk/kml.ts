// KML text → features, in one streaming pass (saxes, events only), the text given whole or a piece
// at a time (KmlReader). The document is never held: each Placemark / GroundOverlay / NetworkLink
// keeps its own small element list until its end tag, is read into a feature there (kml-feature.ts:
// exactly what @tmcw/togeojson, our previous reader, gave) and handed on in document order. Folders
// and SimpleField types follow the document; both can still change after a placemark has ended (a
// folder's <name> written after its placemarks, a <Schema> after its data), so the reader says what
// it learnt at the end: every SimpleField, and the folders renamed after use.
import { SaxesParser, type SaxesAttributeNS } from 'saxes';
import { AmpersandEscaper } from './kml-ampersand';
import { converterFor, finishFeature, localName, readFeature, shortName, type Element, type GeoFeature, type PendingFeature, type TypeConverter } from './kml-feature';
import {
  folderNamesSentence,
  kmlRunSentence,
  lateFoldersSentence,
  MAX_COLUMNS,
  MAX_KML_RUN_CHARS,
  MAX_LATE_NAMED_FOLDERS,
  MAX_NESTING_DEPTH,
  MAX_PLACEMARK_CHARS,
  MAX_PLACEMARK_ELEMENTS,
  MAX_PLACEMARK_POINTS,
  nestingSentence,
  placemarkCharsSentence,
  placemarkElementsSentence,
  placemarkPointsSentence,
  schemaFieldsSentence,
} from './limits';

export type { GeoFeature } from './kml-feature';

export interface FeatureEntry {
  feature: GeoFeature;
  folder?: string;
}

/** `final`: reading again (with positions) would say nothing more. */
export type KmlRead = { ok: true; entries: FeatureEntry[] } | { ok: false; problem: string; final?: boolean };

export interface KmlFolder {
  /** The text of its last direct <name> child so far, if any. */
  name: string | undefined;
  parent: KmlFolder | undefined;
  depth: number;
  /** Its place among the document's folders (0 first): the same in every reading of the document. */
  ordinal: number;
  /** A feature inside it has been handed on. */
  used: boolean;
  /** Its name changed after that. */
  renamed: boolean;
  /** A feature is inside it. */
  holdsFeature: boolean;
}

/** What the whole document said, known at its end. */
export type KmlEnd =
  | {
    ok: true;
    schema: ReadonlyMap<string, TypeConverter>;
    /** Folders renamed after a feature inside them was handed on: ordinal → final name. */
    lateNames: Map<number, string>;
    /** Some feature lies in a folder whose final name is not blank. */
    hasFolders: boolean;
  }
  | { ok: false; problem: string; final: boolean };

/** Thrown inside the parser's handlers (or between pieces) to stop at a limit; the message says which. */
class Refused extends Error {}

/**
 * Characters handed to saxes at a time. It holds a text node, comment or tag whole until it ends and
 * tells nothing before, so the run since the last markup event (and the open placemark's span) is
 * measured between slices: what passes a limit is stopped within a slice of it.
 */
const SLICE_CHARS = 64 * 1024;

// A placemark's tree is most of what the reader holds (a gx:Track has two elements a point), so its
// elements share what they can: one empty attribute list, one string per tag name (up to a few
// thousand distinct names), and children arrays cut to their length once the element ends.
const NO_ATTRIBUTES: Record<string, SaxesAttributeNS> = Object.freeze({});
const SHARED_NAMES = 4096;
const COMPACTED_CHILDREN = 16;

function isEmpty(record: object): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return false;
  return true;
}

const FEATURE_TAGS = new Set(['Placemark', 'GroundOverlay', 'NetworkLink']);

/**
 * Slips the DOM reader let through (it read them as written, and so does saxes after reporting
 * them): an unquoted attribute value, and "]]>" in text. Every other error refuses the file.
 */
// Without position tracking saxes gives the bare sentence, with it "line:column: " first.
const TOLERATED = [/(?:^|: )unquoted attribute value\.$/, /(?:^|: )the string "\]\]>" is disallowed in char data\.$/];

/** The outermost feature being read: its element tree is held until it ends. */
interface Outer {
  element: Element;
  /** Where it began in the document (the parser's position) and on which line. */
  start: number;
  line: number;
  elements: number;
  /** Whitespace-separated tuples in its <coordinates> so far. */
  points: number;
}

interface Slot {
  folder: KmlFolder | undefined;
  pending: PendingFeature | undefined;
}

/** A feature as it ends, with the folder it lies in (its name may still change: see KmlEnd). */
export type OnFeature = (pending: PendingFeature, folder: KmlFolder | undefined) => void;

/**
 * One pass over a KML document given in pieces. `position`: track line and column for the error
 * sentence (it costs a good part of the pass, so a caller reads a failing file again with it).
 */
export class KmlReader {
  private readonly parser: SaxesParser<{ xmlns: true; position: boolean }>;
  private readonly escaper = new AmpersandEscaper();
  /** Every SimpleField's type by name, at most MAX_COLUMNS of them (each names a column). */
  private readonly schema = new Map<string, TypeConverter>();
  private readonly lateNames = new Map<number, string>();
  private hasFolders = false;
  // Features not handed on yet, in document order: a feature waits for those that opened before it.
  private slots: Slot[] = [];
  private head = 0;
  // Features still open, innermost last; the elements below the outermost one are being kept.
  private readonly open: Array<{ element: Element; slot: Slot }> = [];
  private outer: Outer | undefined;
  // The parser's position and line at its last event: a run since then is held by saxes.
  private lastEvent = 0;
  private lastEventLine = 1;
  // Characters of folder names held: the open folders' and the late names'.
  private nameChars = 0;
  private readonly tagNames = new Map<string, string>();
  private current: Element | undefined;
  private folder: KmlFolder | undefined;
  private folders = 0;
  // Direct <name> children of folders being read (text below them counts, as textContent does).
  private readonly folderNames: Array<{ folder: KmlFolder; depth: number; text: string }> = [];
  private depth = 0;
  private root: string | undefined;
  private isKml = false;
  private failure: { problem: string; final: boolean } | null = null;

  constructor(
    private readonly onFeature: OnFeature,
    position = false,
  ) {
    // Namespaces on: an unbound prefix (gx: without its xmlns:gx) was an error for the DOM reader too.
    this.parser = new SaxesParser({ xmlns: true, position });
    this.parser.on('error', (error) => {
      if (!TOLERATED.some((pattern) => pattern.test(error.message))) throw error;
    });
    this.parser.on('opentag', (tag) => {
      this.mark();
      this.openTag(tag.name, tag.attributes as Record<string, SaxesAttributeNS>);
    });
    this.parser.on('text', (value) => {
      this.mark();
      this.text(value);
    });
    this.parser.on('cdata', (value) => {
      this.mark();
      // The DOM reader made no node for an empty section: it is no HTML description either.
      if (value !== '') this.text({ cdata: value });
    });
    this.parser.on('closetag', () => {
      this.mark();
      this.closeTag();
    });
    // Held whole by saxes too, and ignored: each only ends a run.
    for (const event of ['comment', 'processinginstruction', 'doctype', 'xmldecl'] as const) this.parser.on(event, () => this.mark());
  }

  /** The document could not be read (the rest need not be given). */
  get failed(): boolean {
    return this.failure !== null;
  }

  push(piece: string): void {
    if (this.failure !== null) return;
    const text = this.escaper.push(piece);
    this.write(() => {
      for (let at = 0; at < text.length; at += SLICE_CHARS) {
        this.parser.write(at === 0 && text.length <= SLICE_CHARS ? text : text.slice(at, at + SLICE_CHARS));
        this.checkRun();
      }
    });
  }

  end(): KmlEnd {
    if (this.failure === null) this.write(() => this.parser.write(this.escaper.end()).close());
    if (this.failure !== null) return { ok: false, ...this.failure };
    if (!this.isKml) return { ok: false, problem: `The file is XML but not KML (its root element is <${this.root ?? '?'}>, not <kml>).`, final: true };
    return { ok: true, schema: this.schema, lateNames: this.lateNames, hasFolders: this.hasFolders };
  }

  private write(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof Refused) this.failure = { problem: error.message, final: true };
      else {
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
        this.failure = { problem: `The KML is not well-formed XML (${message}). Export it again from Google Earth or the mapping tool.`, final: false };
      }
    }
  }

  private openTag(name: string, attributes: Record<string, SaxesAttributeNS>): void {
    // Deeper nesting makes the lookups below (and the folder chain) cost depth × elements.
    if (++this.depth > MAX_NESTING_DEPTH) throw new Refused(nestingSentence('KML'));
    const outer = this.outer;
    if (outer !== undefined && ++outer.elements > MAX_PLACEMARK_ELEMENTS) throw new Refused(placemarkElementsSentence(describe(outer)));
    if (this.root === undefined) {
      this.root = localName(name);
      this.isKml = this.root === 'kml';
    }
    if (!this.isKml) return;
    const folder = this.folder;
    if (name === 'SimpleField') {
      const field = attributes.name?.value || '';
      if (!this.schema.has(field) && this.schema.size >= MAX_COLUMNS) throw new Refused(schemaFieldsSentence());
      this.schema.set(field, converterFor(attributes.type?.value || ''));
    }
    if (name === 'name' && folder !== undefined && folder.depth === this.depth - 1) this.folderNames.push({ folder, depth: this.depth, text: '' });
    const isFeature = FEATURE_TAGS.has(name);
    if (this.current !== undefined || isFeature) {
      const element: Element = { tag: this.shared(name), attributes: isEmpty(attributes) ? NO_ATTRIBUTES : attributes, children: [], parent: this.current };
      this.current?.children.push(element);
      this.current = element;
      if (isFeature) {
        const slot: Slot = { folder, pending: undefined };
        if (folder !== undefined) folder.holdsFeature = true;
        this.slots.push(slot);
        this.open.push({ element, slot });
        this.outer ??= { element, start: this.parser.position, line: this.parser.line, elements: 1, points: 0 };
      }
    }
    if (name === 'Folder') {
      this.folder = { name: undefined, parent: folder, depth: this.depth, ordinal: this.folders++, used: false, renamed: false, holdsFeature: false };
    }
  }

  private text(value: string | { cdata: string }): void {
    const text = typeof value === 'string' ? value : value.cdata;
    if (this.current !== undefined) {
      this.current.children.push(value);
      // Each point read costs far more than its text: counted before any is read.
      if (this.outer !== undefined && this.current.tag === 'coordinates') {
        this.outer.points += tuples(text);
        if (this.outer.points > MAX_PLACEMARK_POINTS) throw new Refused(placemarkPointsSentence(describe(this.outer)));
      }
    }
    for (const capture of this.folderNames) {
      capture.text += text;
      if (this.nameChars + capture.text.length > MAX_KML_RUN_CHARS) throw new Refused(folderNamesSentence());
    }
  }

  private closeTag(): void {
    if (this.current !== undefined) {
      const element = this.current;
      this.current = element.parent;
      // A pushed-to array keeps room for more; most elements hold a text or a few children.
      if (element.children.length > 0 && element.children.length <= COMPACTED_CHILDREN) element.children = element.children.slice();
      const innermost = this.open[this.open.length - 1];
      if (innermost !== undefined && innermost.element === element) {
        this.open.pop();
        if (this.open.length === 0) this.outer = undefined;
        innermost.slot.pending = readFeature(element);
        this.handOn();
      }
    }
    const capture = this.folderNames[this.folderNames.length - 1];
    if (capture !== undefined && capture.depth === this.depth) {
      this.folderNames.pop();
      this.nameChars += capture.text.length - (capture.folder.name?.length ?? 0);
      capture.folder.name = capture.text;
      if (capture.folder.used) capture.folder.renamed = true;
    }
    const folder = this.folder;
    if (folder !== undefined && folder.depth === this.depth) {
      // Its name is final now.
      // A late name is kept to the end (and counted); any other is dropped with its folder.
      if (folder.renamed) {
        if (this.lateNames.size >= MAX_LATE_NAMED_FOLDERS) throw new Refused(lateFoldersSentence());
        this.lateNames.set(folder.ordinal, folder.name ?? '');
      } else this.nameChars -= folder.name?.length ?? 0;
      if (folder.holdsFeature) {
        if (folder.name !== undefined && folder.name.trim() !== '') this.hasFolders = true;
        if (folder.parent !== undefined) folder.parent.holdsFeature = true;
      }
      this.folder = folder.parent;
    }
    this.depth--;
  }

  private shared(name: string): string {
    const known = this.tagNames.get(name);
    if (known !== undefined) return known;
    if (this.tagNames.size < SHARED_NAMES) this.tagNames.set(name, name);
    return name;
  }

  private mark(): void {
    this.lastEvent = this.parser.position;
    this.lastEventLine = this.parser.line;
  }

  /** Between slices: the open placemark's span, or else the run saxes holds, against its limit. */
  private checkRun(): void {
    const position = this.parser.position;
    if (this.outer !== undefined) {
      if (position - this.outer.start > MAX_PLACEMARK_CHARS) throw new Refused(placemarkCharsSentence(describe(this.outer)));
    } else if (position - this.lastEvent > MAX_KML_RUN_CHARS) throw new Refused(kmlRunSentence(this.lastEventLine));
  }

  /** Hands on every finished feature that no earlier open one waits before. */
  private handOn(): void {
    while (this.head < this.slots.length && this.slots[this.head]!.pending !== undefined) {
      const slot = this.slots[this.head++]!;
      // A used folder's ancestors are used already.
      for (let at = slot.folder; at !== undefined && !at.used; at = at.parent) at.used = true;
      this.onFeature(slot.pending!, slot.folder);
    }
    if (this.head === this.slots.length) {
      this.slots = [];
      this.head = 0;
    }
  }
}

/** Whitespace-separated runs in `text` (a run cut between two text nodes counts twice: a bound, not a reading). */
function tuples(text: string): number {
  let count = 0;
  let inRun = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
    if (!space && !inRun) count++;
    inRun = !space;
  }
  return count;
}

/** How a refusal names the feature: its tag, line and name so far. */
function describe(outer: Outer): string {
  const name = shortName(outer.element);
  return `The <${outer.element.tag}> on line ${outer.line}${name === '' ? '' : ` ("${name}")`}`;
}

/** The innermost folder with a non-blank name, trimmed; `lateNames` gives the final names of folders renamed after use. */
export function folderLabel(folder: KmlFolder | undefined, lateNames?: ReadonlyMap<number, string>): string | undefined {
  for (let at = folder; at !== undefined; at = at.parent) {
    const name = lateNames?.get(at.ordinal) ?? at.name;
    if (name !== undefined && name.trim() !== '') return name.trim();
  }
  return undefined;
}

/** Reads a whole KML document's features in document order (a folder before what it holds). Never throws. */
export function readKmlFeatures(text: string): KmlRead {
  // Only a file that fails is read again with line and column, so the problem can say where.
  const read = readFeatures(text, false);
  if (read.ok || read.final) return read;
  return readFeatures(text, true);
}

function readFeatures(text: string, position: boolean): KmlRead {
  const found: Array<{ pending: PendingFeature; folder: KmlFolder | undefined }> = [];
  const reader = new KmlReader((pending, folder) => found.push({ pending, folder }), position);
  reader.push(text);
  const end = reader.end();
  if (!end.ok) return end;
  try {
    // Every folder's name is final now: its own name is the one to read.
    return { ok: true, entries: found.map(({ pending, folder }) => entryOf(finishFeature(pending, end.schema), folderLabel(folder))) };
  } catch (error) {
    return { ok: false, problem: `The KML could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
}

export function entryOf(feature: GeoFeature, folder: string | undefined): FeatureEntry {
  return folder === undefined ? { feature } : { feature, folder };
}
