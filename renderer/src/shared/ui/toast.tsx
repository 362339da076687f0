// Toasts: the newest few messages, each gone after a while (longer when it offers an action), in a
// polite live region so screen readers hear what happened.
import { useCallback, useRef, useState } from 'react';
import type { Toast, Ui } from './ui-context';

const TOAST_MS = 8_000;

/** The toasts on screen, `toast` to add one, `dismiss` to take one away. */
export function useToasts(): { toasts: Toast[]; toast: Ui['toast']; dismiss: (id: number) => void } {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const seq = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const toast = useCallback<Ui['toast']>(
    (message, options) => {
      const id = ++seq.current;
      setToasts((t) => [...t.slice(-3), { id, message, tone: options?.tone ?? 'info', ...(options?.action ? { action: options.action } : {}) }]);
      setTimeout(() => dismiss(id), options?.action ? TOAST_MS * 2 : TOAST_MS);
    },
    [dismiss],
  );
  return { toasts, toast, dismiss };
}

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
