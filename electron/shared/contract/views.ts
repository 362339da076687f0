// What the renderer (and the CLI's JSON) sees: the single definition of every view. The core builds
// these and extends them only where it keeps more (a Problem is a ProblemView with its facts typed).
// No view carries an API key: profiles say hasKey and keyStore.
import type { Binding, GpsSourceKind, HeightUnit, InputIssue, KeyStoreKind, OutboxState, PinStyle, RenderingQuality, SyncState, Theme } from '../domain';
import type { BulkProgress, ReportRow, RunResult } from '../bulk/report';
import type { CarriedBy } from '../aspnet';
import type { SiteMeasurement } from '../validation/measurement';
import type { ProfileSettings } from '../validation/profile';

export type { CarriedBy };

/** A profile as the user sees it: its settings (where calls go, as whom), never its key. */
export interface ProfileView extends ProfileSettings {
  id: string;
  /** The built-in Sandbox profile (starts the local sandbox; not editable, not deletable). */
  builtIn: boolean;
  active: boolean;
  hasKey: boolean;
  /** Where this profile's key is kept; 'session-only' means it is forgotten when the app quits. */
  keyStore: KeyStoreKind;
  /**
   * A call the service's ASP.NET front would refuse over HTTP GET/POST (markup-like text, a GET query
   * over 2,048 characters) goes over SOAP 1.1 (or HTTP POST) instead; off = it fails as rejected input.
   */
  bindingFallback: boolean;
}

/** One step of a connection test: passed, failed, or not run (skipped, with why). */
export type ConnectionCheckOutcome = 'passed' | 'failed' | 'skipped';

export interface ConnectionCheck {
  outcome: ConnectionCheckOutcome;
  /** A sentence for the user. */
  message: string;
  /** For support: statuses, codes, what was answered. */
  detail: string;
}

/** How one binding fared in a connection test. */
export interface BindingCheck {
  binding: Binding;
  /** Whether the service description lists a port for it (null when the WSDL could not be read). */
  inWsdl: boolean | null;
  /** Whether the binding answered as ASMX does (null: not asked, or the answer says nothing). */
  answers: boolean | null;
  /** How it was asked: a request ASMX refuses before any operation (free), or the real call (one API call). */
  how: 'refusal' | 'call' | 'not-asked';
  message: string;
}

/** The result of "Test connection" for a profile: each step, and what it cost. */
export interface ConnectionTestView {
  profileId: string;
  /** The service answers and accepted the account and key. */
  ok: boolean;
  /** The service description (…?WSDL) answered: no API call. */
  reachability: ConnectionCheck;
  /** One GetRenderingQualityList call with the profile's account and key. */
  credentials: ConnectionCheck;
  bindings: BindingCheck[];
  /** API calls this test used (each one counts against the account's calls). */
  apiCallsUsed: number;
  /** One paragraph saying it all. */
  summary: string;
  testedAt: string;
}

/** What went wrong, in both faces. */
export interface ProblemView {
  kind: string;
  /** A sentence a technician understands. */
  message: string;
  /** What support needs (status, codes, body excerpt). */
  detail: string;
  retryable?: boolean;
  quotaExhausted?: boolean;
  authRejected?: boolean;
  /** Whether the service may have applied the request. */
  mayHaveBeenApplied?: boolean;
  /** Field issues, for invalid input and validation faults. */
  issues?: InputIssue[];
  /** How many tries in a row the service gave this same answer (server exceptions). */
  repeats?: number;
}

export type SiteOrigin =
  /** Created in Sitewalk (starts with a temporary ID). */
  | 'created'
  /** Added by its service ID (nothing sent). */
  | 'existing'
  /** Came from a bulk import or an edit queued for a site Sitewalk did not know. */
  | 'imported';

/** A site as the user sees it: what the service holds, overlaid with the edits still queued. */
export interface SiteView {
  /** Stable local ID (a temporary one until the service gives a new site its ID; kept afterwards). */
  localId: string;
  /** The service's site ID, null until a create is confirmed. */
  siteId: string | null;
  profileId: string;
  origin: SiteOrigin;
  name: string;
  height: number | null;
  latitude: number | null;
  longitude: number | null;
  description: string;
  group: string;
  pinStyle: PinStyle;
  /** How the position was measured when it came from a receiver (the register keeps it), else null. */
  measurement: SiteMeasurement | null;
  syncState: SyncState;
  /** The problem of the entry that needs the user (or of the last failed try of a pending one). */
  lastError: ProblemView | null;
  /** Outbox entries of this site not yet done. */
  queued: number;
  createdAt: string;
  updatedAt: string;
  /** Grows with every change of the site (or of its queued entries): a view with a lower one is stale. */
  revision: number;
}

export interface OutboxEntryView {
  id: string;
  kind: 'site' | 'reprocess';
  state: OutboxState;
  profileId: string;
  /** Site entries: the site's local ID, whether it is a create, and the service ID once known. */
  localId?: string;
  op?: 'create' | 'edit';
  siteId?: string | null;
  /** A one-line summary, e.g. "Create site 'North Ridge' (45 m)". */
  summary: string;
  /** What will be (or was) sent, in domain names. */
  payload: Record<string, unknown>;
  /** Tries since they last started over (Send again), answers that the service was away left out: what the retry policy counts. */
  attempts: number;
  /** Tries of this request in all, Send again or not (a corrected request starts over): at least `attempts`. */
  totalAttempts: number;
  createdAt: string;
  updatedAt: string;
  nextAttemptAt: string | null;
  /** The service's answer once done. */
  result: string | null;
  problem: ProblemView | null;
  /**
   * Set when the last try went over another binding than the profile's because the service's ASP.NET
   * front would have refused it (request validation, query length): which one, and why.
   */
  carriedBy?: CarriedBy | null;
  /** Grows with every change of the entry: a view with a lower one is stale. */
  revision: number;
}

/**
 * One page of the outbox's history (done entries of the active profile), newest first: by when they
 * were done, then by queue order. Pages are fetched on demand, never all at once.
 */
export interface OutboxHistoryPage {
  entries: OutboxEntryView[];
  /** Pass as `before` to get the next, older page; null when this page reaches the oldest. */
  next: string | null;
  /** Done entries of the active profile kept in the history now (all pages together). */
  total: number;
}

/** Site edits simply waiting to be sent that a listing holds (the first, in the order they are sent): the outbox shows these. */
export const LISTED_PENDING = 300;

/** Whether an entry is what a listing (and the page's store) holds only the first LISTED_PENDING of: a site edit simply waiting. */
export function isWaitingEdit(entry: { kind: string; state: OutboxState }): boolean {
  return entry.kind === 'site' && entry.state === 'pending';
}

/** The outbox as the page opens it: the unfinished entries (but the waiting edits past LISTED_PENDING), and the newest page of the history. */
export interface OutboxListing {
  /**
   * Entries not done (pending, sending, failed, needs-review, paused), oldest first: every one but the
   * site edits waiting beyond the first LISTED_PENDING, which the status counts (pendingCount) and the
   * page hears of as they change.
   */
  active: OutboxEntryView[];
  /** How many waiting site edits `active` leaves out (0 when it lists every unfinished entry). */
  pendingLeftOut: number;
  history: OutboxHistoryPage;
}

/**
 * What one action changed, for the renderer to show at once (each with its revision, so a later
 * event or answer can never undo it on screen).
 */
export interface ChangeSet {
  entries: OutboxEntryView[];
  entriesRemoved: Array<{ entryId: string; revision: number }>;
  sites: SiteView[];
  sitesRemoved: Array<{ localId: string; revision: number }>;
}

/** Why the active profile's queue cannot move now. */
export interface BlockedView {
  /** unavailable: the service said it cannot take requests now (503…), and the queue is held. */
  reason: 'offline' | 'paused' | 'no-key' | 'no-profile' | 'write-failed' | 'unavailable';
  message: string;
}

/**
 * checking: nothing known since start; online: calls succeed (or the service answered and refused an
 * input); not-answering: 5xx, error pages, timeouts or a hung call; offline: nothing reached it;
 * paused: the key or the account's API calls were refused.
 */
export const CONNECTION_STATES = ['checking', 'online', 'not-answering', 'offline', 'paused'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

export interface ConnectionView {
  state: ConnectionState;
  /** The last failure that said something about the service, with when it happened. */
  lastError: { message: string; at: string } | null;
  /** When the service will be tried again, when Sitewalk is waiting to. */
  nextTryAt: string | null;
}

/** The sync engine's state for the active profile. */
export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  paused: { reason: 'quota' | 'auth'; message: string; since: string } | null;
  /** Why the active profile's queue cannot move now, or null. */
  blocked: BlockedView | null;
  /** Entries pending, sending or paused. */
  pendingCount: number;
  sendingCount: number;
  /** Entries failed or needing review: waiting for the user. */
  attentionCount: number;
  /** When the active profile's service last answered well; null if it never has. */
  lastSyncAt: string | null;
  /** What calls really say about the service (the header, the pins and the outbox agree on it). */
  connection: ConnectionView;
  activeProfileId: string;
  /** What was found damaged in the data folder at start, one sentence each (kept until restart). */
  dataProblems: string[];
  /** Grows with every change of the status: a status with a lower one (a late call answer) is stale. */
  revision: number;
}

/** The sync status as a host shows it, with which host serves the page. */
export interface StatusView extends SyncStatus {
  host: 'electron' | 'browser';
}

export type RenderingQualityView = RenderingQuality;

export interface RenderingQualitiesView {
  items: RenderingQualityView[];
  fetchedAt: string | null;
  /** True when the items come from the cache (offline, or not asked to refresh). */
  fromCache: boolean;
  problem: ProblemView | null;
}

export interface SettingsView {
  tileUrl: string;
  tileAttribution: string;
  syncConcurrency: number;
  heightUnit: HeightUnit;
  /** 'system' follows the operating system's light or dark setting. */
  theme: Theme;
  /** Where "My location" comes from: the platform (browser/OS), a gpsd daemon or a raw NMEA 0183 stream over TCP. */
  gpsSource: GpsSourceKind;
  /** Host and port of the gpsd daemon or NMEA stream (unused for 'device' and 'off'). */
  gpsHost: string;
  gpsPort: number;
  /**
   * The accuracy gate per profile (profile ID → metres): a fix worse than its profile's gate cannot
   * place a site without "Use it anyway". A profile not listed has the default (5 m, ../gps/gate.ts).
   * Kept in the settings, keyed by profile, rather than in the profile records (which the service
   * connection owns).
   */
  gpsGates: Record<string, number>;
  /** The welcome was answered in this data folder (by any browser or window that opened it). */
  welcomed: boolean;
}

export const DEFAULT_SETTINGS: SettingsView = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tileAttribution: '&copy; OpenStreetMap contributors',
  syncConcurrency: 4,
  heightUnit: 'm',
  theme: 'system',
  gpsSource: 'device',
  gpsHost: '127.0.0.1',
  gpsPort: 2947,
  gpsGates: {},
  welcomed: false,
};

// ---------- bulk work: import, export, EUS reprocess from a file ----------

/** A file handed to the host for bulk work; later calls name it by `fileId`. */
export interface BulkFileView {
  fileId: string;
  name: string;
  size: number;
}

/** A bulk run (an import or an EUS reprocess from a file), followed by the host. */
export interface BulkRunView {
  id: string;
  kind: 'import' | 'reprocess';
  fileName: string;
  startedAt: string;
  state: 'running' | 'ended';
  /**
   * An import checking its file again before it queues anything (the register may have changed
   * since the preview): seconds for a large file. Cancelled meanwhile, it ends with nothing queued.
   */
  checking: boolean;
  /** Counts and time left while the batch is sent; null before it is queued. */
  progress: BulkProgress | null;
  /** How it ended (null while running). */
  result: Omit<RunResult, 'rows'> | null;
  /** Every row of the file, once the run has ended (events leave them out: ask getBulkRun). */
  rows: ReportRow[] | null;
}

/** A file the host made for the user to save. */
export interface ExportedFile {
  fileName: string;
  mimeType: string;
  content: string;
  /** What the user should know about the file (sites left out, sites without a service ID). */
  notes: string[];
}
