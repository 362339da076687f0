// The sync engine's vocabulary: what it is given (options, the one service-access object) and what
// it reports (status, settling).
import type { BlockedView } from '../../shared/contract/views';
import type { Clock, Random } from '../clock';
import type { ServiceClient } from '../service/types';
import type { ConnectionState } from './connection';
import type { RetryPolicy } from './policy';
import type { OutboxStore } from './store';
import type { PauseInfo, Problem } from './types';

/** Why the active profile's queue cannot move now (the contract's view of it, defined once). */
export type Blocked = BlockedView;

export interface EngineStatus {
  online: boolean;
  /** At least one request is in flight. */
  syncing: boolean;
  paused: PauseInfo | null;
  blocked: Blocked | null;
  /** pending + sending + paused of the active profile. */
  pendingCount: number;
  sendingCount: number;
  /** failed + needs-review of the active profile: entries waiting for the user. */
  attentionCount: number;
  /** Last time the service answered well for the active profile (ms), or null. */
  lastSyncAt: number | null;
  /** Grows with every status change told to listeners: an older one is stale. */
  revision: number;
  /** What calls really say about the active profile's service. */
  connection: {
    state: ConnectionState | 'paused';
    lastError: { message: string; at: number } | null;
    /** When the engine will try the service again (a retry or a probe), ms; null when not waiting. */
    nextTryAt: number | null;
  };
}

export interface SettleResult {
  /** null = nothing is left that could be sent; otherwise why the rest cannot move now. */
  blocked: Blocked | null;
  status: EngineStatus;
}

/** A probe's finding: online (a good answer), not answering (an error page, 5xx), offline (nothing). */
export interface Reachability {
  state: 'online' | 'not-answering' | 'offline';
  message: string;
}

/** What the engine needs of the service, per profile (core/access implements it). */
export interface ServiceAccessPort {
  /** The client for a profile (reads the key per call); may start the built-in sandbox first. */
  clientFor(profileId: string): ServiceClient | Promise<ServiceClient>;
  /** A reason the profile cannot send at all right now (no key…), checked before each pass. */
  precheck?(profileId: string): Blocked | null;
  /** Whether the profile's service answers, and how well; must not cost an API call. */
  reachable(profileId: string): Promise<Reachability>;
  /** Last chance to strip anything secret from a problem before it is stored. */
  scrub?(problem: Problem, profileId: string): Problem;
}

export interface EngineOptions {
  store: OutboxStore;
  clock: Clock;
  random: Random;
  /** Requests in flight at once, across sites (default 4). */
  concurrency?: number;
  retry?: RetryPolicy;
  probe?: Pick<RetryPolicy, 'baseMs' | 'capMs'>;
  /**
   * While started, the service is re-checked (a free probe) this often when no request is in flight,
   * so the status follows the service with nothing queued; also the longest wait between probes
   * while it cannot be reached (default 20 s).
   */
  checkEveryMs?: number;
  /**
   * How long closing waits for calls in flight to be answered (default 5 s). After that they are
   * cancelled and recorded as interrupted, as a crash would leave them: an edit is sent again later,
   * a create or an emailing reprocess goes to review.
   */
  closeGraceMs?: number;
  /** The profile whose entries are sent, or null. */
  activeProfile(): string | null;
  /** The one way to the service: clients, keys and reachability per profile. */
  access: ServiceAccessPort;
  onStatus?(status: EngineStatus): void;
  log?(line: string): void;
  /** When each profile's service last accepted a request, from the outbox's history (ms). */
  initialContact?: ReadonlyMap<string, number>;
}
