// What the register keeps of a site, as plain types: the register (register.ts) holds and writes
// them, the table (storage/sites-table.ts) reads and writes their rows, the views overlay them.
import type { SiteEdit } from '../../shared/domain';
import type { SiteOrigin } from '../../shared/contract/views';

export type { SiteOrigin };

/**
 * A site's editable fields, those of an edit (domain.ts SiteEdit) but its service ID; absent = not
 * known (or not changed). `measurement` is set by the edit that carried it and dropped by one that
 * moves the site without one (view.ts applyEdit).
 */
export type SiteFields = Omit<Partial<SiteEdit>, 'siteId'>;

export interface SiteRecord {
  localId: string;
  profileId: string;
  /** The service's site ID; null until a create is confirmed. */
  siteId: string | null;
  origin: SiteOrigin;
  /** What the service holds, as far as Sitewalk knows. */
  known: SiteFields;
  /** The highest outbox sequence number already folded into `known` (replays are idempotent). */
  appliedSeq: number;
  createdAt: number;
  updatedAt: number;
  /**
   * Set when the outbox lost the request this site was waiting for (its file was deleted, emptied
   * or cut short): the site needs the user's review, never shows as synced. Cleared by a new save.
   */
  lost?: string;
  /**
   * For a site created or first seen here: the fields of its first queued request, kept so a
   * request the outbox lost still shows what the user typed. Dropped once the service confirms it.
   */
  draft?: SiteFields;
}
