// The engine's view of whether the service can be reached: online until a call or probe finds
// nothing there, then offline with a free probe (`?WSDL`, no API call) on backoff — never longer
// apart than the periodic check — until one answers. While started it also re-checks the service
// every `checkEveryMs` when no call is in flight, so the status follows the service with nothing
// queued. It tells the engine when the status may have changed and when sending may resume.
import type { Clock, Random, TimerHandle } from '../clock';
import type { ConnectionMonitor } from './connection';
import type { Reachability, ServiceAccessPort } from './engine-types';
import { backoffDelay, type RetryPolicy } from './policy';

export interface ProbeHost {
  clock: Clock;
  random: Random;
  connection: ConnectionMonitor;
  access: Pick<ServiceAccessPort, 'reachable'>;
  /** Backoff between probes while offline (capped at checkEveryMs by the engine). */
  policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>;
  checkEveryMs: number;
  activeProfile(): string | null;
  /** Whether calls are in flight (their answers tell; the periodic check waits). */
  busy(): boolean;
  /** The status may have changed: tell it. */
  changed(): void;
  /** Waiters for a settled queue may be answered now (going offline settles a stuck queue). */
  settle(): void;
  /** Sending may resume. */
  kick(): void;
  /** A probe found the profile's service answering well (a held queue may try it again now). */
  answering(profileId: string): void;
}

export class ServiceProbe {
  online = true;
  /** When the next probe is due while offline, or null. */
  probeAt: number | null = null;
  private attempt = 0;
  private timer: TimerHandle | null = null;
  private checkTimer: TimerHandle | null = null;
  private probing = false;
  private stopped = false;

  constructor(private readonly host: ProbeHost) {}

  /** Learns how the service is doing now, even with nothing to send, and starts the periodic check. */
  start(): void {
    if (!this.probing) void this.run();
    this.armCheck();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.host.clock.clearTimer(this.timer);
    if (this.checkTimer) this.host.clock.clearTimer(this.checkTimer);
    this.timer = null;
    this.checkTimer = null;
  }

  /** The service answered something: it is reachable, and the probe backoff starts over. */
  reached(): void {
    this.attempt = 0;
  }

  goOffline(): void {
    if (this.stopped) return;
    const was = this.online;
    this.online = false;
    if (!this.timer && !this.probing) this.schedule();
    if (was) this.host.changed();
    this.host.settle();
  }

  /** Probes at once (unless one is on its way), dropping a scheduled one. */
  now(): void {
    if (this.timer) this.host.clock.clearTimer(this.timer);
    this.timer = null;
    if (!this.probing) void this.run();
  }

  /** Forgets what was learnt (another profile's service); probes at once when `started`. */
  reset(started: boolean): void {
    if (this.timer) this.host.clock.clearTimer(this.timer);
    this.timer = null;
    this.probeAt = null;
    this.attempt = 0;
    this.online = true;
    if (started && !this.probing) void this.run();
  }

  /** The periodic re-check: skipped while calls are in flight (their answers tell) or a probe is due anyway. */
  private armCheck(): void {
    if (this.stopped) return;
    this.checkTimer = this.host.clock.setTimer(() => {
      this.checkTimer = null;
      if (this.stopped) return;
      if (!this.probing && !this.timer && !this.host.busy()) void this.run();
      this.armCheck();
    }, this.host.checkEveryMs);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.attempt++;
    const delay = backoffDelay(this.attempt, this.host.policy, this.host.random);
    this.probeAt = this.host.clock.now() + delay;
    this.timer = this.host.clock.setTimer(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    const profileId = this.host.activeProfile();
    if (!profileId) return;
    this.probing = true;
    this.probeAt = null;
    let reach: Reachability;
    try {
      reach = await this.host.access.reachable(profileId);
    } catch (error) {
      reach = { state: 'offline', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.probing = false;
    }
    if (this.stopped) return;
    const now = this.host.clock.now();
    if (reach.state === 'online') {
      this.host.connection.reached(profileId, now);
      this.host.answering(profileId);
    } else this.host.connection.probeFailed(profileId, reach.state, reach.message, now);
    if (reach.state !== 'offline') {
      // Any HTTP answer means it can be reached; an error page still lets the queue try (and back off).
      this.online = true;
      this.host.changed();
      this.host.kick();
    } else {
      // Nothing reached it (at start, too): offline, and the probe keeps trying with backoff.
      this.goOffline();
      this.host.changed();
    }
  }
}
