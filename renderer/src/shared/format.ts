// Words and small pictures the UI shows for states and times. Every state has a word and a badge
// shape (never colour alone), and the same wording is used on the map legend, the list and the outbox.
import type { OutboxState, SiteView, SyncState } from '../../../electron/shared/contract/index';
import type { PinMark } from './sprites';

export const SYNC_LABELS: Record<SyncState, string> = {
  synced: 'On the service',
  pending: 'Waiting to send',
  failed: 'Rejected — needs attention',
  'needs-review': 'Check needed',
};

/** Short words for tight places (list rows); the full label goes in the accessible name. */
export const SYNC_SHORT: Record<SyncState, string> = {
  synced: 'Synced',
  pending: 'Waiting',
  failed: 'Rejected',
  'needs-review': 'Check',
};

export const OUTBOX_LABELS: Record<OutboxState, string> = {
  pending: 'Waiting to send',
  sending: 'Sending…',
  done: 'Done',
  failed: 'Rejected',
  'needs-review': 'Check needed',
  paused: 'Paused',
};

/**
 * An outbox entry's word: a failed one the service never refused (Sitewalk stopped trying: its calls
 * kept failing in transit or timing out, or the service kept answering the same error) "Gave up", not
 * "Rejected". (A service that says it is away costs no try: the queue waits for it instead.)
 */
export function outboxLabel(state: OutboxState, problemKind?: string): string {
  return state === 'failed' && problemKind === 'gave-up' ? 'Gave up' : OUTBOX_LABELS[state];
}

export function markFor(state: SyncState): PinMark {
  switch (state) {
    case 'pending':
      return 'pending';
    case 'failed':
      return 'failed';
    case 'needs-review':
      return 'review';
    case 'synced':
      return 'none';
  }
}

export function outboxMark(state: OutboxState): PinMark {
  switch (state) {
    case 'pending':
    case 'sending':
    case 'paused':
      return 'pending';
    case 'failed':
      return 'failed';
    case 'needs-review':
      return 'review';
    case 'done':
      return 'none';
  }
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", or a date for older times. */
export function relativeTime(iso: string | null, now: number = Date.now()): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return 'unknown';
  const seconds = Math.round((now - t) / 1000);
  if (seconds < -30) return `in ${untilText(-seconds)}`;
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} day${days === 1 ? '' : 's'} ago`;
  return new Date(t).toLocaleDateString();
}

function untilText(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/** "in 30 s" / "now" for a next-attempt time. */
export function untilTime(iso: string | null, now: number = Date.now()): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return null;
  const seconds = Math.round((t - now) / 1000);
  return seconds <= 0 ? 'now' : `in ${untilText(seconds)}`;
}

export function siteTitle(site: Pick<SiteView, 'name' | 'siteId' | 'localId'>): string {
  if (site.name) return site.name;
  if (site.siteId) return `Site ${site.siteId}`;
  return 'Unnamed site';
}

/** Great-circle distance in meters (for "moved 1.2 km"). */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = 6_371_000;
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function formatDistance(meters: number): string {
  if (meters < 1000) return `${Math.round(meters)} m`;
  return `${(meters / 1000).toFixed(meters < 10_000 ? 2 : 1)} km`;
}

/** Escapes a tile attribution so only text (and entities like &copy;) reach Leaflet's innerHTML. */
export function safeAttribution(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A count as people read it, the same everywhere: 4,995, never 4995 in one place and 4,995 in another. */
export function formatCount(n: number): string {
  return n.toLocaleString('en');
}

/** "1 site", "4,995 sites": the count formatted and the noun agreeing with it. */
export function countOf(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
