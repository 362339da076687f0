// Small shared pieces: the UI context (store, API, toasts, confirmations, navigation), a modal built
// on <dialog> (focus trap and Escape come from the browser), the toast region (a polite live region,
// so screen readers hear what happened), problems with their detail for support, and state badges
// that pair an icon shape with a word.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { OutboxState, SitewalkApi, SyncState } from '../../../../electron/shared/contract/index';
import type { AppStore } from '../store/app-store';
import type { SiteFormRequest } from '../../features/sites/site-form-rules';
import type { PinStyle } from '../../../../electron/shared/domain';
import { BADGE_URLS, PIN_NAMES, PIN_URLS } from '../sprites';
import { OUTBOX_LABELS, SYNC_LABELS, SYNC_SHORT, markFor, outboxMark } from '../format';
import { issueText } from '../issues';
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

// ---------- modal ----------

export function Modal({ open, onClose, labelledBy, children, className }: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-labelledby={labelledBy}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}

/** One confirmation at a time; a new request answers an older open one with "no". */
export function useConfirmDialog(): { state: ConfirmDialogState; confirm: (options: ConfirmOptions) => Promise<boolean>; close: () => void } {
  const [state, setState] = useState<ConfirmDialogState>({ options: null, resolve: null });
  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        setState((previous) => {
          previous.resolve?.(false);
          return { options, resolve };
        });
      }),
    [],
  );
  const close = useCallback(() => setState({ options: null, resolve: null }), []);
  return { state, confirm, close };
}

export interface ConfirmDialogState {
  options: ConfirmOptions | null;
  resolve: ((ok: boolean) => void) | null;
}

export function ConfirmDialog({ state, onDone }: { state: ConfirmDialogState; onDone: () => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const finish = (ok: boolean) => {
    state.resolve?.(ok);
    onDone();
  };
  const o = state.options;
  const focusCancel = o !== null && (o.focus ?? (o.danger ? 'cancel' : 'confirm')) === 'cancel';
  // After the Modal's showModal() (a child's effect runs first), which focuses the first button.
  useEffect(() => {
    if (o) (focusCancel ? cancelRef : confirmRef).current?.focus();
  }, [o, focusCancel]);
  return (
    <Modal open={o !== null} onClose={() => finish(false)} labelledBy="confirm-title" className="confirm">
      {o && (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            finish(true);
          }}
        >
          <h2 id="confirm-title">{o.title}</h2>
          <div className="confirm-body">{o.body}</div>
          <div className="actions">
            <button ref={confirmRef} type="submit" className={o.danger ? 'danger' : 'primary'}>
              {o.confirmLabel}
            </button>
            <button ref={cancelRef} type="button" onClick={() => finish(false)}>
              {o.cancelLabel ?? 'Cancel'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

// ---------- toasts ----------

export function ToastRegion({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          <span>{t.message}</span>
          {t.action && (
            <button
              type="button"
              onClick={() => {
                t.action!.run();
                dismiss(t.id);
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" className="icon-button" aria-label="Dismiss message" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** "Sync now": also lifts a pause and sends what is due (the core's rule), so it is the retry too. */
export async function syncNow(ui: Ui): Promise<void> {
  const next = await ui.call(() => ui.api.syncNow());
  if (next) ui.store.applyStatus(next);
}

// ---------- problems ----------

/** A problem in words, with the technical detail one click away; `children` go between the two. */
export function Problem({ problem, alert = false, children }: { problem: { message: string; detail: string }; alert?: boolean; children?: ReactNode }) {
  return (
    <div className="problem" role={alert ? 'alert' : undefined}>
      <p>{problem.message}</p>
      {children}
      <SupportDetails detail={problem.detail} />
    </div>
  );
}

export function SupportDetails({ detail }: { detail: string }) {
  return (
    <details>
      <summary>Details for support</summary>
      <pre>{detail}</pre>
    </details>
  );
}

// ---------- badges ----------

export function SyncBadge({ state, short = false }: { state: SyncState; short?: boolean }) {
  const mark = markFor(state);
  return (
    <span className={`badge badge-${state}`} title={short ? SYNC_LABELS[state] : undefined}>
      {mark === 'none' ? <CheckIcon /> : <img src={BADGE_URLS[mark]} alt="" width={18} height={18} />}
      {short ? (
        <>
          <span aria-hidden="true">{SYNC_SHORT[state]}</span>
          <span className="visually-hidden">{SYNC_LABELS[state]}</span>
        </>
      ) : (
        SYNC_LABELS[state]
      )}
    </span>
  );
}

export function OutboxBadge({ state }: { state: OutboxState }) {
  const mark = outboxMark(state);
  return (
    <span className={`badge badge-${state}`}>
      {mark === 'none' ? <CheckIcon /> : <img src={BADGE_URLS[mark]} alt="" width={18} height={18} />}
      {OUTBOX_LABELS[state]}
    </span>
  );
}

/** A pin picture; `decorative` when the colour is said in words next to it. */
export function PinIcon({ style, size = 22, decorative = false }: { style: PinStyle; size?: number; decorative?: boolean }) {
  return <img src={PIN_URLS[style]} alt={decorative ? '' : `${PIN_NAMES[style]} pin`} width={Math.round((size * 32) / 44)} height={size} className="pin-icon" />;
}

export function CheckIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true" className="check-icon">
      <circle cx="10" cy="10" r="8.5" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M5.5 10.5l3 3 6-7" fill="none" stroke="#111" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
