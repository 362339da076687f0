// Settings: connection profiles (add, edit, delete, use, test the connection; the API key is
// write-only and the panel says where it is kept — OS keychain or this session only; whether a call
// the service refuses over HTTP GET/POST may go over SOAP 1.1 instead), and the app's own settings:
// tile server, sync concurrency and height units. Input problems come back from the main process as
// field issues and are shown beside the field; nothing is changed until a save succeeds.
import { useId, useState } from 'react';
import type { ProfileInput, ProfileView, SettingsView } from '../../../../electron/shared/contract/index';
import { BINDINGS, HEIGHT_UNITS, REAL_SERVICE, type Binding, type KeyStoreKind } from '../../../../electron/shared/domain';
import { useAppState } from '../../shared/store/app-store';
import { issueText, issuesByField } from '../../shared/issues';
import { ConnectionTest } from './connection-test';
import { PositionSettings } from '../location';
import { CheckboxField, FormActions, InputField, SelectField, TitledForm, ValueForm } from '../../shared/ui/field';
import { SettingsCard, useSettingsSave } from '../../shared/ui/settings-card';
import { callWithToast, ConfirmButton, useUi } from '../../shared/ui/ui-context';
import { ThemeSettings } from './theme-choice';
import { BasemapSettings } from '../basemaps';

const BINDING_LABELS: Record<Binding, string> = {
  'http-post': 'HTTP POST (recommended)',
  'http-get': 'HTTP GET',
  soap11: 'SOAP 1.1',
  soap12: 'SOAP 1.2',
};

export const KEY_STORE_WORDS: Record<KeyStoreKind, string> = {
  'safe-storage': 'kept encrypted on this computer (system keychain)',
  'os-keyring': 'kept in the operating system’s keychain',
  'session-only': 'kept for this session only — you will have to enter it again after Sitewalk quits',
};

export function SettingsPanel({ focusProfileId }: { focusProfileId?: string | undefined }) {
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
      <PositionSettings />
      <BasemapSettings focus={focusProfileId === 'basemaps'} />
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
        {!profile.active && (
          <button
            type="button"
            className="primary"
            onClick={async () => {
              if (!(await callWithToast(ui, () => ui.api.useProfile(profile.id)))) return;
              ui.toast(`Now using ${profile.name}.`, { tone: 'success' });
              await ui.call(() => ui.store.reloadData());
            }}
          >
            Use this profile
          </button>
        )}
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

type ProfileField = 'name' | 'baseUrl' | 'servicePath' | 'namespace' | 'binding' | 'account';

export function ProfileForm({ profile, onDone }: { profile: ProfileView | null; onDone: (saved?: ProfileView) => void }) {
  const ui = useUi();
  const id = useId();
  const [values, setValues] = useState({
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? REAL_SERVICE.baseUrl,
    servicePath: profile?.servicePath ?? REAL_SERVICE.servicePath,
    namespace: profile?.namespace ?? REAL_SERVICE.namespace,
    binding: profile?.binding ?? REAL_SERVICE.binding,
    account: profile?.account ?? '',
  });
  const [bindingFallback, setBindingFallback] = useState(profile?.bindingFallback ?? true);
  const [key, setKey] = useState('');
  const [issues, setIssues] = useState<Partial<Record<ProfileField | 'bindingFallback' | 'key' | '', string>>>({});
  const [busy, setBusy] = useState(false);

  const field = (name: ProfileField, label: string, hint?: string) => (
    <InputField
      label={label}
      id={`${id}-${name}`}
      error={issues[name]}
      hint={hint}
      value={values[name]}
      autoComplete="off"
      spellCheck={false}
      onChange={(e) => {
        setValues({ ...values, [name]: e.target.value });
        setIssues({ ...issues, [name]: undefined });
      }}
    />
  );

  return (
    <TitledForm
      id={id}
      title={profile ? `Edit ${profile.name}` : 'New profile'}
      className="profile-form panel-card"
      autoComplete="off"
      onSubmit={async () => {
        setBusy(true);
        const input: ProfileInput = { ...values, bindingFallback };
        if (profile) input.id = profile.id;
        const result = await ui.call(() => ui.api.saveProfile(input));
        if (!result) {
          setBusy(false);
          return;
        }
        if (!result.ok) {
          setBusy(false);
          setIssues(issuesByField(result.issues));
          return;
        }
        if (key.trim() !== '') {
          const keyResult = await ui.call(() => ui.api.setApiKey(result.value.id, key.trim()));
          if (keyResult && !keyResult.ok) {
            setBusy(false);
            setIssues({ key: issueText(keyResult.issues) });
            return;
          }
        }
        setBusy(false);
        ui.toast(`Saved profile ${result.value.name}.`, { tone: 'success' });
        onDone(result.value);
      }}
    >
      {field('name', 'Profile name')}
      {field(
        'baseUrl',
        'Service address',
        profile?.hasKey ? 'For example https://api.towercoverage.com. Pointing the profile at another server forgets its saved API key.' : 'For example https://api.towercoverage.com',
      )}
      {field('account', 'Account ID', 'In the API section of your account settings.')}
      <SelectField label="Protocol" id={`${id}-binding`} error={issues.binding} value={values.binding} options={BINDINGS} labels={BINDING_LABELS} onChange={(binding) => setValues({ ...values, binding })} />
      <CheckboxField
        id={`${id}-fallback`}
        label="When the service would refuse a site over HTTP POST or GET, send it over SOAP 1.1 (or HTTP POST) instead"
        checked={bindingFallback}
        onChange={setBindingFallback}
        error={issues.bindingFallback}
        hint={
          <>
            The service&apos;s ASP.NET front refuses text like “&lt;North&gt;” or “&amp;#8217;” over HTTP POST and GET, and HTTP GET queries over 2,048 characters, before anything is saved. Off: such
            a site fails, and the site form warns before saving it.
          </>
        }
      />
      <details>
        <summary>Advanced: service path and namespace</summary>
        {field('servicePath', 'Service path')}
        {field('namespace', 'SOAP namespace')}
      </details>
      {!profile && (
        <InputField
          label="API key (optional now)"
          id={`${id}-key`}
          error={issues.key}
          hint="Write-only: Sitewalk never shows it again. It is kept in the OS keychain when one is available, otherwise for this session only."
          type="password"
          value={key}
          autoComplete="new-password"
          spellCheck={false}
          onChange={(e) => setKey(e.target.value)}
        />
      )}
      <FormActions error={issues['']} submitLabel="Save profile" busy={busy} busyLabel="Saving…" onCancel={() => onDone()} />
    </TitledForm>
  );
}

type SettingsField = 'syncConcurrency' | 'heightUnit';

function AppSettingsForm() {
  const ui = useUi();
  const id = useId();
  const settings = useAppState(ui.store, (s) => s.settings);
  const [values, setValues] = useState<SettingsView>(settings);
  const [concurrencyText, setConcurrencyText] = useState(String(settings.syncConcurrency));
  const { issues, setIssues, save } = useSettingsSave<SettingsField>('Settings saved.');

  return (
    <SettingsCard
      id={id}
      title="Sync and units"
      submitLabel="Save settings"
      onSubmit={async () => {
        const concurrency = Number(concurrencyText);
        if (!/^\d+$/.test(concurrencyText.trim()) || concurrency < 1 || concurrency > 16) {
          setIssues({ syncConcurrency: 'Sync concurrency must be a whole number from 1 to 16.' });
          return;
        }
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
