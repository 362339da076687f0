// The inspection and control endpoint under /_sandbox/: JSON views of the state, the call log, the
// mail outbox and the pushes, plus reset/load/faults/accounts changes for tests and trainers. Only
// loopback peers with a loopback Host get in, and no browser request from another page or site
// (see refusal()), so a web page cannot drive it.
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { FaultConfigError, parseFaults, type FaultConfig } from './faults';
import { accountSchema, describeIssues, httpUrl, parseState, StateError, type SandboxAccount, type SandboxState } from './state';
import type { Seed } from './seed';
import type { Reply } from './bindings/reply';

/** What the endpoint needs from the running sandbox. */
export interface InspectHost {
  state(): SandboxState;
  /** Persists after a change made here; throws when the data file cannot be written. */
  commit(): void;
  replaceState(state: SandboxState): void;
  reset(seed: Seed): void;
  faults(): FaultConfig;
  setFaults(faults: FaultConfig): void;
}

export const INSPECT_PREFIX = '/_sandbox';

export function json(status: number, value: unknown): Reply {
  return { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }, body: `${JSON.stringify(value, null, 2)}\n` };
}

function problem(status: number, message: string): Reply {
  return json(status, { error: message });
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Whether a URL (an Origin or a Referer) names this very host; 'null' and anything unreadable do not. */
function isSameHost(url: string, host: string | undefined): boolean {
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
}

/**
 * Why a request may not use /_sandbox/, or null when it may. Beyond loopback peers and a loopback
 * Host (which stops DNS rebinding), a browser must say the request is its own page's or the user's:
 * no Origin of another page and no opaque one (a sandboxed iframe sends Origin: null), and a
 * Sec-Fetch-Site, when sent, of same-origin or none. Browsers without Fetch Metadata give a
 * cross-site request without an Origin away by its Referer. Non-browser clients send none of these.
 */
export function refusal(req: IncomingMessage): Reply | null {
  const host = req.headers.host;
  if (!isLoopbackAddress(req.socket.remoteAddress)) return problem(403, 'The /_sandbox/ endpoint answers only requests from this machine (loopback).');
  if (!isLoopbackHost(host)) return problem(403, 'The /_sandbox/ endpoint answers only requests addressed to a loopback host (127.0.0.1, localhost, [::1]).');
  const origin = req.headers.origin;
  if (origin === 'null') return problem(403, 'The /_sandbox/ endpoint does not answer requests from sandboxed or opaque origins (Origin: null).');
  if (origin !== undefined && !isSameHost(origin, host)) return problem(403, 'The /_sandbox/ endpoint does not answer requests from web pages of other origins.');
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return problem(403, `The /_sandbox/ endpoint does not answer requests a browser sends for another site (Sec-Fetch-Site: ${fetchSite}).`);
  }
  const referer = req.headers.referer;
  if (origin === undefined && fetchSite === undefined && referer !== undefined && !isSameHost(referer, host)) {
    return problem(403, 'The /_sandbox/ endpoint does not answer requests from web pages of other origins.');
  }
  return null;
}

const seedBody = z.object({ seed: z.enum(['demo', 'empty']).optional() }).strict();

const accountPatch = z
  .object({
    callsLeft: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    eusApiUrl: httpUrl.nullable().optional(),
    recipients: z.array(z.string().min(3).max(320)).max(100).optional(),
    key: z.string().min(1).max(200).optional(),
    name: z.string().max(200).optional(),
  })
  .strict();

const newAccount = accountSchema.extend({
  name: z.string().max(200).optional(),
  callsLeft: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  recipients: z.array(z.string().min(3).max(320)).max(100).optional(),
}).strict();

type Body = { present: false } | { present: true; value: unknown };

/** Reads a JSON body (already collected); a non-JSON content type or bad JSON is a clear 4xx. */
export function parseJsonBody(req: IncomingMessage, raw: Buffer): Body | Reply {
  if (raw.length === 0) return { present: false };
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return problem(415, 'Send the body as JSON with Content-Type: application/json.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return problem(400, 'The body is not valid UTF-8.');
  }
  try {
    return { present: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return problem(400, `The body is not valid JSON: ${(error as Error).message}`);
  }
}

const ENDPOINTS = [
  'GET /_sandbox/state',
  'GET /_sandbox/sites',
  'GET /_sandbox/sites/<id>',
  'GET /_sandbox/submissions',
  'GET /_sandbox/submissions/<processId>',
  'GET /_sandbox/multi-maps',
  'GET /_sandbox/rendering-qualities',
  'GET /_sandbox/mail',
  'GET /_sandbox/pushes',
  'GET /_sandbox/accounts',
  'GET /_sandbox/accounts/<id>',
  'GET /_sandbox/calls',
  'GET /_sandbox/faults',
  'PUT /_sandbox/faults',
  'POST /_sandbox/reset',
  'POST /_sandbox/load',
  'POST /_sandbox/accounts',
  'PATCH /_sandbox/accounts/<id>',
];

/** GET /_sandbox/<name>: read-only views. */
const VIEWS = new Map<string, (state: SandboxState, host: InspectHost) => unknown>(Object.entries({
  state: (state) => state,
  sites: (state) => state.sites,
  submissions: (state) => state.submissions,
  'multi-maps': (state) => state.multiMaps,
  'rendering-qualities': (state) => state.renderingQualities,
  mail: (state) => state.mail,
  pushes: (state) => state.pushes,
  calls: (state) => state.calls,
  accounts: (state) => state.accounts,
  faults: (_state: SandboxState, host: InspectHost) => host.faults(),
}));

/** GET /_sandbox/<name>/<id>: one record, or 404 naming it. */
const LOOKUPS = new Map<string, { label: string; find: (state: SandboxState, id: string) => unknown }>([
  ['sites', { label: 'Site', find: (state, id) => state.sites.find((s) => s.id === id) }],
  ['submissions', { label: 'Submission', find: (state, id) => state.submissions.find((s) => s.processId === id) }],
  ['accounts', { label: 'Account', find: (state, id) => state.accounts.find((a) => a.id === id) }],
]);

export function handleInspect(host: InspectHost, method: string, path: string, body: Body): Reply {
  const segments = path
    .slice(INSPECT_PREFIX.length)
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  const [resource, id, extra] = segments;
  if (extra !== undefined) return problem(404, `No such endpoint: ${path}. Endpoints: ${ENDPOINTS.join(', ')}.`);
  const state = host.state();
  const route = `${method} ${resource ?? ''}${id === undefined ? '' : '/:id'}`;

  if (method === 'GET') {
    if (resource === undefined) return json(200, { endpoints: ENDPOINTS });
    const view = VIEWS.get(resource);
    if (view && id === undefined) return json(200, view(state, host));
    const lookup = LOOKUPS.get(resource);
    if (lookup && id !== undefined) {
      const found = lookup.find(state, id);
      return found === undefined ? problem(404, `${lookup.label} ${id} was not found.`) : json(200, found);
    }
  }

  switch (route) {
    case 'PUT faults': {
      try {
        const faults = parseFaults(body.present ? body.value : {});
        host.setFaults(faults);
        return json(200, host.faults());
      } catch (error) {
        if (error instanceof FaultConfigError) return problem(400, error.message);
        throw error;
      }
    }
    case 'POST reset': {
      const parsed = seedBody.safeParse(body.present ? body.value : {});
      if (!parsed.success) return problem(400, `Invalid reset body (expected {"seed":"demo"|"empty"}): ${describeIssues(parsed.error.issues)}`);
      const seed = parsed.data.seed ?? 'demo';
      host.reset(seed);
      return json(200, { reset: true, seed });
    }
    case 'POST load': {
      if (!body.present) return problem(400, 'POST /_sandbox/load needs a sandbox state as its JSON body (the shape GET /_sandbox/state answers).');
      try {
        host.replaceState(parseState(body.value));
      } catch (error) {
        if (error instanceof StateError) return problem(400, `Invalid sandbox state: ${error.message}`);
        throw error;
      }
      const loaded = host.state();
      return json(200, { loaded: true, accounts: loaded.accounts.length, sites: loaded.sites.length, submissions: loaded.submissions.length });
    }
    case 'POST accounts': {
      if (!body.present) return problem(400, 'POST /_sandbox/accounts needs a JSON body like {"id":"10002","key":"…"}.');
      const parsed = newAccount.safeParse(body.value);
      if (!parsed.success) return problem(400, `Invalid account: ${describeIssues(parsed.error.issues)}`);
      if (state.accounts.some((a) => a.id === parsed.data.id)) return problem(409, `Account ${parsed.data.id} already exists; change it with PATCH /_sandbox/accounts/${parsed.data.id}.`);
      const account: SandboxAccount = {
        id: parsed.data.id,
        key: parsed.data.key,
        name: parsed.data.name ?? '',
        callsLeft: parsed.data.callsLeft ?? 1000,
        recipients: parsed.data.recipients ?? [],
        eusApiUrl: parsed.data.eusApiUrl ?? null,
      };
      state.accounts.push(account);
      commitOrUndo(host, () => state.accounts.pop());
      return json(201, account);
    }
    case 'PATCH accounts/:id': {
      const account = state.accounts.find((a) => a.id === id);
      if (!account) return problem(404, `Account ${id} was not found.`);
      if (!body.present) return problem(400, 'PATCH needs a JSON body with callsLeft, eusApiUrl, recipients, key or name.');
      const parsed = accountPatch.safeParse(body.value);
      if (!parsed.success) return problem(400, `Invalid account change: ${describeIssues(parsed.error.issues)}`);
      const before = { ...account, recipients: [...account.recipients] };
      for (const [key, value] of Object.entries(parsed.data)) {
        if (value !== undefined) (account as unknown as Record<string, unknown>)[key] = value;
      }
      commitOrUndo(host, () => Object.assign(account, before));
      return json(200, account);
    }
    default: {
      const known = ENDPOINTS.some((e) => e.split(' ')[1]!.replace(/<[^>]+>/, ':id') === `/_sandbox/${resource ?? ''}${id === undefined ? '' : '/:id'}`);
      return known ? problem(405, `${method} is not supported on ${path}. Endpoints: ${ENDPOINTS.join(', ')}.`) : problem(404, `No such endpoint: ${path}. Endpoints: ${ENDPOINTS.join(', ')}.`);
    }
  }
}

/** Saves a change made here; if the data file cannot be written, the change is undone and reported. */
function commitOrUndo(host: InspectHost, undo: () => void): void {
  try {
    host.commit();
  } catch (error) {
    undo();
    throw error;
  }
}
