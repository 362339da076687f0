// The first load's waits: for a frame to be painted, or for something that may never come, bounded.

/**
 * Runs `run` once the next frame has been painted (the map's pins on screen); at once where there are
 * no frames (tests in Node), and after 100 ms at the latest (a hidden window paints no frames).
 */
export function afterPaint(run: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    run();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    run();
  };
  const timer = setTimeout(once, 100);
  requestAnimationFrame(() => setTimeout(once, 0));
}

/** `promise`, or nothing after `ms` (a map that never subscribes or draws, as in a hidden window, holds nothing up for long). */
export function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
