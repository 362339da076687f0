// Form pieces every panel uses: a field's error line, a labelled field whose input is told what
// describes it (the hint, or the error once there is one), and the small form for one value (a site
// ID, an API key) that refuses a blank and shows what the host refused under the input.
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { Result } from '../../../electron/shared/result';
import { issueText } from '../lib/issues';
import { BADGE_URLS } from '../map/sprites';

/** A field's error line, tied to its input by id (aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      <img src={BADGE_URLS.failed} alt="" width={16} height={16} /> {message}
    </p>
  );
}

/** A labelled field; its child gets the ids of whatever describes it right now (hint or error). */
export function Field({ label, id, error, hint, children }: {
  label: string;
  id: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(describedBy)}
      {hint && !error && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * A form for one value. A blank value is refused with `blankMessage`; otherwise `send` gets the
 * trimmed value. A refusal shows under the input; when the call itself failed (undefined) it has
 * said so already; when it was done, `onSent` gets the answer and the form empties.
 */
export function ValueForm<T>({ className, label, input, hint, blankMessage, send, onSent, submitLabel, onCancel, children }: {
  className: string;
  label: string;
  /** How the input behaves (type, inputMode, autoComplete…). */
  input: InputHTMLAttributes<HTMLInputElement>;
  hint?: ReactNode;
  blankMessage: string;
  send: (value: string) => Promise<Result<T> | undefined>;
  onSent: (answer: T, value: string) => void;
  submitLabel: string;
  onCancel: () => void;
  /** More actions, between the submit button and Cancel. */
  children?: ReactNode;
}) {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className={className}
      noValidate
      autoComplete="off"
      onSubmit={async (e) => {
        e.preventDefault();
        if (value.trim() === '') {
          setError(blankMessage);
          return;
        }
        const sent = value.trim();
        const result = await send(sent);
        if (!result) return;
        if (!result.ok) {
          setError(issueText(result.issues));
          return;
        }
        setError(null);
        setValue('');
        onSent(result.value, sent);
      }}
    >
      <label htmlFor={`${id}-value`}>{label}</label>
      <input
        {...input}
        id={`${id}-value`}
        value={value}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={(e) => setValue(e.target.value)}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error ?? undefined} />
      <div className="actions">
        <button type="submit" className="primary">
          {submitLabel}
        </button>
        {children}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
