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
 * Rows one import may queue. Until it is sent, every queued row is held whole in memory by the
 * outbox and the site register, and the run follows each one: `sitewalk import --no-wait` peaks at
 * 236 MB for 10,000 short rows and 594 MB for 100,000 (a 1.23 million row file passed 1.4 GB at
 * 680,000), so past this a file is refused before anything is queued, with the way out: split it.
 */
export const MAX_IMPORT_ROWS = 40_000;

export const tooManyRowsSentence = (ready: number, limit = MAX_IMPORT_ROWS) =>
  `${ready.toLocaleString('en-US')} rows are ready to queue; one import queues at most ${limit.toLocaleString('en-US')} (each row is held in memory until it is sent). Nothing was queued: split the file into parts of up to ${limit.toLocaleString('en-US')} rows and import them one after another.`;

export const nestingSentence = (what: string) =>
  `The ${what} nests more than ${MAX_NESTING_DEPTH} levels deep, which no export does; it was not read (the file may be damaged or made to harm). Export it again from the mapping tool.`;

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
