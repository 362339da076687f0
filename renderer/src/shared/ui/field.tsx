// Form pieces every panel uses: a form named by its heading, a field's error line, labelled fields
// (text, choice, checkbox) whose input is told what describes it (the hint, or the error once there
// is one), a form's text values with their problems (typing in a field clears its own), a form's closing lines (a problem of no one field, submit and cancel), and the small form
// for one value (a site ID, an API key) that refuses a blank and shows what the host refused under
// the input.
import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import type { Result } from '../../../../electron/shared/result';
import { issueText } from '../issues';
import { BADGE_URLS } from '../sprites';

/**
 * A form named by its heading (id `${id}-title`). It checks its values itself (noValidate), and
 * `onSubmit` runs without the page reloading.
 */
export function TitledForm({ id, title, heading: Heading = 'h4', className = 'panel-card', autoComplete, onSubmit, children }: {
  id: string;
  title: ReactNode;
  heading?: 'h3' | 'h4';
  className?: string;
  autoComplete?: 'off';
  onSubmit: () => unknown;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      noValidate
      autoComplete={autoComplete}
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <Heading id={`${id}-title`}>{title}</Heading>
      {children}
    </form>
  );
}

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

/** A labelled input: `error` marks it invalid and takes the hint's place as what describes it. */
export function InputField({ label, id, error, hint, inputRef, ...input }: {
  label: string;
  id: string;
  error?: string | undefined;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement> | undefined;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid' | 'aria-describedby'>) {
  return (
    <Field label={label} id={id} error={error} hint={hint}>
      {(describedBy) => <input ref={inputRef} {...input} id={id} aria-invalid={!!error} aria-describedby={describedBy} />}
    </Field>
  );
}

/**
 * A form's values and the problems shown beside its fields (by field name; '' for none in
 * particular), with `text(name, label, hint?, inputRef?)`: the free-text field for one value, whose
 * typing clears that field's problem until the next save is checked.
 */
export function useFormValues<V extends Record<string, string>>(id: string, initial: V) {
  const [values, setValues] = useState(initial);
  const [issues, setIssues] = useState<Partial<Record<string, string>>>({});
  const text = (name: keyof V & string, label: string, hint?: string, inputRef?: Ref<HTMLInputElement>) => (
    <InputField
      label={label}
      id={`${id}-${name}`}
      error={issues[name]}
      hint={hint}
      inputRef={inputRef}
      value={values[name]}
      autoComplete="off"
      spellCheck={false}
      onChange={(e) => {
        setValues({ ...values, [name]: e.target.value });
        setIssues({ ...issues, [name]: undefined });
      }}
    />
  );
  return { values, setValues, issues, setIssues, text };
}

/** A labelled choice among `options`, each shown as its entry in `labels`. */
export function SelectField<T extends string>({ label, id, error, value, options, labels, onChange }: {
  label: string;
  id: string;
  error?: string | undefined;
  value: T;
  options: readonly T[];
  labels: NoInfer<Record<T, string>>;
  onChange: (value: T) => void;
}) {
  return (
    <Field label={label} id={id} error={error}>
      {(describedBy) => (
        <select id={id} value={value} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value as T)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label beside it and its hint under it (the error in the hint's place). */
export function CheckboxField({ id, label, checked, onChange, error, hint }: {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
  hint: ReactNode;
}) {
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label className="checkbox">
        <input type="checkbox" checked={checked} aria-describedby={error ? `${id}-error` : `${id}-hint`} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </label>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A problem that belongs to no one field; `alert` reads it out at once (it answers what the user just did). */
export function FormError({ message, alert = false }: { message: string | null | undefined; alert?: boolean }) {
  if (!message) return null;
  return (
    <p className="field-error" role={alert ? 'alert' : undefined}>
      {message}
    </p>
  );
}

/**
 * A form's last lines: its problem that belongs to no one field, then the submit button (saying
 * `busyLabel` while busy, and disabled then unless `disabled` says otherwise), any `children`, and
 * the button that leaves the form.
 */
export function FormActions({ error, alert, submitLabel, busy = false, busyLabel, disabled = busy, cancelLabel = 'Cancel', onCancel, children }: {
  error?: string | null | undefined;
  alert?: boolean;
  submitLabel: string;
  busy?: boolean;
  busyLabel?: string;
  disabled?: boolean;
  cancelLabel?: string;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      <FormError message={error} alert={alert} />
      <div className="actions">
        <button type="submit" className="primary" disabled={disabled}>
          {busy && busyLabel ? busyLabel : submitLabel}
        </button>
        {children}
        <button type="button" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </>
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
      <FormActions submitLabel={submitLabel} onCancel={onCancel}>
        {children}
      </FormActions>
    </form>
  );
}
