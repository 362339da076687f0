// A modal built on <dialog> (focus trap and Escape come from the browser) and the one confirmation
// dialog the shell shows for ui.confirm.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConfirmOptions } from './ui-context';

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
