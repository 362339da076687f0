// Settings: connection profiles (add, edit, delete, use, test the connection; the API key is
// write-only and the panel says where it is kept — OS keychain or this session only; whether a call
// the service refuses over HTTP GET/POST may go over SOAP 1.1 instead), and the app's own settings:
// tile server, sync concurrency and height units. Input problems come back from the main process as
// field issues and are shown beside the field; nothing is changed until a save succeeds.
import { useId, useState, type ReactNode } from 'react';
import type { ProfileView, SettingsView } from '../../../../electron/shared/contract/index';
import { HEIGHT_UNITS, type KeyStoreKind } from '../../../../electron/shared/domain';
import { useAppState } from '../../shared/store/app-store';
import { ConnectionTest } from './connection-test';
import { InputField, ValueForm } from '../../shared/ui/field';
import { SettingsCard, useSettingsSave } from '../../shared/ui/settings-card';
import { callWithToast, ConfirmButton, UseButton, useUi } from '../../shared/ui/ui-context';
import { ThemeSettings } from './theme-choice';
import { BINDING_LABELS, ProfileForm } from './profile-form';

export const KEY_STORE_WORDS: Record<KeyStoreKind, string> = {
  'safe-storage': 'kept encrypted on this computer (system keychain)',
  'os-keyring': 'kept in the operating system’s keychain',
  'session-only': 'kept for this session only — you will have to enter it again after Sitewalk quits',
};

/** Settings: connection profiles, the app's settings, what other features add (`children`: position, basemaps), the theme. */
export function SettingsPanel({ focusProfileId, children }: { focusProfileId?: string | undefined; children?: ReactNode }) {
  const ui = useUi();
  const profiles = useAppState(ui.store, (s) => s.profiles);
  const [editing, setEditing] = useState<ProfileView | 'new' | null>(null);

  return (
    <div className="settings-panel">
      <section aria-labelledby="profiles-title">
        <h3 id="profiles-title">Connection profiles</h3>
        <p className="form-help">Each profile is one account on one service. Edits go to the active profile.</p>
        <ul className="profiles">
          {profiles.map((p) => (
            <li key={p.id}>
              <ProfileCard profile={p} onEdit={() => setEditing(p)} highlight={p.id === focusProfileId} />
            </li>
          ))}
        </ul>
        {editing ? (
          <ProfileForm profile={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : (
          <div className="panel-actions">
            <button type="button" onClick={() => setEditing('new')}>
              Add profile
            </button>
          </div>
        )}
      </section>
      <AppSettingsForm />
      {children}
      <ThemeSettings />
    </div>
  );
}

function ProfileCard({ profile, onEdit, highlight }: { profile: ProfileView; onEdit: () => void; highlight: boolean }) {
  const ui = useUi();
  const [keyOpen, setKeyOpen] = useState(highlight && !profile.hasKey);
  const [testOpen, setTestOpen] = useState(false);
  /** Bumped when this profile's key is saved or removed: an earlier test result no longer says anything. */
  const [keyVersion, setKeyVersion] = useState(0);
  return (
    <article className={`profile panel-card ${profile.active ? 'active' : ''}`} aria-label={`Profile ${profile.name}`}>
      <header>
        <h4>
          {profile.name} {profile.active && <span className="tag">Active</span>} {profile.builtIn && <span className="tag tag-muted">Built in</span>}
        </h4>
      </header>
      <dl>
        <dt>Service</dt>
        <dd className="wrap">{profile.baseUrl + profile.servicePath}</dd>
        <dt>Binding</dt>
        <dd>
          {BINDING_LABELS[profile.binding]}
          {(profile.binding === 'http-post' || profile.binding === 'http-get') &&
            (profile.bindingFallback ? '; SOAP 1.1 when the service would refuse a value' : '; never another protocol (values the service refuses fail)')}
        </dd>
        <dt>Account ID</dt>
        <dd>{profile.account || '—'}</dd>
        <dt>API key</dt>
        <dd>{profile.builtIn ? "The sandbox's public demo key, built in." : profile.hasKey ? `Saved, ${KEY_STORE_WORDS[profile.keyStore]}.` : 'Not set — nothing can be sent with this profile.'}</dd>
      </dl>
      <div className="actions">
        <UseButton
          active={profile.active}
          use={() => ui.api.useProfile(profile.id)}
          onUsed={async () => {
            ui.toast(`Now using ${profile.name}.`, { tone: 'success' });
            await ui.call(() => ui.store.reloadData());
          }}
        >
          Use this profile
        </UseButton>
        <button type="button" onClick={() => setTestOpen(!testOpen)} aria-expanded={testOpen}>
          Test connection…
        </button>
        {!profile.builtIn && (
          <button type="button" onClick={onEdit}>
            Edit
          </button>
        )}
        {!profile.builtIn && (
          <button type="button" onClick={() => setKeyOpen(!keyOpen)} aria-expanded={keyOpen}>
            {profile.hasKey ? 'Change API key' : 'Set API key'}
          </button>
        )}
        {!profile.builtIn && (
          <ConfirmButton
            confirm={{
              title: `Delete profile ${profile.name}?`,
              body: 'Its saved API key is removed too. Sites and queued changes made with it stay on this computer.',
              confirmLabel: 'Delete profile',
            }}
            onConfirmed={async () => {
              if (await callWithToast(ui, () => ui.api.deleteProfile(profile.id))) ui.toast(`Deleted ${profile.name}.`, { tone: 'info' });
            }}
          >
            Delete
          </ConfirmButton>
        )}
      </div>
      {keyOpen && <KeyForm profile={profile} onDone={() => setKeyOpen(false)} onKeyChanged={() => setKeyVersion((v) => v + 1)} />}
      {testOpen && <ConnectionTest profile={profile} keyVersion={keyVersion} />}
    </article>
  );
}

function KeyForm({ profile, onDone, onKeyChanged }: { profile: ProfileView; onDone: () => void; onKeyChanged: () => void }) {
  const ui = useUi();
  return (
    <ValueForm
      className="key-form"
      label={`New API key for ${profile.name}`}
      input={{ type: 'password', autoComplete: 'new-password', spellCheck: false }}
      hint={`It is never shown again once saved. It will be ${KEY_STORE_WORDS[profile.keyStore]}.`}
      blankMessage="Enter the API key from the API section of your account settings."
      submitLabel="Save key"
      onCancel={onDone}
      send={(key) => ui.call(() => ui.api.setApiKey(profile.id, key))}
      onSent={(saved) => {
        ui.toast(`API key saved, ${KEY_STORE_WORDS[saved.keyStore]}.`, { tone: 'success' });
        onKeyChanged();
        onDone();
      }}
    >
      {profile.hasKey && (
        <ConfirmButton
          confirm={{ title: 'Remove the API key?', body: `Nothing can be sent with ${profile.name} until a key is entered again.`, confirmLabel: 'Remove key' }}
          onConfirmed={async () => {
            const result = await ui.call(() => ui.api.clearApiKey(profile.id));
            if (result?.ok) {
              ui.toast('API key removed.', { tone: 'info' });
              onKeyChanged();
              onDone();
            }
          }}
        >
          Remove key
        </ConfirmButton>
      )}
    </ValueForm>
  );
}

type SettingsField = 'syncConcurrency' | 'heightUnit';

function AppSettingsForm() {
  const ui = useUi();
  const id = useId();
  const settings = useAppState(ui.store, (s) => s.settings);
  const [values, setValues] = useState<SettingsView>(settings);
  const [concurrencyText, setConcurrencyText] = useState(String(settings.syncConcurrency));
  const { issues, wholeNumber, save } = useSettingsSave<SettingsField>('Settings saved.');

  return (
    <SettingsCard
      id={id}
      title="Sync and units"
      submitLabel="Save settings"
      onSubmit={async () => {
        const concurrency = wholeNumber('syncConcurrency', concurrencyText, 1, 16, 'Sync concurrency must be a whole number from 1 to 16.');
        if (concurrency === null) return;
        // The map's tile servers are edited under Basemaps (the street map is the settings' tileUrl).
        await save({ syncConcurrency: concurrency, heightUnit: values.heightUnit });
      }}
    >
      <InputField
        label="Sites sent at the same time"
        id={`${id}-conc`}
        error={issues.syncConcurrency}
        hint="1 to 16. Changes to one site are always sent in order."
        value={concurrencyText}
        inputMode="numeric"
        onChange={(e) => setConcurrencyText(e.target.value)}
      />
      <fieldset className="unit-choice">
        <legend>Height unit in forms</legend>
        {HEIGHT_UNITS.map((unit) => (
          <label key={unit} className={values.heightUnit === unit ? 'checked' : ''}>
            <input type="radio" name={`${id}-unit`} value={unit} checked={values.heightUnit === unit} onChange={() => setValues({ ...values, heightUnit: unit })} />
            {unit === 'm' ? 'Meters' : 'Feet (converted to whole meters when saved)'}
          </label>
        ))}
      </fieldset>
    </SettingsCard>
  );
}
