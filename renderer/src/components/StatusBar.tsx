// The top bar: which profile, whether the service is reachable, how much is waiting or needs
// attention, when the last sync was, and "Sync now". Below it, banners for the problems that stop all
// sending (quota used up, key rejected or missing, the main process unreachable). Each state is an
// icon shape plus words, never colour alone.
import type { StatusView } from '../../../electron/shared/contract/index';
import { useAppState } from '../store';
import { relativeTime } from '../lib/format';
import { useNow, useUi } from './ui';

export function StatusBar() {
  const ui = useUi();
  const status = useAppState(ui.store, (s) => s.status);
  const profiles = useAppState(ui.store, (s) => s.profiles);
  useNow(15_000);
  const active = profiles.find((p) => p.active) ?? null;

  async function syncNow() {
    const next = await ui.call(() => ui.api.syncNow());
    if (next) ui.store.applyStatus(next);
  }

  return (
    <header className="status-bar">
      <div className="brand">
        <h1 className="app-name">Sitewalk</h1>
        <button type="button" className="profile-button" onClick={() => ui.openPanel('settings')} aria-label={`Profile: ${active?.name ?? 'none'}. Open settings`}>
          {active ? active.name : 'No profile'}
        </button>
      </div>
      <div className="status-items" aria-live="polite">
        <Connection status={status} />
        {status && (
          <>
            <button type="button" className="status-chip" onClick={() => ui.openPanel('outbox')} data-testid="pending-count">
              <ClockIcon /> {status.pendingCount} waiting
            </button>
            {status.attentionCount > 0 && (
              <button type="button" className="status-chip attention" onClick={() => ui.openPanel('outbox')} data-testid="attention-count">
                <WarnIcon /> {status.attentionCount} need{status.attentionCount === 1 ? 's' : ''} attention
              </button>
            )}
            <span className="status-text">Last sync {relativeTime(status.lastSyncAt)}</span>
            {status.blocked && !status.paused && status.online && (
              <span className="status-text blocked" data-testid="blocked">
                <WarnIcon /> {status.blocked.message}
              </span>
            )}
          </>
        )}
      </div>
      <button type="button" className="primary sync-button" disabled={!status || status.syncing} onClick={() => void syncNow()}>
        {status?.syncing ? 'Syncing…' : 'Sync now'}
      </button>
    </header>
  );
}

function Connection({ status }: { status: StatusView | null }) {
  if (!status) return <span className="status-text">Connecting…</span>;
  if (status.paused) {
    return (
      <span className="conn conn-paused" data-testid="connection">
        <PauseIcon /> Paused
      </span>
    );
  }
  return status.online ? (
    <span className="conn conn-online" data-testid="connection">
      <OnlineIcon /> Online{status.syncing ? ' · sending' : ''}
    </span>
  ) : (
    <span className="conn conn-offline" data-testid="connection">
      <OfflineIcon /> Offline — changes are kept and sent later
    </span>
  );
}

export function Banners({ sessionProblem }: { sessionProblem: string | null }) {
  const ui = useUi();
  const status = useAppState(ui.store, (s) => s.status);
  const profiles = useAppState(ui.store, (s) => s.profiles);
  const connectionError = useAppState(ui.store, (s) => s.connectionError);
  const problems = useAppState(ui.store, (s) => s.problems);
  const active = profiles.find((p) => p.active) ?? null;

  /** "Sync now" lifts a pause and sends what is due (the core's rule), so it is the retry. */
  async function retryPaused() {
    const next = await ui.call(() => ui.api.syncNow());
    if (next) ui.store.applyStatus(next);
  }

  return (
    <div className="banners">
      {(connectionError || sessionProblem) && (
        <div className="banner banner-error" role="alert">
          <WarnIcon />
          <p>
            <strong>Sitewalk's background service cannot be reached.</strong> {sessionProblem ?? connectionError} Nothing you type is lost: unsaved
            forms are kept as drafts.
          </p>
          <button type="button" onClick={() => (sessionProblem ? window.location.reload() : void ui.store.start())}>
            {sessionProblem ? 'Reload' : 'Try again'}
          </button>
        </div>
      )}
      {problems.map((problem) => (
        <div key={problem.id} className="banner banner-error" role="alert">
          <WarnIcon />
          <div className="banner-text">
            <p>
              <strong>{problem.message}</strong>
            </p>
            {problem.detail && (
              <details>
                <summary>Details for support</summary>
                <pre>{problem.detail}</pre>
              </details>
            )}
          </div>
          <button type="button" onClick={() => ui.store.dismissProblem(problem.id)}>
            Dismiss
          </button>
        </div>
      ))}
      {status?.paused?.reason === 'quota' && (
        <div className="banner banner-warn" role="alert">
          <PauseIcon />
          <p>
            <strong>Sending is paused: the account has no API calls left.</strong> {status.paused.message} Your changes are kept and will be sent
            once calls are available.
          </p>
          <button type="button" onClick={() => void retryPaused()}>
            Try again
          </button>
        </div>
      )}
      {status?.paused?.reason === 'auth' && (
        <div className="banner banner-warn" role="alert">
          <PauseIcon />
          <p>
            <strong>Sending is paused: the service rejected the account ID or API key.</strong> {status.paused.message} Check the profile, then
            try again.
          </p>
          <button type="button" onClick={() => ui.openPanel('settings', active?.id)}>
            Check profile
          </button>
          <button type="button" onClick={() => void retryPaused()}>
            Try again
          </button>
        </div>
      )}
      {active && !active.hasKey && !status?.paused && (
        <div className="banner banner-warn" role="alert">
          <WarnIcon />
          <p>
            <strong>No API key for {active.name}.</strong> Changes are kept on this computer but cannot be sent until you enter the key.
          </p>
          <button type="button" onClick={() => ui.openPanel('settings', active.id)}>
            Enter API key
          </button>
        </div>
      )}
    </div>
  );
}

function OnlineIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="10" cy="10" r="8.5" fill="#1b5e20" stroke="#111" strokeWidth="1.5" />
      <path d="M5.5 10.5l3 3 6-7" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function OfflineIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="10" cy="10" r="8.5" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M4 16L16 4" stroke="#111" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}

function PauseIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <rect x="1.5" y="1.5" width="17" height="17" rx="3" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M7.5 6v8M12.5 6v8" stroke="#111" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}

function ClockIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="10" cy="10" r="8.5" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M10 5v5.5l3.5 2" fill="none" stroke="#111" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function WarnIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <path d="M10 1.5L19 18H1z" fill="#111" stroke="#fff" strokeWidth="1.5" strokeLinejoin="round" />
      <path d="M10 7v5" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="10" cy="15" r="1.3" fill="#fff" />
    </svg>
  );
}
