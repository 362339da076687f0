// The one schema for a site create or edit, used by the form, the CSV import, the CLI and the service
// client (which checks again before sending). Output is a SiteEdit the wire layer can send as is:
// trimmed text, whole-meter height, coordinates rounded to 7 decimals, blanks as undefined.
// Rule: a new site (no siteId) needs both coordinates; an edit takes both or neither.
import { z } from 'zod';
import { assignDefined, SITE_FIELDS, type PinStyle, type SiteEdit } from '../domain';
import { measurementSchema, type SiteMeasurement } from './measurement';
import {
  MAX_HEIGHT_M,
  TEXT_LIMITS,
  addIssue,
  optionalText,
  readDecimal,
  roundCoordinate,
  runSchema,
  type RefinementContext,
  type ValidationResult,
} from './common';

export interface SiteEditInput {
  siteId?: string;
  name?: string;
  height?: string | number;
  latitude?: string | number;
  longitude?: string | number;
  description?: string;
  group?: string;
  pinStyle?: string | number | null;
  /** How a receiver measured the position (../validation/measurement.ts); never sent to the service. */
  measurement?: unknown;
}

// What the form, the import and the CLI accept (their reader, height.ts, turns "30.6" and "98 ft"
// into whole meters before this schema sees them): said so, not the whole meters the wire takes.
const HEIGHT_HINT = 'Height must be a number of meters, like 30, or of feet, like 98 ft.';
const HEIGHT_NEGATIVE = 'Height cannot be negative: enter the tower height, like 30 (meters) or 98 ft.';

const height = z.unknown().transform((value, ctx): number => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return addIssue(ctx, 'Height is required: enter the tower height in meters, like 30, or in feet, like 98 ft.');
  }
  let meters: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || !Number.isInteger(value)) return addIssue(ctx, HEIGHT_HINT);
    meters = value;
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (/^-\d+$/.test(text)) return addIssue(ctx, HEIGHT_NEGATIVE);
    // ASCII digits only: "30.5", "30m", "3e1", "0x1E", "+30" and "٣٠" are all refused.
    if (!/^\d+$/.test(text)) return addIssue(ctx, HEIGHT_HINT);
    meters = Number(text);
  } else {
    return addIssue(ctx, HEIGHT_HINT);
  }
  if (meters < 0) return addIssue(ctx, HEIGHT_NEGATIVE);
  if (meters > MAX_HEIGHT_M) {
    return addIssue(ctx, `Height of ${meters} m is more than ${MAX_HEIGHT_M} m; enter the tower height in meters (not feet or centimeters), like 30.`);
  }
  return meters;
});

function coordinate(label: string, limit: number, example: string) {
  return z.unknown().transform((value, ctx: RefinementContext): number | undefined => {
    const n = readDecimal(value, label, example, ctx);
    if (n === z.NEVER || n === undefined) return n;
    const rounded = roundCoordinate(n);
    if (rounded < -limit || rounded > limit) {
      return addIssue(ctx, `${label} must be between -${limit} and ${limit} degrees; ${formatForMessage(n)} is outside.`);
    }
    return rounded;
  }).optional();
}

function formatForMessage(n: number): string {
  return Math.abs(n) < 1e15 ? String(n) : 'the value given';
}

const PIN_STYLE_NAMES: Record<string, PinStyle> = { red: 1, blue: 2, orange: 3, green: 4 };
const PIN_STYLE_HINT = 'Pin style must be 1 (red), 2 (blue), 3 (orange) or 4 (green), or blank for the default (red).';

const pinStyle = z.unknown().transform((value, ctx): PinStyle | undefined => {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'number') text = String(value);
  else if (typeof value === 'string') text = value.trim().toLowerCase();
  else return addIssue(ctx, PIN_STYLE_HINT);
  // Blank → undefined: the wire sends '' and the service applies its default (1).
  if (text === '') return undefined;
  if (text === '1' || text === '2' || text === '3' || text === '4') return Number(text) as PinStyle;
  const named = PIN_STYLE_NAMES[text];
  if (named) return named;
  return addIssue(ctx, PIN_STYLE_HINT);
}).optional();

// A measurement that is not one is refused with a sentence, not dropped: it says how the tower was placed.
const measurementInput = z.unknown().transform((value, ctx): SiteMeasurement | undefined => {
  if (value === undefined || value === null) return undefined;
  const parsed = measurementSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues[0]?.path.join('.') ?? '';
  return addIssue(ctx, `The position's measurement is not readable${where ? ` (${where})` : ''}: place the site again from My location, or remove the measurement.`);
}).optional();

const siteFields = z.object({
  siteId: optionalText({ label: 'Site ID', max: TEXT_LIMITS.siteId }),
  name: optionalText({ label: 'Site name', max: TEXT_LIMITS.name }),
  height,
  latitude: coordinate('Latitude', 90, '45.123456'),
  longitude: coordinate('Longitude', 180, '-93.123456'),
  description: optionalText({ label: 'Description', max: TEXT_LIMITS.description, multiline: true }),
  group: optionalText({ label: 'Group', max: TEXT_LIMITS.group }),
  pinStyle,
  measurement: measurementInput,
});

const POSITION_FIELDS = new Set(['siteId', 'latitude', 'longitude']);

/** Site create or edit: SiteEditInput in, SiteEdit out. */
export const siteEditSchema = siteFields
  .superRefine((site, ctx) => {
    const hasLat = site.latitude !== undefined;
    const hasLon = site.longitude !== undefined;
    if (site.siteId === undefined) {
      if (!hasLat) ctx.addIssue({ code: 'custom', path: ['latitude'], message: 'A new site needs a latitude, like 45.123456.' });
      if (!hasLon) ctx.addIssue({ code: 'custom', path: ['longitude'], message: 'A new site needs a longitude, like -93.123456.' });
    } else if (hasLat !== hasLon) {
      const missing = hasLat ? 'longitude' : 'latitude';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'Give both latitude and longitude to move the site, or leave both blank to keep its position.',
      });
    }
  }, {
    // Run the position rules even when other fields failed (a CSV row should show every problem at
    // once), but not when a field they read is itself broken: its value is then meaningless.
    when: (payload) =>
      typeof payload.value === 'object' &&
      payload.value !== null &&
      !payload.issues.some((issue) => (issue.path ?? []).length === 0 || POSITION_FIELDS.has(String(issue.path?.[0]))),
  })
  // Only the fields given: an absent field means "unchanged", never "blank".
  .transform((site): SiteEdit => assignDefined<SiteEdit, keyof SiteEdit>({ height: site.height }, site, ['siteId', ...SITE_FIELDS, 'measurement']));

/** Validates a site create/edit. Never throws; issues name the field and say what to type. */
export function parseSiteEdit(input: SiteEditInput): ValidationResult<SiteEdit> {
  return runSchema(siteEditSchema, input);
}
