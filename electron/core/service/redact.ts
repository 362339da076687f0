// The one place that removes a secret (the API key) from text before it can reach an error, the
// journal, the event stream, a log or a support paste. A server or proxy may echo the request back
// — the GET query, the POST form, the SOAP envelope — raw, or quoted once more inside XML, HTML or
// JSON, and a server's validation message may quote only part of it (ASP.NET quotes the start of a
// value it refused). So any run of MIN_FRAGMENT or more consecutive characters of the key is
// removed, in every form the client can put a character on the wire and the usual ways such a form
// is quoted again:
//   raw; percent-encoded UTF-8 (hex in either case; "%" itself escaped as %25 once more); "+" for a
//   space (forms); XML/HTML-escaped (&amp; &lt; &gt; &quot; &apos; &nbsp;, decimal and hex character
//   references, and an "&" escaped once more, as when a server quotes an escaped envelope inside
//   XML); JSON-escaped (\" \\ \/ \n…, \uXXXX in either case, surrogate pairs).
// Every character may take any of its forms independently, so mixed encodings are caught too. The
// text is read once, left to right, keeping the runs of key characters that end at each position
// (a handful): the work is linear in the text. The replacement can never recreate a fragment: when
// "[redacted]" would complete one with the text around it, a marker made of a character the key
// lacks is used instead.

export const REDACTED = '[redacted]';

/** Shorter secrets are not looked for: replacing every "ab" in a message would make it unreadable. */
export const MIN_SECRET_LENGTH = 3;
/** Runs of this many consecutive characters of a key are removed (the whole key when it is shorter). */
export const MIN_FRAGMENT = 8;

export type Redactor = (text: string) => string;

const NAMED_ENTITIES: Readonly<Record<string, number>> = { amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27, nbsp: 0xa0 };
const JSON_SHORT: Readonly<Record<string, number>> = { '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

/** One character of the text as read in one of its forms: its code point and how many UTF-16 units it took. */
type Candidate = [codePoint: number, length: number];

function hexAt(text: string, at: number, digits: number): number {
  if (at + digits > text.length) return -1;
  let value = 0;
  for (let i = 0; i < digits; i++) {
    const digit = Number.parseInt(text[at + i]!, 16);
    if (Number.isNaN(digit)) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The ways "&" can start at `at`: "&" itself, or "&" escaped once more; the lengths they take. */
function ampersands(text: string, at: number): number[] {
  if (text[at] !== '&') return [];
  const lengths = [1];
  const escaped = /^&(?:amp;|#0*38;|#x0*26;)/i.exec(text.slice(at, at + 12));
  if (escaped) lengths.push(escaped[0].length);
  return lengths;
}

/** One percent-escaped byte at `at` (%XX, or %25XX: "%" escaped once more): [byte, length] pairs. */
function percentBytes(text: string, at: number): Array<[number, number]> {
  if (text[at] !== '%') return [];
  const out: Array<[number, number]> = [];
  const single = hexAt(text, at + 1, 2);
  if (single >= 0) out.push([single, 3]);
  if (single === 0x25) {
    const twice = hexAt(text, at + 3, 2);
    if (twice >= 0) out.push([twice, 5]);
  }
  return out;
}

/** A UTF-8 sequence of percent-escaped bytes starting at `at`, each byte in the same form as the first. */
function percentCharacters(text: string, at: number, into: Candidate[]): void {
  for (const [first, width] of percentBytes(text, at)) {
    const extra = first < 0x80 ? 0 : first >= 0xf0 ? 3 : first >= 0xe0 ? 2 : first >= 0xc0 ? 1 : -1;
    if (extra < 0) continue;
    let codePoint = extra === 0 ? first : first & (0x3f >> extra);
    let length = width;
    let ok = true;
    for (let k = 0; k < extra && ok; k++) {
      const next = percentBytes(text, at + length).find(([, w]) => w === width);
      if (!next || (next[0] & 0xc0) !== 0x80) ok = false;
      else {
        codePoint = (codePoint << 6) | (next[0] & 0x3f);
        length += width;
      }
    }
    if (ok) into.push([codePoint, length]);
  }
}

/** Character references and named entities at `at`, after any form of "&". */
function entityCharacters(text: string, at: number, into: Candidate[]): void {
  for (const amp of ampersands(text, at)) {
    const rest = text.slice(at + amp, at + amp + 12);
    const reference = /^#(?:0*(\d{1,7})|[xX]0*([0-9a-fA-F]{1,6}));/.exec(rest) ?? /^(amp|lt|gt|quot|apos|nbsp);/i.exec(rest);
    if (!reference) continue;
    const codePoint = reference[0].startsWith('#') ? (reference[1] !== undefined ? Number(reference[1]) : Number.parseInt(reference[2]!, 16)) : NAMED_ENTITIES[reference[1]!.toLowerCase()]!;
    if (codePoint <= 0x10ffff) into.push([codePoint, amp + reference[0].length]);
  }
}

/** JSON escapes at `at`: \uXXXX (a surrogate pair as one character) and the short forms. */
function jsonCharacters(text: string, at: number, into: Candidate[]): void {
  if (text[at] !== '\\') return;
  const short = JSON_SHORT[text[at + 1] ?? ''];
  if (short !== undefined) into.push([short, 2]);
  if (text[at + 1] !== 'u' && text[at + 1] !== 'U') return;
  const unit = hexAt(text, at + 2, 4);
  if (unit < 0) return;
  if (unit >= 0xd800 && unit < 0xdc00 && text[at + 6] === '\\' && (text[at + 7] === 'u' || text[at + 7] === 'U')) {
    const low = hexAt(text, at + 8, 4);
    if (low >= 0xdc00 && low < 0xe000) into.push([0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), 12]);
  }
  into.push([unit, 6]);
}

/** Every character the text can be read as at `at`, raw or encoded. */
function candidatesAt(text: string, at: number, into: Candidate[]): void {
  into.length = 0;
  const codePoint = text.codePointAt(at)!;
  into.push([codePoint, codePoint > 0xffff ? 2 : 1]);
  const unit = text.charCodeAt(at);
  if (unit === 0x2b) into.push([0x20, 1]);
  else if (unit === 0x25) percentCharacters(text, at, into);
  else if (unit === 0x26) entityCharacters(text, at, into);
  else if (unit === 0x5c) jsonCharacters(text, at, into);
}

/** Longest form one character can take (a 4-byte UTF-8 sequence with "%" escaped twice is 20): the ring's size. */
const RING = 32;
/** Code units that may start an encoded character. */
const ENCODING_STARTS = new Set([0x25, 0x26, 0x2b, 0x5c]);

/**
 * A scanner for one secret: the [start, end) spans of the text where a long enough run of it is
 * written. The runs ending at each of the next RING positions live in a ring of typed arrays
 * indexed by the key position of their last character, so the pass allocates nothing per character.
 */
function fragmentFinder(secret: string): (text: string) => Array<[number, number]> {
  const points = [...secret].map((char) => char.codePointAt(0)!);
  const needed = Math.min(MIN_FRAGMENT, points.length);
  const positions = new Map<number, number[]>();
  points.forEach((point, index) => positions.set(point, [...(positions.get(point) ?? []), index]));
  const interesting = new Uint8Array(0x10000);
  for (const point of points) interesting[point > 0xffff ? String.fromCodePoint(point).charCodeAt(0) : point] = 1;
  for (const unit of ENCODING_STARTS) interesting[unit] = 1;
  const lengths = Array.from({ length: RING }, () => new Int32Array(points.length));
  const starts = Array.from({ length: RING }, () => new Int32Array(points.length));
  const touched = Array.from({ length: RING }, () => [] as number[]);
  const candidates: Candidate[] = [];
  // Key positions by code unit, for the common case: a plain BMP character that starts no encoding.
  const byUnit: Array<number[] | undefined> = [];
  for (const [point, indexes] of positions) if (point <= 0xffff && (point < 0xd800 || point > 0xdfff)) byUnit[point] = indexes;
  // With no run open, the scan jumps to the next character that could start one.
  const units = [...new Set(points.map((point) => String.fromCodePoint(point).charCodeAt(0)))].concat([...ENCODING_STARTS]);
  const next = new RegExp(`[${units.map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`).join('')}]`, 'g');
  return (text) => {
    const spans: Array<[number, number]> = [];
    let pending = 0;
    let at = 0;
    let here = lengths[0]!;
    let hereStarts = starts[0]!;
    /** The character read at `at`, `length` units long, is key position(s) `indexes`: extend or start runs. */
    const extend = (indexes: readonly number[], length: number) => {
      const end = at + length;
      const target = end % RING;
      const endLengths = lengths[target]!;
      const endStarts = starts[target]!;
      for (const index of indexes) {
        const before = index > 0 ? here[index - 1]! : 0;
        const run = before + 1;
        const start = before > 0 ? hereStarts[index - 1]! : at;
        if (endLengths[index]! < run) {
          if (endLengths[index] === 0) {
            touched[target]!.push(index);
            pending++;
          }
          endLengths[index] = run;
          endStarts[index] = start;
        }
        if (run >= needed) {
          const last = spans[spans.length - 1];
          if (last && start <= last[1]) last[1] = Math.max(last[1], end);
          else spans.push([start, end]);
        }
      }
    };
    for (; at < text.length; at++) {
      if (pending === 0) {
        next.lastIndex = at;
        const found = next.exec(text);
        if (!found) break;
        at = found.index;
      }
      const slot = at % RING;
      here = lengths[slot]!;
      hereStarts = starts[slot]!;
      const unit = text.charCodeAt(at);
      if (!ENCODING_STARTS.has(unit) && (unit < 0xd800 || unit > 0xdfff)) {
        const indexes = byUnit[unit];
        if (indexes) extend(indexes, 1);
      } else {
        candidatesAt(text, at, candidates);
        for (const [codePoint, length] of candidates) {
          const indexes = positions.get(codePoint);
          if (indexes) extend(indexes, length);
        }
      }
      // The runs that ended here have been extended (or not): clear them for the position RING on.
      const cleared = touched[slot]!;
      if (cleared.length > 0) {
        for (const index of cleared) here[index] = 0;
        pending -= cleared.length;
        cleared.length = 0;
      }
    }
    // Runs still open when the text ends (a key at its very end) must not carry into the next text:
    // a stale, longer run in the ring hid a real one there, and the key stayed in place.
    for (let slot = 0; slot < RING; slot++) {
      const left = touched[slot]!;
      for (const index of left) lengths[slot]![index] = 0;
      left.length = 0;
    }
    return spans;
  };
}

/** The secrets worth looking for: each as given and trimmed (a strict call sends the trimmed key). */
function usableSecrets(secrets: ReadonlyArray<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string') continue;
    for (const variant of [secret, secret.trim()]) if ([...variant].length >= MIN_SECRET_LENGTH) out.add(variant);
  }
  return [...out];
}

/** A marker none of whose characters is in any secret: it cannot take part in a match. */
function safeMarker(secrets: readonly string[]): string {
  const used = new Set(secrets.flatMap((secret) => [...secret]));
  for (const candidate of ['\u2022', '\u2588', '\u00a4', '\u00a7', '\u203b']) {
    if (!used.has(candidate)) return candidate.repeat(3);
  }
  for (let cp = 0xe000; ; cp++) {
    const candidate = String.fromCodePoint(cp);
    if (!used.has(candidate)) return candidate.repeat(3);
  }
}

/** The spans merged (overlapping or touching), in order. */
function merged(spans: Array<[number, number]>): Array<[number, number]> {
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** A function that removes every fragment of every secret from a text. Build it once per key. */
export function createRedactor(secrets: ReadonlyArray<string | null | undefined>): Redactor {
  const usable = usableSecrets(secrets);
  if (usable.length === 0) return (text) => text;
  const finders = usable.map(fragmentFinder);
  const find = (text: string) => finders.flatMap((finder) => finder(text));
  const replace = (text: string, spans: Array<[number, number]>, marker: string) => {
    let out = '';
    let from = 0;
    for (const [start, end] of merged(spans)) {
      out += text.slice(from, start) + marker;
      from = end;
    }
    return out + text.slice(from);
  };
  let fallback: string | null = null;
  return (text: string): string => {
    if (typeof text !== 'string' || text === '') return text;
    const spans = find(text);
    if (spans.length === 0) return text;
    const out = replace(text, spans, REDACTED);
    if (find(out).length === 0) return out;
    fallback ??= safeMarker(usable);
    return replace(text, spans, fallback);
  };
}

/** Removes every secret from one text. */
export function redact(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  return createRedactor(secrets)(text);
}

/** Fields that name a variant of a union (kind, source, sent): never rewritten, or the union breaks. */
const STRUCTURAL = new Set(['kind', 'source', 'sent']);

/**
 * A copy of a value (a CallError, an outbox Problem) with every secret removed from every string in
 * it, at any depth: message, detail, body, reason, code, contentType, issues… New fields are
 * covered without anyone remembering to add them here. The top-level discriminants stay as they are.
 */
export function redactFields<T>(value: T, secrets: ReadonlyArray<string | null | undefined> | Redactor): T {
  const clean = typeof secrets === 'function' ? secrets : createRedactor(secrets);
  const walk = (item: unknown, top: boolean): unknown => {
    if (typeof item === 'string') return clean(item);
    if (Array.isArray(item)) return item.map((inner) => walk(inner, false));
    if (item !== null && typeof item === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(item)) copy[name] = top && STRUCTURAL.has(name) ? inner : walk(inner, false);
      return copy;
    }
    return item;
  };
  return walk(value, true) as T;
}

/** A CallError with the key removed from every text in it (what the client returns). */
export function redactError<E extends object>(error: E, secrets: ReadonlyArray<string | null | undefined> | Redactor): E {
  return redactFields(error, secrets);
}
