// What the renderer may send: one zod schema per input, so both hosts validate every call at the
// boundary the same way before anything reaches the core. Limits here are the transport's (how much
// text a field may carry at all); the domain's rules are in ../validation.
import { z } from 'zod';
import { BINDINGS, GPS_SOURCE_KINDS, HEIGHT_UNITS, THEMES } from '../domain';
import { GATE_RANGE } from '../gps/gate';

/** Largest file accepted for bulk work (base64, where a call carries it, makes the request a third larger). */
export const MAX_BULK_FILE_BYTES = 64 * 1024 * 1024;

// ---------- inputs ----------

const text = z.string().max(10_000);
const optText = text.optional();
const numberish = z.union([z.string().max(100), z.number()]);

export const siteInputSchema = z.object({
  localId: optText,
  siteId: optText,
  name: optText,
  height: numberish.optional(),
  latitude: numberish.optional(),
  longitude: numberish.optional(),
  description: optText,
  group: optText,
  pinStyle: z.union([z.string().max(10), z.number(), z.null()]).optional(),
  /** How a receiver measured the position: checked by the site schema (../validation/measurement.ts). */
  measurement: z.unknown().optional(),
});
export type SiteInput = z.infer<typeof siteInputSchema>;

export const reprocessInputSchema = z.object({
  processId: optText,
  multiMapId: numberish.optional(),
  sendEmail: z.union([z.boolean(), z.string().max(10)]).optional(),
  /** The user confirmed emailing a submission that was emailed (or is queued to be) in the last 24 h. */
  force: z.boolean().optional(),
});
export type ReprocessInput = z.infer<typeof reprocessInputSchema>;

export const profileInputSchema = z.object({
  id: optText,
  name: text,
  baseUrl: text,
  servicePath: optText,
  namespace: optText,
  binding: z.enum(BINDINGS).optional(),
  account: text,
  /** Send a call that ASP.NET would refuse over HTTP GET/POST over SOAP 1.1 (or POST) instead (default true). */
  bindingFallback: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

export const connectionTestOptionsSchema = z.object({
  /** Also call GetRenderingQualityList over each of the other three bindings (up to 3 more API calls). */
  everyBinding: z.boolean().optional(),
});
export type ConnectionTestOptions = z.infer<typeof connectionTestOptionsSchema>;

export const settingsPatchSchema = z.object({
  tileUrl: text.optional(),
  tileAttribution: text.optional(),
  syncConcurrency: z.number().int().min(1).max(16).optional(),
  heightUnit: z.enum(HEIGHT_UNITS).optional(),
  theme: z.enum(THEMES).optional(),
  gpsSource: z.enum(GPS_SOURCE_KINDS).optional(),
  gpsHost: z.string().max(253).optional(),
  gpsPort: z.number().int().min(1).max(65535).optional(),
  /** One profile's accuracy gate in metres; null puts it back to the default. */
  gpsGate: z.object({ profileId: z.string().min(1).max(200), meters: z.number().finite().min(GATE_RANGE.min).max(GATE_RANGE.max).nullable() }).optional(),
  /** Once answered, the welcome stays answered: it cannot be un-answered. */
  welcomed: z.literal(true).optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const bulkFileSchema = z.union([
  z.object({
    name: z.string().max(500),
    /** The file's bytes, base64 (a JSON call: the CLI's tests, scripts). */
    base64: z.string().max(Math.ceil((MAX_BULK_FILE_BYTES * 4) / 3) + 4),
  }),
  z.object({
    name: z.string().max(500),
    /** The file's bytes as they are (Electron's IPC carries them without base64). */
    bytes: z.instanceof(Uint8Array).refine((bytes) => bytes.length <= MAX_BULK_FILE_BYTES, { message: 'the file is larger than the limit' }),
  }),
]);

/**
 * What the page hands its bridge: the chosen file itself. The browser host's bridge sends it as the
 * raw request body (streamed, never base64), Electron's as bytes; the host never sees this shape.
 */
export interface ChosenFile {
  name: string;
  file: { readonly size: number; arrayBuffer(): Promise<ArrayBuffer> };
}

const cellText = z.string().max(1000);
export const importOptionsSchema = z.object({
  /** Column (header text, or "#3") → field name or "ignore". */
  mapping: z.record(z.string().max(500), z.string().max(50)).optional(),
  /** Values for blank cells. */
  defaults: z
    .object({ height: cellText, heightFeet: cellText, name: cellText, description: cellText, group: cellText, pinStyle: cellText })
    .partial()
    .optional(),
  delimiter: z.enum(['comma', 'semicolon', 'tab', 'pipe']).optional(),
  format: z.enum(['csv', 'kml', 'kmz', 'geojson']).optional(),
  /** Queue the valid rows even when some are invalid (default: refuse the file). */
  skipInvalid: z.boolean().optional(),
});
export type ImportOptionsInput = z.infer<typeof importOptionsSchema>;

export const reprocessFileOptionsSchema = z.object({
  multiMapId: z.string().max(100),
  sendEmail: z.boolean(),
  /** column=value filters, all must match (case-insensitive, * matches any text). */
  filters: z.array(z.object({ column: z.string().max(500), value: z.string().max(500) })).max(20).optional(),
  /** Only these rows (of the filtered ones): the user's selection. */
  selectedRows: z.array(z.number().int().min(0)).max(1_000_000).optional(),
  /** Rows a person ticked to email again although the submission was emailed (or is queued to be) in the last 24 h. */
  emailAgainRows: z.array(z.number().int().min(0)).max(1_000_000).optional(),
  /** Only submissions at most this many kilometers from their nearest site (the file needs positions). */
  withinKm: z.number().min(0).max(20_000).optional(),
  skipInvalid: z.boolean().optional(),
});
export type ReprocessFileOptions = z.infer<typeof reprocessFileOptionsSchema>;
