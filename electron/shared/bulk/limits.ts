// Bounds on what an import file may make the reader do, each checked in one linear pass before the
// costly parse, each refused with a sentence that names it. No spreadsheet or map export comes near
// them; a file made to harm (60,000 nested folders, a 60 MB line, a zip bomb) stops here instead
// of costing minutes and gigabytes. Browser-safe.

/** Elements inside elements (KML) or arrays and objects inside one another (GeoJSON). */
export const MAX_NESTING_DEPTH = 100;
/** One line of a CSV, in characters: a row of a site list is a few hundred. */
export const MAX_LINE_CHARS = 1024 * 1024;
/** The KML inside a KMZ, unpacked: stopped while unpacking once it passes this. */
export const MAX_KMZ_KML_BYTES = 64 * 1024 * 1024;
/**
 * Characters the KML reader takes in one run with no markup event (a text node, a comment, a CDATA
 * section, a tag with its attributes) outside a placemark. The parser holds such a run whole until
 * it ends; libxml2 refuses a text node past 10,000,000 characters unless told the file is huge, and
 * nothing outside a placemark (a description, a style, a folder's name) comes near it.
 */
export const MAX_KML_RUN_CHARS = 10_000_000;
/**
 * Characters of the document one Placemark (or GroundOverlay, NetworkLink) may span, counted as it
 * arrives: its element tree is held until its end tag, then read into a geometry. A LineString of
 * 200,000 points with altitudes is about 6 million characters.
 */
export const MAX_PLACEMARK_CHARS = 12_000_000;
/**
 * Points in one placemark's <coordinates>, counted as the text arrives: read, each costs about half a
 * kilobyte however short its text ("1,2" too). A LineString of 200,000 points peaked at 346 MB in
 * the browser host, of 700,000 at 490 MB in the CLI's dry run.
 */
export const MAX_PLACEMARK_POINTS = 250_000;
/**
 * Elements inside one placemark, counted as they open. Held and read, each costs well over a
 * kilobyte (a gx:Track of 95,000 points, two elements a point, peaked at 391 MB in the browser host,
 * of 200,000 at 500 MB in the CLI's dry run); this passes a gx:Track of 59,000 points (16 hours at
 * one a second).
 */
export const MAX_PLACEMARK_ELEMENTS = 120_000;
/**
 * Folders named after the placemarks in them (their <name> written after their content): each final
 * name is kept until the rows are written. Exports put the name first; a few late ones are hand edits.
 */
export const MAX_LATE_NAMED_FOLDERS = 100_000;

/**
 * Columns one table may have: a CSV's header, or the distinct property names (ExtendedData, SimpleData,
 * GeoJSON properties) of a file's features. Excel and LibreOffice Calc stop at 16,384; a site list
 * has a few dozen. Rows are never padded to the columns (a cell a row lacks is read as empty), so a
 * wide table costs what its text costs; this bounds the column list itself, which the mapping reads
 * and a sentence may quote.
 */
export const MAX_COLUMNS = 16_384;

/**
 * Rows one import may queue. Until it is sent, every queued row's head is held in memory by the
 * outbox (its edit is on disk) and the run follows each one: `sitewalk import --no-wait` of short
 * rows peaks at 294 MB for 40,000, 408 MB for 60,000 and 474 MB for 100,000 (594 MB while the outbox
 * held whole entries; a 1.23 million row file passed 1.4 GB at 680,000), so past this a file is
 * refused before anything is queued, with the way out: split it.
 */
export const MAX_IMPORT_ROWS = 40_000;

export const tooManyRowsSentence = (ready: number, limit = MAX_IMPORT_ROWS) =>
  `${ready.toLocaleString('en-US')} rows are ready to queue; one import queues at most ${limit.toLocaleString('en-US')} (each row is held in memory until it is sent). Nothing was queued: split the file into parts of up to ${limit.toLocaleString('en-US')} rows and import them one after another.`;

export const nestingSentence = (what: string) =>
  `The ${what} nests more than ${MAX_NESTING_DEPTH} levels deep, which no export does; it was not read (the file may be damaged or made to harm). Export it again from the mapping tool.`;

const millions = (n: number) => `${n / 1_000_000} million`;
const madeToHarm = 'it was not read (the file may be damaged or made to harm)';

/** `what`: how the file's columns are named, e.g. "The header names 120,004 columns". */
export const tooManyColumnsSentence = (what: string) =>
  `${what}; one table has at most ${MAX_COLUMNS.toLocaleString('en-US')} columns, as a spreadsheet, and ${madeToHarm}. A site list needs a few dozen: export only the columns you import.`;

export const schemaFieldsSentence = () => tooManyColumnsSentence("The KML's schemas declare too many typed fields (SimpleField, one column each)");

export const kmlRunSentence = (line: number) =>
  `The KML has more than ${millions(MAX_KML_RUN_CHARS)} characters without markup from line ${line} on (one text, comment or tag), which no export writes outside a placemark; ${madeToHarm}. Export it again from the mapping tool.`;

/** `placemark`: how the sentence names it, e.g. 'The <Placemark> on line 12 ("Track 1")'. */
export const placemarkCharsSentence = (placemark: string) =>
  `${placemark} is longer than ${millions(MAX_PLACEMARK_CHARS)} characters, the most one placemark may be (a LineString of 250,000 points fits); ${madeToHarm}. Split it or simplify it in the mapping tool.`;

export const placemarkElementsSentence = (placemark: string) =>
  `${placemark} holds more than ${MAX_PLACEMARK_ELEMENTS.toLocaleString('en-US')} elements, the most one placemark may hold (a gx:Track of 59,000 points fits); ${madeToHarm}. Split it or simplify it in the mapping tool.`;

export const placemarkPointsSentence = (placemark: string) =>
  `${placemark} has more than ${MAX_PLACEMARK_POINTS.toLocaleString('en-US')} points in its coordinates, the most one placemark may have; ${madeToHarm}. Split it or simplify it in the mapping tool.`;

export const lateFoldersSentence = () =>
  `The KML names more than ${MAX_LATE_NAMED_FOLDERS.toLocaleString('en-US')} folders after the placemarks in them (each name is kept until the rows are written), which no export does; ${madeToHarm}. Export it again from the mapping tool.`;

export const folderNamesSentence = () =>
  `The KML's folder names come to more than ${millions(MAX_KML_RUN_CHARS)} characters, which no export writes; ${madeToHarm}. Export it again from the mapping tool.`;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`; one pass, strings skipped.
 * JSON.parse itself has no depth limit, and what walks the result afterwards recurses.
 */
export function jsonTooDeep(text: string, limit = MAX_NESTING_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The first line longer than `limit` characters (1-based), or null. Lines end at \n, \r\n or a lone
 * \r (old Mac exports); each kind of break is searched for once per step of the file, so the pass
 * stays linear.
 */
export function overlongLine(text: string, limit = MAX_LINE_CHARS): number | null {
  let start = 0;
  let line = 1;
  let nextLf = -2;
  let nextCr = -2;
  while (start < text.length) {
    if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf('\n', start);
    if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf('\r', start);
    const end = nextLf === -1 ? (nextCr === -1 ? text.length : nextCr) : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
    if (end - start > limit) return line;
    start = text[end] === '\r' && text[end + 1] === '\n' ? end + 2 : end + 1;
    line++;
  }
  return null;
}

/**
 * overlongLine for text that arrives in pieces (a file streamed from disk): push each piece as it is
 * decoded; the answer is the first line over the limit as soon as it passes it, so a reader can stop
 * there without reading the rest. A \r at the end of one piece and a \n at the start of the next are
 * one break.
 */
export class LineLengthGuard {
  private line = 1;
  private length = 0;
  private afterCr = false;

  constructor(private readonly limit = MAX_LINE_CHARS) {}

  /** The 1-based number of the first line longer than the limit, or null so far. */
  push(text: string): number | null {
    let start = 0;
    if (this.afterCr && text.charCodeAt(0) === 0x0a) start = 1;
    this.afterCr = false;
    // Each kind of break is searched for once per step, as in overlongLine: linear in the piece.
    let nextLf = -2;
    let nextCr = -2;
    while (start < text.length) {
      if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf('\n', start);
      if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf('\r', start);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (end === -1) {
        this.length += text.length - start;
        return this.length > this.limit ? this.line : null;
      }
      if (this.length + end - start > this.limit) return this.line;
      this.line++;
      this.length = 0;
      if (text.charCodeAt(end) === 0x0d) {
        if (end + 1 === text.length) this.afterCr = true;
        else if (text.charCodeAt(end + 1) === 0x0a) {
          start = end + 2;
          continue;
        }
      }
      start = end + 1;
    }
    return null;
  }
}

export const overlongLineSentence = (line: number) =>
  `Line ${line} of the file is longer than ${MAX_LINE_CHARS / (1024 * 1024)} million characters, which no spreadsheet row is; it was not read (the file may not be a CSV, or be damaged). Check the file and export it again.`;

/** Lets the event loop run (timers, the API, a signal) between pieces of a long parse. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
