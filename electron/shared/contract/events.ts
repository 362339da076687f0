// What the renderer may hear: every change the core makes, as it is made.
import type { BasemapView, DownloadView } from './basemaps';
import type { GpsView } from './gps';
import type { BulkRunView, ChangeSet, OutboxEntryView, ProfileView, SettingsView, SiteView, StatusView } from './views';

export type ApiEvent =
  | { type: 'status'; status: StatusView }
  /**
   * Site and outbox changes the core told together (one transaction: an import's thousands of rows),
   * in one event the page applies in one update. The hosts send these; the four single-change events
   * below say the same for one object (the page's store applies both forms alike).
   */
  | { type: 'changes'; changes: ChangeSet }
  | { type: 'site'; site: SiteView }
  /** Removals carry the revision of the removal: a view with a lower one must not bring the object back. */
  | { type: 'site-removed'; localId: string; revision: number }
  | { type: 'outbox'; entry: OutboxEntryView }
  | { type: 'outbox-removed'; entryId: string; revision: number }
  | { type: 'profiles'; profiles: ProfileView[] }
  | { type: 'settings'; settings: SettingsView }
  /** A bulk run started, moved on or ended (rows are left out: getBulkRun has them). */
  | { type: 'bulk-run'; run: BulkRunView }
  /** Something the user should know that is not tied to one entry (a damaged data file, a failed write). */
  | { type: 'problem'; message: string; detail: string }
  /** The basemaps changed (one added, removed, switched to, or a file became unreadable). */
  | { type: 'basemaps'; basemaps: BasemapView[] }
  /** An area download moved on (at most a few times a second) or ended. */
  | { type: 'download'; download: DownloadView }
  /** The GPS receiver the host reads changed state or gave a new fix (at most about 4 a second). */
  | { type: 'gps'; gps: GpsView };
