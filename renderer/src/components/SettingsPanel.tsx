// Settings: connection profiles (add, edit, delete, use; the API key is write-only and the panel says
// where it is kept — OS keychain or this session only), and the app's own settings: tile server, sync
// concurrency and height units. Input problems come back from the main process as field issues and
// are shown beside the field; nothing is changed until a save succeeds.
import { useId, useState } from 'react';
import type { Binding, KeyStoreKind, ProfileInput, ProfileView, SettingsView } from '../../../electron/shared/contract/index';
import { DEFAULT_SETTINGS } from '../../../electron/shared/contract/index';
import { useAppState } from '../store';
import { FieldError, useUi } from './ui';

const BINDINGS: { value: Binding; label: string }[] = [
  { value: 'http-post', label: 'HTTP POST (recommended)' },
  { value: 'http-get', label: 'HTTP GET' },
  { value: 'soap11', label: 'SOAP 1.1' },
  { value: 'soap12', label: 'SOAP 1.2' },
];

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
    </div>
  );
}

function ProfileCard({ profile, onEdit, highlight }: { profile: ProfileView; onEdit: () => void; highlight: boolean }) {
  const ui = useUi();
  const [keyOpen, setKeyOpen] = useState(highlight && !profile.hasKey);
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
        <dd>{BINDINGS.find((b) => b.value === profile.binding)?.label ?? profile.binding}</dd>
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
              } else if (result) ui.toast(result.issues.map((i) => i.message).join(' '), { tone: 'error' });
            }}
          >
            Use this profile
          </button>
        )}
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
              else if (result) ui.toast(result.issues.map((i) => i.message).join(' '), { tone: 'error' });
            }}
          >
            Delete
          </button>
        )}
      </div>
      {keyOpen && <KeyForm profile={profile} onDone={() => setKeyOpen(false)} />}
    </article>
  );
}

function KeyForm({ profile, onDone }: { profile: ProfileView; onDone: () => void }) {
  const ui = useUi();
  const id = useId();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="key-form"
      noValidate
      autoComplete="off"
      onSubmit={async (e) => {
        e.preventDefault();
        if (key.trim() === '') {
          setError('Enter the API key from the API section of your account settings.');
          return;
        }
        const result = await ui.call(() => ui.api.setApiKey(profile.id, key.trim()));
        if (!result) return;
        if (!result.ok) {
          setError(result.issues.map((i) => i.message).join(' '));
          return;
        }
        setKey('');
        ui.toast(`API key saved, ${KEY_STORE_WORDS[result.value.keyStore]}.`, { tone: 'success' });
        onDone();
      }}
    >
      <label htmlFor={`${id}-key`}>New API key for {profile.name}</label>
      <input id={`${id}-key`} type="password" value={key} autoComplete="new-password" spellCheck={false} aria-invalid={!!error} aria-describedby={error ? `${id}-err` : `${id}-hint`} onChange={(e) => setKey(e.target.value)} />
      {!error && (
        <p id={`${id}-hint`} className="hint">
          It is never shown again once saved. It will be {KEY_STORE_WORDS[profile.keyStore]}.
        </p>
      )}
      <FieldError id={`${id}-err`} message={error ?? undefined} />
      <div className="actions">
        <button type="submit" className="primary">
          Save key
        </button>
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
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type ProfileField = 'name' | 'baseUrl' | 'servicePath' | 'namespace' | 'binding' | 'account';

export function ProfileForm({ profile, onDone }: { profile: ProfileView | null; onDone: (saved?: ProfileView) => void }) {
  const ui = useUi();
  const id = useId();
  const [values, setValues] = useState({
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? 'https://api.towercoverage.com',
    servicePath: profile?.servicePath ?? '/towercoverage.asmx',
    namespace: profile?.namespace ?? 'http://tempuri.org/',
    binding: profile?.binding ?? ('http-post' as Binding),
    account: profile?.account ?? '',
  });
  const [key, setKey] = useState('');
  const [issues, setIssues] = useState<Partial<Record<ProfileField | 'key' | '', string>>>({});
  const [busy, setBusy] = useState(false);

  const field = (name: ProfileField, label: string, hint?: string) => (
    <div className={`field ${issues[name] ? 'has-error' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        value={values[name]}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={!!issues[name]}
        aria-describedby={issues[name] ? `${id}-${name}-error` : hint ? `${id}-${name}-hint` : undefined}
        onChange={(e) => {
          setValues({ ...values, [name]: e.target.value });
          setIssues({ ...issues, [name]: undefined });
        }}
      />
      {hint && !issues[name] && (
        <p id={`${id}-${name}-hint`} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-${name}-error`} message={issues[name]} />
    </div>
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
        const input: ProfileInput = { ...values };
        if (profile) input.id = profile.id;
        const result = await ui.call(() => ui.api.saveProfile(input));
        if (!result) {
          setBusy(false);
          return;
        }
        if (!result.ok) {
          setBusy(false);
          const next: typeof issues = {};
          for (const issue of result.issues) next[issue.field as ProfileField] ??= issue.message;
          setIssues(next);
          return;
        }
        if (key.trim() !== '') {
          const keyResult = await ui.call(() => ui.api.setApiKey(result.value.id, key.trim()));
          if (keyResult && !keyResult.ok) {
            setBusy(false);
            setIssues({ key: keyResult.issues.map((i) => i.message).join(' ') });
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
      <div className={`field ${issues.binding ? 'has-error' : ''}`}>
        <label htmlFor={`${id}-binding`}>Protocol</label>
        <select id={`${id}-binding`} value={values.binding} onChange={(e) => setValues({ ...values, binding: e.target.value as Binding })}>
          {BINDINGS.map((b) => (
            <option key={b.value} value={b.value}>
              {b.label}
            </option>
          ))}
        </select>
        <FieldError id={`${id}-binding-error`} message={issues.binding} />
      </div>
      <details>
        <summary>Advanced: service path and namespace</summary>
        {field('servicePath', 'Service path')}
        {field('namespace', 'SOAP namespace')}
      </details>
      {!profile && (
        <div className={`field ${issues.key ? 'has-error' : ''}`}>
          <label htmlFor={`${id}-key`}>API key (optional now)</label>
          <input id={`${id}-key`} type="password" value={key} autoComplete="new-password" spellCheck={false} aria-describedby={issues.key ? `${id}-key-error` : `${id}-key-hint`} onChange={(e) => setKey(e.target.value)} />
          {!issues.key && (
            <p id={`${id}-key-hint`} className="hint">
              Write-only: Sitewalk never shows it again. It is kept in the OS keychain when one is available, otherwise for this session only.
            </p>
          )}
          <FieldError id={`${id}-key-error`} message={issues.key} />
        </div>
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

type SettingsField = 'tileUrl' | 'tileAttribution' | 'syncConcurrency' | 'heightUnit';

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
        if (!/^https?:\/\/.+\{z\}.*\{x\}.*\{y\}/i.test(values.tileUrl.trim())) {
          setIssues({ tileUrl: 'The tile address must start with http:// or https:// and contain {z}, {x} and {y}.' });
          return;
        }
        const result = await ui.call(() =>
          ui.api.saveSettings({ tileUrl: values.tileUrl.trim(), tileAttribution: values.tileAttribution, syncConcurrency: concurrency, heightUnit: values.heightUnit }),
        );
        if (!result) return;
        if (!result.ok) {
          const next: typeof issues = {};
          for (const issue of result.issues) next[issue.field as SettingsField] ??= issue.message;
          setIssues(next);
          return;
        }
        setIssues({});
        ui.store.applySettings(result.value);
        ui.toast('Settings saved.', { tone: 'success' });
      }}
    >
      <h3 id={`${id}-title`}>Map and sync</h3>
      <div className={`field ${issues.tileUrl ? 'has-error' : ''}`}>
        <label htmlFor={`${id}-tileUrl`}>Map tile address</label>
        <input id={`${id}-tileUrl`} value={values.tileUrl} spellCheck={false} autoComplete="off" aria-invalid={!!issues.tileUrl} aria-describedby={issues.tileUrl ? `${id}-tileUrl-error` : `${id}-tileUrl-hint`} onChange={(e) => setValues({ ...values, tileUrl: e.target.value })} />
        {!issues.tileUrl && (
          <p id={`${id}-tileUrl-hint`} className="hint">
            A tile server template with {'{z}'}, {'{x}'} and {'{y}'}. Tiles seen while online stay on this computer for offline use; where there are none, the map shows a coordinate grid.
          </p>
        )}
        <FieldError id={`${id}-tileUrl-error`} message={issues.tileUrl} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-attr`}>Map attribution</label>
        <input id={`${id}-attr`} value={values.tileAttribution} autoComplete="off" onChange={(e) => setValues({ ...values, tileAttribution: e.target.value })} />
      </div>
      <button type="button" className="link-button" onClick={() => setValues({ ...values, tileUrl: DEFAULT_SETTINGS.tileUrl, tileAttribution: DEFAULT_SETTINGS.tileAttribution })}>
        Use OpenStreetMap (default)
      </button>
      <div className={`field ${issues.syncConcurrency ? 'has-error' : ''}`}>
        <label htmlFor={`${id}-conc`}>Sites sent at the same time</label>
        <input id={`${id}-conc`} value={concurrencyText} inputMode="numeric" aria-invalid={!!issues.syncConcurrency} aria-describedby={issues.syncConcurrency ? `${id}-conc-error` : `${id}-conc-hint`} onChange={(e) => setConcurrencyText(e.target.value)} />
        {!issues.syncConcurrency && (
          <p id={`${id}-conc-hint`} className="hint">
            1 to 16. Changes to one site are always sent in order.
          </p>
        )}
        <FieldError id={`${id}-conc-error`} message={issues.syncConcurrency} />
      </div>
      <fieldset className="unit-choice">
        <legend>Height unit in forms</legend>
        {(['m', 'ft'] as const).map((unit) => (
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
