// The one schema for an EUS reprocess request (form, CLI, client). Output is an EusReprocess ready
// for the wire: trimmed process ID, Multi Map ID as a digit string, sendEmail as a boolean.
// sendEmail has no default on purpose: resending email to the EUS recipients is a visible side
// effect, so the caller must choose.
import { z } from 'zod';
import type { EusReprocess } from '../domain';
import { TEXT_LIMITS, addIssue, readBoolean, requiredText, runSchema, type ValidationResult } from './common';

export interface EusReprocessInput {
  processId?: string;
  multiMapId?: string | number;
  sendEmail?: boolean | string;
}

const multiMapId = z.unknown().transform((value, ctx): string => {
  let text: string;
  if (value === undefined || value === null) text = '';
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      return addIssue(ctx, 'Multi Map ID must be digits only, like 12345.');
    }
    text = String(value);
  } else if (typeof value === 'string') text = value.trim();
  else return addIssue(ctx, 'Multi Map ID must be digits only, like 12345.');
  if (text === '') return addIssue(ctx, 'Multi Map ID is required: it is in the Multi Map\'s address or its embed code.');
  if (!/^\d+$/.test(text)) return addIssue(ctx, 'Multi Map ID must be digits only, like 12345.');
  if (text.length > TEXT_LIMITS.multiMapId) {
    return addIssue(ctx, `Multi Map ID is ${text.length} digits long; the limit is ${TEXT_LIMITS.multiMapId}.`);
  }
  return text;
});

const sendEmail = z.unknown().transform((value, ctx): boolean => {
  const flag = readBoolean(value);
  if (flag === undefined) return addIssue(ctx, 'Choose whether to send the email again (yes or no).');
  if (flag === 'invalid') return addIssue(ctx, 'Send email must be yes or no (1 or 0, true or false).');
  return flag;
});

/** EUS reprocess: EusReprocessInput in, EusReprocess out. */
export const eusReprocessSchema = z.object({
  processId: requiredText({
    label: 'Process ID',
    max: TEXT_LIMITS.processId,
    blankMessage: 'Process ID is required: open the submission or its CSV download to find it.',
  }),
  multiMapId,
  sendEmail,
});

/** Validates an EUS reprocess request. Never throws. */
export function parseEusReprocess(input: EusReprocessInput): ValidationResult<EusReprocess> {
  return runSchema(eusReprocessSchema, input);
}
