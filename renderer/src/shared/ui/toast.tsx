// Toasts: the newest few messages, each gone after a while (longer when it offers an action), in a
// polite live region so screen readers hear what happened. No message leaves while it is being read:
// every timer stands still while the pointer is on a message or focus is in one (a crew's gloved
// finger resting on it, a keyboard user on its button), and starts again with what was left, never
// less than a few seconds, when both have gone. Dismiss takes one away at any time. The region
// publishes its height (--toasts-room) so the sidebar it sits over can leave room under its end.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Toast, Ui } from './ui-context';

/** How long a message stays; one with an action twice as long. */
export const TOAST_MS = 8_000;
/** What a message has left at least once its hold ends: it does not vanish as the pointer leaves. */
export const RESUME_MIN_MS = 3_000;

interface Countdown {
  /** Time left, as of `startedAt` (null while held). */
  left: number;
  startedAt: number | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * The toasts on screen, `toast` to add one, `dismiss` to take one away, and `hold` for the region to
 * say whether a message is being read (pointer on one, or focus in one): all timers wait meanwhile.
 */
export function useToasts(): { toasts: Toast[]; toast: Ui['toast']; dismiss: (id: number) => void; hold: (held: boolean) => void } {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const seq = useRef(0);
  const countdowns = useRef(new Map<number, Countdown>());
  const held = useRef(false);

  const dismiss = useCallback((id: number) => {
    const countdown = countdowns.current.get(id);
    if (countdown?.timer) clearTimeout(countdown.timer);
    countdowns.current.delete(id);
    setToasts((t) => t.filter((x) => x.id !== id));
  }, []);

  const run = useCallback(
    (id: number, countdown: Countdown) => {
      countdown.startedAt = Date.now();
      countdown.timer = setTimeout(() => dismiss(id), countdown.left);
    },
    [dismiss],
  );

  const toast = useCallback<Ui['toast']>(
    (message, options) => {
      const id = ++seq.current;
      setToasts((t) => {
        // Four at most: the oldest goes (it was read out when it came), and its timer with it.
        for (const old of t.slice(0, -3)) {
          const countdown = countdowns.current.get(old.id);
          if (countdown?.timer) clearTimeout(countdown.timer);
          countdowns.current.delete(old.id);
        }
        return [...t.slice(-3), { id, message, tone: options?.tone ?? 'info', ...(options?.action ? { action: options.action } : {}) }];
      });
      const countdown: Countdown = { left: options?.action ? TOAST_MS * 2 : TOAST_MS, startedAt: null, timer: null };
      countdowns.current.set(id, countdown);
      if (!held.current) run(id, countdown);
    },
    [run],
  );

  const hold = useCallback(
    (next: boolean) => {
      if (next === held.current) return;
      held.current = next;
      for (const [id, countdown] of countdowns.current) {
        if (next) {
          if (countdown.timer) clearTimeout(countdown.timer);
          if (countdown.startedAt !== null) countdown.left -= Date.now() - countdown.startedAt;
          countdown.timer = null;
          countdown.startedAt = null;
        } else {
          countdown.left = Math.max(countdown.left, RESUME_MIN_MS);
          run(id, countdown);
        }
      }
    },
    [run],
  );

  useEffect(() => {
    const all = countdowns.current;
    return () => {
      for (const countdown of all.values()) if (countdown.timer) clearTimeout(countdown.timer);
      all.clear();
    };
  }, []);

  return { toasts, toast, dismiss, hold };
}

/**
 * The messages, over the sidebar's foot. `onHold` hears whether one is being read: the pointer on a
 * message or focus in the region. The whole stack waits together: a newer message leaving from
 * under the one being read would move that one under the finger.
 */
export function ToastRegion({ toasts, dismiss, onHold }: { toasts: Toast[]; dismiss: (id: number) => void; onHold?: (held: boolean) => void }) {
  const region = useRef<HTMLDivElement>(null);
  // Kept outside React's state: the hold is said inside the event that starts or ends it, before
  // any timer can fire, not a render later.
  const hovered = useRef(new Set<number>());
  const focused = useRef(false);
  const shown = useRef(toasts);
  shown.current = toasts;
  const sayHold = useCallback(() => onHold?.(focused.current || shown.current.some((t) => hovered.current.has(t.id))), [onHold]);
  // A message taken away under the pointer, or with focus in it, hears no leave or blur.
  useLayoutEffect(() => {
    for (const id of hovered.current) if (!toasts.some((t) => t.id === id)) hovered.current.delete(id);
    if (focused.current && !region.current?.contains(document.activeElement)) focused.current = false;
    sayHold();
  }, [toasts, sayHold]);
  useToastsRoom(region);

  return (
    <div
      ref={region}
      className="toasts"
      role="status"
      aria-live="polite"
      onFocus={() => {
        focused.current = true;
        sayHold();
      }}
      onBlur={(e) => {
        focused.current = region.current?.contains(e.relatedTarget as Node | null) ?? false;
        sayHold();
      }}
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast toast-${t.tone}`}
          onPointerEnter={() => {
            hovered.current.add(t.id);
            sayHold();
          }}
          onPointerLeave={() => {
            hovered.current.delete(t.id);
            sayHold();
          }}
        >
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

/**
 * Publishes how much of the window's foot the messages take, as --toasts-room on the page: the
 * sidebar's panel leaves that much room under its end, so its last card's buttons can be scrolled
 * (and tabbed) into sight above the messages instead of waiting for them to go.
 */
function useToastsRoom(region: RefObject<HTMLDivElement | null>): void {
  useLayoutEffect(() => {
    const element = region.current;
    if (!element) return;
    const root = document.documentElement;
    const publish = () => {
      const box = element.getBoundingClientRect();
      // From the messages' top to the window's foot; nothing while there are none.
      const room = element.childElementCount > 0 ? Math.ceil(window.innerHeight - box.top) : 0;
      root.style.setProperty('--toasts-room', `${room}px`);
    };
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toasts-room');
    };
  }, [region]);
}
