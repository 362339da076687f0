// What calls really say about the service, per profile, as the status shows it: online (calls
// succeed, or the service answered and refused the input), not answering (5xx, HTML error pages,
// unreadable answers, timeouts, calls hanging past a few seconds), offline (nothing reached it), or
// checking (nothing known yet since start). The last error and when the service was last reached
// are kept per profile, so a profile that never synced never claims it did.
import type { CallError } from '../service/types';

export type ConnectionState = 'checking' | 'online' | 'not-answering' | 'offline';

export interface ConnectionFacts {
  state: ConnectionState;
  /** The last failure that said something about the service (not about one input), or null. */
  lastError: { message: string; at: number } | null;
  /** When the service last answered well for this profile (ms), or null. */
  lastContactAt: number | null;
}

/** A call in flight this long is reported as the service not answering, before its timeout. */
export const HUNG_AFTER_MS = 10_000;

/** How a failed call counts: a refusal of the input is still an answer from a working service. */
export function connectionAfter(error: CallError): Exclude<ConnectionState, 'checking'> {
  // ASP.NET refusing a value (request validation, a query too long) is a working service's answer.
  if (error.refusedBy) return 'online';
  switch (error.kind) {
    case 'invalid-input':
    case 'fault':
      return 'online';
    case 'network':
      return error.sent === 'no' ? 'offline' : 'not-answering';
    case 'timeout':
    case 'http':
    case 'protocol':
      return 'not-answering';
  }
}

export class ConnectionMonitor {
  private readonly profiles = new Map<string, ConnectionFacts>();

  constructor(initialContact: ReadonlyMap<string, number>) {
    for (const [profileId, at] of initialContact) this.profiles.set(profileId, { state: 'checking', lastError: null, lastContactAt: at });
  }

  facts(profileId: string): ConnectionFacts {
    let facts = this.profiles.get(profileId);
    if (!facts) {
      facts = { state: 'checking', lastError: null, lastContactAt: null };
      this.profiles.set(profileId, facts);
    }
    return facts;
  }

  /** A call succeeded (or a probe got a good answer). */
  reached(profileId: string, now: number): void {
    const facts = this.facts(profileId);
    facts.state = 'online';
    facts.lastError = null;
    facts.lastContactAt = now;
  }

  /** A call failed; `message` is the sentence shown. */
  failed(profileId: string, error: CallError, now: number): void {
    const facts = this.facts(profileId);
    const state = connectionAfter(error);
    facts.state = state;
    if (state === 'online') facts.lastContactAt = now;
    else facts.lastError = { message: error.message, at: now };
  }

  /** A probe found nothing, or only an error page. */
  probeFailed(profileId: string, state: 'offline' | 'not-answering', message: string, now: number): void {
    const facts = this.facts(profileId);
    facts.state = state;
    facts.lastError = { message, at: now };
  }
}
