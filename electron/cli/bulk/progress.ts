// Progress of a bulk run on a terminal: one line rewritten in place (counts and time left), only when
// stderr is a TTY so logs and pipes get no carriage-return noise. Formatting is pure for tests.
import type { BulkProgress } from '../../core/bulk/apply';

/** "2 min 5 s", "40 s", "under 1 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return 'under 1 s';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** One line: "Sending 1,234 of 10,000 · 3 failed · 1 to review · about 2 min left". */
export function progressLine(progress: BulkProgress, verb = 'Sent'): string {
  const ended = progress.done + progress.failed + progress.needsReview + progress.cancelled;
  const parts = [`${verb} ${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')}`];
  if (progress.failed > 0) parts.push(`${progress.failed.toLocaleString('en')} failed`);
  if (progress.needsReview > 0) parts.push(`${progress.needsReview.toLocaleString('en')} to review`);
  if (progress.paused > 0) parts.push(`${progress.paused.toLocaleString('en')} held`);
  if (progress.cancelled > 0) parts.push(`${progress.cancelled.toLocaleString('en')} cancelled`);
  if (progress.cancelling) parts.push('cancelling: waiting for requests in flight');
  else if (ended < progress.total && progress.etaMs !== null) parts.push(`about ${formatDuration(progress.etaMs)} left`);
  return parts.join(' · ');
}

export interface ProgressPrinter {
  update(progress: BulkProgress): void;
  /** Ends the line (if one was drawn). */
  done(): void;
}

export function terminalProgress(write: (text: string) => void, enabled: boolean, verb?: string): ProgressPrinter {
  let drawn = false;
  let width = 0;
  return {
    update(progress) {
      if (!enabled) return;
      const line = progressLine(progress, verb);
      write(`\r${line}${' '.repeat(Math.max(0, width - line.length))}`);
      width = line.length;
      drawn = true;
    },
    done() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}
