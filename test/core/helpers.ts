// Shared pieces of the core's unit tests: a scripted stand-in for the service client (units only:
// the integration and crash tests use the real client against the sandbox) and builders for the real
// CallErrors the client produces. Temp folders, sandboxes and cores are fixtures: test/support/.
import { faultError, httpError, invalidInput, protocolError, timeoutError } from '../../electron/core/service/errors';
import { networkError } from '../../electron/core/service/network-errors';
import type { CallError, CallResult, EusReprocess, RenderingQuality, ReprocessResult, ServiceClient, SiteEdit, SiteResult } from '../../electron/core/service/types';
import { REAL_SERVICE } from '../../electron/core/service/types';

export type Call = { settled: boolean } & (
  | { kind: 'site'; edit: SiteEdit; settle(result: CallResult<SiteResult>): void }
  | { kind: 'reprocess'; request: EusReprocess; settle(result: CallResult<ReprocessResult>): void }
);

/**
 * A client whose calls wait until the test settles them (or answers at once through `auto`).
 * `calls` lists every call in the order it was made; `inFlight` counts unsettled ones.
 */
export class ScriptedClient implements ServiceClient {
  readonly connection = REAL_SERVICE;
  readonly calls: Call[] = [];
  private open = 0;
  maxInFlight = 0;
  auto: ((call: Call) => CallResult<SiteResult | ReprocessResult> | null) | null = null;
  private nextId = 1000;

  get inFlight(): number {
    return this.open;
  }

  /** Calls not yet answered, oldest first. */
  unsettled(): Call[] {
    return this.calls.filter((call) => !call.settled);
  }

  saveSite(edit: SiteEdit): Promise<CallResult<SiteResult>> {
    return this.record<SiteResult>((settle) => ({ kind: 'site', edit: { ...edit }, settle, settled: false }));
  }

  reprocessEus(request: EusReprocess): Promise<CallResult<ReprocessResult>> {
    return this.record<ReprocessResult>((settle) => ({ kind: 'reprocess', request: { ...request }, settle, settled: false }));
  }

  async listRenderingQualities(): Promise<CallResult<RenderingQuality[]>> {
    return { ok: true, value: [] };
  }

  async callRaw(): Promise<never> {
    throw new Error('not used by the outbox');
  }

  /** Answers a site call as the service would: a new ID for a create, the same ID for an edit. */
  success(call: Call): void {
    if (call.kind === 'site') {
      const siteId = call.edit.siteId ?? String(this.nextId++);
      call.settle({ ok: true, value: { siteId, message: call.edit.siteId ? `Site ${siteId} updated.` : `Site ${siteId} created.`, raw: siteId } });
    } else {
      call.settle({ ok: true, value: { message: 'Reprocessed.', raw: 'OK' } });
    }
  }

  fail(call: Call, error: CallError): void {
    call.settle({ ok: false, error });
  }

  private record<T>(make: (settle: (result: CallResult<T>) => void) => Call): Promise<CallResult<T>> {
    return new Promise((resolve) => {
      this.open++;
      this.maxInFlight = Math.max(this.maxInFlight, this.open);
      const call = make((result) => {
        if (call.settled) throw new Error('settled twice');
        call.settled = true;
        this.open--;
        resolve(result as CallResult<T>);
      });
      this.calls.push(call);
      const answer = this.auto?.(call);
      if (answer) call.settle(answer as never);
    });
  }
}

const ENDPOINT = 'https://api.example.test/towercoverage.asmx/SitesAPI';

/** One real CallError of every kind (and flavour) the outbox must classify. */
export const ERRORS = {
  invalidInput: () => invalidInput([{ field: 'height', message: 'Height is required.' }]),
  noKey: () => invalidInput([{ field: 'key', message: 'The profile has no API key.' }]),
  validationFault: () => faultError({ code: 'soap:Client', reason: 'Height must be a whole number of meters.', source: 'soap11', detail: '' }),
  notFoundFault: () => faultError({ code: 'System.ArgumentException', reason: 'Site 123 was not found.', source: 'http-text', detail: '' }),
  serverFault: () => faultError({ code: 'soap:Server', reason: 'Server was unable to process request. ---> Transaction deadlocked.', source: 'soap11', detail: '' }),
  quotaFault: () => faultError({ code: 'soap:Server', reason: 'No API calls left for this account.', source: 'soap11', detail: '' }),
  authFault: () => faultError({ code: 'System.Exception', reason: 'Invalid account ID or API key.', source: 'http-text', detail: '' }),
  http503: () => httpError({ status: 503, statusText: 'Service Unavailable', contentType: 'text/html', body: '<title>503</title>', endpoint: ENDPOINT }),
  http502: () => httpError({ status: 502, statusText: 'Bad Gateway', contentType: 'text/html', body: '', endpoint: ENDPOINT }),
  http504: () => httpError({ status: 504, statusText: 'Gateway Timeout', contentType: 'text/html', body: '', endpoint: ENDPOINT }),
  http429: () => httpError({ status: 429, statusText: 'Too Many Requests', contentType: 'text/plain', body: 'Slow down.', endpoint: ENDPOINT }),
  http404: () => httpError({ status: 404, statusText: 'Not Found', contentType: 'text/html', body: '', endpoint: ENDPOINT }),
  protocolDamaged: () => protocolError({ reason: 'cut short', body: '<?xml', status: 200, contentType: 'text/xml', damaged: true, endpoint: ENDPOINT }),
  protocolWrongShape: () => protocolError({ reason: 'wrong root', body: '<x/>', status: 200, contentType: 'text/xml', damaged: false, endpoint: ENDPOINT }),
  refused: () => networkError(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }), ENDPOINT, 'api.example.test'),
  reset: () => networkError(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }), ENDPOINT, 'api.example.test'),
  timeout: () => timeoutError(30_000, ENDPOINT),
} satisfies Record<string, () => CallError>;
