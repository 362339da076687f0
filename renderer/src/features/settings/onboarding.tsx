// First run: offer the built-in Sandbox (a local copy of the service with demo sites, nothing leaves
// the computer) or connecting a real account. Shown while only the built-in profile exists and the
// welcome has not been answered on this computer; either answer ends it.
import { useState } from 'react';
import type { ProfileView } from '../../../../electron/shared/contract/index';
import { useAppState } from '../../shared/store/app-store';
import { issueText } from '../../shared/issues';
import { Modal } from '../../shared/ui/dialog';
import { useUi } from '../../shared/ui/ui-context';
import { ProfileForm } from './settings-panel';

const DONE_KEY = 'sitewalk.onboarded';

function answered(): boolean {
  try {
    return globalThis.localStorage?.getItem(DONE_KEY) === '1';
  } catch {
    return false;
  }
}

function markAnswered(): void {
  try {
    globalThis.localStorage?.setItem(DONE_KEY, '1');
  } catch {
    // Without storage the welcome shows again next time; harmless.
  }
}

export function Onboarding() {
  const ui = useUi();
  const loaded = useAppState(ui.store, (s) => s.loaded);
  const profiles = useAppState(ui.store, (s) => s.profiles);
  const [done, setDone] = useState(answered);
  const [step, setStep] = useState<'welcome' | 'account'>('welcome');
  const [busy, setBusy] = useState(false);

  // The data folder says whether the welcome was answered, not only this browser: a new browser
  // profile (or a cleared one) opening a folder in use is not welcomed again.
  const welcomed = useAppState(ui.store, (s) => s.settings.welcomed);
  const firstRun = loaded && !done && !welcomed && profiles.length > 0 && profiles.every((p) => p.builtIn);
  const sandbox = profiles.find((p) => p.builtIn) ?? null;

  function finish() {
    markAnswered();
    setDone(true);
    void ui.api.saveSettings({ welcomed: true }).catch(() => undefined);
  }

  async function useSandbox() {
    if (!sandbox) return;
    setBusy(true);
    if (!sandbox.active) {
      const result = await ui.call(() => ui.api.useProfile(sandbox.id));
      if (!result?.ok) {
        setBusy(false);
        if (result) ui.toast(issueText(result.issues), { tone: 'error' });
        return;
      }
    }
    await ui.call(() => ui.store.reloadData());
    setBusy(false);
    finish();
    ui.toast('You are using the Sandbox: a practice service on this computer with demo sites. Nothing is sent anywhere else.', { tone: 'info' });
  }

  async function accountSaved(profile: ProfileView | undefined) {
    if (!profile) {
      setStep('welcome');
      return;
    }
    const result = await ui.call(() => ui.api.useProfile(profile.id));
    if (result?.ok) await ui.call(() => ui.store.reloadData());
    finish();
  }

  return (
    <Modal open={firstRun} onClose={() => void useSandbox()} labelledBy="welcome-title" className="onboarding">
      {step === 'welcome' ? (
        <div>
          <h2 id="welcome-title">Welcome to Sitewalk</h2>
          <p>Drop tower pins, set heights and reprocess end-user submissions — with or without a connection. Every change is kept on this computer and sent when the service is reachable.</p>
          <div className="choices">
            <button type="button" className="choice primary" disabled={busy || !sandbox} onClick={() => void useSandbox()} autoFocus>
              <strong>Try it with the Sandbox</strong>
              <span>A practice copy of the service on this computer, with demo sites. No account needed; nothing leaves this computer.</span>
            </button>
            <button type="button" className="choice" disabled={busy} onClick={() => setStep('account')}>
              <strong>Connect my account</strong>
              <span>Enter your service address, account ID and API key (from the API section of your account settings).</span>
            </button>
          </div>
        </div>
      ) : (
        <div>
          <h2 id="welcome-title">Connect your account</h2>
          <ProfileForm profile={null} onDone={(p) => void accountSaved(p)} />
        </div>
      )}
    </Modal>
  );
}
