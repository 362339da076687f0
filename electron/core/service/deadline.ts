// Per-call time limits without a timer and an AbortController per call: every call in flight is a
// CallStop in one set, watched by one shared timer armed for the earliest deadline (a later deadline,
// the common case, arms nothing). The timer holds the process open only while a call is watched.
// A CallStop is also the call's abort signal: the small part of AbortSignal that undici and
// body.ts read (`aborted`, `reason`, abort listeners), so the Node transport takes it as it is;
// a fetch-like transport (Electron's net.fetch) gets a real AbortSignal linked to it.
// Invariant: a stop aborts at most once, and says why (its deadline passed, or the caller cancelled).

type AbortListener = () => void;

export class CallStop {
  aborted = false;
  reason: unknown = undefined;
  /** Set when the deadline passed (as opposed to the caller cancelling). */
  expired = false;
  private listeners: AbortListener[] | null = null;

  /** `deadline` on the performance.now() clock. */
  constructor(
    readonly timeoutMs: number,
    readonly deadline: number,
  ) {}

  addEventListener(_type: 'abort', listener: AbortListener): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: AbortListener): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners!.splice(index, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = null;
    if (listeners) for (const listener of listeners) listener();
  }

  /** A real AbortSignal that aborts with this stop (for transports that need one). */
  linkedSignal(): AbortSignal {
    const controller = new AbortController();
    if (this.aborted) controller.abort(this.reason);
    else this.addEventListener('abort', () => controller.abort(this.reason));
    return controller.signal;
  }
}

const watched = new Set<CallStop>();
let timer: NodeJS.Timeout | null = null;
let armedFor = Infinity;
const MAX_DELAY_MS = 2_147_483_647;

/** Starts watching a call: it is aborted (expired) once `timeoutMs` have passed, unless released first. */
export function watchDeadline(timeoutMs: number): CallStop {
  const stop = new CallStop(timeoutMs, performance.now() + timeoutMs);
  watched.add(stop);
  if (stop.deadline < armedFor) arm(stop.deadline);
  else if (watched.size === 1) timer?.ref();
  return stop;
}

/** The call ended: its deadline no longer matters. */
export function releaseDeadline(stop: CallStop): void {
  if (!watched.delete(stop)) return;
  // Still armed for an earlier call's deadline: harmless, but it must not keep the process alive.
  if (watched.size === 0) timer?.unref();
}

function arm(at: number): void {
  if (timer) clearTimeout(timer);
  armedFor = at;
  // Past setTimeout's range (about 24.8 days) Node would fire at once: wake up then and look again.
  timer = setTimeout(expire, Math.min(MAX_DELAY_MS, Math.max(1, Math.ceil(at - performance.now()))));
}

function expire(): void {
  timer = null;
  armedFor = Infinity;
  const now = performance.now();
  let next = Infinity;
  const due: CallStop[] = [];
  for (const stop of watched) {
    if (stop.deadline <= now) due.push(stop);
    else if (stop.deadline < next) next = stop.deadline;
  }
  for (const stop of due) {
    watched.delete(stop);
    // Cancelled by its caller just before: that is what it was, not a timeout.
    if (stop.aborted) continue;
    stop.expired = true;
    stop.abort(new DOMException(`no answer within ${stop.timeoutMs} ms`, 'TimeoutError'));
  }
  if (next !== Infinity) arm(next);
}

/** How many calls are being watched (for tests). */
export function watchedCount(): number {
  return watched.size;
}
