// atTime: a callback at a time by the clock, though the timer under it fires early (a system timer
// runs on the monotonic clock; Date.now() can say a millisecond less has passed when it fires).
import { describe, expect, it } from 'vitest';
import { atTime, createManualClock, type Clock } from '../../electron/core/clock';

/** `manual`, but its next timer fires `early` ms before it is due by the clock, as a system timer can. */
function firingEarly(manual: Clock, early: number): Clock {
  let ahead = early;
  return {
    now: () => manual.now(),
    clearTimer: (handle) => manual.clearTimer(handle),
    setTimer: (callback, delayMs) => {
      const handle = manual.setTimer(callback, Math.max(0, delayMs - ahead));
      ahead = 0;
      return handle;
    },
  };
}

describe('atTime', () => {
  it('calls back once the clock has reached the time, not when a timer fired early', async () => {
    const manual = createManualClock();
    const at = manual.now() + 10_000;
    const heard: number[] = [];
    atTime(firingEarly(manual, 120), at, () => heard.push(manual.now()));
    await manual.advance(9_880);
    // The timer has fired; by the clock the time has not come.
    expect(heard).toEqual([]);
    await manual.advance(120);
    expect(heard).toEqual([at]);
    await manual.advance(60_000);
    expect(heard).toEqual([at]);
    expect(manual.pendingTimers()).toBe(0);
  });

  it('never calls back once cancelled, before or after an early firing', async () => {
    const manual = createManualClock();
    let calls = 0;
    const cancelBefore = atTime(manual, manual.now() + 1_000, () => calls++);
    cancelBefore();
    const cancelAfter = atTime(firingEarly(manual, 500), manual.now() + 1_000, () => calls++);
    await manual.advance(600);
    cancelAfter();
    await manual.advance(10_000);
    expect(calls).toBe(0);
    expect(manual.pendingTimers()).toBe(0);
  });

  it('calls back at once, on the next timer, for a time already past', async () => {
    const manual = createManualClock();
    let calls = 0;
    atTime(manual, manual.now() - 5, () => calls++);
    await manual.advance(0);
    expect(calls).toBe(1);
  });
});
