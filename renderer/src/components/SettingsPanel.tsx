// Settings: connection profiles (add, edit, delete, use, test the connection; the API key is
// write-only and the panel says where it is kept — OS keychain or this session only; whether a call
// the service refuses over HTTP GET/POST may go over SOAP 1.1 instead), and the app's own settings:
// tile server, sync concurrency and height units. Input problems come back from the main process as
// field issues and are shown beside the field; nothing is changed until a save succeeds.
import { useId, useState } from 'react';
import type { ProfileInput, ProfileView, SettingsView } from '../../../electron/shared/contract/index';
import { BINDINGS, HEIGHT_UNITS, REAL_SERVICE, type Binding, type KeyStoreKind } from '../../../electron/shared/domain';
import { useAppState } from '../store';
import { issueText, issuesByField } from '../lib/issues';
import { ConnectionTest } from './ConnectionTest';
import { PositionSettings } from './PositionSettings';
import { Field, ValueForm } from './forms';
import { useUi } from './ui';
import { ThemeSettings } from './ThemeChoice';
import { BasemapSettings } from './BasemapSettings';

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
              const result = await ui.call(() => ui.api.useProfile(profile.id));
              if (result?.ok) {
                ui.toast(`Now using ${profile.name}.`, { tone: 'success' });
                await ui.call(() => ui.store.reloadData());
              } else if (result) ui.toast(issueText(result.issues), { tone: 'error' });
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
          <button
            type="button"
            className="danger-outline"
            onClick={async () => {
              const ok = await ui.confirm({
                title: `Delete profile ${profile.name}?`,
                body: 'Its saved API key is removed too. Sites and queued changes made with it stay on this computer.',
                confirmLabel: 'Delete profile',
                danger: true,
              });
              if (!ok) return;
              const result = await ui.call(() => ui.api.deleteProfile(profile.id));
              if (result?.ok) ui.toast(`Deleted ${profile.name}.`, { tone: 'info' });
              else if (result) ui.toast(issueText(result.issues), { tone: 'error' });
            }}
          >
            Delete
          </button>
        )}
      </div>
      {keyOpen && <KeyForm profile={profile} onDone={() => setKeyOpen(false)} />}
      {testOpen && <ConnectionTest profile={profile} />}
    </article>
  );
}

function KeyForm({ profile, onDone }: { profile: ProfileView; onDone: () => void }) {
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
        onDone();
      }}
    >
      {profile.hasKey && (
        <button
          type="button"
          className="danger-outline"
          onClick={async () => {
            const ok = await ui.confirm({ title: 'Remove the API key?', body: `Nothing can be sent with ${profile.name} until a key is entered again.`, confirmLabel: 'Remove key', danger: true });
            if (!ok) return;
            const result = await ui.call(() => ui.api.clearApiKey(profile.id));
            if (result?.ok) {
              ui.toast('API key removed.', { tone: 'info' });
              onDone();
            }
          }}
        >
          Remove key
        </button>
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
    <Field label={label} id={`${id}-${name}`} error={issues[name]} hint={hint}>
      {(describedBy) => (
        <input
          id={`${id}-${name}`}
          value={values[name]}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!issues[name]}
          aria-describedby={describedBy}
          onChange={(e) => {
            setValues({ ...values, [name]: e.target.value });
            setIssues({ ...issues, [name]: undefined });
          }}
        />
      )}
    </Field>
  );

  return (
    <form
      className="profile-form panel-card"
      noValidate
      autoComplete="off"
      aria-labelledby={`${id}-title`}
      onSubmit={async (e) => {
        e.preventDefault();
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
      <h4 id={`${id}-title`}>{profile ? `Edit ${profile.name}` : 'New profile'}</h4>
      {field('name', 'Profile name')}
      {field(
        'baseUrl',
        'Service address',
        profile?.hasKey ? 'For example https://api.towercoverage.com. Pointing the profile at another server forgets its saved API key.' : 'For example https://api.towercoverage.com',
      )}
      {field('account', 'Account ID', 'In the API section of your account settings.')}
      <Field label="Protocol" id={`${id}-binding`} error={issues.binding}>
        {(describedBy) => (
          <select id={`${id}-binding`} value={values.binding} aria-describedby={describedBy} onChange={(e) => setValues({ ...values, binding: e.target.value as Binding })}>
            {BINDINGS.map((binding) => (
              <option key={binding} value={binding}>
                {BINDING_LABELS[binding]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className={`field ${issues.bindingFallback ? 'has-error' : ''}`}>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={bindingFallback}
            aria-describedby={issues.bindingFallback ? `${id}-fallback-error` : `${id}-fallback-hint`}
            onChange={(e) => setBindingFallback(e.target.checked)}
          />
          When the service would refuse a site over HTTP POST or GET, send it over SOAP 1.1 (or HTTP POST) instead
        </label>
        {issues.bindingFallback ? (
          <p id={`${id}-fallback-error`} className="field-error">
            {issues.bindingFallback}
          </p>
        ) : (
          <p id={`${id}-fallback-hint`} className="hint">
            The service&apos;s ASP.NET front refuses text like “&lt;North&gt;” or “&amp;#8217;” over HTTP POST and GET, and HTTP GET queries over 2,048 characters, before anything is saved. Off: such
            a site fails, and the site form warns before saving it.
          </p>
        )}
      </div>
      <details>
        <summary>Advanced: service path and namespace</summary>
        {field('servicePath', 'Service path')}
        {field('namespace', 'SOAP namespace')}
      </details>
      {!profile && (
        <Field
          label="API key (optional now)"
          id={`${id}-key`}
          error={issues.key}
          hint="Write-only: Sitewalk never shows it again. It is kept in the OS keychain when one is available, otherwise for this session only."
        >
          {(describedBy) => <input id={`${id}-key`} type="password" value={key} autoComplete="new-password" spellCheck={false} aria-describedby={describedBy} onChange={(e) => setKey(e.target.value)} />}
        </Field>
      )}
      {issues[''] && <p className="field-error">{issues['']}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type SettingsField = 'syncConcurrency' | 'heightUnit';

function AppSettingsForm() {
  const ui = useUi();
  const id = useId();
  const settings = useAppState(ui.store, (s) => s.settings);
  const [values, setValues] = useState<SettingsView>(settings);
  const [concurrencyText, setConcurrencyText] = useState(String(settings.syncConcurrency));
  const [issues, setIssues] = useState<Partial<Record<SettingsField, string>>>({});

  return (
    <form
      className="panel-card"
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={async (e) => {
        e.preventDefault();
        const concurrency = Number(concurrencyText);
        if (!/^\d+$/.test(concurrencyText.trim()) || concurrency < 1 || concurrency > 16) {
          setIssues({ syncConcurrency: 'Sync concurrency must be a whole number from 1 to 16.' });
          return;
        }
        // The map's tile servers are edited under Basemaps (the street map is the settings' tileUrl).
        const result = await ui.call(() => ui.api.saveSettings({ syncConcurrency: concurrency, heightUnit: values.heightUnit }));
        if (!result) return;
        if (!result.ok) {
          setIssues(issuesByField(result.issues));
          return;
        }
        setIssues({});
        ui.store.applySettings(result.value);
        ui.toast('Settings saved.', { tone: 'success' });
      }}
    >
      <h3 id={`${id}-title`}>Sync and units</h3>
      <Field label="Sites sent at the same time" id={`${id}-conc`} error={issues.syncConcurrency} hint="1 to 16. Changes to one site are always sent in order.">
        {(describedBy) => (
          <input id={`${id}-conc`} value={concurrencyText} inputMode="numeric" aria-invalid={!!issues.syncConcurrency} aria-describedby={describedBy} onChange={(e) => setConcurrencyText(e.target.value)} />
        )}
      </Field>
      <fieldset className="unit-choice">
        <legend>Height unit in forms</legend>
        {HEIGHT_UNITS.map((unit) => (
          <label key={unit} className={values.heightUnit === unit ? 'checked' : ''}>
            <input type="radio" name={`${id}-unit`} value={unit} checked={values.heightUnit === unit} onChange={() => setValues({ ...values, heightUnit: unit })} />
            {unit === 'm' ? 'Meters' : 'Feet (converted to whole meters when saved)'}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary">
          Save settings
        </button>
      </div>
    </form>
  );
}
