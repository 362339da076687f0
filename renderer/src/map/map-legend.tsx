// The map's legend: pin colours and the marks a pin carries while its change waits, was rejected or
// needs a check. Open by default where the window has room for it.
import { useState } from 'react';
import { PIN_STYLES } from '../../../electron/shared/domain';
import { BADGE_URLS, PIN_NAMES, PIN_URLS } from '../shared/sprites';

export function MapLegend() {
  const [open, setOpen] = useState(() => window.innerWidth - 440 >= 1000);
  return (
    <section className={`legend ${open ? '' : 'closed'}`} aria-label="Map legend">
      <button type="button" className="legend-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        Legend
      </button>
      {open && (
        <ul>
          <li className="legend-pins">
            {PIN_STYLES.map((style) => (
              <span key={style}>
                <img src={PIN_URLS[style]} alt="" width={16} height={22} /> {PIN_NAMES[style]}
              </span>
            ))}
          </li>
          <li>
            <img src={BADGE_URLS.pending} alt="" width={18} height={18} /> Clock: waiting to send
          </li>
          <li>
            <img src={BADGE_URLS.failed} alt="" width={18} height={18} /> Triangle: rejected
          </li>
          <li>
            <img src={BADGE_URLS.review} alt="" width={18} height={18} /> Diamond: check needed
          </li>
        </ul>
      )}
    </section>
  );
}
