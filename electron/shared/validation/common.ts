// Building blocks shared by every input schema (site edit, EUS reprocess, profile): text that XML
// 1.0 can carry, trimmed fields with generous limits, numbers written the way a person types them.
// Every rejection is a sentence that names the field, so the UI, the CSV import and the CLI can show
// it unchanged. Nothing here knows the wire names of the spec. The rules that need no schema are in
// rules.ts (re-exported here).
import { z } from 'zod';
import type { InputIssue } from '../domain';
import type { Result } from '../result';
import { characterCount, findXmlForbidden, labelFor } from './rules';

export { TEXT_LIMITS, MAX_HEIGHT_M, COORDINATE_DECIMALS, findXmlForbidden, isXmlSafe, characterCount, labelFor, roundCoordinate, formatCoordinate, readBoolean } from './rules';

/** The one result shape (../result.ts), under the name the schemas use. */
export type ValidationResult<T> = Result<T>;

/** Turns zod issues into the project's InputIssue list (domain field names, our sentences). */
export function toInputIssues(error: z.ZodError): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    // Our own refinements carry finished sentences; zod's built-in ones (wrong type of the whole
    // input) get a generic sentence so a technician never sees zod's wording.
    const message = issue.code === 'custom' ? issue.message : field ? `${labelFor(field)} is not valid.` : 'The input is not valid.';
    if (!issues.some((known) => known.field === field && known.message === message)) issues.push({ field, message });
  }
  return issues;
}

/** Runs a schema and returns the project's result shape. Never throws. */
export function runSchema<T>(schema: z.ZodType<T>, input: unknown): ValidationResult<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issues: toInputIssues(parsed.error) };
}

type Ctx = z.core.$RefinementCtx;

function fail(ctx: Ctx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** Text given as a string, a number, or nothing; undefined and null read as blank. */
function asText(value: unknown, label: string, ctx: Ctx): string | typeof z.NEVER {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return fail(ctx, `${label} must be text.`);
}

export interface TextFieldOptions {
  label: string;
  max: number;
  /** Allow line breaks (descriptions). Single-line fields reject them: they would not survive a list or a CSV. */
  multiline?: boolean;
}

/**
 * Optional trimmed text: blank becomes undefined ("leave unchanged" on the wire), the rest must be
 * XML-safe and within the limit.
 */
export function optionalText(options: TextFieldOptions) {
  return z.unknown().transform((value, ctx): string | undefined => {
    const raw = asText(value, options.label, ctx);
    if (raw === z.NEVER) return z.NEVER;
    const text = raw.trim();
    if (text === '') return undefined;
    return checkText(text, options, ctx);
  })
    // zod 4 wants an undefined output declared optional; an absent key then skips the transform.
    .optional();
}

/** Required trimmed text: like optionalText, but blank is an error. */
export function requiredText(options: TextFieldOptions & { blankMessage: string }) {
  return z.unknown().transform((value, ctx): string => {
    const raw = asText(value, options.label, ctx);
    if (raw === z.NEVER) return z.NEVER;
    const text = raw.trim();
    if (text === '') return fail(ctx, options.blankMessage);
    return checkText(text, options, ctx);
  });
}

function checkText(text: string, options: TextFieldOptions, ctx: Ctx): string {
  const forbidden = findXmlForbidden(text);
  if (forbidden) {
    return fail(ctx, `${options.label} contains ${forbidden.description} at position ${forbidden.index + 1}; remove it and try again.`);
  }
  if (!options.multiline && /[\r\n]/.test(text)) {
    return fail(ctx, `${options.label} must be on one line.`);
  }
  const count = characterCount(text);
  if (count > options.max) {
    return fail(ctx, `${options.label} is ${count} characters long; the limit is ${options.max}.`);
  }
  return text;
}

// A plain decimal as people type it: optional sign, digits, optional point and decimals.
// No exponent, no comma, no hex, no Infinity/NaN.
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal number typed as text or given as a number; undefined when blank. */
export function readDecimal(value: unknown, label: string, example: string, ctx: Ctx): number | undefined | typeof z.NEVER {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(ctx, `${label} must be a number in decimal degrees, like ${example}.`);
    return value;
  }
  if (typeof value !== 'string') return fail(ctx, `${label} must be a number in decimal degrees, like ${example}.`);
  const text = value.trim();
  if (text === '') return undefined;
  if (/^[+-]?\d+,\d+$/.test(text)) {
    return fail(ctx, `${label} must use a point for decimals, like ${example} (not a comma).`);
  }
  if (!DECIMAL.test(text)) return fail(ctx, `${label} must be a number in decimal degrees, like ${example}.`);
  return Number(text);
}

export { fail as addIssue };
export type { Ctx as RefinementContext };
