// How busy the machine is beside the bench: the share of CPU time idle over a second, from /proc/stat
// (Linux; elsewhere unknown). A page load on a 2-core machine moves by a third when other work runs
// beside it (a load at 1,000 sites alone spread 385–826 ms right after a test run), so the timed page
// loads wait for a quiet machine, for a bounded time, and their figures say how idle it was.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** All CPUs' idle and total time so far (clock ticks), or null where /proc/stat is absent. */
function cpuTimes(): { idle: number; total: number } | null {
  if (!existsSync('/proc/stat')) return null;
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice": guest time is inside user.
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = fields[3]! + fields[4]!;
  return { idle, total: fields.reduce((sum, ticks) => sum + ticks, 0) };
}

/** The share of CPU time idle over the next `ms` (0–1), or null where it cannot be read. */
export async function idleShare(ms = 1_000): Promise<number | null> {
  const before = cpuTimes();
  await sleep(ms);
  const after = cpuTimes();
  if (!before || !after || after.total === before.total) return null;
  return (after.idle - before.idle) / (after.total - before.total);
}

/** Waits until a second passes with at least `share` of the CPU idle, for at most `maxMs`: what was last seen, and how long it waited. */
export async function waitForQuiet(share = 0.9, maxMs = 120_000): Promise<{ idle: number | null; waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const idle = await idleShare();
    const waitedMs = performance.now() - started;
    if (idle === null || idle >= share || waitedMs >= maxMs) return { idle, waitedMs };
  }
}

/** "97% idle" (or "idle unknown"), for a figure's note. */
function describeIdle(idle: number | null): string {
  return idle === null ? 'idle unknown' : `${Math.round(idle * 100)}% idle`;
}

/** For a figure's note: how idle the machine was before the rounds (`before`, from waitForQuiet) and right after them. */
export async function machineNote(before: { idle: number | null; waitedMs: number }): Promise<string> {
  const waited = before.waitedMs >= 1_500 ? `, after waiting ${Math.round(before.waitedMs / 1000)} s` : '';
  return `the machine ${describeIdle(before.idle)} before the rounds${waited}, ${describeIdle(await idleShare())} after`;
}
