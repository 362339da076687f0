// Service access: how a profile's calls reach its service. Resolves the connection (the built-in
// sandbox's is known once it runs), reads the key once per session and hands it to the client per
// call, caches one client per profile and connection, probes reachability without spending an API
// call, and scrubs the key out of anything stored. The sync engine, the qualities and the profile
// service all go through this one object; nothing else reads a key. It also runs a profile's
// "Test connection" (testConnection), which spends one API call and says so.
import { REAL_SERVICE } from '../../shared/domain';
import { bindingFallbackOf } from '../../shared/validation/profile';
import { describeError } from '../../shared/result';
import type { Blocked, Reachability, ServiceAccessPort } from '../outbox/engine';
import type { Problem } from '../outbox/types';
import type { ProfileBook } from '../profiles/profiles';
import type { SandboxRunner } from '../profiles/sandbox';
import type { LayeredSecretStore } from '../profiles/secrets';
import { serviceUrl } from '../service/codec';
import { createServiceClient } from '../service/client';
import { nodeTransport } from '../service/node-transport';
import { probeBinding, readDescription } from '../service/probe';
import { redactFields } from '../service/redact';
import { BINDINGS, type Binding, type CallError, type Connection, type Credentials, type FetchLike, type ServiceClient, type Transport } from '../service/types';
import { BINDING_NAMES } from '../../shared/aspnet';
import type { BindingCheck, ConnectionCheck, ConnectionTestView } from '../../shared/contract/views';

const PROBE_TIMEOUT_MS = 10_000;

/** Whether a failed call reached the operation and so may have used one of the account's API calls. */
function sentToService(error: CallError): boolean {
  if (error.kind === 'invalid-input') return false;
  if (error.kind === 'network' && error.sent === 'no') return false;
  // Refused by ASP.NET or ASMX before any operation ran.
  return error.refusedBy === undefined;
}

/** The credentials step of a connection test, from its one GetRenderingQualityList call. */
function credentialsCheck(listed: Awaited<ReturnType<ServiceClient['listRenderingQualities']>>, binding: Binding): ConnectionCheck {
  if (listed.ok) {
    const count = listed.value.length;
    return {
      outcome: 'passed',
      message: `The account and API key were accepted (GetRenderingQualityList over ${BINDING_NAMES[binding]} listed ${count} rendering ${count === 1 ? 'quality' : 'qualities'}; that used one API call).`,
      detail: '',
    };
  }
  const error = listed.error;
  if (error.kind === 'invalid-input') return { outcome: 'skipped', message: `Not tried: ${error.message}`, detail: error.detail };
  if (error.quotaExhausted) return { outcome: 'failed', message: `The account has no API calls left, so the key could not be checked: ${error.message}`, detail: error.detail };
  return { outcome: 'failed', message: error.message, detail: error.detail };
}

export interface ServiceAccessOptions {
  book: ProfileBook;
  secrets: LayeredSecretStore;
  sandbox: SandboxRunner | null;
  /** Transport for calls and probes (Electron passes net.fetch). Default: undici. */
  fetch?: FetchLike;
  /** Per call (default 30 s). */
  timeoutMs?: number;
  log: (line: string) => void;
}

export class ServiceAccess implements ServiceAccessPort {
  private readonly clients = new Map<string, { key: string; client: ServiceClient }>();
  /** Keys read from the store this session, so a sync of 10,000 entries asks the keyring once. */
  private readonly keyCache = new Map<string, string>();
  /** Whether each profile has a key, as last seen (precheck must answer without waiting on the keyring). */
  private readonly keyKnown = new Map<string, boolean>();

  constructor(private readonly options: ServiceAccessOptions) {}

  /** A key was stored or held for the session. */
  keySet(profileId: string, key: string): void {
    this.keyCache.set(profileId, key);
    this.keyKnown.set(profileId, true);
  }

  /** The key is gone (removed, or the profile now points elsewhere); `removed` forgets the profile entirely. */
  keyGone(profileId: string, removed = false): void {
    this.keyCache.delete(profileId);
    if (removed) this.keyKnown.delete(profileId);
    else this.keyKnown.set(profileId, false);
  }

  /** The profile's connection changed or the profile is gone: its client is built anew on next use. */
  forgetClient(profileId: string): void {
    this.clients.delete(profileId);
  }

  /** What a view learned about the key store, so precheck agrees with what the UI shows. */
  noteHasKey(profileId: string, hasKey: boolean): void {
    this.keyKnown.set(profileId, hasKey);
  }

  async refreshKeyKnown(profileId: string): Promise<void> {
    const profile = this.options.book.get(profileId);
    if (!profile || profile.builtIn) return;
    try {
      this.keyKnown.set(profileId, await this.options.secrets.has(profileId));
    } catch (error) {
      this.keyKnown.set(profileId, false);
      this.options.log(`the key store could not be read: ${describeError(error)}`);
    }
  }

  /** Forgets every key read this session (at close). */
  clear(): void {
    this.keyCache.clear();
  }

  async connectionFor(profileId: string): Promise<Connection> {
    const profile = this.options.book.get(profileId);
    if (!profile) throw new Error(`There is no profile "${profileId}".`);
    if (profile.builtIn) {
      if (!this.options.sandbox) throw new Error('The built-in sandbox is not available in this run.');
      const handle = await this.options.sandbox.ensure();
      return { baseUrl: handle.url, servicePath: handle.servicePath, namespace: handle.namespace, binding: REAL_SERVICE.binding };
    }
    return { baseUrl: profile.baseUrl, servicePath: profile.servicePath, namespace: profile.namespace, binding: profile.binding };
  }

  private async credentialsFor(profileId: string): Promise<Credentials> {
    const profile = this.options.book.get(profileId);
    if (!profile) return { account: '', key: '' };
    if (profile.builtIn && this.options.sandbox) {
      const handle = await this.options.sandbox.ensure();
      return { account: handle.demo.account, key: handle.demo.key };
    }
    let key = this.keyCache.get(profileId);
    if (key === undefined) {
      key = (await this.options.secrets.get(profileId)) ?? '';
      if (key !== '') this.keyCache.set(profileId, key);
    }
    return { account: profile.account, key };
  }

  async clientFor(profileId: string): Promise<ServiceClient> {
    const connection = await this.connectionFor(profileId);
    const profile = this.options.book.get(profileId);
    const bindingFallback = profile ? bindingFallbackOf(profile) : true;
    const cacheKey = JSON.stringify({ connection, bindingFallback });
    const cached = this.clients.get(profileId);
    if (cached && cached.key === cacheKey) return cached.client;
    const client = createServiceClient({
      connection,
      bindingFallback,
      credentials: () => this.credentialsFor(profileId),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
    });
    this.clients.set(profileId, { key: cacheKey, client });
    return client;
  }

  precheck(profileId: string): Blocked | null {
    const profile = this.options.book.get(profileId);
    if (!profile) return { reason: 'no-profile', message: `The active profile "${profileId}" no longer exists.` };
    if (profile.builtIn) {
      return this.options.sandbox ? null : { reason: 'no-key', message: 'The built-in sandbox is not available in this run.' };
    }
    if (this.keyKnown.get(profileId) === false) {
      return { reason: 'no-key', message: `The profile "${profile.name}" has no API key. Add it in the profile (it is in the API section of the account settings).` };
    }
    return null;
  }

  /**
   * Asks for the service description (the WSDL page costs no API call): any HTTP answer means the
   * service can be reached; a 5xx or a gateway's error page means it is not answering well.
   */
  async reachable(profileId: string): Promise<Reachability> {
    let url: string;
    try {
      url = `${serviceUrl(await this.connectionFor(profileId))}?WSDL`;
    } catch (error) {
      this.options.log(`probe: ${describeError(error)}`);
      return { state: 'offline', message: describeError(error) };
    }
    const transport: FetchLike = this.options.fetch ?? ((target, init) => fetch(target, init));
    try {
      const response = await transport(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 500) {
        return { state: 'not-answering', message: `The service answers with HTTP ${response.status} ${response.statusText}`.trim() + '.' };
      }
      return { state: 'online', message: '' };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return timedOut
        ? { state: 'not-answering', message: `The service did not answer within ${PROBE_TIMEOUT_MS / 1000} s.` }
        : { state: 'offline', message: `The service cannot be reached: ${describeError(error)}` };
    }
  }

  /**
   * "Test connection": (1) the service description (…?WSDL, no API call: is it there, which ports
   * does it list, under which namespace); (2) the account and key, with one GetRenderingQualityList
   * call over the profile's binding (the one API call the test uses); (3) which bindings answer, each
   * asked a request ASMX refuses before any operation runs (no API call; see service/probe.ts) —
   * or, with `everyBinding`, the real call over each of the other three (up to 3 more API calls).
   */
  async testConnection(profileId: string, options: { everyBinding?: boolean } = {}): Promise<ConnectionTestView> {
    const testedAt = new Date().toISOString();
    const timeoutMs = Math.min(this.options.timeoutMs ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS * 3);
    const transport: Transport = this.options.fetch ?? nodeTransport;
    const skipped = (message: string): ConnectionCheck => ({ outcome: 'skipped', message, detail: '' });
    let connection: Connection;
    try {
      connection = await this.connectionFor(profileId);
    } catch (error) {
      const reachability: ConnectionCheck = { outcome: 'failed', message: describeError(error), detail: '' };
      return { profileId, ok: false, reachability, credentials: skipped('Not tried: the service cannot be used.'), bindings: [], apiCallsUsed: 0, summary: reachability.message, testedAt };
    }

    const description = await readDescription(connection, transport, timeoutMs);
    const reachability: ConnectionCheck = { outcome: description.ok ? 'passed' : 'failed', message: description.message, detail: description.detail };
    const answered = description.status !== null;
    if (!answered || (description.ports === null && !description.ok)) {
      const credentials = skipped('Not tried: the service did not answer with its description, so no API call was used.');
      const bindings = BINDINGS.map((binding): BindingCheck => ({ binding, inWsdl: null, answers: null, how: 'not-asked', message: `${BINDING_NAMES[binding]}: not asked.` }));
      return { profileId, ok: false, reachability, credentials, bindings, apiCallsUsed: 0, summary: `${description.message} Nothing else was tried; no API call was used.`, testedAt };
    }

    let apiCallsUsed = 0;
    const client = await this.clientFor(profileId);
    const listed = await client.listRenderingQualities({ timeoutMs });
    if (listed.ok || sentToService(listed.error)) apiCallsUsed++;
    const credentials = credentialsCheck(listed, connection.binding);

    const bindings: BindingCheck[] = [];
    for (const binding of BINDINGS) {
      const inWsdl = description.ports === null ? null : description.ports.includes(binding);
      if (binding === connection.binding && credentials.outcome !== 'skipped' && (listed.ok || listed.error.kind === 'fault')) {
        // The credentials call went over it and the service answered it as itself.
        bindings.push({ binding, inWsdl, answers: true, how: 'call', message: `${BINDING_NAMES[binding]} (the profile's) answered the GetRenderingQualityList call.` });
        continue;
      }
      if (options.everyBinding && binding !== connection.binding) {
        const other = createServiceClient({
          connection: { ...connection, binding },
          bindingFallback: false,
          credentials: () => this.credentialsFor(profileId),
          ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
          timeoutMs,
        });
        const called = await other.listRenderingQualities({ timeoutMs });
        if (called.ok || sentToService(called.error)) apiCallsUsed++;
        const answers = called.ok || called.error.kind === 'fault' ? true : called.error.kind === 'invalid-input' ? null : false;
        bindings.push({
          binding,
          inWsdl,
          answers,
          how: 'call',
          message: called.ok ? `${BINDING_NAMES[binding]} answered the GetRenderingQualityList call.` : `${BINDING_NAMES[binding]}: ${called.error.message}`,
        });
        continue;
      }
      const probe = await probeBinding(binding, connection, transport, timeoutMs);
      bindings.push({ binding, inWsdl, answers: probe.answers, how: 'refusal', message: probe.message });
    }

    const ok = description.ok && credentials.outcome === 'passed';
    const serving = bindings.filter((check) => check.answers === true).map((check) => BINDING_NAMES[check.binding]);
    const cost = apiCallsUsed === 0 ? 'No API call was used.' : apiCallsUsed === 1 ? 'This test used one API call.' : `This test used ${apiCallsUsed} API calls.`;
    const summary = [
      description.message,
      credentials.message,
      serving.length > 0 ? `Bindings that answer: ${serving.join(', ')}.` : 'No binding answered as the service does.',
      cost,
    ].join(' ');
    return { profileId, ok, reachability, credentials, bindings, apiCallsUsed, summary, testedAt };
  }

  /** The problem with the profile's key taken out of every text, in every encoding the client writes. */
  scrub(problem: Problem, profileId: string): Problem {
    const key = this.keyCache.get(profileId);
    return key ? redactFields(problem, [key]) : problem;
  }
}
