// Time and chance, injected: the outbox's backoff, probes and timestamps read the clock and the RNG
// given to the core, so tests can step time and pin the jitter. The system clock is the default;
// the manual clock only moves when a test advances it, and fires due timers in time order.

export type TimerHandle = { readonly __timer: true } | object;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimer(callback: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** Returns a number in [0, 1), like Math.random. */
export type Random = () => number;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    // A pending retry must never keep a CLI process alive on its own.
    timer.unref?.();
    return timer;
  },
  clearTimer(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/**
 * Calls `callback` once `clock` says `at` has come; answers what cancels it. A system timer runs on
 * the monotonic clock while `Date.now()` counts whole milliseconds of the wall clock, so a timer can
 * fire when the clock says a millisecond less has passed (15 of 400 20-ms timers here): it is armed
 * again for what is left. (The outbox's "not answering", checked by the clock when its 10 s timer
 * fired, then found 9,999 ms and never came until the call's 30 s timeout.)
 */
export function atTime(clock: Clock, at: number, callback: () => void): () => void {
  let timer: TimerHandle | null = null;
  const arm = () => {
    const left = at - clock.now();
    if (left <= 0) {
      timer = null;
      callback();
    } else timer = clock.setTimer(arm, left);
  };
  timer = clock.setTimer(arm, at - clock.now());
  return () => {
    if (timer) clock.clearTimer(timer);
    timer = null;
  };
}

/** Waits for `work` to settle, for at most `ms` on `clock`: whether it settled in time. */
export async function settledWithin(clock: Clock, ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: TimerHandle | null = null;
  const late = new Promise<boolean>((resolve) => (timer = clock.setTimer(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    if (timer) clock.clearTimer(timer);
  }
}

export interface ManualClock extends Clock {
  /** Moves time forward, firing every timer that falls due, in order, letting promises settle between. */
  advance(ms: number): Promise<void>;
  /** Timers not yet fired. */
  pendingTimers(): number;
}

interface ManualTimer {
  at: number;
  order: number;
  callback: () => void;
}

/** A clock that stands still until advanced: for tests of backoff, probes and scheduling. */
export function createManualClock(startMs = Date.UTC(2025, 0, 1)): ManualClock {
  let now = startMs;
  let order = 0;
  const timers = new Set<ManualTimer>();
  const settle = async () => {
    // Several turns: a fired timer may start work that awaits a few promises before it schedules more.
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return {
    now: () => now,
    setTimer(callback, delayMs) {
      const timer: ManualTimer = { at: now + Math.max(0, delayMs), order: order++, callback };
      timers.add(timer);
      return timer;
    },
    clearTimer(handle) {
      timers.delete(handle as ManualTimer);
    },
    async advance(ms) {
      const target = now + ms;
      await settle();
      for (;;) {
        let next: ManualTimer | null = null;
        for (const timer of timers) {
          if (timer.at <= target && (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) next = timer;
        }
        if (!next) break;
        timers.delete(next);
        now = Math.max(now, next.at);
        next.callback();
        await settle();
      }
      now = target;
      await settle();
    },
    pendingTimers: () => timers.size,
  };
}

/** A seeded RNG (mulberry32): the same seed gives the same jitter, run after run. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
