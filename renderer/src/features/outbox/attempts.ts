// The outbox entry's tries, said truthfully: Retry (or "Send again" after a check) starts the
// retry count over, but the tries made before it still happened, so both are shown once they differ.

/** "1 attempt", "3 attempts, 1 since retried", "2 attempts, none since retried", or '' before any try. */
export function attemptsText(entry: { attempts: number; totalAttempts: number }): string {
  const total = Math.max(entry.totalAttempts, entry.attempts);
  if (total === 0) return '';
  const all = `${total} attempt${total === 1 ? '' : 's'}`;
  if (total === entry.attempts) return all;
  return `${all}, ${entry.attempts === 0 ? 'none' : entry.attempts} since retried`;
}
