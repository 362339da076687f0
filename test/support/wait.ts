// How tests wait for an effect that finishes on its own (a journal write, an answer, a run that
// ends): `expect.poll(read, waiting('what we wait for'))` or `vi.waitFor(check, waiting(...))`.
// Generous, so a loaded machine cannot make a test flaky; a short interval, because effects on a
// manual clock settle within a few turns of the event loop and a test may wait many times.

export interface Waiting {
  /** Said when the wait runs out: what never happened. */
  message: string;
  timeout: number;
  interval: number;
}

export function waiting(message: string, timeout = 20_000): Waiting {
  return { message, timeout, interval: 2 };
}
