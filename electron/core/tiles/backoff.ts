// Per tile server (host), after it could not be reached: until when tiles are answered from disk only
// without trying it again (offline, each new tile would otherwise wait for its own failure). Logs the
// transitions only — unreachable, reachable again — never a line per tile.
import type { Clock } from '../clock';

export interface Backoff {
  /** Whether `server` is still being left alone after its last failure. */
  waiting(server: string, now: number): boolean;
  unreachable(server: string, detail: string): void;
  reachable(server: string): void;
}

export function createBackoff(options: { retryAfterMs: number; clock: Pick<Clock, 'now'>; log: (line: string) => void }): Backoff {
  const { retryAfterMs, clock, log } = options;
  const until = new Map<string, number>();
  const down = new Set<string>();
  return {
    waiting: (server, now) => now < (until.get(server) ?? 0),
    unreachable(server, detail) {
      until.set(server, clock.now() + retryAfterMs);
      if (down.has(server)) return;
      down.add(server);
      log(`tiles: the map tile server cannot be reached (${detail}); showing cached tiles, trying again at most every ${Math.round(retryAfterMs / 1000)} s.`);
    },
    reachable(server) {
      until.delete(server);
      if (!down.delete(server)) return;
      log('tiles: the map tile server answers again.');
    },
  };
}

/** The server a tile URL is backed off by: its host (with the port). */
export function serverOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the tile server';
  }
}
