// The contract of the wire layer: what a caller (outbox, CLI, hosts) gives the service client and
// what it gets back. Domain words only (siteId, pinStyle, sendEmail, multiMapId); the spec's
// parameter names (Siteid, Pinstyle, emailsend…) appear in the request builders alone.
// Every call resolves to a CallResult: the client never throws for anything the network or the
// service can do.

import type { Connection, EusReprocess, InputIssue, RenderingQuality, SiteEdit } from '../../shared/domain';
import type { AspNetRefusal, CarriedBy } from '../../shared/aspnet';

export type { AspNetRefusal, CarriedBy } from '../../shared/aspnet';

export { BINDINGS, REAL_SERVICE } from '../../shared/domain';
export type { Binding, Connection, EusReprocess, InputIssue, PinStyle, RenderingQuality, SiteEdit } from '../../shared/domain';

export type Operation = 'SitesAPI' | 'GetRenderingQualityList' | 'EusReprocessAPI';
export const OPERATIONS: readonly Operation[] = ['SitesAPI', 'GetRenderingQualityList', 'EusReprocessAPI'];

export interface Credentials {
  account: string;
  key: string;
}

export interface SiteResult {
  /** The service's site ID when the result text is one (a create), else the edited site's ID or null. */
  siteId: string | null;
  /** The result text as a sentence to show. */
  message: string;
  /** The result text exactly as received. */
  raw: string;
  /** Present when the call went over another binding than the profile's (see ServiceRefusal). */
  carriedBy?: CarriedBy;
}

export interface ReprocessResult {
  message: string;
  raw: string;
  carriedBy?: CarriedBy;
}

/** A refusal by the service's ASP.NET front (request validation, query length), with the domain field it names. */
export interface ServiceRefusal extends AspNetRefusal {
  /** The domain field of `parameter` (name, description…), or null. */
  field: string | null;
}

interface ErrorFaces {
  /** A sentence a field technician understands. */
  message: string;
  /** What a support engineer needs: status, codes, body excerpt, cause. */
  detail: string;
  /** Sending the same request again may succeed (transport trouble, 5xx, timeout). */
  retryable: boolean;
  /** The service said the account has no API calls left. */
  quotaExhausted: boolean;
  /** The service rejected the account ID or API key. */
  authRejected: boolean;
  /**
   * The service's ASP.NET front refused the request before the operation ran (nothing changed, no
   * API call used): request validation on HTTP GET/POST, or a GET query over its length limit.
   * Rejected input: never retryable as it is; `carrier` is the binding that takes it.
   */
  refusedBy?: ServiceRefusal;
  /** The call went over another binding than the profile's (the error is that binding's answer). */
  carriedBy?: CarriedBy;
}

/** What an http error holds besides its faces. */
interface HttpErrorFields {
  kind: 'http';
  status: number;
  contentType: string;
  body: string;
  /** How long a retryable answer asked to be left alone (its Retry-After), at most RETRY_AFTER_MAX_MS. */
  retryAfterMs?: number;
}

export type CallError =
  /** Rejected before sending: nothing left the machine. */
  | (ErrorFaces & { kind: 'invalid-input'; issues: InputIssue[] })
  /** A SOAP fault, or an HTTP GET/POST 500 text/plain exception message, or a 200 result that reads as an error. */
  | (ErrorFaces & { kind: 'fault'; code: string; reason: string; source: 'soap11' | 'soap12' | 'http-text' | 'result' })
  /** Any other non-2xx answer (proxy pages, 404, redirects to a login page…). */
  | (ErrorFaces & HttpErrorFields)
  /** A 2xx whose body we cannot read as the expected shape. */
  | (ErrorFaces & { kind: 'protocol'; body: string })
  /** The connection failed. sent='no': the service cannot have seen it; 'maybe': it might have. */
  | (ErrorFaces & { kind: 'network'; sent: 'no' | 'maybe'; code: string })
  /** No answer within the time limit after the request left: it may have been applied. */
  | (ErrorFaces & { kind: 'timeout'; timeoutMs: number });

export type CallErrorKind = CallError['kind'];

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: CallError };

/** Whether a failed request may have been applied by the service. */
export function mayHaveBeenApplied(error: CallError): boolean {
  switch (error.kind) {
    case 'invalid-input':
    case 'fault':
      return false;
    case 'network':
      return error.sent === 'maybe';
    case 'timeout':
      return true;
    case 'http':
      // A gateway error (502/504) can come after the service applied the call.
      return error.status >= 500;
    case 'protocol':
      return true;
  }
}

/** The fetch-compatible transport: Node's fetch, Electron's net.fetch, or a test double. */
/**
 * What the client reads of an answer: the part of a fetch Response it uses, so a Response from
 * Node's fetch or Electron's net.fetch fits, and so does node-transport's lighter undici answer.
 */
export interface TransportResponse {
  status: number;
  statusText: string;
  /** 'opaqueredirect' when a browser's fetch stopped at a redirect. */
  type?: string;
  headers: { get(name: string): string | null };
  /** A web ReadableStream (fetch) or a Node stream (undici's request API). */
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * What the client hands a transport: a fetch RequestInit, plus the call's time limit for a transport
 * that enforces it itself (`ownTimeouts`; a fetch ignores the field).
 */
export type TransportInit = RequestInit & { timeoutMs?: number };

/** What the client sends through: any FetchLike (Node's fetch, Electron's net.fetch) or node-transport.ts. */
export type Transport = ((url: string, init: TransportInit) => Promise<TransportResponse>) & {
  /**
   * node-transport.ts: the signal may be the client's light CallStop (deadline.ts) rather than an
   * AbortSignal, and `timeoutMs` bounds the wait for headers and between body chunks (undici's own
   * timers). Any other transport gets a real AbortSignal.
   */
  readonly ownTimeouts?: true;
};

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RawResult {
  operation: Operation;
  /** Parsed result: a string for SitesAPI/EusReprocessAPI, a list for GetRenderingQualityList. */
  result: string | RenderingQuality[];
}

export interface ServiceClient {
  readonly connection: Readonly<Connection>;
  saveSite(edit: SiteEdit, options?: CallOptions): Promise<CallResult<SiteResult>>;
  listRenderingQualities(options?: CallOptions): Promise<CallResult<RenderingQuality[]>>;
  reprocessEus(request: EusReprocess, options?: CallOptions): Promise<CallResult<ReprocessResult>>;
  /** One call with the spec's parameter names as given (for `sitewalk call`); missing ones are sent empty. */
  callRaw(operation: Operation, params: Record<string, string>, options?: CallOptions): Promise<CallResult<RawResult>>;
}

export interface ClientOptions {
  connection: Connection;
  /** Asked for on every call, so a key change takes effect at once and the key is never stored here. */
  credentials: () => Credentials | Promise<Credentials>;
  /** The transport: node-transport.ts (undici) by default; a FetchLike such as Electron's net.fetch fits too. */
  fetch?: Transport;
  /** Per call, default 30 s. */
  timeoutMs?: number;
  /**
   * When a call over HTTP GET/POST would be refused by the service's ASP.NET front (request
   * validation, a GET query over 2,048 characters), send that one call over SOAP 1.1 (or HTTP POST
   * for a GET that is only too long) at the same endpoint, and say so in the result (default true).
   * Off: the call goes as asked and the refusal comes back as rejected input. callRaw never does it.
   */
  bindingFallback?: boolean;
}
