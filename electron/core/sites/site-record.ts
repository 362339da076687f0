// What the register keeps of a site, as plain types: the register (register.ts) holds and writes
// them, the table (storage/sites-table.ts) reads and writes their rows, the views overlay them.
import type { PinStyle } from '../../shared/domain';
import type { SiteOrigin } from '../../shared/contract/views';
import type { SiteMeasurement } from '../../shared/validation/measurement';

export type { SiteOrigin };

/** A site's editable fields; absent = not known (or not changed). */
export interface SiteFields {
  name?: string;
  height?: number;
  latitude?: number;
  longitude?: number;
  description?: string;
  group?: string;
  pinStyle?: PinStyle;
  /**
   * How the position was measured, when it came from a receiver: set by the edit that carried it,
   * dropped by one that moves the site without one (view.ts applyEdit), never sent to the service.
   */
  measurement?: SiteMeasurement;
}

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
