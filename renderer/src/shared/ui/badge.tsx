// State badges that pair an icon shape with a word (colour is never the only signal), and pin pictures.
import type { OutboxState, SyncState } from '../../../../electron/shared/contract/index';
import type { PinStyle } from '../../../../electron/shared/domain';
import { BADGE_URLS, PIN_NAMES, PIN_URLS } from '../sprites';
import { SYNC_LABELS, SYNC_SHORT, markFor, outboxLabel, outboxMark } from '../format';

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

/** `problemKind`: the entry's problem, which words a failure Sitewalk gave up on apart from a refusal. */
export function OutboxBadge({ state, problemKind }: { state: OutboxState; problemKind?: string | undefined }) {
  const mark = outboxMark(state);
  return (
    <span className={`badge badge-${state}`}>
      {mark === 'none' ? <CheckIcon /> : <img src={BADGE_URLS[mark]} alt="" width={18} height={18} />}
      {outboxLabel(state, problemKind)}
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
