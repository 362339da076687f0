// "Test connection" for one profile: a button, an option to spend a call per binding, and the result
// read out when it arrives (a live region) — the service, the account and key, each binding, and
// the API calls the test used. Also the site form's notice for text the service's ASP.NET front
// would refuse over the profile's binding (RefusalNotice), from the shared rule.
import { useId, useMemo, useState } from 'react';
import type { ConnectionCheck, ConnectionTestView, ProfileView } from '../../../../electron/shared/contract/index';
import { BINDING_NAMES } from '../../../../electron/shared/aspnet';
import type { SiteEdit } from '../../../../electron/shared/domain';
import { siteRefusalWarnings } from '../../../../electron/shared/validation/request-validation';
import { issueText } from '../../shared/issues';
import { SupportDetails } from '../../shared/ui/problem';
import { useUi } from '../../shared/ui/ui-context';

const OUTCOME_WORDS: Record<ConnectionCheck['outcome'], string> = { passed: 'Passed', failed: 'Failed', skipped: 'Not tried' };

/** What a test result was about: the profile's settings and its key. A result for anything else is stale. */
function testedWith(profile: ProfileView, keyVersion: number): string {
  return JSON.stringify([profile.baseUrl, profile.servicePath, profile.namespace, profile.binding, profile.account, profile.hasKey, keyVersion]);
}

export function ConnectionTest({ profile, keyVersion = 0 }: { profile: ProfileView; keyVersion?: number }) {
  const ui = useUi();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [everyBinding, setEveryBinding] = useState(false);
  const [tested, setTested] = useState<{ result: ConnectionTestView; with: string } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // A key saved (or the address changed) after the test: "The connection works." would be about
  // something that is no longer there, so the result goes and a sentence says why.
  const current = testedWith(profile, keyVersion);
  const result = tested && tested.with === current ? tested.result : null;
  const stale = tested !== null && result === null;

  async function run() {
    setBusy(true);
    setRefusal(null);
    const asked = current;
    const outcome = await ui.call(() => ui.api.testProfile(profile.id, everyBinding ? { everyBinding: true } : {}));
    setBusy(false);
    if (!outcome) return;
    if (!outcome.ok) {
      setTested(null);
      setRefusal(issueText(outcome.issues));
      return;
    }
    setTested({ result: outcome.value, with: asked });
  }

  return (
    <section className="connection-test" aria-labelledby={`${id}-title`}>
      <h5 id={`${id}-title`} className="visually-hidden">
        Test the connection of {profile.name}
      </h5>
      <p className="form-help" id={`${id}-help`}>
        Checks that the service answers (no API call), then the account ID and key with one GetRenderingQualityList call (this uses one of the account's API calls), then which protocols the
        service answers (no API call).
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={everyBinding} onChange={(e) => setEveryBinding(e.target.checked)} />
        Also make the call over the other three protocols (up to 3 more API calls)
      </label>
      <div className="actions">
        <button type="button" onClick={() => void run()} disabled={busy} aria-describedby={`${id}-help`}>
          {busy ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      <div aria-live="polite" aria-busy={busy}>
        {refusal && <p className="field-error">{refusal}</p>}
        {stale && <p className="form-help">The key or the service address changed since the last test: test again to know whether the connection works now.</p>}
        {result && <ConnectionTestResult result={result} />}
      </div>
    </section>
  );
}

function ConnectionTestResult({ result }: { result: ConnectionTestView }) {
  const calls = result.apiCallsUsed === 0 ? 'No API call was used.' : result.apiCallsUsed === 1 ? 'One API call was used.' : `${result.apiCallsUsed} API calls were used.`;
  return (
    // Read out by the live region around it.
    <div className={result.ok ? 'notice' : 'problem'}>
      <p>
        <strong>{result.ok ? 'The connection works.' : 'The connection does not work yet.'}</strong> {calls}
      </p>
      <dl>
        <dt>Service</dt>
        <dd>
          {OUTCOME_WORDS[result.reachability.outcome]}: {result.reachability.message}
        </dd>
        <dt>Account and key</dt>
        <dd>
          {OUTCOME_WORDS[result.credentials.outcome]}: {result.credentials.message}
        </dd>
        <dt>Protocols</dt>
        <dd>
          <ul>
            {result.bindings.map((check) => (
              <li key={check.binding}>
                {BINDING_NAMES[check.binding]}: {check.answers === true ? 'answers' : check.answers === false ? 'does not answer' : 'unknown'}
                {check.inWsdl === null ? '' : check.inWsdl ? ' (listed in the service description)' : ' (not listed in the service description)'} — {check.message}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <SupportDetails detail={[result.summary, result.reachability.detail, result.credentials.detail].filter(Boolean).join('\n\n')} />
    </div>
  );
}

/**
 * For the site form: what the service's ASP.NET front would refuse in this edit over the active
 * profile's binding. A warning (role alert) when the profile does not let Sitewalk carry it over
 * another binding, so saving would fail; a note when it will be sent over SOAP 1.1 or HTTP POST.
 * Nothing is shown for SOAP profiles or text that passes.
 */
export function RefusalNotice({ edit, profile }: { edit: SiteEdit | null; profile: ProfileView | null }) {
  const warnings = useMemo(
    () => (edit && profile ? siteRefusalWarnings(edit, { binding: profile.binding, bindingFallback: profile.bindingFallback, account: profile.account }) : []),
    [edit, profile],
  );
  if (warnings.length === 0) return null;
  const refused = warnings.some((warning) => !warning.carried);
  return (
    <div className={refused ? 'problem' : 'notice'} role={refused ? 'alert' : 'status'}>
      {warnings.map((warning) => (
        <p key={`${warning.field}-${warning.rule}`}>{warning.message}</p>
      ))}
    </div>
  );
}
