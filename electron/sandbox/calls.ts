// One service call, once routing has read its operation and parameters: injected faults, the
// operation, its line in the operation log (on disk before the answer), the EUS pushes it starts,
// the call log, and the reply written in the binding's shape. A call the operation refuses changes
// nothing; close() cuts every pending delay short and waits for the pushes in flight.
import type { ServerResponse } from 'node:http';
import type { Binding } from '../shared/domain';
import { ServiceError } from './errors';
import { INJECTED_FAILURE_MESSAGE, latencyFor, pickFault, proxy503Reply, type FaultConfig, type FaultMode } from './faults';
import { isOperationName, OPERATION_PARAMS, runOperation, type OperationName, type OperationOutcome, type Params } from './operations';
import type { PersistentState } from './persistence';
import { deliverPush, submissionXml } from './push';
import { CALL_LOG_LIMIT, type CallLogEntry, type PushAttempt } from './state';
import { writeReply, type Reply } from './bindings/reply';

/** How long a response waits for an EUS push before going out anyway. */
const PUSH_WAIT_MS = 1_000;

export interface CallSettings {
  namespace: string;
  random: () => number;
  log: (line: string) => void;
}

/** How a binding shows a result and an exception. */
export interface CallRendering {
  result: (outcome: OperationOutcome) => Reply;
  error: (error: ServiceError) => Reply;
  /** The exception's text as the call log shows it. */
  text: (error: ServiceError) => string;
}

export class CallHandler {
  private faultConfig: FaultConfig = {};
  private nextCallId = 1;
  private closing = false;
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private readonly pushAbort = new AbortController();
  private readonly pushesInFlight = new Set<Promise<void>>();

  constructor(
    private readonly settings: CallSettings,
    private readonly data: PersistentState,
  ) {}

  faults(): FaultConfig {
    return structuredClone(this.faultConfig);
  }

  setFaults(faults: FaultConfig): void {
    this.faultConfig = structuredClone(faults);
  }

  async serve(res: ServerResponse, binding: Binding, operation: OperationName, params: Params, render: CallRendering): Promise<void> {
    const faults = this.faultConfig;
    const latency = latencyFor(faults, operation);
    if (latency > 0) await this.sleep(latency);
    if (this.closing) {
      res.socket?.destroy();
      return;
    }
    const mode: FaultMode | null = pickFault(faults, operation, this.settings.random);

    if (mode === 'hang') {
      // Never answered: the socket stays open until the client gives up or close() ends it.
      this.log(binding, operation, params, 'hang', 'no answer (injected)', null);
      return;
    }
    if (mode === 'proxy503') {
      this.log(binding, operation, params, 'proxy-503', '503 page from a proxy (injected); not applied', 503);
      return writeReply(res, proxy503Reply(faults));
    }
    if (mode === 'failure') {
      const error = new ServiceError(INJECTED_FAILURE_MESSAGE, 'System.Data.SqlClient.SqlException', 'process', 'Server', 'System.Data.SqlClient.SqlConnection.OnError(SqlException exception, Boolean breakConnection)');
      this.log(binding, operation, params, 'injected-failure', render.text(error), 500);
      return writeReply(res, render.error(error));
    }

    let outcome: OperationOutcome;
    try {
      const at = new Date();
      outcome = runOperation(operation, params, { state: this.data.state(), now: () => at });
      await this.data.saveOperation({ operation, params, at: at.toISOString() });
    } catch (error) {
      const serviceError =
        error instanceof ServiceError ? error : new ServiceError((error as Error).message, 'System.IO.IOException', 'process', 'Server', 'System.IO.FileStream.WriteCore(Byte[] buffer, Int32 offset, Int32 count)');
      this.log(binding, operation, params, 'fault', render.text(serviceError), 500);
      if (mode === 'applyThenDrop') return void res.socket?.destroy();
      return writeReply(res, render.error(serviceError));
    }
    const resultText = outcome.result.kind === 'string' ? outcome.result.text : `${outcome.result.list.length} rendering qualities`;
    const delivering = this.startPushes(outcome.pushes);

    if (mode === 'applyThenDrop') {
      this.log(binding, operation, params, 'dropped-after-apply', `${resultText} (applied; connection dropped, injected)`, null);
      res.socket?.destroy();
      return;
    }
    this.log(binding, operation, params, 'ok', resultText, 200);
    if (delivering) await Promise.race([delivering, this.sleep(PUSH_WAIT_MS)]);
    writeReply(res, render.result(outcome));
  }

  /** Adds a call to this run's call log (also for requests refused before an operation ran); the API key never appears. */
  log(binding: Binding, operation: string, params: Params, outcome: CallLogEntry['outcome'], message: string, status: number | null): void {
    const shown: Record<string, string | null> = {};
    const order = isOperationName(operation) ? OPERATION_PARAMS[operation] : Object.keys(params);
    for (const name of order) {
      if (!(name in params)) continue;
      const value = params[name] ?? null;
      shown[name] = name === 'key' && value !== null ? (value === '' ? '' : '[redacted]') : value;
    }
    const calls = this.data.state().calls;
    calls.push({ id: this.nextCallId++, at: new Date().toISOString(), binding, operation, params: shown, outcome, message, status });
    if (calls.length > CALL_LOG_LIMIT) calls.splice(0, calls.length - CALL_LOG_LIMIT);
    this.settings.log(`sandbox: ${binding} ${operation} → ${outcome}${status === null ? '' : ` ${status}`}: ${message.split('\n')[0]}`);
  }

  /** First step of closing: every delay ends now and pushes in flight are aborted. */
  stop(): void {
    this.closing = true;
    for (const pending of this.timers) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    this.timers.clear();
    this.pushAbort.abort();
  }

  /** Resolves once the pushes in flight have recorded their outcome. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pushesInFlight]);
  }

  /** Starts the XML pushes of a reprocess; resolves when all are recorded. */
  private startPushes(pushes: PushAttempt[]): Promise<void> | null {
    if (pushes.length === 0) return null;
    const runs = pushes.map(async (push) => {
      const submission = this.data.state().submissions.find((s) => s.processId === push.processId && s.account === push.account);
      if (!submission) return;
      const outcome = await deliverPush(push, submissionXml(submission, this.settings.namespace), this.pushAbort.signal);
      // The record may have gone with a reset or load meanwhile; only a record still present is updated.
      const record = this.data.state().pushes.find((p) => p.id === push.id && p.at === push.at && p.processId === push.processId);
      if (!record) return;
      Object.assign(record, outcome, { pending: false });
      this.settings.log(`sandbox: pushed submission ${push.processId} to ${push.url}: ${outcome.status ?? outcome.error}`);
      if (!this.closing) {
        try {
          this.data.commit();
        } catch {
          // Logged by commit(); the push outcome stays visible in memory.
        }
      }
    });
    const all = Promise.allSettled(runs).then(() => undefined);
    this.pushesInFlight.add(all);
    void all.finally(() => this.pushesInFlight.delete(all));
    return all;
  }

  /** A delay that close() cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const pending = {
        timer: setTimeout(() => {
          this.timers.delete(pending);
          resolve();
        }, ms),
        resolve,
      };
      this.timers.add(pending);
    });
  }
}
