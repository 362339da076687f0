// The one place that removes a secret (the API key) from text before it can reach an error, the
// journal, the event stream, a log or a support paste. A server or proxy may echo the request back
// — the GET query, the POST form, the SOAP envelope — raw, or quoted once more inside XML, HTML or
// JSON, so the key is matched in every form the client can put it on the wire and the usual ways
// such a form is quoted again:
//   raw; percent-encoded (the GET/POST encoder escapes ! ' ( ) * too, encodeURIComponent does not;
//   hex digits in either case; "%" itself escaped as %25 once more); "+" for a space (forms);
//   XML/HTML-escaped (&amp; &lt; &gt; &quot; &apos; &nbsp;, decimal and hex character references,
//   and an "&" escaped once more, as when a server quotes an escaped envelope inside XML);
//   JSON-escaped (\" \\ \/ \n…, \uXXXX in either case).
// Every character of the key may take any of its forms independently, so mixed and partial
// encodings are caught as well. The replacement can never recreate the key: when "[redacted]"
// would complete a match with the text around it, a marker made of a character the key lacks is
// used instead.

export const REDACTED = '[redacted]';

/** Shorter secrets are not looked for: replacing every "ab" in a message would make it unreadable. */
export const MIN_SECRET_LENGTH = 3;

export type Redactor = (text: string) => string;

const NAMED_ENTITIES: Readonly<Record<string, string>> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos', '\u00a0': 'nbsp' };
const JSON_SHORT: Readonly<Record<string, string>> = { '"': '\\\\"', '\\': '\\\\\\\\', '/': '\\\\/', '\b': '\\\\b', '\f': '\\\\f', '\n': '\\\\n', '\r': '\\\\r', '\t': '\\\\t' };

/** Both cases of each letter: entity names and hex digits are matched in any case. */
function anyCase(text: string): string {
  return [...text].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegExp(c))).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function hex(value: number, width: number): string {
  return anyCase(value.toString(16).padStart(width, '0'));
}

/** "&", or "&" itself escaped once more (&amp; &#38; &#x26;). */
const AMP = `(?:&|&${anyCase('amp')};|&#0*38;|&#${anyCase('x')}0*${anyCase('26')};)`;
/** "%", or "%" itself percent-encoded once more. */
const PERCENT = '(?:%|%25)';

/** Every form one character (one code point) of a secret can take on the wire or in an echo. */
function characterForms(char: string): string {
  const cp = char.codePointAt(0)!;
  const forms = new Set<string>([escapeRegExp(char)]);
  // Percent-encoding of its UTF-8 bytes.
  forms.add([...Buffer.from(char, 'utf8')].map((byte) => `${PERCENT}${hex(byte, 2)}`).join(''));
  if (char === ' ') forms.add('\\+');
  // XML / HTML character references and named entities.
  forms.add(`${AMP}#0*${cp};`);
  forms.add(`${AMP}#${anyCase('x')}0*${anyCase(cp.toString(16))};`);
  const named = NAMED_ENTITIES[char];
  if (named) forms.add(`${AMP}${anyCase(named)};`);
  // JSON escapes: \uXXXX per UTF-16 unit, and the short forms.
  const units = Array.from({ length: char.length }, (_, index) => char.charCodeAt(index));
  forms.add(units.map((unit) => `\\\\${anyCase('u')}${hex(unit, 4)}`).join(''));
  const short = JSON_SHORT[char];
  if (short) forms.add(short);
  return `(?:${[...forms].join('|')})`;
}

/** A pattern matching the secret in any of its forms, or null when it is too short to look for. */
export function secretPattern(secret: string): RegExp | null {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return null;
  return new RegExp([...secret].map(characterForms).join(''), 'g');
}

/** The secrets worth looking for: each as given and trimmed (a strict call sends the trimmed key). */
function usableSecrets(secrets: ReadonlyArray<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string') continue;
    for (const variant of [secret, secret.trim()]) if (variant.length >= MIN_SECRET_LENGTH) out.add(variant);
  }
  // Longest first, so a key is replaced whole before its trimmed self is looked for.
  return [...out].sort((a, b) => b.length - a.length);
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

/**
 * A function that removes every secret from a text. Build it once per call: the pattern of a long
 * key is a large regular expression.
 */
export function createRedactor(secrets: ReadonlyArray<string | null | undefined>): Redactor {
  const usable = usableSecrets(secrets);
  if (usable.length === 0) return (text) => text;
  const pattern = new RegExp(usable.map((secret) => secretPattern(secret)!.source).join('|'), 'g');
  const matches = (text: string): boolean => {
    pattern.lastIndex = 0;
    return pattern.test(text);
  };
  let fallback: string | null = null;
  return (text: string): string => {
    if (typeof text !== 'string' || text === '' || !matches(text)) return text;
    const out = text.replace(pattern, REDACTED);
    if (!matches(out)) return out;
    fallback ??= safeMarker(usable);
    return text.replace(pattern, fallback);
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
