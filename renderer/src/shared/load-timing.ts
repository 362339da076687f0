// Named spans of the first load on the page's performance timeline (`sitewalk:<step>` measures), so a
// benchmark or a person with the browser's tools can see where the time to the first pins goes:
// answer received, pins built, clusters built, drawn, views made. Each name is recorded its first few
// times only, so a long session's redraws do not grow the timeline.
const RECORDED_PER_NAME = 4;
const recorded = new Map<string, number>();

/** Runs `work`, recording how long it took as `sitewalk:<name>` (the first few times). */
export function timed<T>(name: string, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    record(name, start);
  }
}

/** Records an instant (`sitewalk:<name>`), the first few times. */
export function marked(name: string): void {
  record(name, performance.now());
}

/** Records the span from `start` (a performance.now()) to `end` (now by default) as `sitewalk:<name>`, the first few times. */
export function record(name: string, start: number, end = performance.now()): void {
  const count = recorded.get(name) ?? 0;
  if (count >= RECORDED_PER_NAME) return;
  recorded.set(name, count + 1);
  // Measuring is never worth an error: a browser without the User Timing API just has no figures.
  try {
    performance.measure(`sitewalk:${name}`, { start, end });
  } catch {
    // Nothing to record on.
  }
}
