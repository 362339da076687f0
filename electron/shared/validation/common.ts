// Building blocks shared by every input schema (site edit, EUS reprocess, profile): text that XML
// 1.0 can carry, trimmed fields with generous limits, numbers written the way a person types them.
// Every rejection is a sentence that names the field, so the UI, the CSV import and the CLI can show
// it unchanged. Nothing here knows the wire names of the spec.
import { z } from 'zod';
import type { InputIssue } from '../domain';
import type { Result } from '../result';

/** The one result shape (../result.ts), under the name the schemas use. */
export type ValidationResult<T> = Result<T>;

/** Longest accepted text per field, in characters (code points). Generous: the service publishes none. */
export const TEXT_LIMITS = {
  name: 200,
  description: 2000,
  group: 100,
  siteId: 64,
  processId: 200,
  multiMapId: 20,
} as const;

/** Tallest tower we accept, in meters; anything above is almost certainly feet or a typo. */
export const MAX_HEIGHT_M = 1000;

/** Decimals kept in a coordinate (about 1 cm); more are rounded, never rejected. */
export const COORDINATE_DECIMALS = 7;

// XML 1.0 `Char`: no C0 control except tab, LF, CR; no U+FFFE/U+FFFF; no unpaired surrogate.
// Deliberately without the `u` flag, so the regex sees UTF-16 code units and can spot lone surrogates.
const XML_FORBIDDEN_UNITS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character XML 1.0 cannot carry, described for a message, or null when there is none. */
export function findXmlForbidden(text: string): { index: number; description: string } | null {
  const match = XML_FORBIDDEN_UNITS.exec(text);
  if (!match) return null;
  const unit = match[0].charCodeAt(0);
  const hex = unit.toString(16).toUpperCase().padStart(4, '0');
  const description =
    unit >= 0xd800 && unit <= 0xdfff
      ? `a broken character (unpaired surrogate U+${hex})`
      : unit === 0xfffe || unit === 0xffff
        ? `the non-character U+${hex}`
        : `an invisible control character (U+${hex})`;
  return { index: match.index, description };
}

/** Whether a text can be sent at all (XML 1.0 characters only). */
export function isXmlSafe(text: string): boolean {
  return !XML_FORBIDDEN_UNITS.test(text);
}

/** Length in characters as a person counts them (code points, so an emoji counts once). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

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

const LABELS: Record<string, string> = {
  siteId: 'Site ID',
  name: 'Site name',
  height: 'Height',
  latitude: 'Latitude',
  longitude: 'Longitude',
  description: 'Description',
  group: 'Group',
  pinStyle: 'Pin style',
  processId: 'Process ID',
  multiMapId: 'Multi Map ID',
  sendEmail: 'Send email',
};

/** The field's name as the UI shows it. */
export function labelFor(field: string): string {
  return LABELS[field] ?? field;
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

/** Rounds to COORDINATE_DECIMALS, the precision that is sent. */
export function roundCoordinate(n: number): number {
  const rounded = Number(n.toFixed(COORDINATE_DECIMALS));
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * A coordinate as the wire carries it: plain decimal, never an exponent, at most 7 decimals, no
 * trailing zeros ("45.5", "-93", "0.0000001").
 */
export function formatCoordinate(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite coordinate: ${n}`);
  // toFixed never switches to exponent notation below 1e21, and coordinates are at most 180.
  let text = n.toFixed(COORDINATE_DECIMALS);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (text === '-0') text = '0';
  return text;
}

/** A boolean given as a checkbox value, "1"/"0", "true"/"false" or "yes"/"no"; undefined when blank. */
export function readBoolean(value: unknown): boolean | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : 'invalid';
  if (typeof value !== 'string') return 'invalid';
  const text = value.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === '1' || text === 'true' || text === 'yes' || text === 'y') return true;
  if (text === '0' || text === 'false' || text === 'no' || text === 'n') return false;
  return 'invalid';
}

export { fail as addIssue };
export type { Ctx as RefinementContext };
