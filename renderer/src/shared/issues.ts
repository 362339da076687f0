// What the host or the shared schema refused, in the two shapes the UI shows it: one sentence (a
// toast, a line under a one-field form) or the first message of each field (a form with many fields,
// where anything the form has no field for goes to the general line, keyed '').
import type { InputIssue } from '../../../electron/shared/domain';

/** Every message, in order, as one sentence. */
export function issueText(issues: readonly InputIssue[]): string {
  return issues.map((issue) => issue.message).join(' ');
}

/**
 * The first message of each field. With `fields`, an issue of any other field goes under '' (the
 * form's general line), so nothing the host says is lost for want of a field to show it beside.
 */
export function issuesByField(issues: readonly InputIssue[], fields?: readonly string[]): Partial<Record<string, string>> {
  const byField: Partial<Record<string, string>> = {};
  for (const issue of issues) {
    const field = fields && !fields.includes(issue.field) ? '' : issue.field;
    byField[field] ??= issue.message;
  }
  return byField;
}
