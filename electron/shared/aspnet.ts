// What ASP.NET does to an HTTP GET or POST request before an ASMX operation reads a parameter,
// written once for every layer: request validation (a value that looks like markup is refused) and
// the query-string length limit. The service client checks them before it sends (and carries a call
// that would be refused over another binding), the site form warns with them, and the sandbox
// enforces the same rule. SOAP bodies are read as XML, never through Request.Form: neither applies.
// Pure functions only: no Node, no DOM.
import type { Binding } from './domain';

/** httpRuntime maxQueryStringLength's default, in characters of the query as sent (percent-encoded, without the "?"). */
export const MAX_QUERY_STRING_LENGTH = 2048;

/** Why a call went over another binding than the profile's, or why the service would refuse it. */
export type AspNetRule = 'request-validation' | 'query-length';

/**
 * A call the client sent over another binding than the one asked for, because the asked one would
 * be refused before the operation ran. Kept on the outbox entry; `message` is the sentence shown.
 */
export interface CarriedBy {
  /** The binding that carried the call. */
  binding: Binding;
  /** The profile's binding, which would have been refused. */
  instead: Binding;
  reason: AspNetRule;
  message: string;
}

export const BINDING_NAMES: Readonly<Record<Binding, string>> = {
  'http-post': 'HTTP POST',
  'http-get': 'HTTP GET',
  soap11: 'SOAP 1.1',
  soap12: 'SOAP 1.2',
};

/** Whether ASP.NET's request pipeline (validation, query limit) sees the binding's parameters. */
export function isFormBinding(binding: Binding): binding is 'http-get' | 'http-post' {
  return binding === 'http-get' || binding === 'http-post';
}

/**
 * CrossSiteScriptingValidation.IsDangerousString: the index of the first `<` followed by an ASCII
 * letter, `!`, `/` or `?`, or of the first `&#`; -1 when there is none. `a < b`, `AT&T` and `3<5` pass.
 */
export function dangerousIndex(value: string): number {
  return value.search(/<[A-Za-z!/?]|&#/);
}

/** One name=value part of a query or form body, decoded; a part without '=' has no name. */
export interface FormPart {
  name: string | null;
  value: string;
}

export interface DangerousValue {
  /** The parameter as sent ('' for a part without a name). */
  name: string;
  /** The value as ASP.NET checks it (repeated names joined with commas, NUL characters dropped). */
  value: string;
  /** Where the markup-like text starts in `value`. */
  index: number;
}

/**
 * The first value HttpRequest.ValidateString would refuse, checking the collection as ASP.NET
 * holds it: names compared without case, the values of a repeated name joined with commas, names
 * starting with "__" (ASP.NET's own fields) and empty values skipped, NUL characters dropped.
 * Null when the request passes.
 */
export function firstDangerousValue(parts: Iterable<FormPart>): DangerousValue | null {
  const joined = new Map<string | null, { name: string | null; values: string[] }>();
  for (const part of parts) {
    const key = part.name === null ? null : part.name.toLowerCase();
    const entry = joined.get(key);
    if (entry) entry.values.push(part.value);
    else joined.set(key, { name: part.name, values: [part.value] });
  }
  for (const { name, values } of joined.values()) {
    if (name !== null && name.startsWith('__')) continue;
    const value = values.join(',').replaceAll('\0', '');
    if (value === '') continue;
    const index = dangerousIndex(value);
    if (index >= 0) return { name: name ?? '', value, index };
  }
  return null;
}

/** The text that trips request validation at `index` ("<N", "&#"), to name it without quoting the whole value. */
export function dangerousSnippet(value: string, index: number): string {
  return value.slice(index, index + 2);
}

/**
 * application/x-www-form-urlencoded and query encoding of one name or value, as Sitewalk sends it:
 * encodeURIComponent plus the five characters it leaves alone that some servers treat specially
 * (! ' ( ) *); a space is %20, which every decoder reads as a space.
 */
export function formEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The query (or form body) of these parameters, as sent. */
export function formEncodeParams(params: Iterable<readonly [string, string]>): string {
  const parts: string[] = [];
  for (const [name, value] of params) parts.push(`${formEncode(name)}=${formEncode(value)}`);
  return parts.join('&');
}

/** A request ASP.NET would refuse over HTTP GET or POST before the operation runs, and the binding that carries it. */
export interface AspNetRefusal {
  rule: AspNetRule;
  /** The parameter refused (request validation), or null (query length). */
  parameter: string | null;
  /** What trips the rule: "<N", "&#", or the query's length in characters. */
  trigger: string;
  /** The binding that is not refused: SOAP 1.1 for request validation, HTTP POST for a query that is only too long. */
  carrier: Binding;
}

/**
 * Whether ASP.NET would refuse these parameters over `binding` (HTTP GET or POST only): request
 * validation first (it refuses GET and POST alike, so SOAP 1.1 carries it), then, for GET, the
 * length of the query as sent (POST carries it). Null when the request passes, or for SOAP.
 */
export function predictRefusal(binding: Binding, params: ReadonlyArray<readonly [string, string]>): AspNetRefusal | null {
  if (!isFormBinding(binding)) return null;
  const dangerous = firstDangerousValue(params.map(([name, value]) => ({ name, value })));
  if (dangerous) return { rule: 'request-validation', parameter: dangerous.name, trigger: dangerousSnippet(dangerous.value, dangerous.index), carrier: 'soap11' };
  if (binding === 'http-get') {
    const length = formEncodeParams(params).length;
    if (length > MAX_QUERY_STRING_LENGTH) return { rule: 'query-length', parameter: null, trigger: String(length), carrier: 'http-post' };
  }
  return null;
}

const COUNT = new Intl.NumberFormat('en-US');

/** "ASP.NET's request validation refuses the Site name on HTTP POST (it contains "<N")." and its kin, for people. */
export function describeRefusal(refusal: AspNetRefusal, binding: Binding, label: string | null): string {
  if (refusal.rule === 'request-validation') {
    const has = refusal.trigger ? `it contains "${refusal.trigger}" (a "<" followed by a letter, "!", "/" or "?", or "&#")` : 'it contains markup-like text';
    return `The service's ASP.NET request validation refuses ${label ?? 'a value'} on ${BINDING_NAMES[binding]}: ${has}, which HTTP GET and POST may not carry`;
  }
  const length = Number(refusal.trigger);
  const size = Number.isFinite(length) && length > 0 ? `would be ${COUNT.format(length)} characters` : 'is too long';
  return `The request's query string ${size}, over ASP.NET's ${COUNT.format(MAX_QUERY_STRING_LENGTH)}-character limit for HTTP GET`;
}
