// The service client: one call = validate, build the binding's request, send it once through the
// injected fetch-compatible transport (node-transport.ts — undici, the engine of Node's fetch — by
// default; Electron's net.fetch in the app), read the answer, interpret it. Invariants: it never
// throws and never retries (the outbox owns retries, because only it knows whether resending is
// harmless); every failure says whether the request may have reached the service; the API key is
// read per call and never appears in an error: it is removed from the answer's text before anything
// reads it and from every field of the error returned (redact.ts).
// Bounded: a success is read up to MAX_BODY_BYTES, a failure up to MAX_ERROR_BODY_BYTES (the rest is
// not read: the stream is cancelled); the XML parser refuses more structure than the operation can
// return; the error keeps a few KB of the service's text (bounded.ts).
// Keep-alive is the transport's: undici and net.fetch pool connections per origin (see
// network-errors.ts for the stale keep-alive race, and idle-connections.ts for how it is avoided).
// Binding fallback (on unless the profile says otherwise; never for callRaw): the service's ASP.NET
// front refuses some HTTP GET/POST requests before the operation runs — a value that looks like
// markup (request validation), a GET query over 2,048 characters — though SOAP bodies are never
// checked. Such a call is checked before it leaves (shared/aspnet.ts) and sent over SOAP 1.1 (or HTTP
// POST, for a GET that is only too long) at the same endpoint; an answer that shows such a refusal
// anyway (a service with stricter settings) is sent once more the same way, which is safe because
// nothing ran. Either way the result says which binding carried the call and why (carriedBy).
import type {
  Binding,
  CarriedBy,
  CallError,
  CallOptions,
  CallResult,
  ClientOptions,
  Credentials,
  Connection,
  EusReprocess,
  Transport,
  TransportResponse,
  Operation,
  RawResult,
  RenderingQuality,
  ReprocessResult,
  ServiceClient,
  ServiceRefusal,
  SiteEdit,
  SiteResult,
} from './types';
import { OPERATIONS } from './types';
import type { Answer, BindingCodec, WireRequest } from './codec';
import type { XmlElement } from './xml';
import { httpGet } from './http-get';
import { httpPost } from './http-post';
import { soap11 } from './soap11';
import { soap12 } from './soap12';
import { CREDENTIAL_PARAMETERS, domainFieldOf, eusParams, rawParams, renderingListParams, siteParams, type WireParams } from './operations';
import { BINDING_NAMES, describeRefusal, formEncodeParams, isFormBinding, predictRefusal, type AspNetRefusal } from '../../shared/aspnet';
import { labelFor, type ValidationResult } from '../../shared/validation/common';
import { cancelledError, invalidInput, protocolError, stripQuery, timeoutError } from './errors';
import { describeThrown, errorCode, networkError } from './network-errors';
import { releaseDeadline, watchDeadline, type CallStop } from './deadline';
import { createRedactor, redactError, type Redactor } from './redact';
import { interpretRenderingList, interpretReprocessResult, interpretSiteResult, resultError, resultText, withCarrier } from './interpret';
import { parseEusReprocess } from '../../shared/validation/eus';
import { parseSiteEdit } from '../../shared/validation/site';
import { nodeTransport } from './node-transport';
import { checkConnection, checkCredentials, rawParamIssues, unsendable } from './checks';
import { decodeBody, readBody } from './body';

export const CODECS: Readonly<Record<Binding, BindingCodec>> = {
  'http-post': httpPost,
  'http-get': httpGet,
  soap11,
  soap12,
};

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Answers larger than this are not read to the end: no response of this service comes close. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * A failure (any non-2xx answer) is read up to this much: its text only explains the failure, and
 * an error page or a fault's dump past it is noise that would end up in the outbox journal.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

type Exchanged = { ok: true; element: XmlElement | null; answer: Answer } | { ok: false; error: CallError };

/** An exchange's outcome, with the key (for redaction) and the binding that carried it when not the profile's. */
type Exchange = Exchanged & { key: string; carriedBy?: CarriedBy };

export function createServiceClient(options: ClientOptions): ServiceClient {
  const connection: Readonly<Connection> = Object.freeze({ ...options.connection });
  const transport: Transport = options.fetch ?? nodeTransport;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fallbackAllowed = options.bindingFallback !== false;
  const ownTimeouts = transport.ownTimeouts === true;
  // The endpoint (URL without query, safe to show) and host of each URL called, worked out once:
  // a client calls a handful of endpoints (one per binding and operation), a GET with its query.
  const endpoints = new Map<string, { endpoint: string; host: string }>();
  const endpointOf = (url: string): { endpoint: string; host: string } => {
    const endpoint = stripQuery(url);
    let known = endpoints.get(endpoint);
    if (known === undefined) {
      known = { endpoint, host: hostOf(endpoint) };
      if (endpoints.size < 64) endpoints.set(endpoint, known);
    }
    return known;
  };
  // The connection is frozen: checked once, reported on every call.
  const connectionIssues = checkConnection(connection);
  // The key rarely changes between calls; its pattern is worth keeping.
  let lastRedactor: { key: string; redact: Redactor } | null = null;
  const redactorFor = (key: string): Redactor => {
    if (lastRedactor?.key !== key) lastRedactor = { key, redact: createRedactor([key]) };
    return lastRedactor.redact;
  };

  /**
   * Credentials, the connection and the parameters checked; then one request over the profile's
   * binding, its answer read — or over the binding that carries it when ASP.NET would refuse it
   * (`fallback`, see the header).
   */
  async function exchange(
    operation: Operation,
    paramsFor: (credentials: Credentials) => WireParams | CallError,
    strictCredentials: boolean,
    callOptions: CallOptions | undefined,
    fallback: boolean,
  ): Promise<Exchange> {
    if (connectionIssues.length > 0) return { ok: false, error: invalidInput(connectionIssues), key: '' };

    let credentials: Credentials;
    try {
      credentials = await options.credentials();
    } catch (error) {
      return {
        ok: false,
        key: '',
        error: invalidInput([{ field: 'key', message: `The API key could not be read (${describeThrown(error)}); check the profile.` }]),
      };
    }
    const key = typeof credentials?.key === 'string' ? credentials.key : '';
    const account = typeof credentials?.account === 'string' ? credentials.account : '';
    const credentialIssues = checkCredentials({ account, key }, strictCredentials);
    if (credentialIssues.length > 0) return { ok: false, error: invalidInput(credentialIssues), key };

    const params = paramsFor({ account: strictCredentials ? account.trim() : account, key: strictCredentials ? key.trim() : key });
    if (!Array.isArray(params)) return { ok: false, error: params as CallError, key };
    const wire = params as WireParams;
    const paramIssues = unsendable(wire);
    if (paramIssues.length > 0) return { ok: false, error: invalidInput(paramIssues), key };

    const asked = connection.binding;
    const redact = redactorFor(key);
    // Refused before it would run: it goes straight over the binding that takes it.
    const predicted = fallback ? predictRefusal(asked, wire) : null;
    if (predicted) return { ...(await carry(operation, wire, predicted, callOptions, redact)), key };

    const codec = CODECS[asked];
    const result = await send(codec.build(operation, wire, connection), operation, codec, callOptions, redact);
    const refused = result.ok ? undefined : result.error.refusedBy;
    if (fallback && refused && isFormBinding(asked) && refused.carrier !== asked && (refused.rule === 'request-validation' || asked === 'http-get')) {
      // ASP.NET refused it before the operation ran, by a rule stricter than ours: nothing happened,
      // so sending it once over the binding that takes it is safe, even for a create.
      const refusal: AspNetRefusal = refused.rule === 'query-length' ? { ...refused, trigger: String(formEncodeParams(wire).length) } : refused;
      return { ...(await carry(operation, wire, refusal, callOptions, redact)), key };
    }
    return { ...result, key };
  }

  /** One call over the binding that takes what ASP.NET refuses over the profile's; the outcome says so. */
  async function carry(operation: Operation, params: WireParams, refusal: AspNetRefusal, callOptions: CallOptions | undefined, redact: Redactor): Promise<Exchanged & { carriedBy: CarriedBy }> {
    const asked = connection.binding;
    const carriedBy: CarriedBy = {
      binding: refusal.carrier,
      instead: asked,
      reason: refusal.rule,
      message: `Sent over ${BINDING_NAMES[refusal.carrier]} instead of ${BINDING_NAMES[asked]}. ${describeRefusal(refusalForPeople(refusal), asked, refusalLabel(refusal))}.`,
    };
    const codec = CODECS[refusal.carrier];
    const result = await send(codec.build(operation, params, connection), operation, codec, callOptions, redact);
    if (!result.ok) return { ok: false, error: { ...result.error, carriedBy }, carriedBy };
    return { ...result, carriedBy };
  }

  async function send(
    request: WireRequest,
    operation: Operation,
    codec: BindingCodec,
    callOptions: CallOptions | undefined,
    redact: Redactor,
  ): Promise<Exchanged> {
    const { endpoint, host } = endpointOf(request.url);
    const timeoutMs = callOptions?.timeoutMs ?? defaultTimeoutMs;
    const callerSignal = callOptions?.signal;
    if (callerSignal?.aborted) return { ok: false, error: cancelledError('no', endpoint, callerSignal.reason) };
    // The time limit and the caller's cancel in one stop, watched by the shared deadline timer
    // (deadline.ts): no timer nor AbortController of its own (AbortSignal.any is slow on Node 20).
    const stop = watchDeadline(timeoutMs);
    const onCancel = () => stop.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCancel, { once: true });
    try {
      return await exchangeOnce(request, operation, codec, stop, callerSignal, endpoint, host, redact);
    } finally {
      releaseDeadline(stop);
      callerSignal?.removeEventListener('abort', onCancel);
    }
  }

  async function exchangeOnce(
    request: WireRequest,
    operation: Operation,
    codec: BindingCodec,
    stop: CallStop,
    callerSignal: AbortSignal | undefined,
    endpoint: string,
    host: string,
    redact: Redactor,
  ): Promise<Exchanged> {
    const stopped = (cause: unknown): CallError | null => {
      // The deadline expired; undici's own timers are a backstop a second later (node-transport.ts).
      if (stop.expired || (ownTimeouts && UNDICI_TIMEOUTS.has(errorCode(cause)))) return timeoutError(stop.timeoutMs, endpoint);
      if (callerSignal?.aborted) return cancelledError('maybe', endpoint, callerSignal.reason ?? cause);
      return null;
    };
    const signal = ownTimeouts ? (stop as unknown as AbortSignal) : stop.linkedSignal();

    let response: TransportResponse;
    try {
      response = await transport(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // A 3xx is never followed: ASMX does not redirect, so a redirect means a login page or a
        // wrong URL, and following it would resend (or silently drop) the request.
        redirect: 'manual',
        signal,
        ...(ownTimeouts ? { timeoutMs: stop.timeoutMs } : {}),
      });
    } catch (error) {
      return { ok: false, error: stopped(error) ?? networkError(error, endpoint, host) };
    }

    const contentType = response.headers.get('content-type') ?? '';
    const success = response.status >= 200 && response.status < 300;
    const limit = success ? MAX_BODY_BYTES : MAX_ERROR_BODY_BYTES;
    const read = await readBody(response, stop, limit);
    // A success must decode exactly: a replacement character silently put in a result would be
    // taken for the service's words. A failure's text only explains it, so it is read leniently.
    const decodedBody = decodeBody(read.bytes, contentType, success && read.failure === undefined && !read.tooLarge);
    // The body is not redacted whole (on a multi-MB body that pass cost more than the rest of the
    // call): only what is kept or shown is. The codec removes the key from every value it parses
    // (the results), and every error leaves through finish(), which removes it from every field —
    // the excerpt, the message, the detail — after they are cut, so no cut or collapse can hide it.
    const text = decodedBody.text;
    if (read.failure !== undefined) {
      const halted = stopped(read.failure);
      if (halted) return { ok: false, error: halted };
      if (success) {
        return {
          ok: false,
          error: protocolError({
            reason: `the connection broke while the answer was read (${describeThrown(read.failure)})`,
            body: text,
            status: response.status,
            contentType,
            damaged: true,
            endpoint,
          }),
        };
      }
      // A failure status is already known; what arrived of its body is enough to classify it.
    }
    if (read.tooLarge && success) {
      return {
        ok: false,
        error: protocolError({ reason: `the answer is larger than ${MAX_BODY_BYTES} bytes`, body: text, status: response.status, contentType, damaged: false, endpoint, truncated: true }),
      };
    }
    if (decodedBody.invalid !== undefined) {
      return {
        ok: false,
        error: protocolError({ reason: decodedBody.invalid, body: text, status: response.status, contentType, damaged: true, endpoint }),
      };
    }
    const answer: Answer = {
      // Browsers' fetch reports a manual redirect as an opaque response with status 0.
      status: response.type === 'opaqueredirect' ? 0 : response.status,
      statusText: redact(response.statusText ?? ''),
      contentType,
      body: text,
      redact,
      location: redactOrNull(response.headers.get('location'), redact),
      retryAfter: response.headers.get('retry-after'),
      date: response.headers.get('date'),
      endpoint,
      truncated: read.tooLarge,
    };
    const decoded = codec.read(operation, answer, connection);
    if (!decoded.ok) return decoded;
    return { ok: true, element: decoded.element, answer };
  }

  /** Every error leaves with the key removed from every field, whatever built it. */
  function finish<T>(result: CallResult<T>, key: string): CallResult<T> {
    if (result.ok) return result;
    return { ok: false, error: redactError(result.error, redactorFor(key)) };
  }

  /** A write (a site, an EUS reprocess): the request checked, sent, and its result text interpreted. */
  async function write<V, T extends object>(
    operation: Operation,
    checked: ValidationResult<V>,
    paramsFor: (value: V, credentials: Credentials) => WireParams,
    interpret: (text: string, value: V) => CallResult<T>,
    callOptions: CallOptions | undefined,
  ): Promise<CallResult<T>> {
    if (!checked.ok) return { ok: false, error: invalidInput(checked.issues) };
    const value = checked.value;
    const exchanged = await exchange(operation, (credentials) => paramsFor(value, credentials), true, callOptions, fallbackAllowed);
    if (!exchanged.ok) return finish(exchanged, exchanged.key);
    const text = resultText(exchanged.element, exchanged.answer);
    if (!text.ok) return finish(withCarrier(text, exchanged.carriedBy), exchanged.key);
    return finish(withCarrier(interpret(text.value, value), exchanged.carriedBy), exchanged.key);
  }

  return {
    connection,

    async saveSite(edit: SiteEdit, callOptions?: CallOptions): Promise<CallResult<SiteResult>> {
      // Validated again here: the outbox may hold entries written by an older version.
      return write('SitesAPI', parseSiteEdit(edit), siteParams, interpretSiteResult, callOptions);
    },

    async listRenderingQualities(callOptions?: CallOptions): Promise<CallResult<RenderingQuality[]>> {
      const exchanged = await exchange('GetRenderingQualityList', renderingListParams, true, callOptions, fallbackAllowed);
      if (!exchanged.ok) return finish(exchanged, exchanged.key);
      return finish(interpretRenderingList(exchanged.element, exchanged.answer, connection.namespace), exchanged.key);
    },

    async reprocessEus(request: EusReprocess, callOptions?: CallOptions): Promise<CallResult<ReprocessResult>> {
      return write('EusReprocessAPI', parseEusReprocess(request), eusParams, interpretReprocessResult, callOptions);
    },

    async callRaw(operation: Operation, params: Record<string, string>, callOptions?: CallOptions): Promise<CallResult<RawResult>> {
      if (!OPERATIONS.includes(operation)) {
        return {
          ok: false,
          error: invalidInput([{ field: 'operation', message: `Unknown operation "${String(operation)}"; it must be one of ${OPERATIONS.join(', ')}.` }]),
        };
      }
      const exchanged = await exchange(
        operation,
        (credentials) => {
          const checked = rawParams(operation, params, credentials);
          if (checked.ok) return checked.params;
          return invalidInput(rawParamIssues(operation, checked.unknown, checked.credentials));
        },
        // Raw calls send what support typed, blank credentials included, to reproduce the service's answer.
        false,
        callOptions,
        // …over the binding asked, whatever ASP.NET makes of it.
        false,
      );
      if (!exchanged.ok) return finish(exchanged, exchanged.key);
      if (operation === 'GetRenderingQualityList') {
        const list = interpretRenderingList(exchanged.element, exchanged.answer, connection.namespace);
        return finish(list.ok ? { ok: true, value: { operation, result: list.value } } : list, exchanged.key);
      }
      const text = resultText(exchanged.element, exchanged.answer);
      if (!text.ok) return finish(text, exchanged.key);
      const error = resultError(text.value);
      if (error) return finish({ ok: false, error }, exchanged.key);
      return { ok: true, value: { operation, result: text.value } };
    },
  };
}

/** A refusal as it may be told: what trips request validation in a credential is never quoted back. */
function refusalForPeople(refusal: AspNetRefusal): AspNetRefusal {
  return refusal.parameter !== null && CREDENTIAL_PARAMETERS.includes(refusal.parameter) ? { ...refusal, trigger: '' } : refusal;
}

/** "the site name", "the description"… for the parameter a refusal names. */
function refusalLabel(refusal: AspNetRefusal | ServiceRefusal): string | null {
  if (refusal.parameter === null) return null;
  const field = domainFieldOf(refusal.parameter);
  return field ? `the ${labelFor(field).toLowerCase()}` : `parameter ${refusal.parameter}`;
}

function redactOrNull(text: string | null, redact: Redactor): string | null {
  return text === null ? null : redact(text);
}

/** The host a URL names, for messages; the URL itself when it cannot be parsed. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** undici's header and body timers (node-transport.ts hands them the call's time limit). */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
