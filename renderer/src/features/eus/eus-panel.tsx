// EUS reprocess: a submission is reprocessed into a Multi Map, with or without emailing the account's
// EUS recipients again. That email is a visible side effect, so the choice has no default and each
// option says what it does. Validation is the shared schema (parseEusReprocess); the request is queued
// like every other change, and its history (from the outbox) shows each result.
import { useId, useMemo, useState } from 'react';
import type { EusReprocessInput } from '../../../../electron/shared/validation';
import { parseEusReprocess } from '../../../../electron/shared/validation';
import { useAppState } from '../../shared/store/app-store';
import { issuesByField } from '../../shared/issues';
import { FieldError, InputField, TitledForm } from '../../shared/ui/field';
import { useUi } from '../../shared/ui/ui-context';
import { OutboxEntry } from '../outbox';

type FieldName = 'processId' | 'multiMapId' | 'sendEmail';

/** The two answers to "Send the email again?", in the order offered (the first is focused when neither is chosen). */
const EMAIL_CHOICES = [
  { value: 'yes', title: 'Yes, send the email again', detail: "Emails the account's EUS recipients again, and pushes the XML to the account's EUS API if one is set up." },
  { value: 'no', title: 'No email', detail: 'Reprocesses quietly: nobody is emailed.' },
] as const;

export function EusPanel() {
  const ui = useUi();
  const id = useId();
  const outbox = useAppState(ui.store, (s) => s.outbox);
  const [processId, setProcessId] = useState('');
  const [multiMapId, setMultiMapId] = useState('');
  const [sendEmail, setSendEmail] = useState<'yes' | 'no' | ''>('');
  const [touched, setTouched] = useState<Set<FieldName>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverIssues, setServerIssues] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);

  const input: EusReprocessInput = { processId, multiMapId, sendEmail: sendEmail === '' ? undefined : sendEmail === 'yes' };
  const validation = parseEusReprocess(input);
  // The host's answer to the last request speaks over the schema until the input changes.
  const issues = { ...(validation.ok ? {} : issuesByField(validation.issues)), ...serverIssues };
  const shown = (field: FieldName) => (submitted || touched.has(field) ? issues[field] : undefined);
  const touch = (field: FieldName) => setTouched((t) => new Set(t).add(field));

  const textField = (name: 'processId' | 'multiMapId', label: string, value: string, set: (value: string) => void, hint: string, inputMode?: 'numeric') => (
    <InputField
      label={label}
      id={`${id}-${name}`}
      error={shown(name)}
      hint={hint}
      value={value}
      inputMode={inputMode}
      autoComplete="off"
      onChange={(e) => {
        set(e.target.value);
        setServerIssues({});
      }}
      onBlur={() => touch(name)}
    />
  );

  const history = useMemo(
    () => [...outbox.values()].filter((e) => e.kind === 'reprocess').sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    [outbox],
  );

  async function submit() {
    setSubmitted(true);
    if (!validation.ok) {
      const first = (['processId', 'multiMapId', 'sendEmail'] as FieldName[]).find((f) => issues[f]);
      document.getElementById(first === 'sendEmail' ? `${id}-email-yes` : `${id}-${first}`)?.focus();
      return;
    }
    setBusy(true);
    const request = { processId: validation.value.processId, multiMapId: validation.value.multiMapId, sendEmail: validation.value.sendEmail };
    let result = await ui.call(() => ui.api.reprocessEus(request));
    const duplicate = result && !result.ok ? result.issues.find((issue) => issue.field === 'duplicateEmail') : undefined;
    if (duplicate) {
      // The submission was emailed (or is queued to be) in the last 24 h: the user decides.
      const again = await ui.confirm({ title: 'Email the recipients again?', body: duplicate.message, confirmLabel: 'Send the email again', danger: true, focus: 'cancel' });
      result = again ? await ui.call(() => ui.api.reprocessEus({ ...request, force: true })) : undefined;
    }
    setBusy(false);
    if (!result) return;
    if (!result.ok) {
      setServerIssues(issuesByField(result.issues));
      return;
    }
    ui.store.applyOutboxEntry(result.value);
    ui.toast(`Reprocess of ${validation.value.processId} queued.`, { tone: 'success' });
    setProcessId('');
    setMultiMapId('');
    setSendEmail('');
    setTouched(new Set());
    setSubmitted(false);
    setServerIssues({});
  }

  return (
    <div className="eus-panel">
      <div className="panel-actions">
        <button type="button" onClick={() => ui.openBulk('reprocess')}>
          Reprocess many from a file…
        </button>
      </div>
      <TitledForm id={id} title="Reprocess an EUS submission" heading="h3" onSubmit={submit}>
        <p className="form-help">The submission is processed again without creating a new entry, and assigned to the Multi Map you give.</p>
        {textField('processId', 'Process ID', processId, setProcessId, 'Open the submission, or find it in the CSV download of the data.')}
        {textField('multiMapId', 'Multi Map ID', multiMapId, setMultiMapId, "Digits only; it is in the Multi Map's address or its embed code.", 'numeric')}
        <fieldset className={`email-choice ${shown('sendEmail') ? 'has-error' : ''}`} aria-describedby={shown('sendEmail') ? `${id}-email-error` : undefined}>
          <legend>Send the email again?</legend>
          {EMAIL_CHOICES.map((choice) => (
            <label key={choice.value} className={sendEmail === choice.value ? 'checked' : ''}>
              <input
                id={`${id}-email-${choice.value}`}
                type="radio"
                name={`${id}-email`}
                value={choice.value}
                checked={sendEmail === choice.value}
                onChange={() => {
                  setSendEmail(choice.value);
                  touch('sendEmail');
                }}
              />
              <span>
                <strong>{choice.title}</strong>
                <br />
                {choice.detail}
              </span>
            </label>
          ))}
          <FieldError id={`${id}-email-error`} message={shown('sendEmail')} />
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Queuing…' : 'Queue reprocess'}
          </button>
        </div>
      </TitledForm>

      <section aria-labelledby={`${id}-history`}>
        <h3 id={`${id}-history`}>History ({history.length})</h3>
        {history.length === 0 ? (
          <p className="empty">No reprocess requests yet.</p>
        ) : (
          <ul className="entries">
            {history.slice(0, 100).map((entry) => (
              <li key={entry.id}>
                <OutboxEntry entry={entry} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
