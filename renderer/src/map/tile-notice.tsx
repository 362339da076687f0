// Why the map shows a coordinate grid instead of tiles, as a one-line chip in the map's bottom-left
// corner: the full sentence opens on press (and is always read by screen readers), and the chip can
// be dismissed until the window closes, so it never sits over pins a crew needs to press.
import { useId, useState } from 'react';

/** Dismissed for the session: the window's sessionStorage, so a reload keeps it hidden but a new window shows it again. */
const DISMISSED_KEY = 'sitewalk.tileNoticeDismissed';

function readDismissed(): string | null {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

export function TileNotice({ message, chip }: { message: string; chip: string }) {
  const [open, setOpen] = useState(false);
  // The sentence that was dismissed: a different one (another basemap without tiles) shows again.
  const [dismissed, setDismissed] = useState(readDismissed);
  const id = useId();
  if (dismissed === message) return null;
  const dismiss = () => {
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, message);
    } catch {
      // Storage refused (private mode): hidden until the page reloads, which is still the session.
    }
    setDismissed(message);
  };
  return (
    <div className="map-notice" role="note" data-open={open}>
      <button type="button" className="map-notice-chip" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">⚠ </span>
        {chip}
      </button>
      <span id={id} className={open ? 'map-notice-text' : 'visually-hidden'}>
        {message}
      </span>
      {open && (
        <button type="button" className="map-notice-dismiss" onClick={dismiss}>
          Hide until restart
        </button>
      )}
    </div>
  );
}
