// How long a cached tile is good for: fresh (served without asking the server) until maxAgeMs after
// it was fetched, and how long the page's browser may keep what it is given — up to the tile's own
// freshness, a minute for a stale copy, within bounds so a tile fetched long ago is asked for again.
import type { TileEntry } from './entry';
import type { TileHit, TileSource } from './tile-answer';

/** How long a browser may keep a tile it got (its own cache, before it asks us again). */
const BROWSER_MAX_AGE_S = { min: 60, max: 24 * 60 * 60 };

export function isFresh(entry: TileEntry, now: number, maxAgeMs: number): boolean {
  const age = now - entry.fetchedAt;
  // A fetch time in the future (the clock was set back) is not trusted as fresh.
  return age >= 0 && age < maxAgeMs;
}

function browserMaxAge(entry: TileEntry, source: TileSource, now: number, maxAgeMs: number): number {
  if (source === 'stale') return BROWSER_MAX_AGE_S.min;
  const left = Math.floor((entry.fetchedAt + maxAgeMs - now) / 1000);
  return Math.min(BROWSER_MAX_AGE_S.max, Math.max(BROWSER_MAX_AGE_S.min, left));
}

/** A cached or fetched entry as the answer a host sends. */
export function hitOf(entry: TileEntry, source: TileSource, now: number, maxAgeMs: number): TileHit {
  return { ok: true, bytes: entry.bytes, contentType: entry.contentType, source, fetchedAt: entry.fetchedAt, maxAgeSeconds: browserMaxAge(entry, source, now, maxAgeMs) };
}
