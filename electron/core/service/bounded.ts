// Service text kept in an error is bounded at the source: a server or proxy can answer with
// megabytes (a 7.9 MB error page, a fault whose detail is a dump), and every failure is stored in the
// outbox journal and shown in lists, events and CLI output. At most a few KB survive: the head (where
// the message, the page title, the exception type are) and the tail (where a stack trace or the end
// of a dump says what happened), with the size of what was left out between them.

/** Budget for one service text in an error's detail (support reads it). */
export const DETAIL_TEXT_BYTES = 2048;
/** Budget for the service's words quoted in a sentence a technician reads. */
export const QUOTE_BYTES = 300;
/** Budget for a field holding the service's cleaned-up message (a fault's reason). */
export const REASON_BYTES = 1024;
/** How much of a text the wording patterns and the message clean-up read: they look at its start. */
export const SCAN_CHARS = 16 * 1024;
/** Budget for a header value (Location, Content-Type) or a transport's error text. */
export const HEADER_BYTES = 512;

export interface BoundOptions {
  /** UTF-8 bytes kept, head and tail together (the marker between them comes on top). */
  maxBytes?: number;
  /** The text is the first part of a longer body that was not read to the end. */
  cut?: boolean;
}

const formatter = new Intl.NumberFormat('en-US');
const count = (n: number): string => formatter.format(n);

/**
 * The text when it fits in maxBytes; else its head and tail with the byte count between them:
 * "head…[7,912,345 bytes, 7,910,297 not shown]…tail". A text that was itself cut short on reading
 * keeps only its head: "head…[first 65,536 bytes read, 63,488 not shown; the rest was not read]".
 */
export function boundText(text: string, options: BoundOptions = {}): string {
  const maxBytes = Math.max(16, options.maxBytes ?? DETAIL_TEXT_BYTES);
  // No text in an error is worth more than this even before bounding; cheap test first.
  if (!options.cut && text.length * 3 <= maxBytes) return text;
  const total = Buffer.byteLength(text, 'utf8');
  if (!options.cut && total <= maxBytes) return text;
  if (options.cut) {
    const head = headBytes(text, maxBytes);
    const shown = Buffer.byteLength(head, 'utf8');
    return `${head}…[first ${count(total)} bytes read, ${count(total - shown)} not shown; the rest was not read]`;
  }
  const head = headBytes(text, Math.ceil((maxBytes * 3) / 4));
  const tail = tailBytes(text, maxBytes - Buffer.byteLength(head, 'utf8'));
  const hidden = total - Buffer.byteLength(head, 'utf8') - Buffer.byteLength(tail, 'utf8');
  return `${head}…[${count(total)} bytes, ${count(hidden)} not shown]…${tail}`;
}

/** A short quote for a sentence: its head only, on one line. */
export function quote(text: string, maxBytes = QUOTE_BYTES): string {
  const window = maxBytes * 2;
  const flat = text.slice(0, window).replace(/\s+/g, ' ').trim();
  if (text.length <= window && Buffer.byteLength(flat, 'utf8') <= maxBytes) return flat;
  return `${headBytes(flat, maxBytes - 3).trimEnd()}…`;
}

/** The longest start of the text within maxBytes of UTF-8, never splitting a character. */
function headBytes(text: string, maxBytes: number): string {
  // Each UTF-16 unit takes at least one byte: no more than maxBytes units can fit.
  const slice = text.slice(0, maxBytes);
  const bytes = Buffer.from(slice, 'utf8');
  if (bytes.length <= maxBytes) return dropBrokenEnd(slice);
  let end = maxBytes;
  // Back off to the start of a UTF-8 sequence.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** The longest end of the text within maxBytes of UTF-8, never splitting a character. */
function tailBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const slice = text.slice(Math.max(0, text.length - maxBytes));
  const bytes = Buffer.from(slice, 'utf8');
  if (bytes.length <= maxBytes) return dropBrokenStart(slice);
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}

// A slice by UTF-16 units can split a surrogate pair; the half would encode as U+FFFD.
function dropBrokenEnd(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

function dropBrokenStart(text: string): string {
  const first = text.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? text.slice(1) : text;
}
