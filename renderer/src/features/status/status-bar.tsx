// The top bar: which profile, whether the service is reachable, how much is waiting or needs
// attention, when the last sync was, and "Sync now". Below it, banners for the problems that stop all
// sending (quota used up, key rejected or missing, the main process unreachable). Each state is an
// icon shape plus words, never colour alone.
import type { ReactNode } from 'react';
import type { StatusView } from '../../../../electron/shared/contract/index';
import type { HostLink } from '../../api';
import { useAppState } from '../../shared/store/app-store';
import { formatCount, relativeTime } from '../../shared/format';
import { SupportDetails } from '../../shared/ui/problem';
import { countdownTick, syncNow, useNow, useUi } from '../../shared/ui/ui-context';
import { ThemeToggle } from '../settings';
import { dismissProblem } from './problems-slice';

export function StatusBar({ hostDown = false }: { hostDown?: boolean }) {
  const ui = useUi();
  const status = useAppState(ui.store, (s) => s.status);
  const profiles = useAppState(ui.store, (s) => s.profiles);
  // The pill's tooltip counts down its next try ("in 42 s") instead of standing still for 15 s.
  useNow(countdownTick(status?.connection.nextTryAt, 15_000));
  const active = profiles.find((p) => p.active) ?? null;
  const lastSync = status?.lastSyncAt ? `Last sync ${relativeTime(status.lastSyncAt)}` : 'Not synced yet';

  return (
    <header className="status-bar">
      <div className="brand">
        <h1 className="app-name">Sitewalk</h1>
        <button type="button" className="profile-button" onClick={() => ui.openPanel('settings')} aria-label={`Profile: ${active?.name ?? 'none'}. Open settings`} title={active?.name}>
          {active ? active.name : 'No profile'}
        </button>
      </div>
      <div className="status-items" aria-live="polite">
        {hostDown ? (
          <Pill tone="offline" icon="offline" word="Sitewalk stopped" sentence="Sitewalk stopped: this page cannot save or send anything until it runs again." />
        ) : (
          <Connection status={status} />
        )}
        {status && (
          <>
            <button type="button" className="status-chip" onClick={() => ui.openPanel('outbox')} data-testid="pending-count">
              <Icon name="clock" size={18} /> {formatCount(status.pendingCount)} waiting
            </button>
            {status.attentionCount > 0 && (
              <button type="button" className="status-chip attention" onClick={() => ui.openPanel('outbox')} data-testid="attention-count">
                <Icon name="warn" /> {formatCount(status.attentionCount)} need{status.attentionCount === 1 ? 's' : ''} attention
              </button>
            )}
            <span className="status-text" data-testid="last-sync" title={lastSync}>
              {lastSync}
            </span>
            {/* A queue held while the service is away is what the pill says ("Unavailable", its next try in the tooltip). */}
            {status.blocked && status.blocked.reason !== 'unavailable' && !status.paused && status.online && (
              <span className="status-text blocked" data-testid="blocked" title={status.blocked.message}>
                <Icon name="warn" /> {status.blocked.message}
              </span>
            )}
          </>
        )}
      </div>
      <ThemeToggle />
      <button type="button" className="primary sync-button" disabled={!status || status.syncing} onClick={() => void syncNow(ui)}>
        {status?.syncing ? 'Syncing…' : 'Sync now'}
      </button>
    </header>
  );
}

function Connection({ status }: { status: StatusView | null }) {
  if (!status) return <span className="status-text">Connecting…</span>;
  if (status.paused) {
    const why = status.paused.reason === 'quota' ? 'the account has no API calls left' : 'the service refused the account ID or API key';
    return <Pill tone="paused" icon="pause" word="Paused" sentence={`Paused: sending waits because ${why}. Changes are kept.`} />;
  }
  const { connection } = status;
  // What is read out leaves the clock out ("next try in 30 s", "2 min ago"): the pill sits in a live
  // region and re-renders as time passes, and a screen reader would read the whole sentence again at
  // every tick. The tooltip, read when asked for, has them.
  const retry = connection.nextTryAt ? `; next try ${nextTry(connection.nextTryAt)}` : '';
  const error = connection.lastError ? ` ${connection.lastError.message}` : '';
  const when = connection.lastError ? ` (${relativeTime(connection.lastError.at)})` : '';
  switch (connection.state) {
    case 'checking':
      return <Pill tone="checking" icon="clock" word="Checking…" sentence="Checking the service…" />;
    case 'not-answering':
      return <Pill tone="trouble" icon="warn" word="Unavailable" sentence={`Service not answering — changes are kept.${error}`} tooltip={`Service not answering${retry} — changes are kept.${error}${when}`} />;
    case 'offline':
      return <Pill tone="offline" icon="offline" word="Offline" sentence={`Offline — changes are kept and sent later.${error}`} tooltip={`Offline — changes are kept and sent later.${error}${when}`} />;
    default:
      return status.syncing ? <Pill tone="online" icon="online" word="Sending" sentence="Online · sending" /> : <Pill tone="online" icon="online" word="Online" sentence="Online" />;
  }
}

/**
 * The connection pill: one short word, which fits beside the counts on the narrowest window
 * (1024 px) in every state, and the whole sentence (what is wrong, when it is tried again, that
 * changes are kept) in its tooltip and read out in place of the word (the tooltip adds the times).
 */
function Pill({ tone, icon, word, sentence, tooltip = sentence }: { tone: string; icon: keyof typeof ICONS; word: string; sentence: string; tooltip?: string }) {
  return (
    <span className={`conn conn-${tone}`} data-testid="connection" title={tooltip === word ? undefined : tooltip}>
      <Icon name={icon} />
      {sentence === word ? (
        <span className="conn-word">{word}</span>
      ) : (
        <>
          <span className="conn-word" aria-hidden="true">
            {word}
          </span>
          <span className="visually-hidden">{sentence}</span>
        </>
      )}
    </span>
  );
}

export function Banners({ hostLink }: { hostLink: HostLink }) {
  const ui = useUi();
  const status = useAppState(ui.store, (s) => s.status);
  const profiles = useAppState(ui.store, (s) => s.profiles);
  const connectionError = useAppState(ui.store, (s) => s.connectionError);
  const problems = useAppState(ui.store, (s) => s.problems);
  const active = profiles.find((p) => p.active) ?? null;
  const retry = (
    <button type="button" onClick={() => void syncNow(ui)}>
      Try again
    </button>
  );

  return (
    <div className="banners">
      {hostLink.state !== 'ok' ? (
        <Banner tone="error" icon="warn">
          <p>
            <strong>{hostLink.state === 'gone' ? 'Sitewalk has stopped.' : 'Sitewalk was restarted.'}</strong>{' '}
            {hostLink.state === 'gone'
              ? 'This page cannot save, send or load anything until it runs again: start it, and if it prints a new address, paste that into this tab.'
              : hostLink.message}{' '}
            Until then the buttons are held back; nothing you typed is lost: unsaved forms are kept as drafts.
          </p>
        </Banner>
      ) : (
        connectionError && (
          <Banner tone="error" icon="warn">
            <p>
              <strong>Sitewalk's background service cannot be reached.</strong> {connectionError} Nothing you type is lost: unsaved forms are kept as
              drafts.
            </p>
            <button type="button" onClick={() => void ui.store.start()}>
              Try again
            </button>
          </Banner>
        )
      )}
      {problems.map((problem) => (
        <Banner key={problem.id} tone="error" icon="warn">
          <div className="banner-text">
            <p>
              <strong>{problem.message}</strong>
            </p>
            {problem.detail && <SupportDetails detail={problem.detail} />}
          </div>
          <button type="button" onClick={() => dismissProblem(ui.store, problem.id)}>
            Dismiss
          </button>
        </Banner>
      ))}
      {status?.paused?.reason === 'quota' && (
        <Banner tone="warn" icon="pause">
          <p>
            <strong>Sending is paused: the account has no API calls left.</strong> {status.paused.message} Your changes are kept and will be sent
            once calls are available.
          </p>
          {retry}
        </Banner>
      )}
      {status?.paused?.reason === 'auth' && (
        <Banner tone="warn" icon="pause">
          <p>
            <strong>Sending is paused: the service rejected the account ID or API key.</strong> {status.paused.message} Check the profile, then
            try again.
          </p>
          <button type="button" onClick={() => ui.openPanel('settings', active?.id)}>
            Check profile
          </button>
          {retry}
        </Banner>
      )}
      {active && !active.hasKey && !status?.paused && (
        <Banner tone="warn" icon="warn">
          <p>
            <strong>No API key for {active.name}.</strong> Changes are kept on this computer but cannot be sent until you enter the key.
          </p>
          <button type="button" onClick={() => ui.openPanel('settings', active.id)}>
            Enter API key
          </button>
        </Banner>
      )}
    </div>
  );
}

/** A banner is an alert: each one stops sending (or everything) until someone acts. */
function Banner({ tone, icon, children }: { tone: 'error' | 'warn'; icon: keyof typeof ICONS; children: ReactNode }) {
  return (
    <div className={`banner banner-${tone}`} role="alert">
      <Icon name={icon} />
      {children}
    </div>
  );
}

/** The status pictures, drawn in a 20-unit box. */
const ICONS = {
  online: (
    <>
      <circle cx="10" cy="10" r="8.5" fill="#1b5e20" stroke="#111" strokeWidth="1.5" />
      <path d="M5.5 10.5l3 3 6-7" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  offline: (
    <>
      <circle cx="10" cy="10" r="8.5" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M4 16L16 4" stroke="#111" strokeWidth="2.4" strokeLinecap="round" />
    </>
  ),
  pause: (
    <>
      <rect x="1.5" y="1.5" width="17" height="17" rx="3" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M7.5 6v8M12.5 6v8" stroke="#111" strokeWidth="2.4" strokeLinecap="round" />
    </>
  ),
  clock: (
    <>
      <circle cx="10" cy="10" r="8.5" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M10 5v5.5l3.5 2" fill="none" stroke="#111" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  warn: (
    <>
      <path d="M10 1.5L19 18H1z" fill="#111" stroke="#fff" strokeWidth="1.5" strokeLinejoin="round" />
      <path d="M10 7v5" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="10" cy="15" r="1.3" fill="#fff" />
    </>
  ),
};

/** A status picture, hidden from screen readers: the words beside it say the state. */
function Icon({ name, size = 20 }: { name: keyof typeof ICONS; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 20 20" aria-hidden="true">
      {ICONS[name]}
    </svg>
  );
}

/** When the service is tried again, said plainly: a moment away, seconds, or the usual relative time. */
function nextTry(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (!Number.isFinite(seconds) || seconds <= 3) return 'in a moment';
  if (seconds < 60) return `in ${seconds} s`;
  return relativeTime(iso, now);
}
