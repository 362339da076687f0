// Builders for every CallError: the one place that decides each failure's sentence for a field
// technician, its detail for support, and its flags (retryable, quotaExhausted, authRejected, and for
// network failures whether the request may have reached the service). Text meaning comes from
// patterns.ts; nothing here throws.
//
// Retry policy, deliberately:
// - network, timeout, HTTP 5xx (proxy pages, 500 HTML), 408 and 429: retryable — transport trouble.
//   Exception: TLS/certificate failures and malformed URLs, which no retry can fix.
// - faults: retryable only for soap:Server / soap:Receiver and HTTP GET/POST exception texts (ASMX's
//   equivalent of soap:Server) whose message is not a validation, quota or auth message. ASMX
//   reports transient trouble (a database timeout, a deadlock) exactly that way; a deterministic
//   server bug answers the same words every time, and the outbox stops after a few such answers in
//   a row (policy.ts). soap:Client/Sender faults and 200 results that read as errors are never
//   retried: the service answered deliberately.
// - refusals by ASP.NET before the operation runs — request validation on HTTP GET/POST, a GET
//   query over the length limit (400/414) — are rejected input: never retryable as sent, and they
//   carry `refusedBy` with the binding that takes the same call (the client uses it, see client.ts).
// - protocol errors: retryable when the body was empty, cut short or not XML (transport damage);
//   not when it was well-formed XML of the wrong shape (a wrong namespace or path in the profile).
// - invalid input, 3xx, and other 4xx: never.
//
// Size: every text that came from the service (or from a transport's error) is bounded here, where
// the error is built (bounded.ts): the sentence quotes at most a few hundred bytes, the detail holds
// the one excerpt support needs (head and tail, with the byte count), so a 7.9 MB error page costs a
// few KB in the outbox journal however often it is retried. The key is removed by the client
// (redact.ts) from every field of the error these builders return, after they cut and quote.
import type { CallError, InputIssue, ServiceRefusal } from './types';
import {
  ASMX_FAULT_PREFIX,
  DOTNET_EXCEPTION_TYPE,
  DOTNET_STACK_LINE,
  REQUEST_VALIDATION_PARAMETER,
  isAuthText,
  isQueryTooLongText,
  isQuotaText,
  isRequestValidationText,
  isValidationText,
} from './patterns';
import { boundText, HEADER_BYTES, quote, REASON_BYTES, SCAN_CHARS } from './bounded';
import { describeThrown } from './network-errors';
import { domainFieldOf } from './operations';
import { dangerousIndex, dangerousSnippet, MAX_QUERY_STRING_LENGTH } from '../../shared/aspnet';
import { labelFor } from '../../shared/validation/common';

export { redactError } from './redact';

/**
 * Budget for the whole detail of one error: the excerpts plus the status lines around them. Callers
 * bound the texts they pass (a fault's detail element) with room to spare, so their own "…[N bytes,
 * M not shown]…" survives here.
 */
const DETAIL_BYTES = 6 * 1024;

const QUOTA_SENTENCE = 'The account has no API calls left, so the service refused the request; nothing was changed. Ask the account owner to add API calls, then retry.';
const AUTH_SENTENCE = 'The service rejected the account ID or API key; nothing was changed. Check both in the profile (they are in the API section of the account settings).';

export function invalidInput(issues: InputIssue[]): CallError {
  const first = issues[0]?.message ?? 'The input is not valid.';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return {
    kind: 'invalid-input',
    issues,
    message: `${first}${more} Nothing was sent.`,
    detail: issues.map((issue) => (issue.field ? `${issue.field}: ${issue.message}` : issue.message)).join('\n'),
    retryable: false,
    quotaExhausted: false,
    authRejected: false,
  };
}

/**
 * The service's own message, as a technician should read it: the innermost exception message of an
 * ASMX chain ("Server was unable to process request. ---> System.X: text" → "text"), without the
 * .NET exception type and without stack lines.
 */
export function cleanServiceMessage(raw: string): { message: string; exceptionType: string | null } {
  const lines = raw.replace(/\r\n?/g, '\n').split('\n');
  const stackAt = lines.findIndex((line) => DOTNET_STACK_LINE.test(line));
  const head = (stackAt >= 0 ? lines.slice(0, stackAt) : lines).join(' ').replace(/\s+/g, ' ').trim();
  const segments = splitArrows(head).map((segment) => segment.trim()).filter((segment) => segment !== '');
  let message = segments.length > 0 ? segments[segments.length - 1]! : head;
  let exceptionType: string | null = null;
  const outerType = DOTNET_EXCEPTION_TYPE.exec(segments[0] ?? '');
  const typed = DOTNET_EXCEPTION_TYPE.exec(message);
  if (typed) {
    exceptionType = typed[1]!;
    message = message.slice(typed[0].length).trim();
  } else if (outerType) exceptionType = outerType[1]!;
  message = message.replace(ASMX_FAULT_PREFIX, '').trim();
  if (message === '' || ASMX_FAULT_PREFIX.test(`${message} --->`)) message = head.replace(ASMX_FAULT_PREFIX, '').trim();
  return { message, exceptionType };
}

/**
 * "A ---> B --> C" as ["A ", " B ", " C"], in linear time: a regular expression for "-+>" takes
 * quadratic time on a long run of dashes, which a hostile server can send.
 */
function splitArrows(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let at = text.indexOf('->', from); at !== -1; at = text.indexOf('->', from)) {
    let start = at;
    while (start > from && text.charCodeAt(start - 1) === 0x2d) start--;
    parts.push(text.slice(from, start));
    from = at + 2;
  }
  parts.push(text.slice(from));
  return parts;
}

export interface FaultFacts {
  /** Normalised code: 'soap:Client', 'soap:Server', 'soap:Sender', 'soap:Receiver', a .NET exception type, or 'result'. */
  code: string;
  /** The service's message (reason) as received, prefixes included. */
  reason: string;
  source: 'soap11' | 'soap12' | 'http-text' | 'result';
  /** Extra support facts: HTTP status, fault detail, subcodes. */
  detail: string;
  /** The reason comes from a body cut at the client's limit: what follows it was not read. */
  truncated?: boolean;
}

/** A fault, a 500 text/plain exception, or a 200 result that reads as an error. */
export function faultError(facts: FaultFacts): CallError {
  // The message, its exception type and its meaning are at the start of a text: reading only that
  // much keeps a megabyte reason from costing a megabyte of regular-expression work, or more.
  const scanned = facts.reason.length > SCAN_CHARS ? facts.reason.slice(0, SCAN_CHARS) : facts.reason;
  const { message: cleaned } = cleanServiceMessage(scanned);
  const said = boundText(cleaned, { maxBytes: REASON_BYTES });
  const spoken = said === '' ? 'no reason given' : quote(said);
  const refusedBy = isRequestValidationText(scanned) ? requestValidationRefusal(cleaned) : undefined;
  const quotaExhausted = !refusedBy && isQuotaText(scanned);
  const authRejected = !refusedBy && !quotaExhausted && isAuthText(scanned);
  const validation = isValidationText(scanned);
  // SOAP 1.1 allows dotted refinements ("soap:Server.Database"), hence the prefix test.
  const serverSide = facts.source === 'http-text' || /^soap:(?:Server|Receiver)\b/.test(facts.code);
  const retryable = !refusedBy && facts.source !== 'result' && serverSide && !validation && !quotaExhausted && !authRejected;
  let message: string;
  if (refusedBy) message = `${requestValidationSentence(refusedBy)} The service said: "${spoken}"`;
  else if (quotaExhausted) message = `${QUOTA_SENTENCE} The service said: "${spoken}"`;
  else if (authRejected) message = `${AUTH_SENTENCE} The service said: "${spoken}"`;
  else if (retryable) message = `The service could not process the request and may manage on a later try; nothing is known to have changed. The service said: "${spoken}"`;
  else if (facts.source === 'result') message = `The service answered with an error: "${spoken}"`;
  else message = `The service refused the request: "${spoken}"`;
  const code = quote(facts.code, HEADER_BYTES);
  const detail = boundText(
    [`fault (${facts.source}) code ${code}`, `reason: ${boundText(facts.reason, { cut: facts.truncated === true })}`, boundText(facts.detail, { maxBytes: DETAIL_BYTES / 2 })].filter((line) => line !== '').join('\n'),
    { maxBytes: DETAIL_BYTES },
  );
  const error: CallError = { kind: 'fault', code, reason: said, source: facts.source, message, detail, retryable, quotaExhausted, authRejected };
  if (refusedBy) error.refusedBy = refusedBy;
  return error;
}

/** What a request-validation message says: the parameter it names and the markup-like text in the value shown. */
function requestValidationRefusal(message: string): ServiceRefusal {
  const named = REQUEST_VALIDATION_PARAMETER.exec(message);
  const parameter = named?.[1] ?? null;
  const shown = named ? message.slice(named.index + named[0].length) : '';
  const at = dangerousIndex(shown);
  return {
    rule: 'request-validation',
    parameter,
    field: parameter === null ? null : domainFieldOf(parameter),
    trigger: at >= 0 ? dangerousSnippet(shown, at) : '',
    carrier: 'soap11',
  };
}

/** The sentence for a request-validation refusal: what was refused, that nothing happened, and what carries it. */
export function requestValidationSentence(refusal: ServiceRefusal): string {
  const what = refusal.field ? `the ${labelFor(refusal.field).toLowerCase()}` : refusal.parameter ? `parameter ${quote(refusal.parameter, 100)}` : 'a value';
  const has = refusal.trigger ? ` (it has "${refusal.trigger}")` : '';
  return (
    `The service's ASP.NET request validation refused ${what}${has} before the operation ran: HTTP GET and POST may not carry a "<" ` +
    'followed by a letter, "!", "/" or "?", or "&#". Nothing was changed and no API call was used; sending it again the same way fails again. ' +
    'SOAP 1.1 carries such text: let the profile use SOAP 1.1 when needed, or change the text.'
  );
}

const QUERY_TOO_LONG_SENTENCE =
  `The service refused the request because its query string is too long for HTTP GET (ASP.NET takes ${new Intl.NumberFormat('en-US').format(MAX_QUERY_STRING_LENGTH)} characters). ` +
  'Nothing was changed and no API call was used; sending it again the same way fails again. HTTP POST carries it: let the profile use HTTP POST when needed, or shorten the text.';

export interface HttpFacts {
  status: number;
  statusText: string;
  contentType: string;
  body: string;
  /** Location header of a redirect, if any. */
  location?: string | null;
  /** The endpoint called, without query (never the key). */
  endpoint: string;
  /** The body is the first part of a longer one that was not read to the end. */
  truncated?: boolean;
  /** The Retry-After and Date headers, as sent (IIS's 503 of a site taken offline, a gateway's 429). */
  retryAfter?: string | null;
  date?: string | null;
}

/** The longest wait a Retry-After is taken at: a server asking for more is asked again after this. */
export const RETRY_AFTER_MAX_MS = 15 * 60_000;

/**
 * How long an answer asks to be left alone, from its Retry-After (RFC 9110 §10.2.3): whole seconds (the
 * first, when a repeated header joined them: "120, 120"), or an HTTP-date read against the answer's own
 * Date (the server's clock against itself, so this computer's clock and time zone do not matter); at
 * most RETRY_AFTER_MAX_MS. Undefined when absent or unreadable, or a date with no Date to read it by.
 */
export function retryAfterMs(value: string | null | undefined, date: string | null | undefined): number | undefined {
  const text = value?.trim() ?? '';
  const seconds = /^(\d+)\s*(?:,\s*\d+\s*)*$/.exec(text);
  if (seconds) return Math.min(Number(seconds[1]) * 1000, RETRY_AFTER_MAX_MS);
  // An HTTP-date names its day and time of day ("Wed, 25 Nov 2026 10:05:00 GMT"), not just numbers.
  if (!/[A-Za-z]/.test(text) || !/\d{1,2}:\d{2}:\d{2}/.test(text)) return undefined;
  const [at, sent] = [httpDate(text), httpDate(date ?? '')];
  if (Number.isNaN(at) || Number.isNaN(sent)) return undefined;
  return Math.min(Math.max(0, at - sent), RETRY_AFTER_MAX_MS);
}

/** An HTTP-date's instant. Every form is GMT, but asctime's ("Sun Nov  6 08:49:37 1994") says no zone, which Date.parse reads as local time. */
function httpDate(text: string): number {
  const trimmed = text.trim();
  return Date.parse(/\b(?:GMT|UTC|UT)\b|[+-]\d{4}$/.test(trimmed) ? trimmed : `${trimmed} GMT`);
}

/** Any non-2xx answer that is not a fault: proxy pages, 404, redirects, empty bodies. */
export function httpError(facts: HttpFacts): CallError {
  const { status } = facts;
  const statusLine = `HTTP ${status}${facts.statusText ? ` ${quote(facts.statusText, 120)}` : ''}`;
  const title = htmlTitle(facts.body);
  const shown = excerpt(facts.body, facts.truncated);
  const bodyText = facts.body.trim() === '' ? '(empty body)' : shown;
  const contentType = quote(facts.contentType, HEADER_BYTES);
  let message: string;
  let retryable = false;
  let quotaExhausted = false;
  let authRejected = false;
  let refusedBy: ServiceRefusal | undefined;
  if ((status >= 300 && status < 400) || status === 0) {
    const target = facts.location ? ` to ${quote(stripQuery(facts.location), HEADER_BYTES)}` : '';
    message =
      `The service redirected the request (${statusLine}${target}), probably to a login page: the network may need a sign-in ` +
      '(hotel, guest or captive-portal Wi-Fi), or the base URL in the profile is wrong. Nothing was sent to the service.';
  } else if (status === 502 || status === 503 || status === 504) {
    retryable = true;
    const what = status === 503 ? 'is unavailable for now' : status === 504 ? 'did not answer a gateway in time' : 'could not be reached by a gateway';
    message = `The service ${what} (${statusLine}). It will be tried again later.`;
  } else if (status >= 500) {
    retryable = true;
    message = `The service had an internal error (${statusLine}). It will be tried again later.`;
  } else if (status === 414 || ((status === 400 || status === 404) && isQueryTooLongText(facts.body.slice(0, SCAN_CHARS)))) {
    // ASP.NET's maxQueryStringLength (400, a "Runtime Error" page) or IIS request filtering (404.15, 414).
    message = `${QUERY_TOO_LONG_SENTENCE} (${statusLine})`;
    refusedBy = { rule: 'query-length', parameter: null, field: null, trigger: '', carrier: 'http-post' };
  } else if (status === 404 || status === 410) {
    message = `The service address was not found (${statusLine}): check the base URL and service path in the profile.`;
  } else if (status === 405) {
    message = `The service does not accept this kind of request (${statusLine}): check the binding and service path in the profile.`;
  } else if (status === 408 || status === 429) {
    retryable = true;
    quotaExhausted = status === 429 && isQuotaText(facts.body.slice(0, SCAN_CHARS));
    message =
      status === 429
        ? quotaExhausted
          ? `${QUOTA_SENTENCE} (${statusLine})`
          : `The service is receiving too many requests (${statusLine}). It will be tried again later.`
        : `The service gave up waiting for the request (${statusLine}). It will be tried again later.`;
    if (quotaExhausted) retryable = false;
  } else if (status === 401 || status === 403 || status === 407) {
    authRejected = status !== 407 && isAuthText(facts.body.slice(0, SCAN_CHARS));
    message = authRejected
      ? `${AUTH_SENTENCE} (${statusLine})`
      : status === 407
        ? `A proxy between this computer and the service wants a sign-in (${statusLine}). Check the system proxy settings.`
        : `Access to the service was refused (${statusLine}). Check the base URL, and whether this network blocks the service.`;
  } else {
    message = `The service answered with an unexpected error (${statusLine}).`;
  }
  const detail = [
    `${statusLine} from ${facts.endpoint}`,
    `content-type: ${contentType || '(none)'}`,
    facts.location ? `location: ${boundText(facts.location, { maxBytes: HEADER_BYTES * 2 })}` : '',
    title ? `page title: ${title}` : '',
    `body: ${bodyText}`,
  ]
    .filter((line) => line !== '')
    .join('\n');
  const error: CallError = { kind: 'http', status, contentType, body: shown, message, detail, retryable, quotaExhausted, authRejected };
  if (refusedBy) error.refusedBy = refusedBy;
  const wait = retryable ? retryAfterMs(facts.retryAfter, facts.date) : undefined;
  if (wait !== undefined) error.retryAfterMs = wait;
  return error;
}

export interface ProtocolFacts {
  /** What was wrong, for support ("the XML ends before <string> is closed"). */
  reason: string;
  body: string;
  status: number;
  contentType: string;
  /** True when the body looks damaged in transit rather than of the wrong shape. */
  damaged: boolean;
  endpoint: string;
  /** The body is the first part of a longer one that was not read to the end. */
  truncated?: boolean;
}

/** A 2xx answer whose body is not the expected shape. */
export function protocolError(facts: ProtocolFacts): CallError {
  const title = htmlTitle(facts.body);
  const looksLikePage = /^\s*(?:<!doctype html|<html)/i.test(facts.body.slice(0, 256)) || /text\/html/i.test(facts.contentType);
  const shown = excerpt(facts.body, facts.truncated);
  const message = looksLikePage
    ? `The answer was a web page, not the service's reply${title ? ` ("${title}")` : ''}: the network may need a sign-in (captive-portal Wi-Fi), or the base URL in the profile is wrong. The request may have been applied.`
    : facts.damaged
      ? 'The service\'s answer arrived incomplete or unreadable, so it is unknown whether the request was applied. It can be tried again.'
      : `The service's answer did not have the expected form (${quote(facts.reason)}); check the profile's service path and namespace. The request may have been applied.`;
  const detail = [
    `HTTP ${facts.status} from ${facts.endpoint}`,
    `content-type: ${quote(facts.contentType, HEADER_BYTES) || '(none)'}`,
    `problem: ${boundText(facts.reason, { maxBytes: REASON_BYTES })}`,
    `body: ${facts.body.trim() === '' ? '(empty body)' : shown}`,
  ].join('\n');
  return {
    kind: 'protocol',
    body: shown,
    message,
    detail,
    retryable: facts.damaged && !looksLikePage,
    quotaExhausted: false,
    authRejected: false,
  };
}

export function timeoutError(timeoutMs: number, endpoint: string): CallError {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  return {
    kind: 'timeout',
    timeoutMs,
    message: `No answer from the service within ${seconds}. The request may still have been applied; it is not known.`,
    detail: `no complete answer from ${endpoint} within ${timeoutMs} ms (request aborted)`,
    retryable: true,
    quotaExhausted: false,
    authRejected: false,
  };
}

/** The caller cancelled the call (its AbortSignal fired). */
export function cancelledError(sent: 'no' | 'maybe', endpoint: string, reason: unknown): CallError {
  return {
    kind: 'network',
    sent,
    code: 'ABORTED',
    message:
      sent === 'no'
        ? 'The call was cancelled before anything was sent.'
        : 'The call was cancelled while waiting for the service; the request may have been applied.',
    detail: `cancelled by the caller during the call to ${endpoint}${reason !== undefined ? `: ${boundText(describeThrown(reason), { maxBytes: HEADER_BYTES * 2 })}` : ''}`,
    retryable: true,
    quotaExhausted: false,
    authRejected: false,
  };
}

// ---------- helpers ----------

/** The service text support sees in a detail: all of it when short, else head and tail (bounded.ts). */
export function excerpt(body: string, truncated = false): string {
  return boundText(body, { cut: truncated });
}

export function htmlTitle(body: string): string | null {
  // A title is in the head of a page; a bounded window keeps a hostile body from costing more.
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body.length > SCAN_CHARS ? body.slice(0, SCAN_CHARS) : body);
  if (!match) return null;
  const title = match[1]!.replace(/\s+/g, ' ').trim();
  return title === '' ? null : quote(title, 200);
}

export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut >= 0 ? url.slice(0, cut) : url;
}
