// The UI context every panel reads: the store, the API, toasts, confirmations and the shell's
// navigation (open a panel, the site form, a bulk dialog; select a site). The shell (app/) provides
// it; features only call it, so none of them needs to know another's components.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { SitewalkApi } from '../../../../electron/shared/contract/index';
import type { SiteMeasurement } from '../../../../electron/shared/validation/measurement';
import type { AppStore } from '../store/app-store';
import { issueText } from '../issues';
import { untilTime } from '../format';
import type { Result } from '../../../../electron/shared/result';

export type Panel = 'sites' | 'outbox' | 'eus' | 'qualities' | 'settings';
export type BulkDialog = 'import' | 'export' | 'reprocess';

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'success' | 'error';
  action?: { label: string; run: () => void };
}

export interface ConfirmOptions {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  /**
   * The button that has focus when the dialog opens (Enter presses it): the confirm button, unless
   * the action is dangerous or easily triggered by accident (a pin moved by a slip), then Cancel.
   */
  focus?: 'confirm' | 'cancel';
}

/** A position from "My location" (its accuracy radius in meters, and how it was fixed), offered to the form. */
export interface PickedFix {
  accuracyM: number | null;
  qualityLabel: string;
  /** How the position was measured (fixes averaged, spread, gate…): kept with the site. */
  measurement?: SiteMeasurement;
  /** The position measured (the form keeps the measurement only while the coordinates are these). */
  at?: { lat: number; lon: number };
}

/** What opens the form: a new site (maybe where the map was clicked), an edit, or a site added by its service ID. */
export type SiteFormRequest =
  | { mode: 'new'; lat: number | null; lng: number | null; draftKey?: string; fix?: PickedFix }
  | { mode: 'edit'; localId: string; draftKey?: string }
  | { mode: 'existing'; draftKey?: string };

export interface Ui {
  store: AppStore;
  api: SitewalkApi;
  toast(message: string, options?: { tone?: Toast['tone']; action?: Toast['action'] }): void;
  confirm(options: ConfirmOptions): Promise<boolean>;
  openPanel(panel: Panel, focus?: string): void;
  openSiteForm(request: SiteFormRequest): void;
  /** Opens a bulk dialog: import sites from a file, export them, or reprocess EUS submissions from a file. */
  openBulk(kind: BulkDialog): void;
  selectSite(localId: string | null, pan?: boolean): void;
  /** Runs an API call; a thrown error (host unreachable) becomes a toast and undefined. */
  call<T>(run: () => Promise<T>): Promise<T | undefined>;
}

export const UiContext = createContext<Ui | null>(null);

export function useUi(): Ui {
  const ui = useContext(UiContext);
  if (!ui) throw new Error('useUi outside UiContext');
  return ui;
}

/** Re-renders every `ms` milliseconds (for "5 min ago" texts). */
/** How often a countdown to `iso` must be redrawn: every second in its last minute ("in 42 s"), else `slow` ms. */
export function countdownTick(iso: string | null | undefined, slow: number): number {
  const left = iso ? Date.parse(iso) - Date.now() : Number.NaN;
  return left > -1_000 && left < 61_000 ? 1_000 : slow;
}

export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * Runs an API call whose refusal is said in an error toast (as `ui.call` says a failed call): the
 * answer when it was done, else undefined.
 */
export async function callWithToast<T>(ui: Ui, run: () => Promise<Result<T>>): Promise<Extract<Result<T>, { ok: true }> | undefined> {
  const result = await ui.call(run);
  if (result && !result.ok) ui.toast(issueText(result.issues), { tone: 'error' });
  return result?.ok ? result : undefined;
}

/**
 * A card's main button that puts its item in use (a profile, a basemap), or nothing when the item is
 * in use already: `use` asks the host, a refusal is a toast, `onUsed` gets the host's answer.
 */
export function UseButton<T>({ active, use, onUsed, children }: { active: boolean; use: () => Promise<Result<T>>; onUsed: (value: T) => unknown; children: ReactNode }) {
  const ui = useUi();
  if (active) return null;
  return (
    <button
      type="button"
      className="primary"
      onClick={async () => {
        const done = await callWithToast(ui, use);
        if (done) await onUsed(done.value);
      }}
    >
      {children}
    </button>
  );
}

/** A button for something that cannot be undone: it asks first (Cancel has focus) and acts on yes only. */
export function ConfirmButton({ confirm, onConfirmed, children }: { confirm: Omit<ConfirmOptions, 'danger'>; onConfirmed: () => unknown; children: ReactNode }) {
  const ui = useUi();
  return (
    <button
      type="button"
      className="danger-outline"
      onClick={async () => {
        if (await ui.confirm({ ...confirm, danger: true })) await onConfirmed();
      }}
    >
      {children}
    </button>
  );
}

/**
 * "Sync now": also lifts a pause and sends what is due (the core's rule), so it is the retry too.
 * Pressed while the service is away or out of reach, the try is over in a moment and the pill looks
 * as before: once it is answered, a message says what it found, so the press is seen to do something.
 */
export async function syncNow(ui: Ui): Promise<void> {
  const next = await ui.call(() => ui.api.syncNow());
  if (!next) return;
  ui.store.applyStatus(next);
  if (!stillAway(next)) return;
  const after = await newerIdleStatus(ui.store, next.revision, TRIED_WAIT_MS);
  const away = after ? stillAway(after) : null;
  if (away) ui.toast(`Tried now: ${away}. Changes are kept.`, { tone: 'info' });
}

/** How long "Sync now" waits for its try to be answered before it says nothing. */
const TRIED_WAIT_MS = 30_000;

type StatusOf = NonNullable<ReturnType<AppStore['getState']>['status']>;

/**
 * Whether the service is reachable but says it is away: the queue held over a 503, or (nothing held
 * yet, nothing else in the way) the last call or probe found it not answering.
 */
export function serviceAway(status: Pick<StatusOf, 'online' | 'blocked' | 'connection'>): boolean {
  const { blocked } = status;
  return blocked?.reason === 'unavailable' || (blocked === null && status.online && status.connection.state === 'not-answering');
}

/** What a "Sync now" found when the service is still away or unreachable, else null. */
function stillAway(status: StatusOf): string | null {
  const next = untilTime(status.connection.nextTryAt);
  if (serviceAway(status)) return `the service still says it is unavailable${next ? `; next try ${next}` : ''}`;
  if (!status.online) return 'the service still cannot be reached; Sitewalk keeps trying';
  return null;
}

/** The first status newer than `revision` with nothing being sent, or null after `ms`. */
function newerIdleStatus(store: AppStore, revision: number, ms: number): Promise<StatusOf | null> {
  return new Promise((resolve) => {
    const check = () => {
      const status = store.getState().status;
      if (!status || status.revision <= revision || status.syncing) return;
      done(status);
    };
    const unsubscribe = store.subscribe(check);
    const timer = setTimeout(() => done(null), ms);
    function done(status: StatusOf | null) {
      unsubscribe();
      clearTimeout(timer);
      resolve(status);
    }
    check();
  });
}
