// The 24-hour email guard's one question: which submissions already have an emailing reprocess
// waiting, sending, needing review or done in the last 24 h? The single reprocess, the batch and the
// bulk preview all ask it here, so the app, the file dialog and the CLI cannot disagree. One pass
// over the entries, whatever the number of submissions asked about.
import type { OutboxEntry } from './types';

/** An emailing reprocess of a submission emailed within this long needs an explicit confirmation. */
export const DUPLICATE_EMAIL_WINDOW_MS = 24 * 3600_000;

export interface RecentEmail {
  /** Completes "Submission 880101 already has a reprocess with email …". */
  phrase: string;
  /** Stands alone in a table cell or a list: "Emailed 20 minutes ago". */
  label: string;
}

/**
 * The recent emailing reprocesses of the profile, by process ID (only those in `processIds` when
 * given). Of several, the one still to happen (waiting, sending, in review) wins over a done one:
 * it is the one that will email next.
 */
export function recentEmails(entries: Iterable<OutboxEntry>, profileId: string, now: number, processIds?: ReadonlySet<string>): Map<string, RecentEmail> {
  const since = now - DUPLICATE_EMAIL_WINDOW_MS;
  const found = new Map<string, { rank: number; email: RecentEmail }>();
  for (const entry of entries) {
    if (entry.kind !== 'reprocess' || entry.profileId !== profileId || !entry.payload.sendEmail) continue;
    const processId = entry.payload.processId;
    if (processIds && !processIds.has(processId)) continue;
    const standing = standingOf(entry, since, now);
    if (!standing) continue;
    const known = found.get(processId);
    if (!known || standing.rank > known.rank) found.set(processId, standing);
  }
  return new Map([...found].map(([processId, { email }]) => [processId, email]));
}

function standingOf(entry: OutboxEntry, since: number, now: number): { rank: number; email: RecentEmail } | null {
  switch (entry.state) {
    case 'done': {
      if (entry.updatedAt < since) return null;
      const when = ago(now - entry.updatedAt);
      return { rank: 1, email: { phrase: `sent ${when}`, label: `Emailed ${when}` } };
    }
    case 'pending':
    case 'paused':
      return { rank: 2, email: { phrase: 'waiting to be sent', label: 'Email waiting to be sent' } };
    case 'sending':
      return { rank: 3, email: { phrase: 'being sent right now', label: 'Email being sent right now' } };
    case 'needs-review':
      return { rank: 3, email: { phrase: 'that may already have been sent (it needs review)', label: 'Email may already have been sent (needs review)' } };
    default:
      return null;
  }
}

function ago(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'} ago`;
}
