// When the outbox's history (finished entries) older than the days kept is dropped: at open, then
// every hour while the folder is open (on the core's clock, so a test can step it), and at close.
// A long-running app drops old history without being closed; each drop is made of short
// transactions (OutboxStore.expireHistory), so the app's and the CLI's writes never wait long.
import type { Clock, TimerHandle } from '../clock';
import type { OutboxStore } from './store';

export const EXPIRE_EVERY_MS = 3_600_000;

export class HistoryExpiry {
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    private readonly store: Pick<OutboxStore, 'expireHistory'>,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
    private readonly everyMs = EXPIRE_EVERY_MS,
  ) {}

  /** Drops what is due now and every `everyMs` after. */
  start(): void {
    this.stopped = false;
    this.runNow();
    this.arm();
  }

  /** Stops the periodic drop (close() runs a last one itself). */
  stop(): void {
    this.stopped = true;
    if (this.timer) this.clock.clearTimer(this.timer);
    this.timer = null;
  }

  /** Drops what is due; a failure (a full disk…) is said and the history kept, never thrown. */
  runNow(): number {
    try {
      return this.store.expireHistory();
    } catch (error) {
      this.log(`outbox: old history could not be dropped (${error instanceof Error ? error.message : String(error)}); it is kept.`);
      return 0;
    }
  }

  private arm(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      if (this.stopped) return;
      this.runNow();
      this.arm();
    }, this.everyMs);
  }
}
