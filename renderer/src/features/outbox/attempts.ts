// The outbox entry's tries, said truthfully: every try is counted, and once they differ, how many of
// them count toward giving up — Retry (or "Send again" after a check) starts that count over, and an
// answer that the service is away (the queue's outage hold) never counts. "Since retried" was untrue
// for the second: an entry nobody retried read "2 attempts, none since retried" during an outage.

/** "1 attempt", "3 attempts, 1 counting toward giving up", "2 attempts, none counting toward giving up", or '' before any try. */
export function attemptsText(entry: { attempts: number; totalAttempts: number }): string {
  const total = Math.max(entry.totalAttempts, entry.attempts);
  if (total === 0) return '';
  const all = `${total} attempt${total === 1 ? '' : 's'}`;
  if (total === entry.attempts) return all;
  return `${all}, ${entry.attempts === 0 ? 'none' : entry.attempts} counting toward giving up`;
}
