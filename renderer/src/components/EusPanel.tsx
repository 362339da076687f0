// EUS reprocess: a submission is reprocessed into a Multi Map, with or without emailing the account's
// EUS recipients again. That email is a visible side effect, so the choice has no default and each
// option says what it does. Validation is the shared schema (parseEusReprocess); the request is queued
// like every other change, and its history (from the outbox) shows each result.
import { useId, useMemo, useState } from 'react';
import type { EusReprocessInput } from '../../../electron/shared/validation';
import { parseEusReprocess } from '../../../electron/shared/validation';
import { useAppState } from '../store';
import { FieldError, useUi } from './ui';
import { OutboxEntry } from './OutboxPanel';

type Field = 'processId' | 'multiMapId' | 'sendEmail';

export function EusPanel() {
  const ui = useUi();
  const id = useId();
  const outbox = useAppState(ui.store, (s) => s.outbox);
  const [processId, setProcessId] = useState('');
  const [multiMapId, setMultiMapId] = useState('');
  const [sendEmail, setSendEmail] = useState<'yes' | 'no' | ''>('');
  const [touched, setTouched] = useState<Set<Field>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverIssues, setServerIssues] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);

  const input: EusReprocessInput = { processId, multiMapId, sendEmail: sendEmail === '' ? undefined : sendEmail === 'yes' };
  const validation = parseEusReprocess(input);
  const issues: Partial<Record<Field, string>> = {};
  if (!validation.ok) for (const issue of validation.issues) issues[issue.field as Field] ??= issue.message;
  for (const [field, message] of Object.entries(serverIssues)) if (message) issues[field as Field] = message;
  const shown = (field: Field) => (submitted || touched.has(field) ? issues[field] : undefined);
  const touch = (field: Field) => setTouched((t) => new Set(t).add(field));

  const history = useMemo(
    () => [...outbox.values()].filter((e) => e.kind === 'reprocess').sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    [outbox],
  );

  async function submit() {
    setSubmitted(true);
    if (!validation.ok) {
      const first = (['processId', 'multiMapId', 'sendEmail'] as Field[]).find((f) => issues[f]);
      document.getElementById(first === 'sendEmail' ? `${id}-email-yes` : `${id}-${first}`)?.focus();
      return;
    }
    setBusy(true);
    const result = await ui.call(() => ui.api.reprocessEus({ processId: validation.value.processId, multiMapId: validation.value.multiMapId, sendEmail: validation.value.sendEmail }));
    setBusy(false);
    if (!result) return;
    if (!result.ok) {
      const byField: Record<string, string> = {};
      for (const issue of result.issues) byField[issue.field] ??= issue.message;
      setServerIssues(byField);
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
      <form
        className="panel-card"
        noValidate
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h3 id={`${id}-title`}>Reprocess an EUS submission</h3>
        <p className="form-help">The submission is processed again without creating a new entry, and assigned to the Multi Map you give.</p>
        <div className={`field ${shown('processId') ? 'has-error' : ''}`}>
          <label htmlFor={`${id}-processId`}>Process ID</label>
          <input id={`${id}-processId`} value={processId} autoComplete="off" aria-invalid={!!shown('processId')} aria-describedby={shown('processId') ? `${id}-processId-error` : `${id}-processId-hint`} onChange={(e) => {
            setProcessId(e.target.value);
            setServerIssues({});
          }} onBlur={() => touch('processId')} />
          {!shown('processId') && <p id={`${id}-processId-hint`} className="hint">Open the submission, or find it in the CSV download of the data.</p>}
          <FieldError id={`${id}-processId-error`} message={shown('processId')} />
        </div>
        <div className={`field ${shown('multiMapId') ? 'has-error' : ''}`}>
          <label htmlFor={`${id}-multiMapId`}>Multi Map ID</label>
          <input id={`${id}-multiMapId`} value={multiMapId} inputMode="numeric" autoComplete="off" aria-invalid={!!shown('multiMapId')} aria-describedby={shown('multiMapId') ? `${id}-multiMapId-error` : `${id}-multiMapId-hint`} onChange={(e) => {
            setMultiMapId(e.target.value);
            setServerIssues({});
          }} onBlur={() => touch('multiMapId')} />
          {!shown('multiMapId') && <p id={`${id}-multiMapId-hint`} className="hint">Digits only; it is in the Multi Map's address or its embed code.</p>}
          <FieldError id={`${id}-multiMapId-error`} message={shown('multiMapId')} />
        </div>
        <fieldset className={`email-choice ${shown('sendEmail') ? 'has-error' : ''}`} aria-describedby={shown('sendEmail') ? `${id}-email-error` : undefined}>
          <legend>Send the email again?</legend>
          <label className={sendEmail === 'yes' ? 'checked' : ''}>
            <input id={`${id}-email-yes`} type="radio" name={`${id}-email`} value="yes" checked={sendEmail === 'yes'} onChange={() => {
              setSendEmail('yes');
              touch('sendEmail');
            }} />
            <span>
              <strong>Yes, send the email again</strong>
              <br />
              Emails the account's EUS recipients again, and pushes the XML to the account's EUS API if one is set up.
            </span>
          </label>
          <label className={sendEmail === 'no' ? 'checked' : ''}>
            <input type="radio" name={`${id}-email`} value="no" checked={sendEmail === 'no'} onChange={() => {
              setSendEmail('no');
              touch('sendEmail');
            }} />
            <span>
              <strong>No email</strong>
              <br />
              Reprocesses quietly: nobody is emailed.
            </span>
          </label>
          <FieldError id={`${id}-email-error`} message={shown('sendEmail')} />
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Queuing…' : 'Queue reprocess'}
          </button>
        </div>
      </form>

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
