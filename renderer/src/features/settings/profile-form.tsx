// A connection profile's form: the service's address, protocol and account, saved as the host
// checks them (a refusal shows beside its field). Settings uses it to add or edit a profile, and the
// first-run welcome to connect a real account.
import { useId, useState } from 'react';
import type { ProfileInput, ProfileView } from '../../../../electron/shared/contract/index';
import { BINDINGS, REAL_SERVICE, type Binding } from '../../../../electron/shared/domain';
import { issueText, issuesByField } from '../../shared/issues';
import { CheckboxField, FormActions, InputField, SelectField, TitledForm, useFormValues } from '../../shared/ui/field';
import { useUi } from '../../shared/ui/ui-context';

export const BINDING_LABELS: Record<Binding, string> = {
  'http-post': 'HTTP POST (recommended)',
  'http-get': 'HTTP GET',
  soap11: 'SOAP 1.1',
  soap12: 'SOAP 1.2',
};

export function ProfileForm({ profile, onDone }: { profile: ProfileView | null; onDone: (saved?: ProfileView) => void }) {
  const ui = useUi();
  const id = useId();
  const { values, setValues, issues, setIssues, text } = useFormValues(id, {
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? REAL_SERVICE.baseUrl,
    servicePath: profile?.servicePath ?? REAL_SERVICE.servicePath,
    namespace: profile?.namespace ?? REAL_SERVICE.namespace,
    binding: profile?.binding ?? REAL_SERVICE.binding,
    account: profile?.account ?? '',
  });
  const [bindingFallback, setBindingFallback] = useState(profile?.bindingFallback ?? true);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);

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
      {text('name', 'Profile name')}
      {text(
        'baseUrl',
        'Service address',
        profile?.hasKey ? 'For example https://api.towercoverage.com. Pointing the profile at another server forgets its saved API key.' : 'For example https://api.towercoverage.com',
      )}
      {text('account', 'Account ID', 'In the API section of your account settings.')}
      <SelectField label="Protocol" id={`${id}-binding`} error={issues['binding']} value={values.binding} options={BINDINGS} labels={BINDING_LABELS} onChange={(binding) => setValues({ ...values, binding })} />
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
        {text('servicePath', 'Service path')}
        {text('namespace', 'SOAP namespace')}
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
